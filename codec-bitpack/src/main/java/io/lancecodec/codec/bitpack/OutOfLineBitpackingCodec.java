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
final class OutOfLineBitpackingCodec {
  private OutOfLineBitpackingCodec() {}

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
  /** The 2.3 descriptor: {@code OutOfLineBitpacking{T, values = Flat{W}}} (its values are field 2 there, 3 in 2.1). */
  static io.lancecodec.format.pb.v23.CompressiveEncoding encoding23(int bits, int width) {
    return io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
        .setOutOfLineBitpacking(io.lancecodec.format.pb.v23.OutOfLineBitpacking.newBuilder()
            .setUncompressedBitsPerValue(bits)
            .setValues(io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder()
                .setFlat(io.lancecodec.format.pb.v23.Flat.newBuilder().setBitsPerValue(width))))
        .build();
  }

  static final class Compressor implements BlockCompressor {
    private final int width;
    private final boolean v23;
    /**
     * The descriptor of the last value width seen: a page's levels are compressed chunk by chunk
     * with one compressor, and building the same message for every chunk cost as much as packing.
     * Immutable (final fields), so a stale or racing read only builds it again.
     */
    private Described last;

    private record Described(int bits, com.google.protobuf.Message encoding) {}

    Compressor(int width) {
      this(width, false);
    }

    /** {@code v23}: the 2.3 descriptor over the same bytes. */
    Compressor(int width, boolean v23) {
      this.width = width;
      this.v23 = v23;
    }

    @Override
    public Encoded<byte[]> compress(DataBlock block) {
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) block;
      int bits = fw.bitsPerValue();
      int wb = bits / 8;
      long n = fw.numValues();
      byte[] out = new byte[(int) size(bits, width, n)];
      int groupBytes = 1024 / bits * width * wb;
      int pos = 0;
      long full = n / 1024;
      // every value is below 2^width (the page's widest), as the generated packers need
      for (long g = 0; g < full; g++) {
        FastLanes.pack(bits, width, fw.data(), (int) (g * 1024 * wb), 1024, out, pos);
        pos += groupBytes;
      }
      int r = (int) (n % 1024);
      if (r > 0) {
        int tail = (int) (full * 1024 * wb);
        if ((long) width * (1024 - r) < (long) (bits - width) * r) {
          FastLanes.pack(bits, width, fw.data(), tail, r, out, pos);
        } else {
          System.arraycopy(fw.data(), tail, out, pos, r * wb);
        }
      }
      Described d = last;
      if (d == null || d.bits != bits) {
        d = new Described(bits, v23 ? encoding23(bits, width) : encoding(bits, width));
        last = d;
      }
      return new Encoded<>(out, d.encoding);
    }
  }

  static final class Decompressor implements BlockDecompressor {
    private final int bits;
    private final int width;

    Decompressor(int bits, int width) {
      this.bits = bits;
      this.width = width;
    }

    /** The packed width every group shares (the fused decodes read the groups themselves). */
    int width() {
      return width;
    }

    @Override
    public int bitsPerValue() {
      return bits;
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
      byte[] out = new byte[LanceCodecException.checkedInt((long) n * wb, "bitpack-ool output size")];
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

    /**
     * Levels are 16-bit and mostly packed to a bit or two: each group is unpacked into a small
     * per-thread array that stays in cache and converted from there, so no per-chunk output
     * block is allocated and the caller's array is written once.
     */
    @Override
    public void decompressLevels(byte[] src, int off, int len, int numValues, short[] dst, int dstOff) {
      if (bits != 16) {
        BlockDecompressor.super.decompressLevels(src, off, len, numValues, dst, dstOff);
        return;
      }
      LevelScratch.check("bitpack-ool", src, off, len, numValues, dst, dstOff);
      int full = numValues / 1024;
      int r = numValues % 1024;
      int groupBytes = 1024 / 16 * width * 2;
      long fullBytes = (long) full * groupBytes;
      boolean raw = len == fullBytes + 2L * r;
      if (!(raw || len == fullBytes + (r > 0 ? groupBytes : 0))) {
        throw LanceCodecException.corrupt("bitpack-ool: " + len + " bytes fit neither layout for " + numValues + " values of width " + width);
      }
      LevelScratch scratch = LevelScratch.get();
      int pos = off;
      for (int g = 0; g < full; g++) {
        FastLanes.unpack(16, width, src, pos, scratch.bytes, 0);
        scratch.shorts.get(0, dst, dstOff + g * 1024, 1024);
        pos += groupBytes;
      }
      if (r > 0) {
        java.nio.ShortBuffer tail;
        if (raw) {
          tail = java.nio.ByteBuffer.wrap(src, pos, 2 * r).slice().order(java.nio.ByteOrder.LITTLE_ENDIAN).asShortBuffer();
        } else {
          FastLanes.unpack(16, width, src, pos, scratch.bytes, 0);
          tail = scratch.shorts;
        }
        tail.get(0, dst, dstOff + full * 1024, r);
      }
    }
  }
}
