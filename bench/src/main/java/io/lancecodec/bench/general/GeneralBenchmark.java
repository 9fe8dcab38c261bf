package io.lancecodec.bench.general;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v21.CompressionScheme;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.format.pb.v21.General;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.MiniBlockBuffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
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
 * codec-general's decompression path (the registry opening {@code general{scheme, flat{64}}}
 * and decoding one mini-block chunk or one block) against calling zstd-jni / lz4-java directly
 * on the same framed buffers. The target is at most 10% overhead: length checks, the budget and
 * the inner Flat decoder should cost next to nothing beside the decompression itself.
 *
 * <p>Two pairs measure the same work each: {@code direct} / {@code oursMiniBlock} /
 * {@code oursBlock} decode into a new array per call (the library call as the baseline), and
 * {@code directInto} / {@code oursDecodeInto} decode into one reused output array, which is what
 * a scan does through {@code MiniBlockDecompressor.decodeInto} for general-over-flat chunks.
 *
 * <p>Data: int64 values from a seeded random walk (compressible like real measurements), framed
 * exactly as the reference frames them. The compression ratio is printed at setup.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class GeneralBenchmark {
  @Param({"zstd", "lz4"})
  public String scheme;

  /**
   * Uncompressed bytes: a typical 4 KiB mini-block chunk, or the largest chunk a page holds
   * (4096 values of 8 bytes); the block path decodes the same frame as one block.
   */
  @Param({"4096", "32768"})
  public int size;

  private byte[] frame;
  private byte[] into;
  private final int[] frameOffset = {0};
  private int[] frameSize;
  private long numValues;
  private FixedWidthMiniBlockDecompressor miniBlock;
  private MiniBlockBuffers chunk;
  private BlockDecompressor block;
  private final ZstdDecompressCtx zstd = new ZstdDecompressCtx();
  private final LZ4SafeDecompressor lz4 = LZ4Factory.safeInstance().safeDecompressor();

  @Setup(Level.Trial)
  public void setup() {
    byte[] plain = new byte[size];
    ByteBuffer b = ByteBuffer.wrap(plain).order(ByteOrder.LITTLE_ENDIAN);
    SplittableRandom rnd = new SplittableRandom(42);
    long v = 1_000_000;
    for (int i = 0; i < size / 8; i++) {
      v += rnd.nextInt(-50, 51);
      b.putLong(i * 8, v);
    }
    numValues = size / 8;
    boolean isZstd = scheme.equals("zstd");
    if (isZstd) {
      byte[] c = Zstd.compress(plain, 3);
      frame = ByteBuffer.allocate(8 + c.length).order(ByteOrder.LITTLE_ENDIAN).putLong(size).put(c).array();
    } else {
      byte[] c = LZ4Factory.safeInstance().fastCompressor().compress(plain);
      frame = ByteBuffer.allocate(4 + c.length).order(ByteOrder.LITTLE_ENDIAN).putInt(size).put(c).array();
    }
    CompressiveEncoding encoding =
        CompressiveEncoding.newBuilder()
            .setGeneral(
                General.newBuilder()
                    .setCompression(
                        BufferCompression.newBuilder()
                            .setScheme(isZstd ? CompressionScheme.COMPRESSION_ALGORITHM_ZSTD : CompressionScheme.COMPRESSION_ALGORITHM_LZ4))
                    .setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(64))))
            .build();
    CodecRegistry registry = CodecRegistry.discover();
    miniBlock = (FixedWidthMiniBlockDecompressor) registry.decoders().miniBlock(encoding);
    block = registry.decoders().block(encoding);
    chunk = MiniBlockBuffers.of(frame);
    into = new byte[size];
    frameSize = new int[] {frame.length};
    if (miniBlock.bitsPerValue() != 64) {
      throw new IllegalStateException("general over flat(64) should decode in place, bits=" + miniBlock.bitsPerValue());
    }
    miniBlock.decodeInto(chunk, (int) numValues, 0, (int) numValues, into, 0);
    if (!java.util.Arrays.equals(plain, into) || !java.util.Arrays.equals(plain, direct())
        || !java.util.Arrays.equals(plain, ((io.lancecodec.spi.DataBlock.FixedWidth) oursBlock()).data())) {
      throw new IllegalStateException("decoders disagree");
    }
    System.out.printf("%n%s %d bytes -> %d (ratio %.2f)%n", scheme, size, frame.length, (double) size / frame.length);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    zstd.close();
  }

  /** Baseline: read the prefix, allocate, decompress with the library itself. */
  @Benchmark
  public byte[] direct() {
    ByteBuffer p = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
    if (scheme.equals("zstd")) {
      int n = (int) p.getLong(0);
      byte[] out = new byte[n];
      zstd.decompressByteArray(out, 0, n, frame, 8, frame.length - 8);
      return out;
    }
    int n = p.getInt(0);
    byte[] out = new byte[n];
    lz4.decompress(frame, 4, frame.length - 4, out, 0, n);
    return out;
  }

  /** Baseline for the scan path: the library decoding into a caller's array. */
  @Benchmark
  public byte[] directInto() {
    if (scheme.equals("zstd")) {
      int n = (int) ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
      zstd.decompressByteArray(into, 0, n, frame, 8, frame.length - 8);
      return into;
    }
    int n = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    lz4.decompress(frame, 4, frame.length - 4, into, 0, n);
    return into;
  }

  @Benchmark
  public byte[] oursDecodeInto() {
    miniBlock.decodeInto(chunk, (int) numValues, 0, (int) numValues, into, 0);
    return into;
  }

  @Benchmark
  public DataBlock oursMiniBlock() {
    return miniBlock.decompress(chunk, (int) numValues, null);
  }

  @Benchmark
  public DataBlock oursBlock() {
    return block.decompress(frame, numValues);
  }
}
