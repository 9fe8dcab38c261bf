package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.DataBlock;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import me.lemire.integercompression.BitPacking;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Where the time of {@code BitpackBenchmark.oursPack} goes: the mini-block compressor split into
 * its parts, beside {@code fastpack}. It sits in the codec's package (bench runs on the class
 * path) because the per-chunk {@code pack} it calls apart from the compressor is package-private.
 * Seeded random values of width {@code w}; 1,048,576 values per operation in pages of
 * {@code page} values. Run with JMH or, on a busy machine, through {@link PackAb}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PackProbe {
  static final int N = 1 << 20;

  @Param({"25"})
  public int w;

  @Param({"1048576", "16384"})
  public int page;

  int[] values;
  byte[] raw;
  int[] fastPacked;
  byte[] reused;
  byte[] scratch;
  int[] widths;
  DataBlock.FixedWidth block;
  InlineBitpackingCodec.Compressor compressor;

  @Setup
  public void setup() {
    values = new int[page];
    Random rnd = new Random(42);
    for (int i = 0; i < page; i++) {
      values[i] = rnd.nextInt() & ((1 << w) - 1);
    }
    raw = new byte[page * 4];
    ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(values);
    block = new DataBlock.FixedWidth(raw, 32, page);
    widths = InlineBitpackingCodec.groupWidths(block);
    compressor = new InlineBitpackingCodec.Compressor(false, block, widths);
    fastPacked = new int[page / 32 * w];
    reused = new byte[page / 1024 * InlineBitpackingCodec.chunkBytes(32, w)];
    scratch = new byte[reused.length];
  }

  /** The compressor as the writer calls it (the widths the proposal measured). */
  @Benchmark
  @OperationsPerInvocation(N)
  public Object full() {
    Object last = null;
    for (int rep = 0; rep < N / page; rep++) {
      last = compressor.compress(block);
    }
    return last;
  }

  /** Headers and kernels alone, into one output array reused for every page. */
  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] kernelReused() {
    for (int rep = 0; rep < N / page; rep++) {
      packAll(reused);
    }
    return reused;
  }

  /** Headers and kernels into a new page array each time: {@link #full} without the chunk list. */
  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] kernelFresh() {
    byte[] out = null;
    for (int rep = 0; rep < N / page; rep++) {
      out = new byte[reused.length];
      packAll(out);
    }
    return out;
  }

  /**
   * Packing into a reused array, then {@code Arrays.copyOf} to the page the caller keeps (whose
   * copied part the JIT does not zero first): each byte of the new array written once.
   */
  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] scratchCopy() {
    byte[] out = null;
    for (int rep = 0; rep < N / page; rep++) {
      out = Arrays.copyOf(scratch, packAll(scratch));
    }
    return out;
  }

  /** The allocation (and zeroing) of the page arrays alone. */
  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] allocOnly() {
    byte[] last = null;
    for (int rep = 0; rep < N / page; rep++) {
      last = new byte[reused.length];
    }
    return last;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public int[] fastpack() {
    for (int rep = 0; rep < N / page; rep++) {
      for (int b = 0; b < page / 32; b++) {
        BitPacking.fastpack(values, b * 32, fastPacked, b * w, w);
      }
    }
    return fastPacked;
  }

  private int packAll(byte[] out) {
    int pos = 0;
    for (int k = 0; k < widths.length; k++) {
      pos += InlineBitpackingCodec.pack(raw, 32, k * 1024, 1024, widths[k], out, pos);
    }
    return pos;
  }
}
