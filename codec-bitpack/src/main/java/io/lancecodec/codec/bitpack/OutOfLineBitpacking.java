package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;

/**
 * Block bit-packing with one width W for the whole block, recorded in the encoding as
 * {@code values = Flat{W}}: full 1024-value groups are FastLanes-packed back to back; a tail of
 * r values is packed as one zero-padded group when the padding costs fewer bits than packing
 * saves ({@code W * (1024 - r) < (T - W) * r}), otherwise stored raw. The reader tells the two
 * apart by the buffer length.
 */
final class OutOfLineBitpacking {
  private OutOfLineBitpacking() {}

  static CompressiveEncoding encoding(int bits, int width) {
    return CompressiveEncoding.newBuilder()
        .setOutOfLineBitpacking(
            io.lancecodec.format.pb.v21.OutOfLineBitpacking.newBuilder()
                .setUncompressedBitsPerValue(bits)
                .setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(width))))
        .build();
  }

  static long size(int bits, int width, long n) {
    long full = n / 1024;
    long r = n % 1024;
    long words = full * (1024 / bits) * width;
    if (r > 0) {
      words += (long) width * (1024 - r) < (long) (bits - width) * r ? (1024 / bits) * width : r;
    }
    return words * (bits / 8);
  }

  /** Packs with the width fixed at construction (the page-wide maximum). */
  static final class Compressor implements BlockCompressor {
    private final int width;

    Compressor(int width) {
      this.width = width;
    }

    @Override
    public Encoded<byte[]> compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int bits = fw.bitsPerValue();
      int wb = bits / 8;
      long n = fw.numValues();
      byte[] out = new byte[(int) size(bits, width, n)];
      long[] vals = new long[1024];
      long[] words = new long[1024];
      int groupWords = 1024 / bits * width;
      int pos = 0;
      long full = n / 1024;
      for (long g = 0; g < full; g++) {
        Words.read(fw.data(), (int) (g * 1024 * wb), bits, vals, 1024);
        FastLanes.pack(bits, width, vals, words);
        Words.write(words, groupWords, bits, out, pos);
        pos += groupWords * wb;
      }
      int r = (int) (n % 1024);
      if (r > 0) {
        Words.read(fw.data(), (int) (full * 1024 * wb), bits, vals, r);
        if ((long) width * (1024 - r) < (long) (bits - width) * r) {
          java.util.Arrays.fill(vals, r, 1024, 0L);
          FastLanes.pack(bits, width, vals, words);
          Words.write(words, groupWords, bits, out, pos);
        } else {
          Words.write(vals, r, bits, out, pos);
        }
      }
      return new Encoded<>(out, encoding(bits, width));
    }
  }

  static final class Decompressor implements BlockDecompressor {
    private final int bits;
    private final int width;

    Decompressor(int bits, int width) {
      this.bits = bits;
      this.width = width;
    }

    @Override
    public DataBlock decompress(byte[] data, long numValues) {
      int wb = bits / 8;
      int n = LanceCodecException.checkedInt(numValues, "bitpack-ool value count");
      long full = n / 1024;
      int r = n % 1024;
      int groupWords = 1024 / bits * width;
      long fullBytes = full * groupWords * wb;
      long rawTail = fullBytes + (long) r * wb;
      long packedTail = fullBytes + (r > 0 ? (long) groupWords * wb : 0);
      boolean raw = data.length == rawTail;
      if (!(raw || data.length == packedTail)) {
        throw LanceCodecException.corrupt("bitpack-ool: " + data.length + " bytes fit neither layout for " + n + " values of width " + width);
      }
      byte[] out = new byte[n * wb];
      int groupBytes = groupWords * wb;
      int pos = 0;
      for (long g = 0; g < full; g++) {
        FastLanes.unpack(bits, width, data, pos, out, (int) (g * 1024 * wb));
        pos += groupBytes;
      }
      if (r > 0) {
        if (raw) {
          System.arraycopy(data, pos, out, (int) (full * 1024 * wb), r * wb);
        } else {
          // the kernel always writes a whole group
          byte[] group = new byte[1024 * wb];
          FastLanes.unpack(bits, width, data, pos, group, 0);
          System.arraycopy(group, 0, out, (int) (full * 1024 * wb), r * wb);
        }
      }
      return new DataBlock.FixedWidth(out, bits, numValues);
    }
  }
}
