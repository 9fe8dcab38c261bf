package io.lancecodec.runtime.plugin;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixed-width values stored as they are, cut into equal power-of-two chunks. The chunk size is
 * the reference's: double from two values (or eight, for sub-byte widths, so a chunk never
 * splits a byte) while twice the size stays under {@link MiniBlocks#FIXED_TARGET_BYTES} and
 * {@link MiniBlocks#MAX_VALUES} values.
 */
public final class FlatMiniBlock implements MiniBlockCompressor {
  static final long MAX_BYTES = MiniBlocks.FIXED_TARGET_BYTES;

  /** Values in a full chunk, at most: a power of two (LANCE_MINIBLOCK_MAX_VALUES rounded down). */
  private final int maxValues;

  FlatMiniBlock() {
    this(MiniBlocks.MAX_VALUES);
  }

  FlatMiniBlock(int maxValues) {
    this.maxValues = MiniBlocks.fullChunkValues(maxValues);
  }

  /** Values per full chunk for {@code bits}-wide values. */
  static long valuesPerChunk(int bits, int maxValues) {
    int max = MiniBlocks.fullChunkValues(maxValues);
    long bytesPerWord = bits % 8 == 0 ? bits / 8 : bits;
    long numVals = bits % 8 == 0 ? 2 : 8;
    long sizeBytes = 2 * bytesPerWord;
    while (2 * sizeBytes < MAX_BYTES && 2 * numVals <= max) {
      sizeBytes *= 2;
      numVals *= 2;
    }
    return numVals;
  }

  /** The bytes {@link #compress} output takes in a page, as {@link MiniBlocks#storedBytes} counts them. */
  static long storedBytes(DataBlock.FixedWidth fw, FileVersion version, int maxValues) {
    int bits = fw.bitsPerValue();
    long per = valuesPerChunk(bits, maxValues);
    long n = fw.numValues();
    return MiniBlocks.storedBytes(n, per, per * bits / 8, ((n % per) * bits + 7) / 8, version);
  }

  @Override
  public MiniBlockCompressed compress(DataBlock block) {
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
    int bits = fw.bitsPerValue();
    long bytesPerWord = bits % 8 == 0 ? bits / 8 : bits;
    long valuesPerWord = bits % 8 == 0 ? 1 : 8;
    long sizeBytes = 2 * bytesPerWord;
    int logVals = valuesPerWord == 1 ? 1 : 3;
    long numVals = valuesPerWord == 1 ? 2 : 8;
    if (sizeBytes >= MAX_BYTES && valuesPerWord == 1) {
      // Values this wide only come here when mini-block is forced (e.g. 2048 x u64 token ids):
      // the reference's writer asserts here, but a chunk of one value is valid (log2 = 0) and
      // the layout checks that it fits the version's chunk limits.
      logVals = 0;
      numVals = 1;
    } else if (sizeBytes >= MAX_BYTES) {
      throw LanceCodecException.invalidArgument(
          "flat mini-block: " + bits + "-bit values are too wide for mini-block chunks");
    }
    while (numVals > 1 && 2 * sizeBytes < MAX_BYTES && 2 * numVals <= maxValues) {
      logVals++;
      sizeBytes *= 2;
      numVals *= 2;
    }
    int bytesPerChunk = (int) (bytesPerWord * (numVals / valuesPerWord));
    int used = fw.usedBytes();
    List<MiniBlockChunk> chunks = new ArrayList<>();
    long row = 0;
    long consumed = 0;
    while (true) {
      if (row + numVals <= fw.numValues()) {
        chunks.add(new MiniBlockChunk(new int[] {bytesPerChunk}, logVals));
        row += numVals;
        consumed += bytesPerChunk;
      } else if (row < fw.numValues()) {
        chunks.add(new MiniBlockChunk(new int[] {(int) (used - consumed)}, 0));
        break;
      } else {
        break;
      }
    }
    byte[] data = fw.data().length == used ? fw.data() : java.util.Arrays.copyOf(fw.data(), used);
    return new MiniBlockCompressed(
        List.of(data), chunks, fw.numValues(), BuiltinCodecs.flat(bits));
  }

  /** The decompressor of Flat chunks: byte-aligned widths are read straight into the caller's output. */
  static MiniBlockDecompressor decompressor(int bits) {
    return decompressor(bits, false);
  }

  /**
   * {@code exact}: 2.3's rule, a chunk's buffer is exactly its values' bytes (2.1/2.2 readers let
   * it run longer, as the reference's readers do).
   */
  static MiniBlockDecompressor decompressor(int bits, boolean exact) {
    return bits % 8 == 0 ? new Decompressor(bits, exact) : new Bits(bits, exact);
  }

  /** Reads one chunk's single buffer as the values. */
  static final class Decompressor implements FixedWidthMiniBlockDecompressor {
    private final int bits;
    private final boolean exact;

    Decompressor(int bits, boolean exact) {
      this.bits = bits;
      this.exact = exact;
    }

    @Override
    public int bitsPerValue() {
      return bits;
    }

    @Override
    public boolean storesValuesAsIs() {
      return true;
    }

    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      return (long) numValues * (bits / 8);
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      check(chunk, numValues); // before allocating what the message's width claims
      return FixedWidthMiniBlockDecompressor.super.decompress(chunk, numValues, reuse);
    }

    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      check(chunk, numValues);
      int wb = bits / 8;
      System.arraycopy(chunk.bytes(), chunk.offset(0) + from * wb, dst, dstOffset, (to - from) * wb);
    }

    private void check(MiniBlockBuffers chunk, int numValues) {
      chunk.expect(1, "flat");
      int wb = bits / 8;
      if (exact ? (long) numValues * wb != chunk.size(0) : (long) numValues * wb > chunk.size(0)) {
        throw LanceCodecException.corrupt("flat chunk: " + numValues + " values of " + bits + " bits need "
            + (long) numValues * wb + " bytes, chunk has " + chunk.size(0));
      }
    }
  }

  /** Booleans (one bit per value): the chunk's bytes copied out whole. */
  static final class Bits implements MiniBlockDecompressor {
    private final int bits;
    private final boolean exact;

    Bits(int bits, boolean exact) {
      this.bits = bits;
      this.exact = exact;
    }

    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      return ((long) numValues * bits + 7) / 8;
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      chunk.expect(1, "flat");
      long need = ((long) numValues * bits + 7) / 8;
      if (numValues < 0 || (exact ? need != chunk.size(0) : need > chunk.size(0))) {
        throw LanceCodecException.corrupt("flat chunk: " + numValues + " values of " + bits + " bits need " + need
            + " bytes, chunk has " + chunk.size(0));
      }
      return new DataBlock.FixedWidth(chunk.copy(0), bits, numValues);
    }
  }
}
