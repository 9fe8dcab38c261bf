package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;

/**
 * 2.3 InlineBitpacking as a block of any length: the mini-block chunk of {@link
 * InlineBitpackingCodec} repeated, one per 1024 values, back to back (a T-bit word holding the
 * group's width W, then {@code 128 * W} bytes of FastLanes words; the last group zero-padded to
 * 1024 values before packing). The payload must be exactly the groups: no byte before, between
 * or after them.
 */
final class InlineBlock23 {
  static final int GROUP = InlineBitpackingCodec.CHUNK;

  private InlineBlock23() {}

  /** Payload bytes of the first {@code n} values of {@code v} ({@code bits}-bit). */
  static long size(long[] v, int n, int bits) {
    long total = 0;
    for (int start = 0; start < n; start += GROUP) {
      int end = Math.min(n, start + GROUP);
      long or = 0;
      for (int i = start; i < end; i++) {
        or |= v[i];
      }
      total += bits / 8 + 128L * Seq.width(or);
    }
    return total;
  }

  /** Packs {@code n} little-endian {@code bits}-bit values of {@code data}. */
  static byte[] pack(byte[] data, int n, int bits) {
    return pack(data, n, bits, 0);
  }

  /** The same with every group packed at least {@code minWidth} bits wide. */
  static byte[] pack(byte[] data, int n, int bits, int minWidth) {
    int groups = (n + GROUP - 1) / GROUP;
    int[] widths = new int[groups];
    long size = 0;
    for (int g = 0; g < groups; g++) {
      widths[g] = Math.max(minWidth, InlineBitpackingCodec.width(data, bits, g * GROUP, Math.min(GROUP, n - g * GROUP)));
      size += InlineBitpackingCodec.chunkBytes(bits, widths[g]);
    }
    byte[] out = new byte[LanceCodecException.checkedInt(size, "inline bitpack payload")];
    int pos = 0;
    for (int g = 0; g < groups; g++) {
      pos += InlineBitpackingCodec.pack(data, bits, g * GROUP, Math.min(GROUP, n - g * GROUP), widths[g], out, pos);
    }
    return out;
  }

  static final class Decompressor implements BlockDecompressor {
    private final int bits;

    Decompressor(int bits) {
      this.bits = bits;
    }

    @Override
    public int bitsPerValue() {
      return bits;
    }

    @Override
    public long maxBytes(long numValues) {
      return (numValues + GROUP - 1) / GROUP * InlineBitpackingCodec.chunkBytes(bits, bits);
    }

    @Override
    public DataBlock decompress(byte[] data, long numValues) {
      int wb = bits / 8;
      int n = LanceCodecException.checkedInt(numValues, "bitpack value count");
      byte[] out = new byte[LanceCodecException.checkedInt((long) n * wb, "bitpack output size")];
      groups(data, 0, data.length, n, (g, pos, len, count) -> InlineBitpackingCodec.unpackChunk(data, pos, len, bits, count, out, g * GROUP * wb));
      return new DataBlock.FixedWidth(out, bits, numValues);
    }

    /**
     * 16-bit levels: each group is unpacked into a small per-thread array and converted from
     * there into the read's array, without an output block per chunk (as out-of-line bit-packing
     * does for 2.2 levels).
     */
    @Override
    public void decompressLevels(byte[] src, int off, int len, int numValues, short[] dst, int dstOff) {
      if (bits != 16) {
        BlockDecompressor.super.decompressLevels(src, off, len, numValues, dst, dstOff);
        return;
      }
      LevelScratch.check("bitpack", src, off, len, numValues, dst, dstOff);
      LevelScratch scratch = LevelScratch.get();
      groups(src, off, len, numValues, (g, pos, l, count) -> {
        InlineBitpackingCodec.unpackChunk(src, pos, l, 16, count, scratch.bytes, 0);
        scratch.shorts.get(0, dst, dstOff + g * GROUP, count);
      });
    }

    /** One group of a payload: its index, bytes {@code [pos, pos + len)} and value count. */
    private interface Group {
      void unpack(int g, int pos, int len, int count);
    }

    /** Checks the groups of {@code data[off, off + size)} for {@code n} values and hands each over. */
    private void groups(byte[] data, int off, int size, int n, Group group) {
      int wb = bits / 8;
      long groups = (n + (long) GROUP - 1) / GROUP;
      // every group has at least its width word, at most a full-width one: checked before allocating
      if (size < groups * wb || size > maxBytes(n)) {
        throw LanceCodecException.corrupt("bitpack: " + size + " bytes cannot hold " + groups + " groups of " + bits + "-bit values");
      }
      int end = off + size;
      int pos = off;
      for (int g = 0; g < groups; g++) {
        if (end - pos < wb) {
          throw LanceCodecException.corrupt("bitpack: group " + g + " at byte " + (pos - off) + " has no width word");
        }
        long width = LittleEndian.getUnsigned(data, pos, wb);
        if (width > bits) {
          throw LanceCodecException.corrupt("bitpack: group " + g + " declares bit width " + width + ", above " + bits);
        }
        int len = InlineBitpackingCodec.chunkBytes(bits, (int) width);
        if (len > end - pos) {
          throw LanceCodecException.corrupt("bitpack: group " + g + " of width " + width + " needs " + len
              + " bytes, " + (end - pos) + " remain");
        }
        group.unpack(g, pos, len, Math.min(GROUP, n - g * GROUP));
        pos += len;
      }
      if (pos != end) {
        throw LanceCodecException.corrupt("bitpack: " + (end - pos) + " bytes after the last group");
      }
    }
  }
}
