package io.lancecodec.bench.bitpack;

import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import me.lemire.integercompression.BitPacking;
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
 * Bit-unpacking of 1,048,576 unsigned 32-bit values: our InlineBitpacking decoder (FastLanes
 * layout, through the public SPI, into a reused byte array) against JavaFastPFOR's
 * {@code BitPacking.fastunpack} at the same width, and {@code System.arraycopy} of the unpacked
 * bytes as the memory-bandwidth ceiling. Throughput is values per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BitpackBenchmark {
  static final int N = 1 << 20;

  /** "tokens" = real cl100k token ids (17 bits); a number = seeded random values of that width. */
  @Param({"tokens", "3", "8", "25"})
  public String data;

  int width;
  int[] values;
  byte[] raw;
  byte[] unpackedBytes;
  // ours
  byte[] chunks;
  int[] chunkOffsets;
  int[] chunkSizes;
  MiniBlockDecompressor decoder;
  // JavaFastPFOR
  int[] fastPacked;
  int[] fastOut;

  @Setup
  public void setup() throws Exception {
    values = new int[N];
    Path tokens = Path.of(System.getProperty("lance.data", "../../shared/data"), "tokens/tokens-cl100k-2048.u32");
    if (data.equals("tokens") && Files.exists(tokens)) {
      ByteBuffer.wrap(Files.readAllBytes(tokens)).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(values, 0, N);
    } else {
      int w = data.equals("tokens") ? 17 : Integer.parseInt(data);
      Random rnd = new Random(42);
      for (int i = 0; i < N; i++) {
        values[i] = rnd.nextInt() & ((1 << w) - 1);
      }
    }
    int or = 0;
    for (int v : values) {
      or |= v;
    }
    width = 32 - Integer.numberOfLeadingZeros(or);
    raw = new byte[N * 4];
    ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(values);
    unpackedBytes = new byte[N * 4];

    DataBlock.FixedWidth block = new DataBlock.FixedWidth(raw, 32, N);
    BitpackPlugin plugin = new BitpackPlugin();
    Stats stats = new Stats(N, 32, width, N, raw.length, 4);
    MiniBlockCompressor c = plugin.proposeMiniBlock(block, new FixedContext(stats)).orElseThrow().compressor();
    MiniBlockCompressed packed = c.compress(block);
    chunks = packed.buffers().get(0);
    chunkOffsets = new int[packed.chunks().size()];
    chunkSizes = new int[packed.chunks().size()];
    int pos = 0;
    for (int k = 0; k < chunkOffsets.length; k++) {
      MiniBlockChunk ch = packed.chunks().get(k);
      chunkOffsets[k] = pos;
      chunkSizes[k] = ch.bufferSizes()[0];
      pos += chunkSizes[k];
    }
    CompressiveEncoding enc = (CompressiveEncoding) packed.encoding();
    decoder = plugin.openMiniBlock(enc.getInlineBitpacking(), null);

    fastPacked = new int[N / 32 * width];
    for (int b = 0; b < N / 32; b++) {
      BitPacking.fastpack(values, b * 32, fastPacked, b * width, width);
    }
    fastOut = new int[N];
    System.out.printf("%n[setup] data=%s width=%d ours=%d bytes (%.3f B/value), JavaFastPFOR=%d bytes%n",
        data, width, chunks.length, chunks.length / (double) N, fastPacked.length * 4);
    // verify once
    oursUnpack();
    if (!java.util.Arrays.equals(raw, unpackedBytes)) {
      throw new IllegalStateException("our unpack disagrees");
    }
    fastPforUnpack();
    if (!java.util.Arrays.equals(values, fastOut)) {
      throw new IllegalStateException("JavaFastPFOR unpack disagrees");
    }
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] oursUnpack() {
    int[] one = new int[1];
    int[] size = new int[1];
    for (int k = 0; k < chunkOffsets.length; k++) {
      one[0] = chunkOffsets[k];
      size[0] = chunkSizes[k];
      decoder.decodeInto(chunks, one, size, 1024, unpackedBytes, k * 4096);
    }
    return unpackedBytes;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public int[] fastPforUnpack() {
    for (int b = 0; b < N / 32; b++) {
      BitPacking.fastunpack(fastPacked, b * width, fastOut, b * 32, width);
    }
    return fastOut;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] arraycopyBaseline() {
    System.arraycopy(raw, 0, unpackedBytes, 0, raw.length);
    return unpackedBytes;
  }

  /** The statistics the runtime would compute, for calling the plugin directly. */
  private static final class FixedContext implements ProposalContext {
    private final Stats stats;

    FixedContext(Stats stats) {
      this.stats = stats;
    }

    @Override
    public Stats stats() {
      return stats;
    }

    @Override
    public FieldOptions options() {
      return FieldOptions.DEFAULT;
    }

    @Override
    public FileVersion version() {
      return FileVersion.V2_1;
    }

    @Override
    public Optional<Proposal<MiniBlockCompressor>> innerMiniBlock(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<PerValueCompressor>> innerPerValue(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<BlockCompressor>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }
}
