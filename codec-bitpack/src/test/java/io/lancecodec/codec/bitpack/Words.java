package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.LittleEndian;

/** Moves unsigned T-bit little-endian words between byte arrays and long arrays (test helper). */
final class Words {
  private Words() {}

  static void read(byte[] src, int off, int bits, long[] dst, int count) {
    switch (bits) {
      case 8:
        for (int i = 0; i < count; i++) {
          dst[i] = src[off + i] & 0xFFL;
        }
        break;
      case 16:
        for (int i = 0; i < count; i++) {
          dst[i] = LittleEndian.getShort(src, off + 2 * i) & 0xFFFFL;
        }
        break;
      case 32:
        for (int i = 0; i < count; i++) {
          dst[i] = LittleEndian.getInt(src, off + 4 * i) & 0xFFFFFFFFL;
        }
        break;
      default:
        for (int i = 0; i < count; i++) {
          dst[i] = LittleEndian.getLong(src, off + 8 * i);
        }
    }
  }

  static void write(long[] src, int count, int bits, byte[] dst, int off) {
    switch (bits) {
      case 8:
        for (int i = 0; i < count; i++) {
          dst[off + i] = (byte) src[i];
        }
        break;
      case 16:
        for (int i = 0; i < count; i++) {
          LittleEndian.putShort(dst, off + 2 * i, (short) src[i]);
        }
        break;
      case 32:
        for (int i = 0; i < count; i++) {
          LittleEndian.putInt(dst, off + 4 * i, (int) src[i]);
        }
        break;
      default:
        for (int i = 0; i < count; i++) {
          LittleEndian.putLong(dst, off + 8 * i, src[i]);
        }
    }
  }

  /** Bit length of the OR of {@code count} values. */
  static int width(long[] v, int count) {
    long or = 0;
    for (int i = 0; i < count; i++) {
      or |= v[i];
    }
    return 64 - Long.numberOfLeadingZeros(or);
  }
}
