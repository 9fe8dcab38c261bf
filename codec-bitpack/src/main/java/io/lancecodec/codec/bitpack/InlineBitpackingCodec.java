package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Stats;
import io.lancecodec.spi.Parallelism;
import java.util.ArrayList;
import java.util.List;

/**
 * Mini-block bit-packing: one chunk per 1024 values, each chunk a T-bit header word holding its
 * own bit width W, then the FastLanes-packed words ({@code T/8 + 128 * W} bytes). The last chunk
 * is zero-padded to 1024 values before packing. Also serves as a block compressor for small
 * level buffers (at most 1024 values), with the same bytes.
 */
final class InlineBitpackingCodec {
  static final int CHUNK = 1024;

  private InlineBitpackingCodec() {}

  static CompressiveEncoding encoding(int bits) {
    return CompressiveEncoding.newBuilder()
        .setInlineBitpacking(io.lancecodec.format.pb.v21.InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bits))
        .build();
  }

  /** The descriptor in the grammar of the file: 2.3's InlineBitpacking or 2.1's, the same bytes under either. */
  static com.google.protobuf.Message encoding(int bits, boolean v23) {
    return v23
        ? io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
            .setInlineBitpacking(io.lancecodec.format.pb.v23.InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bits))
            .build()
        : encoding(bits);
  }

  /** Exact encoded size of a block, for proposals. */
  static long estimate(DataBlock.FixedWidth fw) {
    int bits = fw.bitsPerValue();
    long total = 0;
    for (int w : groupWidths(fw)) {
      total += chunkBytes(bits, w);
    }
    return total;
  }

  /**
   * The bytes the mini-block form of a block whose groups have {@code widths} takes in a page
   * ({@link io.lancecodec.spi.MiniBlocks#storedBytes} counting), or -1 when no chunk packs below
   * the full width, so packing could only add headers. Widths are taken per chunk, so one chunk
   * of full-width values does not keep the others from packing.
   */
  static long storedBytes(int[] widths, int bits, io.lancecodec.spi.FileVersion version) {
    long header = MiniBlocks.headerBytes(1, version) + MiniBlocks.metadataWordBytes(version);
    long total = 0;
    boolean narrower = false;
    for (int w : widths) {
      narrower |= w < bits;
      total += header + MiniBlocks.pad8(bits / 8 + 128L * w);
    }
    return narrower ? total : -1;
  }

  /**
   * A lower bound of {@link #storedBytes} of {@code fw}'s group widths (when it offers packing at
   * all): each group is at least as wide as its first value, read once per 1024 values.
   */
  static long storedBytesAtLeast(DataBlock.FixedWidth fw, io.lancecodec.spi.FileVersion version) {
    int bits = fw.bitsPerValue();
    int wb = bits / 8;
    long n = fw.numValues();
    long header = MiniBlocks.headerBytes(1, version) + MiniBlocks.metadataWordBytes(version);
    long total = 0;
    for (long start = 0; start < n; start += CHUNK) {
      long head = LittleEndian.getUnsigned(fw.data(), (int) start * wb, wb);
      total += header + MiniBlocks.pad8(wb + 128L * (64 - Long.numberOfLeadingZeros(head)));
    }
    return total;
  }

  /** One chunk: header word then packed words, for values {@code [start, start + n)}. */
  static byte[] packChunk(byte[] data, int bits, int start, int n) {
    int width = width(data, bits, start, n);
    byte[] out = new byte[chunkBytes(bits, width)];
    pack(data, bits, start, n, width, out, 0);
    return out;
  }

  /** Bytes of a chunk of {@code bits}-bit values packed at {@code width}: header and words. */
  static int chunkBytes(int bits, int width) {
    return bits / 8 + 128 * width;
  }

  /** {@link #groupWidths(DataBlock.FixedWidth)}, taken from {@code stats} of the block when they counted them. */
  static int[] groupWidths(DataBlock.FixedWidth fw, Stats.FixedWidth stats) {
    byte[] counted = stats.groupWidths();
    if (counted == null || Stats.GROUP != CHUNK || stats.numValues() != fw.numValues() || counted.length != (fw.numValues() + CHUNK - 1) / CHUNK) {
      return groupWidths(fw);
    }
    int[] widths = new int[counted.length];
    for (int k = 0; k < widths.length; k++) {
      widths[k] = counted[k];
    }
    return widths;
  }

  /** The bit width of every group of 1024 values of a block (the last group may be shorter). */
  static int[] groupWidths(DataBlock.FixedWidth fw) {
    int bits = fw.bitsPerValue();
    long total = fw.numValues();
    int[] widths = new int[LanceCodecException.checkedInt((total + CHUNK - 1) / CHUNK, "bitpack: chunk count")];
    Parallelism.inHalves(fw.usedBytes() >= PARALLEL_MIN_BYTES, widths.length, (half, from, to) -> {
      for (int k = from; k < to; k++) {
        widths[k] = width(fw.data(), bits, k * CHUNK, (int) Math.min(CHUNK, total - (long) k * CHUNK));
      }
    });
    return widths;
  }

  /**
   * Bit length of the largest of the {@code bits}-bit values {@code [start, start + n)} of
   * {@code data}, read in place ({@link LittleEndian#orOfLanes}): each group used to be copied
   * into an int or long array for its width first, a quarter of writing a column of token ids.
   */
  static int width(byte[] data, int bits, int start, int n) {
    int wb = bits / 8;
    return 64 - Long.numberOfLeadingZeros(LittleEndian.foldLanes(LittleEndian.orOfLanes(data, start * wb, (start + n) * wb), bits));
  }

  /**
   * Writes the chunk of values {@code [start, start + n)} (n at most 1024, the rest zero) at
   * {@code out[pos]}: the header word holding {@code width} (from {@link #width}), then the
   * words the FastLanes kernel ({@link KernelGenerator}) packs straight from the block's bytes;
   * returns the bytes written, {@link #chunkBytes}.
   */
  static int pack(byte[] data, int bits, int start, int n, int width, byte[] out, int pos) {
    int wb = bits / 8;
    LittleEndian.putUnsigned(out, pos, wb, width);
    FastLanes.pack(bits, width, data, start * wb, n, out, pos + wb);
    return chunkBytes(bits, width);
  }

  /** Per-thread landing area for short chunks, so decompressors stay stateless yet allocate nothing per chunk. */
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[CHUNK * 8]);

  /** Decodes one chunk into {@code n <= 1024} values appended at {@code dst[dstOff]}. */
  static void unpackChunk(byte[] chunk, int bits, int n, byte[] dst, int dstOff) {
    unpackChunk(chunk, 0, chunk.length, bits, n, dst, dstOff);
  }

  /**
   * Decodes the chunk in {@code chunk[off, off + len)} into {@code n} values at
   * {@code dst[dstOff]}; every size is checked first. A full chunk is unpacked in place; a short
   * one (only the last of a page) lands in scratch first, because the kernel always writes 1024
   * values.
   */
  static void unpackChunk(byte[] chunk, int off, int len, int bits, int n, byte[] dst, int dstOff) {
    int wb = bits / 8;
    if (off < 0 || len < 0 || len > chunk.length - off) {
      throw LanceCodecException.corrupt("bitpack: chunk [" + off + ", +" + len + ") outside its " + chunk.length + "-byte buffer");
    }
    if (len < wb) {
      throw LanceCodecException.corrupt("bitpack: chunk of " + len + " bytes has no header");
    }
    long width = io.lancecodec.spi.LittleEndian.getUnsigned(chunk, off, wb);
    if (width > bits || width < 0) {
      throw LanceCodecException.corrupt("bitpack: bit width " + width + " exceeds " + bits);
    }
    int packed = 128 * (int) width;
    if (len < wb + packed) {
      throw LanceCodecException.corrupt(
          "bitpack: chunk of " + len + " bytes is shorter than the " + (wb + packed) + " width " + width + " needs");
    }
    if (n > CHUNK || n < 0) {
      throw LanceCodecException.corrupt("bitpack: chunk claims " + n + " values, at most 1024");
    }
    if (dstOff < 0 || n * wb > dst.length - dstOff) {
      throw LanceCodecException.internal("bitpack: " + n + " values do not fit at " + dstOff);
    }
    if (n == CHUNK) {
      FastLanes.unpack(bits, (int) width, chunk, off + wb, dst, dstOff);
    } else {
      byte[] scratch = SCRATCH.get();
      FastLanes.unpack(bits, (int) width, chunk, off + wb, scratch, 0);
      System.arraycopy(scratch, 0, dst, dstOff, n * wb);
    }
  }

  /**
   * Values {@code [from, to)} of the chunk in {@code chunk[off, off + len)} holding {@code n}
   * values, each read from its own bit position, to {@code dst[dstOff]}; the same checks as
   * {@link #unpackChunk}.
   */
  static void unpackRange(byte[] chunk, int off, int len, int bits, int n, int from, int to, byte[] dst, int dstOff) {
    int wb = bits / 8;
    if (len < wb) {
      throw LanceCodecException.corrupt("bitpack: chunk of " + len + " bytes has no header");
    }
    long width = io.lancecodec.spi.LittleEndian.getUnsigned(chunk, off, wb);
    if (width > bits || width < 0) {
      throw LanceCodecException.corrupt("bitpack: bit width " + width + " exceeds " + bits);
    }
    int nWords = CHUNK / bits * (int) width;
    if (len < wb + nWords * wb) {
      throw LanceCodecException.corrupt(
          "bitpack: chunk of " + len + " bytes is shorter than the " + (wb + nWords * wb) + " width " + width + " needs");
    }
    if (n > CHUNK || n < 0) {
      throw LanceCodecException.corrupt("bitpack: chunk claims " + n + " values, at most 1024");
    }
    if (from < 0 || from > to || to > n) {
      throw LanceCodecException.invalidArgument("bitpack: values [" + from + ", " + to + ") of a chunk of " + n);
    }
    for (int i = from; i < to; i++) {
      long v = width == 0 ? 0 : FastLanes.valueAt(chunk, off + wb, bits, (int) width, i);
      io.lancecodec.spi.LittleEndian.putUnsigned(dst, dstOff + (i - from) * wb, wb, v);
    }
  }

  static final class Compressor implements MiniBlockCompressor {
    private final boolean v23;
    /** The block the proposal measured and its group widths, reused when that block is compressed. */
    private final DataBlock measured;
    private final int[] measuredWidths;

    Compressor() {
      this(false);
    }

    /** {@code v23}: the 2.3 descriptor over the same chunks. */
    Compressor(boolean v23) {
      this(v23, null, null);
    }

    Compressor(boolean v23, DataBlock measured, int[] measuredWidths) {
      this.v23 = v23;
      this.measured = measured;
      this.measuredWidths = measuredWidths;
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      return compress(block, -1);
    }

    @Override
    public MiniBlockCompressed compressFramed(DataBlock block, int headerBytes) {
      if (headerBytes < 0 || headerBytes % 8 != 0) {
        throw LanceCodecException.invalidArgument("bitpack: a chunk frame's header of " + headerBytes + " bytes");
      }
      return compress(block, headerBytes);
    }

    /** {@code frame}: the header bytes before each chunk, which is then padded to 8; -1: chunks back to back. */
    private MiniBlockCompressed compress(DataBlock block, int frame) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int bits = fw.bitsPerValue();
      long total = fw.numValues();
      // widths first, so that the page buffer is allocated once at its exact size
      int[] widths = block == measured ? measuredWidths : groupWidths(fw);
      int nChunks = widths.length;
      long size = 0;
      for (int w : widths) {
        size += stride(bits, w, frame);
      }
      // every byte is written (headers, packed words; a frame's header and padding by the page), so
      // a recycled array will do
      byte[] out = io.lancecodec.spi.PageArrays.forPage(LanceCodecException.checkedInt(size, "bitpack: packed page size"));
      Parallelism.inHalves(size >= PARALLEL_MIN_BYTES, nChunks, (half, from, to) -> packChunks(fw, widths, from, to, frame, out));
      List<MiniBlockChunk> chunks = new ArrayList<>(nChunks);
      // Every full chunk of one width is the same record, so a page shares one per width: two
      // small objects per 1024 values were 5% of packing a 4 MiB page at width 25.
      MiniBlockChunk[] full = new MiniBlockChunk[bits + 1];
      for (int k = 0; k < nChunks; k++) {
        int w = widths[k];
        int bytes = chunkBytes(bits, w);
        int log = MiniBlocks.logNumValues(CHUNK, k == nChunks - 1);
        if (k == nChunks - 1) {
          chunks.add(new MiniBlockChunk(new int[] {bytes}, log));
        } else {
          if (full[w] == null) {
            full[w] = new MiniBlockChunk(new int[] {bytes}, log);
          }
          chunks.add(full[w]);
        }
      }
      return new MiniBlockCompressed(List.of(out), chunks, total, encoding(bits, v23), frame);
    }

    /** Bytes from a chunk of width {@code w} to the next: the chunk, or its frame ({@link #compress(DataBlock, int)}). */
    private static long stride(int bits, int w, int frame) {
      int bytes = chunkBytes(bits, w);
      return frame < 0 ? bytes : frame + MiniBlocks.pad8(bytes);
    }

    /** Packs chunks {@code [from, to)} in their places, which follow from the widths before them. */
    private static void packChunks(DataBlock.FixedWidth fw, int[] widths, int from, int to, int frame, byte[] out) {
      int bits = fw.bitsPerValue();
      long total = fw.numValues();
      int pos = 0;
      for (int k = 0; k < from; k++) {
        pos += (int) stride(bits, widths[k], frame);
      }
      for (int k = from; k < to; k++) {
        int n = (int) Math.min(CHUNK, total - (long) k * CHUNK);
        pack(fw.data(), bits, k * CHUNK, n, widths[k], out, pos + Math.max(frame, 0));
        pos += (int) stride(bits, widths[k], frame);
      }
    }
  }

  /** Pages of at least this many bytes are measured (group widths) and packed in halves on two cores. */
  static final long PARALLEL_MIN_BYTES = 1 << 20;

  /**
   * All of a block in one 2.3 chunk of {@code ceil(n / 1024)} groups, each with its own width
   * (the chunk a fixed-size list's rows put their leaf in, {@link
   * io.lancecodec.spi.ProposalContext#oneChunk()}).
   */
  static final class OneChunk implements MiniBlockCompressor {
    /** The narrowest width a group is packed at (a page's widest, so zipped rows are one size); 0: each its own. */
    private final int minWidth;

    OneChunk(int minWidth) {
      this.minWidth = minWidth;
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int n = LanceCodecException.checkedInt(fw.numValues(), "bitpack: values in one chunk");
      byte[] out = InlineBlock23.pack(fw.data(), n, fw.bitsPerValue(), minWidth);
      return new MiniBlockCompressed(List.of(out), List.of(new MiniBlockChunk(new int[] {out.length}, 0)), n,
          encoding(fw.bitsPerValue(), true));
    }

    /** The chunk's bytes, or -1 when no group packs narrower than the values. */
    static long bytes(DataBlock.FixedWidth fw) {
      long total = 0;
      boolean narrower = false;
      for (int w : groupWidths(fw)) {
        narrower |= w < fw.bitsPerValue();
        total += chunkBytes(fw.bitsPerValue(), w);
      }
      return narrower ? total : -1;
    }
  }

  static final class Decompressor implements FixedWidthMiniBlockDecompressor, BlockDecompressor {
    private final int bits;
    private final boolean exact;

    Decompressor(int bits) {
      this(bits, false);
    }

    /**
     * {@code exact}: 2.3's rule, a chunk is its width word and packed words with no byte after
     * them (2.2 readers let a chunk run longer).
     */
    Decompressor(int bits, boolean exact) {
      this.bits = bits;
      this.exact = exact;
    }

    @Override
    public int bitsPerValue() {
      return bits;
    }

    /** Each group of 1024 values: a T-bit width word and at most 1024 values of T bits. */
    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      return ((numValues + (long) CHUNK - 1) / CHUNK) * chunkBytes(bits, bits);
    }

    /** A whole chunk goes through the kernel; a part reads each value from its bit position. */
    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      chunk.expect(1, "bitpack");
      if (exact && numValues > CHUNK) {
        decodeGroups(chunk, numValues, from, to, dst, dstOffset);
        return;
      }
      if (exact) {
        int wb = bits / 8;
        long width = chunk.size(0) < wb ? -1 : LittleEndian.getUnsigned(chunk.bytes(), chunk.offset(0), wb);
        if (width >= 0 && width <= bits && chunk.size(0) != chunkBytes(bits, (int) width)) {
          throw LanceCodecException.corrupt("bitpack: chunk of " + chunk.size(0) + " bytes, width " + width + " takes "
              + chunkBytes(bits, (int) width));
        }
      }
      if (from == 0 && to == numValues) {
        unpackChunk(chunk.bytes(), chunk.offset(0), chunk.size(0), bits, numValues, dst, dstOffset);
      } else {
        unpackRange(chunk.bytes(), chunk.offset(0), chunk.size(0), bits, numValues, from, to, dst, dstOffset);
      }
    }

    /**
     * A 2.3 chunk of more than 1024 values (the leaf of a fixed-size list's rows): one group per
     * 1024 values back to back, each its width word and packed words, exactly as the 2.3 block
     * form lays them out; no byte may follow the last group. Groups outside {@code [from, to)}
     * are only stepped over.
     */
    private void decodeGroups(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      int wb = bits / 8;
      if (from < 0 || from > to || to > numValues) {
        throw LanceCodecException.invalidArgument("bitpack: values [" + from + ", " + to + ") of a chunk of " + numValues);
      }
      if (dstOffset < 0 || (long) (to - from) * wb > dst.length - (long) dstOffset) {
        throw LanceCodecException.internal("bitpack: " + (to - from) + " values do not fit at " + dstOffset);
      }
      byte[] in = chunk.bytes();
      int pos = chunk.offset(0);
      int end = pos + chunk.size(0);
      int groups = (numValues + CHUNK - 1) / CHUNK;
      for (int g = 0; g < groups; g++) {
        if (end - pos < wb) {
          throw LanceCodecException.corrupt("bitpack: group " + g + " of " + groups + " has no width word (" + (end - pos) + " bytes left)");
        }
        long width = LittleEndian.getUnsigned(in, pos, wb);
        if (width > bits || width < 0) {
          throw LanceCodecException.corrupt("bitpack: group " + g + " declares bit width " + width + ", above " + bits);
        }
        int len = chunkBytes(bits, (int) width);
        if (len > end - pos) {
          throw LanceCodecException.corrupt("bitpack: group " + g + " of width " + width + " needs " + len + " bytes, "
              + (end - pos) + " remain");
        }
        int start = g * CHUNK;
        int count = Math.min(CHUNK, numValues - start);
        int lo = Math.max(from, start);
        int hi = Math.min(to, start + count);
        if (lo < hi) {
          int at = dstOffset + (lo - from) * wb;
          if (lo == start && hi == start + count) {
            unpackChunk(in, pos, len, bits, count, dst, at);
          } else {
            unpackRange(in, pos, len, bits, count, lo - start, hi - start, dst, at);
          }
        }
        pos += len;
      }
      if (pos != end) {
        throw LanceCodecException.corrupt("bitpack: " + (end - pos) + " bytes after the last of " + groups + " groups");
      }
    }

    @Override
    public DataBlock decompress(byte[] data, long numValues) {
      int n = (int) numValues;
      if (!(numValues >= 0 && numValues <= CHUNK)) {
        throw LanceCodecException.corrupt("bitpack: " + numValues + " values in one chunk, at most 1024");
      }
      byte[] out = new byte[n * (bits / 8)];
      unpackChunk(data, bits, n, out, 0);
      return new DataBlock.FixedWidth(out, bits, numValues);
    }
  }

  /** Block form for level buffers of at most 1024 values. */
  static final class Block implements BlockCompressor {
    @Override
    public Encoded<byte[]> compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      if (fw.numValues() > CHUNK) {
        throw LanceCodecException.internal("inline bitpack block of " + fw.numValues() + " values");
      }
      byte[] out = packChunk(fw.data(), fw.bitsPerValue(), 0, (int) fw.numValues());
      return new Encoded<>(out, encoding(fw.bitsPerValue()));
    }
  }
}
