package io.lancecodec.bench.pcodec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import io.lancecodec.bench.corpus.Corpus;
import io.lancecodec.codec.pcodec.Pco;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * codec-pcodec (pco 1.0 standalone files) against zstd-jni on the same numbers as raw
 * little-endian bytes, 2^20 numbers per data set ({@link #dataset}):
 *
 * <ul>
 *   <li>{@code pcoDecode}: {@code Pco.decompressXInto} of the file into a reused array;
 *   <li>{@code pcoEncode}: {@code Pco.compressX} at level 8 (pco's default);
 *   <li>{@code zstdDecompress}: zstd-jni decompressing the raw bytes' level-3 frame into a reused
 *       {@code byte[]}, the decode target;
 *   <li>{@code zstdCompress}: zstd-jni level 3 of the raw bytes into a reused buffer;
 *   <li>{@code arraycopy}: {@code System.arraycopy} of the raw bytes, the memory ceiling.
 * </ul>
 *
 * The {@code bytes} secondary score counts raw (uncompressed) bytes per second and {@code numbers}
 * numbers per second, the same for every method, so MB/s of output compare directly. The setup
 * prints the compressed bytes per number of pco and zstd, and the mode and delta encoding pco
 * chose for the first chunk. Data come from {@code -Dbench.data} (default {@code /work/shared/data}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PcodecBenchmark {
  /** Numbers per data set: four pco chunks of 2^18. */
  static final int N = 1 << 20;

  /**
   * <ul>
   *   <li>{@code temps-f64}: the {@code temperature} column of vega's
   *       {@code seattle-weather-hourly-normals.csv} (8,759 hourly values, one decimal) year after
   *       year to 2^20, plus a seeded anomaly, rounded to one decimal ({@link #temperatures});
   *   <li>{@code gauss-f32}: {@code java.util.Random(42).nextGaussian()} as f32 (embeddings-like);
   *   <li>{@code tokens-i32} and {@code tokens-i64}: the first 2^20 cl100k token ids of
   *       {@code tokens/tokens-cl100k-2048.u32};
   *   <li>{@code timestamps-i64}: the {@code date} column of {@code flights-3m.parquet} (int64
   *       microseconds), sorted, its first 2^20.
   * </ul>
   */
  @Param({"temps-f64", "gauss-f32", "tokens-i32", "tokens-i64", "timestamps-i64"})
  public String dataset;

  private double[] f64;
  private float[] f32;
  private int[] i32;
  private long[] i64;
  private int width;
  private byte[] raw;
  private byte[] rawOut;
  private byte[] pco;
  private byte[] zstdFrame;
  private byte[] zstdOut;
  private final ZstdDecompressCtx zstdD = new ZstdDecompressCtx();
  private final ZstdCompressCtx zstdC = new ZstdCompressCtx();

  /** Raw bytes and numbers per second, beside the operations. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Counters {
    public long bytes;
    public long numbers;
  }

  @Setup(Level.Trial)
  public void setup() throws IOException {
    Path data = Corpus.dataDir();
    ByteBuffer b;
    switch (dataset) {
      case "temps-f64": {
        f64 = temperatures(data);
        width = 8;
        b = ByteBuffer.allocate(N * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(f64);
        break;
      }
      case "gauss-f32":
        f32 = Corpus.gaussian(N / Corpus.VECTOR_DIM + 1, Corpus.VECTOR_DIM);
        f32 = Arrays.copyOf(f32, N);
        width = 4;
        b = ByteBuffer.allocate(N * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(f32);
        break;
      case "tokens-i32":
        i32 = tokens(data);
        width = 4;
        b = ByteBuffer.allocate(N * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asIntBuffer().put(i32);
        break;
      case "tokens-i64": {
        int[] t = tokens(data);
        i64 = new long[N];
        for (int i = 0; i < N; i++) {
          i64[i] = t[i];
        }
        width = 8;
        b = ByteBuffer.allocate(N * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asLongBuffer().put(i64);
        break;
      }
      case "timestamps-i64": {
        long[] all = io.lancecodec.bench.sizes.Corpus.Flights3m.dates(data.resolve("vega-datasets/flights-3m.parquet"));
        Arrays.sort(all);
        if (all.length < N) {
          throw new IllegalStateException("flights-3m.parquet: only " + all.length + " dates");
        }
        i64 = Arrays.copyOf(all, N);
        width = 8;
        b = ByteBuffer.allocate(N * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asLongBuffer().put(i64);
        break;
      }
      default:
        throw new IllegalArgumentException(dataset);
    }
    raw = b.array();
    rawOut = new byte[raw.length];
    zstdOut = new byte[raw.length];
    zstdFrame = Zstd.compress(raw, 3);
    zstdC.setLevel(3);
    pco = encode();
    check();
    System.out.printf(Locale.ROOT,
        "%n%s: %d numbers, %d raw bytes; pco %d bytes (%.3f B/number, %s), zstd-3 %d bytes (%.3f B/number)%n",
        dataset, N, raw.length, pco.length, (double) pco.length / N, describe(pco), zstdFrame.length,
        (double) zstdFrame.length / N);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    zstdD.close();
    zstdC.close();
  }

  private static int[] tokens(Path data) throws IOException {
    int[] t = Corpus.tokenIds(Corpus.tokenFile(data), N);
    if (t.length < N) {
      throw new IllegalStateException("token file: only " + t.length + " ids");
    }
    return t;
  }

  /**
   * The hourly normals, year after year, plus a weather anomaly: a seeded random walk in steps of
   * 0.1 degrees (one step per hour, pulled back towards 0), each value rounded to one decimal as a
   * CSV would hold it. The normals repeated as they are would be one 70 KB pattern that zstd
   * matches end to end (0.014 B/number) and no sensor produces.
   */
  static double[] temperatures(Path data) throws IOException {
    double[] normals = csvDoubles(data.resolve("vega-datasets/seattle-weather-hourly-normals.csv"), "temperature");
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
    double[] v = new double[N];
    long anomaly = 0;
    for (int i = 0; i < N; i++) {
      anomaly += rnd.nextInt(-1, 2) - Long.signum(anomaly) * (rnd.nextInt(64) == 0 ? 1 : 0);
      v[i] = Math.round(normals[i % normals.length] * 10 + anomaly) / 10.0;
    }
    return v;
  }

  /** One numeric column of a CSV file with a header line, empty cells dropped. */
  static double[] csvDoubles(Path file, String column) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    int c = Arrays.asList(lines.get(0).split(",")).indexOf(column);
    return lines.subList(1, lines.size()).stream()
        .map(l -> l.split(",", -1))
        .filter(f -> f.length > c && !f[c].isEmpty())
        .mapToDouble(f -> Double.parseDouble(f[c]))
        .toArray();
  }

  /** The first chunk's mode and delta encoding, read from its metadata (pco's format.md). */
  static String describe(byte[] file) {
    // magic(4) standalone version(1) uniform type(1), then the n hint: 6 bits of (power - 1) and
    // `power` bits, padded to a byte; format version (2); chunk type byte; n - 1 in 24 bits.
    int power = 1 + (file[6] & 0x3F);
    int typeAt = 6 + (6 + power + 7) / 8 + 2;
    int[] widths = {0, 32, 64, 32, 64, 32, 64, 16, 16, 16, 8, 8};
    int bits = widths[file[typeAt]];
    long pos = 8L * (typeAt + 4);
    int mode = (int) bitsAt(file, pos, 4);
    pos += 4;
    if (mode == 1 || mode == 2) {
      pos += bits;
    } else if (mode == 3) {
      pos += 8;
    } else if (mode == 4) {
      long len = bitsAt(file, pos, 25);
      pos = (pos + 25 + 7) / 8 * 8 + len * bits;
    }
    int delta = (int) bitsAt(file, pos, 4);
    String[] modes = {"classic", "int-mult", "float-mult", "float-quant", "dict"};
    String[] deltas = {"no delta", "consecutive delta", "lookback delta", "conv1 delta"};
    String d = delta < deltas.length ? deltas[delta] : "delta " + delta;
    if (delta == 1) {
      d += " order " + bitsAt(file, pos + 4, 3);
    }
    return (mode < modes.length ? modes[mode] : "mode " + mode) + ", " + d;
  }

  /** {@code n <= 32} bits at bit position {@code pos}, little-endian. */
  private static long bitsAt(byte[] b, long pos, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      long p = pos + i;
      v |= (long) ((b[(int) (p >>> 3)] >>> (p & 7)) & 1) << i;
    }
    return v;
  }

  private byte[] encode() {
    switch (dataset) {
      case "temps-f64":
        return Pco.compressF64(f64, 0, N, Pco.DEFAULT_LEVEL);
      case "gauss-f32":
        return Pco.compressF32(f32, 0, N, Pco.DEFAULT_LEVEL);
      case "tokens-i32":
        return Pco.compressI32(i32, 0, N, Pco.DEFAULT_LEVEL);
      default:
        return Pco.compressI64(i64, 0, N, Pco.DEFAULT_LEVEL);
    }
  }

  /** Decodes into fresh arrays once and compares with the source, bit for bit. */
  private void check() {
    boolean ok;
    if (f64 != null) {
      double[] d = new double[N];
      Pco.decompressF64Into(pco, 0, pco.length, d, 0, N);
      ok = Arrays.equals(d, f64);
    } else if (f32 != null) {
      float[] d = new float[N];
      Pco.decompressF32Into(pco, 0, pco.length, d, 0, N);
      ok = Arrays.equals(d, f32);
    } else if (i32 != null) {
      int[] d = new int[N];
      Pco.decompressI32Into(pco, 0, pco.length, d, 0, N);
      ok = Arrays.equals(d, i32);
    } else {
      long[] d = new long[N];
      Pco.decompressI64Into(pco, 0, pco.length, d, 0, N);
      ok = Arrays.equals(d, i64);
    }
    zstdD.decompressByteArray(zstdOut, 0, zstdOut.length, zstdFrame, 0, zstdFrame.length);
    if (!ok || !Arrays.equals(zstdOut, raw)) {
      throw new IllegalStateException(dataset + ": a decoder disagrees with the source");
    }
  }

  private void count(Counters c) {
    c.bytes += raw.length;
    c.numbers += N;
  }

  @Benchmark
  public Object pcoDecode(Counters c) {
    count(c);
    if (f64 != null) {
      Pco.decompressF64Into(pco, 0, pco.length, f64Out(), 0, N);
      return f64Out;
    } else if (f32 != null) {
      Pco.decompressF32Into(pco, 0, pco.length, f32Out(), 0, N);
      return f32Out;
    } else if (i32 != null) {
      Pco.decompressI32Into(pco, 0, pco.length, i32Out(), 0, N);
      return i32Out;
    }
    Pco.decompressI64Into(pco, 0, pco.length, i64Out(), 0, N);
    return i64Out;
  }

  @Benchmark
  public byte[] pcoEncode(Counters c) {
    count(c);
    return encode();
  }

  @Benchmark
  public byte[] zstdDecompress(Counters c) {
    count(c);
    zstdD.decompressByteArray(zstdOut, 0, zstdOut.length, zstdFrame, 0, zstdFrame.length);
    return zstdOut;
  }

  @Benchmark
  public long zstdCompress(Counters c) {
    count(c);
    return zstdC.compressByteArray(zstdCompressOut(), 0, zstdCompressOut.length, raw, 0, raw.length);
  }

  @Benchmark
  public byte[] arraycopy(Counters c) {
    count(c);
    System.arraycopy(raw, 0, rawOut, 0, raw.length);
    return rawOut;
  }

  // Output arrays, made on first use so each method only holds what it needs.
  private double[] f64Out;
  private float[] f32Out;
  private int[] i32Out;
  private long[] i64Out;
  private byte[] zstdCompressOut;

  private double[] f64Out() {
    return f64Out != null ? f64Out : (f64Out = new double[N]);
  }

  private float[] f32Out() {
    return f32Out != null ? f32Out : (f32Out = new float[N]);
  }

  private int[] i32Out() {
    return i32Out != null ? i32Out : (i32Out = new int[N]);
  }

  private long[] i64Out() {
    return i64Out != null ? i64Out : (i64Out = new long[N]);
  }

  private byte[] zstdCompressOut() {
    return zstdCompressOut != null ? zstdCompressOut : (zstdCompressOut = new byte[(int) Zstd.compressBound(raw.length)]);
  }
}
