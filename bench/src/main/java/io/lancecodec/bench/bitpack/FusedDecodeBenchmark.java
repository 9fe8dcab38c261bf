package io.lancecodec.bench.bitpack;

import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 18's fused decodes against the compositions they would replace, in one run: 2.3 block
 * Delta over a bit-packed u32 or u64 leaf (sorted ids or timestamps whose steps are {@code width} bits),
 * and the 2.3 block Dictionary whose u32 indices are {@code width} bits wide gathered into u32
 * values. The blocks are what codec-bitpack's own planner writes for the data (it picks the leaf:
 * out-of-line packing for steps of one width, inline when groups differ), decoded
 * {@code page} values at a time until 1,048,576 values are done; each page is a new output array,
 * as {@code BlockDecompressor.decompress} returns one.
 *
 * <ul>
 *   <li>{@code composition}: the registry's decoder ({@code Delta23} / {@code Dictionary23})
 *       opened with {@code lance.codec.fused=false}: the leaf unpacked into a whole-block byte
 *       array, then a checked prefix-sum or gather pass;
 *   <li>{@code fused}: the same decoder opened with the fused kernels on (the default): for delta,
 *       codec-bitpack's {@code Fused23}, kernels written per width at run time. The dictionary's
 *       generated gather (git 8d75424) measured 1.0-1.3x and was dropped, so for {@code dict}
 *       this arm runs the composition too;
 *   <li>{@code fusedProto}: a hand-written prototype of the fused kernel (runtime shifts, where a
 *       generated one would have constants): rows of each FastLanes group visited in logical
 *       order, 32 values a row, each value extracted from the packed words and summed or gathered
 *       on the spot into the output; no intermediate array. It decodes exactly the u32 payloads the
 *       planner writes here and is checked against the composition in setup (u32 only).
 * </ul>
 *
 * Score: values per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class FusedDecodeBenchmark {
  static final int N = 1 << 20;
  static final VarHandle L = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle I = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  /** {@code delta} or {@code dict}. */
  @Param({"delta", "dict"})
  public String kind;

  /** Bit width of the deltas or of the dictionary indices. */
  @Param({"1", "4", "8"})
  public int width;

  /** Values a block: one mini-block chunk's worth, or a 64 KiB page of u32. */
  @Param({"1024", "16384"})
  public int page;

  /** Value width: 32, or 64 for delta (timestamps: a base near 2026 in nanoseconds). */
  @Param({"32"})
  public int bits = 32;

  byte[][] payloads;
  BlockDecompressor decoder;
  BlockDecompressor fusedDecoder;
  CompressiveEncoding encoding;

  @Setup
  public void setup() {
    int pages = Math.min(16, N / page);
    payloads = new byte[pages][];
    Random rnd = new Random(42);
    CodecRegistry registry = CodecRegistry.discover();
    BitpackPlugin plugin = (BitpackPlugin) registry.codec("bitpack").orElseThrow();
    int items = Math.max(2, (3 << width) / 4);
    int[] dictionary = new int[items];
    for (int i = 0; i < items; i++) {
      dictionary[i] = rnd.nextInt();
    }
    CompressiveEncoding first = null;
    for (int p = 0; p < pages; p++) {
      byte[] raw = new byte[page * bits / 8];
      if (kind.equals("delta") && bits == 64) {
        long acc = 1_780_000_000_000_000_000L + rnd.nextInt(1 << 20);
        for (int i = 0; i < page; i++) {
          L.set(raw, 8 * i, acc);
          acc += rnd.nextInt(1 << width);
        }
      } else if (bits == 64) {
        throw new IllegalArgumentException("64-bit values for delta only");
      } else if (kind.equals("delta")) {
        long acc = rnd.nextInt(1 << 20);
        for (int i = 0; i < page; i++) {
          I.set(raw, 4 * i, (int) acc);
          acc += rnd.nextInt(1 << width);
        }
      } else {
        for (int i = 0; i < page; i++) {
          // every item used, so each page's dictionary is the same size
          I.set(raw, 4 * i, dictionary[i < items ? i : rnd.nextInt(items)]);
        }
      }
      DataBlock.FixedWidth block = new DataBlock.FixedWidth(raw, bits, page);
      Encoded<byte[]> e = plugin.proposeBlock(block, registry.proposalContext(plugin, block, FieldOptions.DEFAULT, FileVersion.V2_3))
          .orElseThrow().result();
      CompressiveEncoding enc = (CompressiveEncoding) e.encoding();
      boolean ok = kind.equals("delta") ? enc.hasDelta() : enc.hasDictionary();
      if (!ok || (first != null && !shape(first).equals(shape(enc)))) {
        throw new IllegalStateException("planner chose " + enc + " for page " + p);
      }
      first = first == null ? enc : first;
      payloads[p] = e.data();
      Decoders decoders = registry.decoders();
      byte[] want = ((DataBlock.FixedWidth) decoders.block(enc).decompress(e.data(), page)).data();
      if (!Arrays.equals(raw, want) || (bits == 32 && !Arrays.equals(raw, proto(enc, e.data(), page, decoders)))) {
        throw new IllegalStateException("decoders disagree on page " + p);
      }
    }
    encoding = first;
    String was = System.getProperty("lance.codec.fused");
    System.setProperty("lance.codec.fused", "false");
    decoder = registry.decoders().block(encoding);
    System.clearProperty("lance.codec.fused");
    fusedDecoder = registry.decoders().block(encoding);
    if (was != null) {
      System.setProperty("lance.codec.fused", was);
    }
    for (byte[] payload : payloads) {
      if (!Arrays.equals(((DataBlock.FixedWidth) decoder.decompress(payload, page)).data(),
          ((DataBlock.FixedWidth) fusedDecoder.decompress(payload, page)).data())) {
        throw new IllegalStateException("fused and composition disagree");
      }
    }
    System.out.printf("%n[setup] %s u%d width %d page %d: %s, %.3f B/value%n", kind, bits, width, page, shape(encoding),
        payloads[0].length / (double) page);
  }

  /** The encoding with its per-page numbers (bases, item counts) left out. */
  private static String shape(CompressiveEncoding e) {
    return e.toString().replaceAll("(base|num_dictionary_items): \\d+", "$1: _").replaceAll("\\s+", " ");
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public long composition() {
    long h = 0;
    for (int done = 0, p = 0; done < N; done += page, p = (p + 1) % payloads.length) {
      byte[] out = ((DataBlock.FixedWidth) decoder.decompress(payloads[p], page)).data();
      h += out[out.length - 1];
    }
    return h;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public long fused() {
    long h = 0;
    for (int done = 0, p = 0; done < N; done += page, p = (p + 1) % payloads.length) {
      byte[] out = ((DataBlock.FixedWidth) fusedDecoder.decompress(payloads[p], page)).data();
      h += out[out.length - 1];
    }
    return h;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public long fusedProto() {
    Decoders decoders = null;
    long h = 0;
    for (int done = 0, p = 0; done < N; done += page, p = (p + 1) % payloads.length) {
      byte[] out = proto(encoding, payloads[p], page, decoders);
      h += out[out.length - 1];
    }
    return h;
  }

  // ---- the prototype: u32 FastLanes groups read row by row in logical order ----

  private BlockDecompressor itemDecoder;

  private byte[] proto(CompressiveEncoding enc, byte[] data, int n, Decoders decoders) {
    if (enc.hasDelta()) {
      byte[] out = new byte[4 * n];
      long acc = enc.getDelta().getBase();
      I.set(out, 0, (int) acc);
      acc = walk(enc.getDelta().getDeltas(), data, 0, data.length, n - 1, out, 4, acc, null, 0);
      if (acc > 0xFFFFFFFFL) {
        throw new IllegalStateException("overflow");
      }
      return out;
    }
    long lim1 = enc.getDictionary().getNumDictionaryItems() - 1;
    long a = (long) L.get(data, 0);
    if (decoders != null) {
      itemDecoder = decoders.block(enc.getDictionary().getItems());
    }
    // as the composition does: the items decoded for every block, from their own copy of the slice
    byte[] items = ((DataBlock.FixedWidth) itemDecoder.decompress(Arrays.copyOfRange(data, 16 + (int) a, data.length), lim1 + 1)).data();
    byte[] out = new byte[4 * n];
    if (walk(enc.getDictionary().getIndices(), data, 16, (int) a, n, out, 0, 0, items, lim1) < 0) {
      throw new IllegalStateException("index out of range");
    }
    return out;
  }

  /**
   * Each group of an inline or out-of-line u32 leaf in {@code data[off, off + len)}: summed onto
   * {@code acc} (items null) or gathered; returns the sum, or -1 for a gather out of range.
   */
  private static long walk(CompressiveEncoding leaf, byte[] s, int off, int len, int n, byte[] d, int dof, long acc,
      byte[] items, long lim1) {
    boolean inline = leaf.hasInlineBitpacking();
    int w = inline ? 0 : (int) leaf.getOutOfLineBitpacking().getValues().getFlat().getBitsPerValue();
    int pos = off;
    int end = off + len;
    for (int start = 0; start < n; start += 1024) {
      int count = Math.min(1024, n - start);
      if (inline) {
        w = (int) I.get(s, pos);
        pos += 4;
      }
      int o = dof + 4 * start;
      if (!inline && count < 1024 && end - pos == 4 * count) {
        for (int i = 0; i < count; i++) {
          long v = (int) I.get(s, pos + 4 * i) & 0xFFFFFFFFL;
          if (items == null) {
            acc += v;
            I.set(d, o + 4 * i, (int) acc);
          } else {
            if (v > lim1) {
              return -1;
            }
            I.set(d, o + 4 * i, (int) I.get(items, 4 * (int) v));
          }
        }
        pos += 4 * count;
        continue;
      }
      if (items == null) {
        acc = deltaGroup(s, pos, w, d, o, acc, count);
      } else if (gatherGroup(s, pos, w, items, d, o, lim1, count) < 0) {
        return -1;
      }
      pos += 128 * w;
    }
    return acc;
  }

  private static long rep(long m) {
    return m | m << 32;
  }

  private static long deltaGroup(byte[] s, int so, int w, byte[] d, int dof, long acc, int count) {
    int blocks = count >>> 5;
    if (w == 0) {
      for (int i = 0; i < count; i++) {
        I.set(d, dof + 4 * i, (int) acc);
      }
      return acc;
    }
    long mask = rep((1L << w) - 1);
    for (int b = 0; b < blocks; b++) {
      int row = 8 * ORDER[2 * (b & 3)] + (b >>> 2);
      int bp = row * w;
      int in = so + 128 * (bp >>> 5);
      int bit = bp & 31;
      int o = dof + 128 * b;
      if (bit + w <= 32) {
        for (int j = 0; j < 128; j += 8) {
          long x = ((long) L.get(s, in + j) >>> bit) & mask;
          // the pair's sum off the chain: one dependent add per two values
          long lo = acc + (x & 0xFFFFFFFFL);
          acc += (x & 0xFFFFFFFFL) + (x >>> 32);
          L.set(d, o + j, (lo & 0xFFFFFFFFL) | acc << 32);
        }
      } else {
        int low = 32 - bit;
        long lm = rep((1L << low) - 1);
        long hm = mask & ~lm;
        for (int j = 0; j < 128; j += 8) {
          long x = (((long) L.get(s, in + j) >>> bit) & lm) | (((long) L.get(s, in + 128 + j) << low) & hm);
          // the pair's sum off the chain: one dependent add per two values
          long lo = acc + (x & 0xFFFFFFFFL);
          acc += (x & 0xFFFFFFFFL) + (x >>> 32);
          L.set(d, o + j, (lo & 0xFFFFFFFFL) | acc << 32);
        }
      }
    }
    for (int i = 32 * blocks; i < count; i++) {
      acc += valueAt(s, so, w, i);
      I.set(d, dof + 4 * i, (int) acc);
    }
    return acc;
  }

  private static int gatherGroup(byte[] s, int so, int w, byte[] items, byte[] d, int dof, long lim1, int count) {
    int blocks = count >>> 5;
    long mask = rep(w == 32 ? 0xFFFFFFFFL : (1L << w) - 1);
    for (int b = 0; b < blocks; b++) {
      int row = 8 * ORDER[2 * (b & 3)] + (b >>> 2);
      int bp = row * w;
      int in = so + 128 * (bp >>> 5);
      int bit = bp & 31;
      int o = dof + 128 * b;
      if (bit + w <= 32) {
        for (int j = 0; j < 128; j += 8) {
          long x = ((long) L.get(s, in + j) >>> bit) & mask;
          long k0 = x & 0xFFFFFFFFL;
          long k1 = x >>> 32;
          if (k0 > lim1 | k1 > lim1) {
            return -1;
          }
          L.set(d, o + j, ((int) I.get(items, 4 * (int) k0) & 0xFFFFFFFFL) | (long) (int) I.get(items, 4 * (int) k1) << 32);
        }
      } else {
        int low = 32 - bit;
        long lm = rep((1L << low) - 1);
        long hm = mask & ~lm;
        for (int j = 0; j < 128; j += 8) {
          long x = (((long) L.get(s, in + j) >>> bit) & lm) | (((long) L.get(s, in + 128 + j) << low) & hm);
          long k0 = x & 0xFFFFFFFFL;
          long k1 = x >>> 32;
          if (k0 > lim1 | k1 > lim1) {
            return -1;
          }
          L.set(d, o + j, ((int) I.get(items, 4 * (int) k0) & 0xFFFFFFFFL) | (long) (int) I.get(items, 4 * (int) k1) << 32);
        }
      }
    }
    for (int i = 32 * blocks; i < count; i++) {
      long k = w == 0 ? 0 : valueAt(s, so, w, i);
      if (k > lim1) {
        return -1;
      }
      I.set(d, dof + 4 * i, (int) I.get(items, 4 * (int) k));
    }
    return 0;
  }

  /** Value i of a u32 FastLanes group of width w (0 < w). */
  private static long valueAt(byte[] s, int so, int w, int i) {
    int j = i & 127;
    int t = j >>> 5;
    int row = ORDER[2 * t] * 8 + (i >>> 7);
    int lane = j & 31;
    int bp = row * w;
    int word = bp >>> 5;
    int bit = bp & 31;
    long v = ((int) I.get(s, so + 4 * (32 * word + lane)) & 0xFFFFFFFFL) >>> bit;
    if (bit + w > 32) {
      v |= ((int) I.get(s, so + 4 * (32 * (word + 1) + lane)) & 0xFFFFFFFFL) << (32 - bit);
    }
    return v & ((1L << w) - 1);
  }
}
