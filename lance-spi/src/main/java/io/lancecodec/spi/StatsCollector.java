package io.lancecodec.spi;

/** Computes {@link Stats} in one pass over a block's primitive bytes. */
final class StatsCollector {
  private StatsCollector() {}

  static Stats of(DataBlock block) {
    if (block instanceof DataBlock.FixedWidth fw) {
      return fixed(fw);
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      int n = (int) vw.numValues();
      long max = 0;
      for (int i = 0; i < n; i++) {
        max = Math.max(max, vw.offset(i + 1) - vw.offset(i));
      }
      return new Stats.VariableWidth(n, vw.bitsPerOffset(), vw.offset(n) - vw.offset(0), max);
    }
    return new Stats.Other(block.numValues());
  }

  /** Values per stretch of a page that is walked one way, value by value or run by run: a group of {@link Stats#GROUP}. */
  private static final int PROBE = Stats.GROUP;

  /** Average run length in a stretch from which the next stretch is walked run by run. */
  private static final int LONG_RUN = 16;

  /** Pages of at least this many value bytes have their halves counted on two cores. */
  private static final long PARALLEL_MIN_BYTES = 1 << 20;

  private static Stats fixed(DataBlock.FixedWidth fw) {
    int bits = fw.bitsPerValue();
    int n = (int) fw.numValues();
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
      return new Stats.FixedWidth(n, bits, bits, n, fw.usedBytes());
    }
    if (n == 0) {
      return new Stats.FixedWidth(0, bits, 0, 0, fw.usedBytes(), new byte[0]);
    }
    byte[] d = fw.data();
    int w = bits / 8;
    // Per half of the page (on two cores when it is large), [0]: the OR of the values, [1]: the
    // places where a value differs from the one before. The second half counts the change at its
    // first value, since a value is compared with the one before it wherever it lies, so the
    // halves' counts simply add.
    long[][] acc = new long[2][2];
    byte[] groupWidths = new byte[(n + PROBE - 1) / PROBE];
    Parallelism.inHalves((long) n * w >= PARALLEL_MIN_BYTES, groupWidths.length,
        (half, from, to) -> stretches(d, bits, from * PROBE, (int) Math.min(n, (long) to * PROBE), acc[half], groupWidths));
    long or = LittleEndian.foldLanes(acc[0][0] | acc[1][0], bits);
    int width = 64 - Long.numberOfLeadingZeros(or);
    return new Stats.FixedWidth(n, bits, width, 1 + acc[0][1] + acc[1][1], fw.usedBytes(), groupWidths);
  }

  /**
   * {@link #scan}'s counts over values {@code [start, end)}, {@code start} a multiple of {@link
   * #PROBE}, and each stretch's width in {@code widths}.
   */
  private static void stretches(byte[] d, int bits, int start, int end, long[] acc, byte[] widths) {
    int w = bits / 8;
    // Each stretch of PROBE values is counted value by value or walked run by run, as the stretch
    // before it turned out: sorted columns often start with short runs (flight times at night)
    // and a decision made once on the head walked 200,000 values one by one.
    boolean longRuns = false;
    for (int from = start; from < end; from += PROBE) {
      int to = Math.min(end, from + PROBE);
      long before = acc[1];
      long or;
      if (longRuns) {
        or = LittleEndian.orOfLanes(d, from * w, to * w);
        for (int i = from - 1; ; ) {
          int j = Runs.end(d, i, to, w);
          if (j >= to) {
            break;
          }
          acc[1]++;
          i = j;
        }
      } else {
        or = scan(d, bits, from, to, acc);
      }
      acc[0] |= or;
      widths[from / PROBE] = (byte) (64 - Long.numberOfLeadingZeros(LittleEndian.foldLanes(or, bits)));
      longRuns = (acc[1] - before) * LONG_RUN <= to - from;
    }
  }

  /**
   * Returns the OR of values {@code [from, to)} (as their bytes lie, lanes unfolded) and counts
   * in {@code acc[1]} each of them that differs from the value before it (value 0 has none). {@code from} is 0 or a multiple of 8 values, so 8-byte words stay aligned with values.
   *
   * <p>Narrow values are compared a word at a time: the word XOR itself moved up one lane (the
   * previous word's last value shifted in) is zero exactly in the lanes equal to their
   * predecessor, and the nonzero lanes are counted without a branch. A compare and branch per
   * value mispredicts on level streams, where about one value in seven differs: 16-bit levels
   * took 1.3 ns a value, twice the 32-bit token ids.
   */
  private static long scan(byte[] d, int bits, int from, int to, long[] acc) {
    long or = 0;
    long changes = 0;
    int w = bits / 8;
    long prev = LittleEndian.getUnsigned(d, w * Math.max(0, from - 1), w);
    if (bits == 64) {
      for (int i = from; i < to; i++) {
        long v = LittleEndian.getLong(d, i * 8);
        long diff = v ^ prev;
        or |= v;
        changes += (diff | -diff) >>> 63;
        prev = v;
      }
    } else {
      long high = HIGH_BITS[Integer.numberOfTrailingZeros(bits) - 3];
      long low = ~high;
      int perWord = 64 / bits;
      int words = (to - from) / perWord;
      int base = from * w;
      for (int j = 0; j < words; j++) {
        long x = LittleEndian.getLong(d, base + 8 * j);
        long y = x ^ (x << bits | prev);
        changes += Long.bitCount((((y & low) + low) | y) & high);
        or |= x;
        prev = x >>> (64 - bits);
      }
      for (int i = from + words * perWord; i < to; i++) {
        long v = LittleEndian.getUnsigned(d, i * w, w);
        or |= v;
        changes += v != prev ? 1 : 0;
        prev = v;
      }
    }
    acc[1] += changes;
    return or;
  }

  /** The top bit of every 8-, 16- and 32-bit lane of a word. */
  private static final long[] HIGH_BITS = {0x8080808080808080L, 0x8000800080008000L, 0x8000000080000000L};
}
