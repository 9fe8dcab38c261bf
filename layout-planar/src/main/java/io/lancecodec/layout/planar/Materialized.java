package io.lancecodec.layout.planar;

/**
 * The materialized leaf positions of a sparse page (one bit per terminal slot) with a rank index,
 * so that a range of terminal slots maps to the zipped values stored for it in constant time.
 */
final class Materialized {
  private static final int SHIFT = 3; // one count per 8 words (512 slots)
  final long[] bits;
  private final int[] before;
  final int count;
  final int terminal;

  Materialized(long[] bits, int terminal) {
    this.bits = bits;
    this.terminal = terminal;
    before = new int[(bits.length >>> SHIFT) + 1];
    int n = 0;
    for (int w = 0; w < bits.length; w++) {
      if ((w & ((1 << SHIFT) - 1)) == 0) {
        before[w >>> SHIFT] = n;
      }
      n += Long.bitCount(bits[w]);
    }
    count = n;
  }

  /** Materialized positions below terminal slot {@code t}. */
  int rank(long t) {
    if (t >= terminal) {
      return count;
    }
    int w = (int) (t >>> 6);
    int n = before[w >>> SHIFT];
    for (int i = w & ~((1 << SHIFT) - 1); i < w; i++) {
      n += Long.bitCount(bits[i]);
    }
    long mask = (1L << t) - 1; // the bits below t in its word (t & 63 == 0 gives 0)
    return n + Long.bitCount(bits[w] & mask);
  }

  boolean isSet(long t) {
    return Bits.get(bits, t);
  }

  long bytes() {
    return bits.length * 8L + before.length * 4L;
  }
}
