package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Runs;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Run-length encoding in mini-blocks: two buffers per chunk, the run values (T/8 bytes each) and
 * the run lengths (u8, runs over 255 split). Every chunk but the last holds a power-of-two count
 * of values (at most LANCE_MINIBLOCK_MAX_VALUES, {@link MiniBlocks#MAX_VALUES} by default) and aims at {@link MiniBlocks#FIXED_TARGET_BYTES}; a chunk's runs may cover
 * more values than it claims (the reference's roll-back does this), so decoding stops at the
 * claimed count.
 */
final class RleCodec {
  static final int BUDGET = MiniBlocks.FIXED_TARGET_BYTES;

  private RleCodec() {}

  static CompressiveEncoding encoding(int bits) {
    return CompressiveEncoding.newBuilder()
        .setRle(
            io.lancecodec.format.pb.v21.Rle.newBuilder()
                .setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)))
                .setRunLengths(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(8))))
        .build();
  }

  /** The descriptor in the grammar of the file: 2.3's Rle{Flat{T}, Flat{8}} or 2.1's, the same bytes under either. */
  static com.google.protobuf.Message encoding(int bits, boolean v23) {
    if (!v23) {
      return encoding(bits);
    }
    return io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
        .setRle(io.lancecodec.format.pb.v23.Rle.newBuilder()
            .setValues(io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
                .setFlat(io.lancecodec.format.pb.v23.Flat.newBuilder().setBitsPerValue(bits)))
            .setRunLengths(io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
                .setFlat(io.lancecodec.format.pb.v23.Flat.newBuilder().setBitsPerValue(8))))
        .build();
  }

  /** The runs of values {@code [0, n)} split at 255 values: the number of (value, u8 length) pairs stored. */
  static long storedRuns(DataBlock.FixedWidth fw) {
    byte[] d = fw.data();
    int n = (int) fw.numValues();
    int wb = fw.bitsPerValue() / 8;
    long pieces = 0;
    // run by run (a compare per value through a width switch was a seventh of writing token
    // lines in 2.3)
    for (int i = 0; i < n; ) {
      int j = Runs.end(d, i, n, wb);
      pieces += (j - i + 254) / 255;
      i = j;
    }
    return pieces;
  }

  static long estimate(long runs, long numValues, int bits) {
    // each run costs one value and one length byte; long runs split every 255 values
    return (runs + numValues / 255) * (bits / 8 + 1);
  }

  static final class Compressor implements MiniBlockCompressor {
    private final boolean v23;
    /**
     * Values in a chunk, at most: a power of two, 4096 by default like the reference 7.0.0 (733
     * chunks for 3 M sorted timestamps; older writers used 2048).
     */
    private final int maxValues;

    Compressor() {
      this(false, MiniBlocks.MAX_VALUES);
    }

    /** {@code v23}: the 2.3 descriptor over the same chunks. */
    Compressor(boolean v23, int maxValues) {
      this.v23 = v23;
      this.maxValues = MiniBlocks.fullChunkValues(maxValues);
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int bits = fw.bitsPerValue();
      int wb = bits / 8;
      int perRun = wb + 1;
      byte[] d = fw.data();
      int total = (int) fw.numValues();
      ByteArrayOutputStream values = new ByteArrayOutputStream();
      ByteArrayOutputStream lengths = new ByteArrayOutputStream();
      List<MiniBlockChunk> chunks = new ArrayList<>();
      int off = 0;
      byte[] vbuf = new byte[BUDGET];
      byte[] lbuf = new byte[BUDGET];
      // where each run of the window ends, found once and reused when the chunk is written (the
      // values were compared twice, a fifth of writing 200,000 sorted timestamps)
      int[] runEnds = new int[Math.min(total, maxValues)];
      while (off < total) {
        int remaining = total - off;
        int window = Math.min(remaining, maxValues);
        // Take whole runs while they fit the budget; a chunk that does not end the page is then
        // cut back to the largest power of two of values.
        int count = 0;
        int runs = 0;
        int numRuns = 0;
        while (count < window) {
          int j = Runs.end(d, off + count, off + window, wb) - off;
          int pieces = (j - count + 254) / 255;
          if ((runs + pieces) * perRun > BUDGET) {
            break;
          }
          runs += pieces;
          count = j;
          runEnds[numRuns++] = j;
        }
        if (count < remaining) {
          count = Integer.highestOneBit(count);
        }
        int nv = 0;
        int nl = 0;
        int k = 0;
        for (int r = 0; r < numRuns && k < count; r++) {
          int j = Math.min(runEnds[r], count);
          int len = j - k;
          while (len > 0) {
            int piece = Math.min(255, len);
            System.arraycopy(d, (off + k) * wb, vbuf, nv, wb);
            nv += wb;
            lbuf[nl++] = (byte) piece;
            len -= piece;
          }
          k = j;
        }
        values.write(vbuf, 0, nv);
        lengths.write(lbuf, 0, nl);
        boolean isLast = off + count >= total;
        chunks.add(new MiniBlockChunk(new int[] {nv, nl}, MiniBlocks.logNumValues(count, isLast)));
        off += count;
      }
      return new MiniBlockCompressed(List.of(values.toByteArray(), lengths.toByteArray()), chunks, total, encoding(bits, v23));
    }

  }

  /**
   * The 2.2 block form, used for definition levels: {@code u64} byte length of the run values,
   * the values, then the run lengths (u8), as one buffer.
   */
  static final class Block implements io.lancecodec.spi.BlockCompressor {
    private final boolean v23;

    Block() {
      this(false);
    }

    /** {@code v23}: the 2.3 descriptor over the same bytes (2.3 levels and other 8/16-bit blocks). */
    Block(boolean v23) {
      this.v23 = v23;
    }

    @Override
    public io.lancecodec.spi.Encoded<byte[]> compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int wb = fw.bitsPerValue() / 8;
      int n = (int) fw.numValues();
      ByteArrayOutputStream values = new ByteArrayOutputStream();
      ByteArrayOutputStream lengths = new ByteArrayOutputStream();
      int i = 0;
      while (i < n) {
        int j = Runs.end(fw.data(), i, n, wb);
        for (int len = j - i; len > 0; len -= 255) {
          values.write(fw.data(), i * wb, wb);
          lengths.write(Math.min(255, len));
        }
        i = j;
      }
      byte[] out = new byte[8 + values.size() + lengths.size()];
      LittleEndian.putLong(out, 0, values.size());
      System.arraycopy(values.toByteArray(), 0, out, 8, values.size());
      System.arraycopy(lengths.toByteArray(), 0, out, 8 + values.size(), lengths.size());
      return new io.lancecodec.spi.Encoded<>(out, encoding(fw.bitsPerValue(), v23));
    }
  }

  /** Reads the block form; run lengths may be 1, 2 or 4 bytes wide. */
  static final class BlockDecompressor implements io.lancecodec.spi.BlockDecompressor {
    private final int bits;
    private final int lengthBytes;
    private final boolean exact;

    BlockDecompressor(int bits, int lengthBits) {
      this(bits, lengthBits, false);
    }

    /** {@code exact}: 2.3's rule, the runs are all positive and cover exactly the block. */
    BlockDecompressor(int bits, int lengthBits, boolean exact) {
      this.bits = bits;
      this.lengthBytes = lengthBits / 8;
      this.exact = exact;
    }

    @Override
    public int bitsPerValue() {
      return bits;
    }

    @Override
    public DataBlock decompress(byte[] data, long numValues) {
      if (data.length < 8) {
        throw LanceCodecException.corrupt("rle block of " + data.length + " bytes has no header");
      }
      long valueBytes = LittleEndian.getLong(data, 0);
      if (valueBytes < 0 || valueBytes > data.length - 8) {
        throw LanceCodecException.corrupt("rle block declares " + valueBytes + " value bytes, has " + (data.length - 8));
      }
      int lengthsAt = 8 + (int) valueBytes;
      return expand(bits, data, 8, (int) valueBytes, data, lengthsAt, data.length - lengthsAt, lengthBytes, numValues, exact);
    }
  }

  static final class Decompressor implements io.lancecodec.spi.FixedWidthMiniBlockDecompressor {
    private final int bits;
    private final boolean exact;

    Decompressor(int bits) {
      this(bits, false);
    }

    /**
     * {@code exact}: 2.3's rule, every run positive and the runs covering exactly the chunk. 2.2
     * chunks may carry runs past their values (the reference's roll-back), 2.3 ones never do, so
     * a 2.3 chunk has at most one run per value and its buffers are bounded by its value count.
     */
    Decompressor(int bits, boolean exact) {
      this.bits = bits;
      this.exact = exact;
    }

    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      if (!exact) {
        return -1;
      }
      return buffer == 0 ? (long) numValues * (bits / 8) : numValues;
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      chunk.expect(2, "rle");
      byte[] b = chunk.bytes();
      return expand(bits, b, chunk.offset(0), chunk.size(0), b, chunk.offset(1), chunk.size(1), 1, numValues, exact);
    }

    @Override
    public int bitsPerValue() {
      return bits;
    }

    /**
     * Fills only the runs' parts inside {@code [from, to)}: a scan in batches smaller than the
     * chunk (1,024 rows of a 4,096-value chunk) filled the whole chunk once per batch. The run
     * lengths past the range are still read, so the chunk gets the same checks.
     */
    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      chunk.expect(2, "rle");
      if (from < 0 || from > to || to > numValues || dstOffset < 0 || (long) (to - from) * (bits / 8) > dst.length - dstOffset) {
        throw LanceCodecException.internal("rle: values [" + from + ", " + to + ") of " + numValues + " do not fit at " + dstOffset);
      }
      int n = checkShape(bits, chunk.size(0), chunk.size(1), 1, numValues, exact);
      byte[] b = chunk.bytes();
      expandInto(bits, b, chunk.offset(0), chunk.size(0), b, chunk.offset(1), 1, n, exact, from, to, dst, dstOffset);
    }
  }

  /**
   * The {@code numValues} values that runs {@code values[vOff, +vLen)} with lengths
   * {@code lengths[lOff, +lLen)} ({@code lengthBytes} each) start with. Runs may cover more values
   * than asked for (the reference's chunk roll-back), never fewer. Lengths are unsigned and up to
   * 32 bits, so they are taken as longs: a forged 0xFFFFFFFF must not turn negative.
   */
  static DataBlock expand(int bits, byte[] values, int vOff, int vLen, byte[] lengths, int lOff, int lLen, int lengthBytes, long numValues) {
    return expand(bits, values, vOff, vLen, lengths, lOff, lLen, lengthBytes, numValues, false);
  }

  /**
   * With {@code exact} (2.3), every run must be positive and the runs must end exactly at
   * {@code numValues}: no run, not even a zero-length one, may follow.
   */
  static DataBlock expand(
      int bits, byte[] values, int vOff, int vLen, byte[] lengths, int lOff, int lLen, int lengthBytes, long numValues, boolean exact) {
    int n = checkShape(bits, vLen, lLen, lengthBytes, numValues, exact);
    byte[] out = new byte[LanceCodecException.checkedInt((long) n * (bits / 8), "rle output size")];
    expandInto(bits, values, vOff, vLen, lengths, lOff, lengthBytes, n, exact, 0, n, out, 0);
    return new DataBlock.FixedWidth(out, bits, numValues);
  }

  /**
   * {@link #expand}'s values {@code [from, to)} written at {@code dst[dstOffset]}, with every run
   * length checked as {@code expand} checks it; the caller has checked the buffers' shape
   * ({@link #checkShape}, which gave {@code n}) and that the values fit.
   */
  private static void expandInto(int bits, byte[] values, int vOff, int vLen, byte[] lengths, int lOff, int lengthBytes,
      int n, boolean exact, int from, int to, byte[] dst, int dstOffset) {
    int wb = bits / 8;
    int runs = vLen / wb;
    int pos = 0;
    for (int r = 0; r < runs && pos < n; r++) {
      long len = LittleEndian.getUnsigned(lengths, lOff + r * lengthBytes, lengthBytes);
      if (exact && (len == 0 || len > n - pos || (r == runs - 1) != (len == n - pos))) {
        throw LanceCodecException.corrupt("rle: run " + r + " of " + runs + " has length " + len + " with " + (n - pos)
            + " of " + n + " values left (runs are positive and cover the values exactly)");
      }
      int end = (int) Math.min(len, n - pos) + pos;
      int lo = Math.max(pos, from);
      int hi = Math.min(end, to);
      if (lo < hi) {
        fill(values, vOff + r * wb, wb, dst, dstOffset + (lo - from) * wb, hi - lo);
      }
      pos = end;
    }
    if (pos != n) {
      throw LanceCodecException.corrupt("rle: runs cover " + pos + " values, the block needs " + n);
    }
  }

  /** The value count, once the buffers hold as many runs as lengths and (2.3) no more runs than values. */
  private static int checkShape(int bits, int vLen, int lLen, int lengthBytes, long numValues, boolean exact) {
    int wb = bits / 8;
    if (!(vLen % wb == 0 && lLen % lengthBytes == 0 && vLen / wb == lLen / lengthBytes)) {
      throw LanceCodecException.corrupt("rle: " + vLen + " value bytes do not match " + lLen + " run-length bytes");
    }
    int n = LanceCodecException.checkedInt(numValues, "rle value count");
    if (exact && vLen / wb > n) {
      throw LanceCodecException.corrupt("rle: " + vLen / wb + " runs of positive length cannot make " + n + " values");
    }
    return n;
  }

  /** Writes the value at {@code src[at]} ({@code wb} bytes) {@code count} times from byte {@code off} on, a word per store. */
  private static void fill(byte[] src, int at, int wb, byte[] out, int off, int count) {
    switch (wb) {
      case 1:
        java.util.Arrays.fill(out, off, off + count, src[at]);
        break;
      case 2:
        {
          short v = LittleEndian.getShort(src, at);
          for (int i = 0; i < count; i++) {
            LittleEndian.putShort(out, off + i * 2, v);
          }
          break;
        }
      case 4:
        {
          int v = LittleEndian.getInt(src, at);
          for (int i = 0; i < count; i++) {
            LittleEndian.putInt(out, off + i * 4, v);
          }
          break;
        }
      default:
        {
          long v = LittleEndian.getLong(src, at);
          for (int i = 0; i < count; i++) {
            LittleEndian.putLong(out, off + i * 8, v);
          }
        }
    }
  }
}
