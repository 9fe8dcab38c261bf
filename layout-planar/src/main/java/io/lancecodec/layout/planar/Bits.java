package io.lancecodec.layout.planar;

/** Ranges of bits in {@code long[]} bitmaps (bit {@code i} is bit {@code i & 63} of word {@code i >>> 6}). */
final class Bits {
  private Bits() {}

  static long[] ones(long n) {
    long[] b = new long[(int) ((n + 63) >>> 6)];
    set(b, 0, n);
    return b;
  }

  static void set(long[] b, long from, long to) {
    for (long i = from; i < to; ) {
      int w = (int) (i >>> 6);
      long end = Math.min(to, ((long) w + 1) << 6);
      long mask = end - i == 64 ? -1L : ((1L << (end - i)) - 1) << i;
      b[w] |= mask;
      i = end;
    }
  }

  static void clear(long[] b, long from, long to) {
    for (long i = from; i < to; ) {
      int w = (int) (i >>> 6);
      long end = Math.min(to, ((long) w + 1) << 6);
      long mask = end - i == 64 ? -1L : ((1L << (end - i)) - 1) << i;
      b[w] &= ~mask;
      i = end;
    }
  }

  static boolean get(long[] b, long i) {
    return (b[(int) (i >>> 6)] & (1L << i)) != 0;
  }

  /** Set bits in {@code [from, to)}. */
  static long count(long[] b, long from, long to) {
    long n = 0;
    for (long i = from; i < to; ) {
      int w = (int) (i >>> 6);
      long end = Math.min(to, ((long) w + 1) << 6);
      long mask = end - i == 64 ? -1L : ((1L << (end - i)) - 1) << i;
      n += Long.bitCount(b[w] & mask);
      i = end;
    }
    return n;
  }
}
