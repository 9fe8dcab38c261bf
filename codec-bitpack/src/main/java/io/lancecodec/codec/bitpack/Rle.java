package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Run-length encoding in mini-blocks: two buffers per chunk, the run values (T/8 bytes each) and
 * the run lengths (u8, runs over 255 split). Every chunk but the last holds a power-of-two count
 * of values (at most 4096) and stays within the 8186-byte chunk budget; a chunk's runs may cover
 * more values than it claims (the reference's roll-back does this), so decoding stops at the
 * claimed count.
 */
final class Rle {
  /** 4096 like the reference 7.0.0 (733 chunks for 3 M sorted timestamps); older writers used 2048. */
  static final int MAX_CHUNK_VALUES = io.lancecodec.spi.MiniBlocks.MAX_VALUES;
  static final int BUDGET = 8186;

  private Rle() {}

  static CompressiveEncoding encoding(int bits) {
    return CompressiveEncoding.newBuilder()
        .setRle(
            io.lancecodec.format.pb.v21.Rle.newBuilder()
                .setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)))
                .setRunLengths(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(8))))
        .build();
  }

  static long estimate(long runs, long numValues, int bits) {
    // each run costs one value and one length byte; long runs split every 255 values
    return (runs + numValues / 255) * (bits / 8 + 1);
  }

  static final class Compressor implements MiniBlockCompressor {
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
      while (off < total) {
        int remaining = total - off;
        int window = Math.min(remaining, MAX_CHUNK_VALUES);
        // Take whole runs while they fit the budget; a chunk that does not end the page is then
        // cut back to the largest power of two of values.
        int count = 0;
        int runs = 0;
        while (count < window) {
          int j = count + 1;
          while (j < window && equal(d, off + count, off + j, wb)) {
            j++;
          }
          int pieces = (j - count + 254) / 255;
          if ((runs + pieces) * perRun > BUDGET) {
            break;
          }
          runs += pieces;
          count = j;
        }
        if (count < remaining) {
          count = Integer.highestOneBit(count);
        }
        int nv = 0;
        int nl = 0;
        int k = off;
        int end = off + count;
        while (k < end) {
          int j = k + 1;
          while (j < end && equal(d, k, j, wb)) {
            j++;
          }
          int len = j - k;
          while (len > 0) {
            int piece = Math.min(255, len);
            System.arraycopy(d, k * wb, vbuf, nv, wb);
            nv += wb;
            lbuf[nl++] = (byte) piece;
            len -= piece;
          }
          k = j;
        }
        values.write(vbuf, 0, nv);
        lengths.write(lbuf, 0, nl);
        boolean isLast = off + count >= total;
        chunks.add(new MiniBlockChunk(new int[] {nv, nl}, isLast ? 0 : Integer.numberOfTrailingZeros(count)));
        off += count;
      }
      return new MiniBlockCompressed(List.of(values.toByteArray(), lengths.toByteArray()), chunks, total, encoding(bits));
    }

    static boolean equal(byte[] d, int a, int b, int wb) {
      switch (wb) {
        case 1:
          return d[a] == d[b];
        case 2:
          return LittleEndian.getShort(d, a * 2) == LittleEndian.getShort(d, b * 2);
        case 4:
          return LittleEndian.getInt(d, a * 4) == LittleEndian.getInt(d, b * 4);
        default:
          return LittleEndian.getLong(d, a * 8) == LittleEndian.getLong(d, b * 8);
      }
    }
  }

  /**
   * The 2.2 block form, used for definition levels: {@code u64} byte length of the run values,
   * the values, then the run lengths (u8), as one buffer.
   */
  static final class Block implements io.lancecodec.spi.BlockCompressor {
    @Override
    public io.lancecodec.spi.Encoded<byte[]> compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int wb = fw.bitsPerValue() / 8;
      int n = (int) fw.numValues();
      ByteArrayOutputStream values = new ByteArrayOutputStream();
      ByteArrayOutputStream lengths = new ByteArrayOutputStream();
      int i = 0;
      while (i < n) {
        int j = i + 1;
        while (j < n && Compressor.equal(fw.data(), i, j, wb)) {
          j++;
        }
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
      return new io.lancecodec.spi.Encoded<>(out, encoding(fw.bitsPerValue()));
    }
  }

  /** Reads the block form; run lengths may be 1, 2 or 4 bytes wide. */
  static final class BlockDecompressor implements io.lancecodec.spi.BlockDecompressor {
    private final Decompressor runs;
    private final int lengthBytes;

    BlockDecompressor(int bits, int lengthBits) {
      this.runs = new Decompressor(bits);
      this.lengthBytes = lengthBits / 8;
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
      byte[] values = java.util.Arrays.copyOfRange(data, 8, 8 + (int) valueBytes);
      byte[] lengths = java.util.Arrays.copyOfRange(data, 8 + (int) valueBytes, data.length);
      return runs.expand(values, lengths, lengthBytes, numValues);
    }
  }

  static final class Decompressor implements MiniBlockDecompressor {
    private final int bits;

    Decompressor(int bits) {
      this.bits = bits;
    }

    @Override
    public DataBlock decompress(List<byte[]> buffers, long numValues) {
      if (buffers.size() != 2) {
        throw LanceCodecException.corrupt("rle: chunk has " + buffers.size() + " buffers, expected 2");
      }
      return expand(buffers.get(0), buffers.get(1), 1, numValues);
    }

    DataBlock expand(byte[] values, byte[] lengths, int lengthBytes, long numValues) {
      int wb = bits / 8;
      if (!(values.length % wb == 0 && values.length / wb == lengths.length / lengthBytes && lengths.length % lengthBytes == 0)) {
        throw LanceCodecException.corrupt("rle: " + values.length + " value bytes do not match " + lengths.length + " run-length bytes");
      }
      int n = LanceCodecException.checkedInt(numValues, "rle value count");
      byte[] out = new byte[LanceCodecException.checkedInt((long) n * wb, "rle output size")];
      int runs = values.length / wb;
      int pos = 0;
      for (int r = 0; r < runs && pos < n; r++) {
        int len = (int) LittleEndian.getUnsigned(lengths, r * lengthBytes, lengthBytes);
        int take = Math.min(len, n - pos);
        for (int i = 0; i < take; i++) {
          System.arraycopy(values, r * wb, out, (pos + i) * wb, wb);
        }
        pos += take;
      }
      if (pos != n) {
        throw LanceCodecException.corrupt("rle: runs cover " + pos + " values, chunk needs " + n);
      }
      return new DataBlock.FixedWidth(out, bits, numValues);
    }
  }
}
