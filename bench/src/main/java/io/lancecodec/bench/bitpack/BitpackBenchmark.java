package io.lancecodec.bench.bitpack;

import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.Compressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.PageArrays;
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
 * Bit-unpacking of 1,048,576 unsigned 32-bit values per operation: our InlineBitpacking decoder (FastLanes
 * layout, through the public SPI {@code decodeInto} the scan uses, from the packed page bytes
 * into a reused little-endian byte array) against JavaFastPFOR's {@code BitPacking.fastunpack}
 * at the same width from int[] into int[], and {@code System.arraycopy} of the unpacked bytes as
 * the memory-bandwidth ceiling. Throughput is values per second.
 *
 * <p>Ours does strictly more than the baseline: it reads the chunk header and checks every size,
 * and its input and output are bytes as they come from and go to a file, where JavaFastPFOR
 * works on int arrays it owns. {@code fastPforUnpackToBytes} adds what a reader using
 * JavaFastPFOR would also need, the copy of each 1024 ints into the little-endian output bytes.
 *
 * <p>{@code page} is the number of values decoded into one output array (repeated until
 * 1,048,576 values are done): a whole 4 MiB page, where every kernel is bound by memory
 * bandwidth (the arraycopy line is that ceiling), and a 64 KiB page that stays in L2, where the
 * kernels' own speed shows.
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

  /** Values per decoded page: 4 MiB of output (memory-bound) or 64 KiB (cache-resident). */
  @Param({"1048576", "16384"})
  public int page;

  int width;
  int[] values;
  byte[] raw;
  byte[] unpackedBytes;
  // ours
  byte[] chunks;
  int[] chunkOffsets;
  int[] chunkSizes;
  FixedWidthMiniBlockDecompressor decoder;
  /** Each chunk as a view of the page buffer, made once: the decode loop measures decoding alone. */
  MiniBlockBuffers[] chunkViews;
  DataBlock.FixedWidth block;
  Compressor<MiniBlockCompressed> compressor;
  // JavaFastPFOR
  int[] fastPacked;
  int[] fastOut;
  int[] fastChunk = new int[1024];

  @Setup
  public void setup() throws Exception {
    int n = page;
    values = new int[n];
    Path tokens = Path.of(System.getProperty("bench.data", "/work/shared/data"), "tokens/tokens-cl100k-2048.u32");
    if (data.equals("tokens") && Files.exists(tokens)) {
      ByteBuffer.wrap(Files.readAllBytes(tokens)).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(values, 0, n);
    } else {
      int w = data.equals("tokens") ? 17 : Integer.parseInt(data);
      Random rnd = new Random(42);
      for (int i = 0; i < n; i++) {
        values[i] = rnd.nextInt() & ((1 << w) - 1);
      }
    }
    int or = 0;
    for (int v : values) {
      or |= v;
    }
    width = 32 - Integer.numberOfLeadingZeros(or);
    raw = new byte[n * 4];
    ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(values);
    unpackedBytes = new byte[n * 4];

    block = new DataBlock.FixedWidth(raw, 32, n);
    BitpackPlugin plugin = new BitpackPlugin();
    // the statistics the writer gives the proposal, group widths included: without them the
    // compressor measured every page again (a second pass the writer does not make)
    Stats stats = Stats.of(block);
    Compressor<MiniBlockCompressed> c = plugin.proposeMiniBlock(block, new FixedContext(stats)).orElseThrow().compressor();
    compressor = c;
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
    decoder = (FixedWidthMiniBlockDecompressor) plugin.openMiniBlock(enc.getInlineBitpacking(), null);
    chunkViews = new MiniBlockBuffers[chunkOffsets.length];
    for (int k = 0; k < chunkViews.length; k++) {
      chunkViews[k] = new MiniBlockBuffers(chunks, new int[] {chunkOffsets[k]}, new int[] {chunkSizes[k]});
    }

    fastPacked = new int[n / 32 * width];
    for (int b = 0; b < n / 32; b++) {
      BitPacking.fastpack(values, b * 32, fastPacked, b * width, width);
    }
    fastOut = new int[n];
    System.out.printf("%n[setup] data=%s page=%d width=%d ours=%d bytes (%.3f B/value), JavaFastPFOR=%d bytes%n",
        data, n, width, chunks.length, chunks.length / (double) n, fastPacked.length * 4);
    // verify once, into a dirty array
    java.util.Arrays.fill(unpackedBytes, (byte) 0x5A);
    oursUnpack();
    if (!java.util.Arrays.equals(raw, unpackedBytes)) {
      throw new IllegalStateException("our unpack disagrees");
    }
    fastPforUnpack();
    if (!java.util.Arrays.equals(values, fastOut)) {
      throw new IllegalStateException("JavaFastPFOR unpack disagrees");
    }
    java.util.Arrays.fill(unpackedBytes, (byte) 0);
    fastPforUnpackToBytes();
    if (!java.util.Arrays.equals(raw, unpackedBytes)) {
      throw new IllegalStateException("JavaFastPFOR unpack to bytes disagrees");
    }
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] oursUnpack() {
    for (int rep = 0; rep < N / page; rep++) {
      for (int k = 0; k < chunkViews.length; k++) {
        decoder.decodeInto(chunkViews[k], 1024, 0, 1024, unpackedBytes, k * 4096);
      }
    }
    return unpackedBytes;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public int[] fastPforUnpack() {
    for (int rep = 0; rep < N / page; rep++) {
      for (int b = 0; b < page / 32; b++) {
        BitPacking.fastunpack(fastPacked, b * width, fastOut, b * 32, width);
      }
    }
    return fastOut;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] fastPforUnpackToBytes() {
    int[] ints = fastChunk;
    for (int rep = 0; rep < N / page; rep++) {
      for (int k = 0; k < page / 1024; k++) {
        for (int b = 0; b < 32; b++) {
          BitPacking.fastunpack(fastPacked, (k * 32 + b) * width, ints, b * 32, width);
        }
        ByteBuffer.wrap(unpackedBytes, k * 4096, 4096).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(ints, 0, 1024);
      }
    }
    return unpackedBytes;
  }

  /**
   * The write side: our mini-block compressor over the page as the writer calls it, every chunk
   * packed into one buffer of the exact size, which goes back to {@link PageArrays} once used, as
   * the writer gives a page's buffers back once they are in the file (a page of 64 KiB is below
   * {@link PageArrays#MIN_BYTES} and always new). The chunk widths come from the proposal (made in
   * setup), which measured them to size its offer and hands them to the compressor, as in the
   * writer; so neither this nor {@link #fastPforPack} has a width pass.
   */
  @Benchmark
  @OperationsPerInvocation(N)
  public long oursPack() {
    long sum = 0;
    for (int rep = 0; rep < N / page; rep++) {
      MiniBlockCompressed c = compressor.compress(block);
      byte[] packed = c.buffers().get(0);
      sum += packed[packed.length - 1];
      PageArrays.giveBack(packed);
    }
    return sum;
  }

  /** JavaFastPFOR packing the same int values at the page's one width into a reused array. */
  @Benchmark
  @OperationsPerInvocation(N)
  public int[] fastPforPack() {
    for (int rep = 0; rep < N / page; rep++) {
      for (int b = 0; b < page / 32; b++) {
        BitPacking.fastpack(values, b * 32, fastPacked, b * width, width);
      }
    }
    return fastPacked;
  }

  /**
   * {@link #fastPforPack} into a new array per page, as a writer built on JavaFastPFOR would hand
   * each page on: the allocation {@link #oursPack} had before the writer recycled page buffers.
   */
  @Benchmark
  @OperationsPerInvocation(N)
  public int[] fastPforPackFresh() {
    int[] out = null;
    for (int rep = 0; rep < N / page; rep++) {
      out = new int[page / 32 * width];
      for (int b = 0; b < page / 32; b++) {
        BitPacking.fastpack(values, b * 32, out, b * width, width);
      }
    }
    return out;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] arraycopyBaseline() {
    for (int rep = 0; rep < N / page; rep++) {
      System.arraycopy(raw, 0, unpackedBytes, 0, raw.length);
    }
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
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }
}
