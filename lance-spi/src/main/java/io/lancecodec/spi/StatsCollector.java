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

  /** Values counted one by one before the collector decides whether the page is made of long runs. */
  private static final int PROBE = 1024;

  /** Average run length from which the rest of a page is walked run by run. */
  private static final int LONG_RUN = 16;

  private static Stats fixed(DataBlock.FixedWidth fw) {
    int bits = fw.bitsPerValue();
    int n = (int) fw.numValues();
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
      return new Stats.FixedWidth(n, bits, bits, n, fw.usedBytes());
    }
    if (n == 0) {
      return new Stats.FixedWidth(0, bits, 0, 0, fw.usedBytes());
    }
    byte[] d = fw.data();
    int w = bits / 8;
    // acc[0]: the OR of the values, acc[1]: the places where a value differs from the one before
    long[] acc = new long[2];
    int head = Math.min(n, PROBE);
    scan(d, bits, 0, head, acc);
    if (head < n) {
      if (acc[1] * LONG_RUN <= head) {
        // A page of long runs (sorted or dictionary-like values): the rest is ORed a word at a
        // time and its runs found by the vectorized run end, instead of a compare per value
        // (the value-by-value pass was a seventh of writing 200,000 flight times in 2.3).
        acc[0] |= LittleEndian.orOfLanes(d, head * w, n * w);
        for (int i = head - 1; ; ) {
          int j = Runs.end(d, i, n, w);
          if (j >= n) {
            break;
          }
          acc[1]++;
          i = j;
        }
      } else {
        scan(d, bits, head, n, acc);
      }
    }
    long or = LittleEndian.foldLanes(acc[0], bits);
    int width = 64 - Long.numberOfLeadingZeros(or);
    return new Stats.FixedWidth(n, bits, width, 1 + acc[1], fw.usedBytes());
  }

  /**
   * ORs values {@code [from, to)} into {@code acc[0]} (as their bytes lie, lanes unfolded) and
   * counts in {@code acc[1]} each of them that differs from the value before it (value 0 has
   * none). {@code from} is 0 or a multiple of 8 values, so 8-byte words stay aligned with values.
   */
  private static void scan(byte[] d, int bits, int from, int to, long[] acc) {
    long or = 0;
    long changes = 0;
    switch (bits) {
      case 8: {
        for (int i = from; i < to; i++) {
          or |= d[i] & 0xFF;
          if (i > 0 && d[i] != d[i - 1]) {
            changes++;
          }
        }
        break;
      }
      case 16: {
        // four values per 8-byte word: a quarter of the loads and loop steps
        short prev = LittleEndian.getShort(d, 2 * Math.max(0, from - 1));
        int words = (to - from) / 4;
        for (int j = 0; j < words; j++) {
          long x = LittleEndian.getLong(d, 2 * from + 8 * j);
          short s0 = (short) x;
          short s1 = (short) (x >>> 16);
          short s2 = (short) (x >>> 32);
          short s3 = (short) (x >>> 48);
          or |= x;
          changes += (s0 != prev ? 1 : 0) + (s1 != s0 ? 1 : 0) + (s2 != s1 ? 1 : 0) + (s3 != s2 ? 1 : 0);
          prev = s3;
        }
        for (int i = from + 4 * words; i < to; i++) {
          short v = LittleEndian.getShort(d, i * 2);
          or |= v & 0xFFFFL;
          changes += v != prev ? 1 : 0;
          prev = v;
        }
        break;
      }
      case 32: {
        // two values per 8-byte word: half the loads and loop steps
        int prev = LittleEndian.getInt(d, 4 * Math.max(0, from - 1));
        int words = (to - from) / 2;
        for (int j = 0; j < words; j++) {
          long x = LittleEndian.getLong(d, 4 * from + 8 * j);
          int lo = (int) x;
          int hi = (int) (x >>> 32);
          or |= x;
          changes += (lo != prev ? 1 : 0) + (hi != lo ? 1 : 0);
          prev = hi;
        }
        if (((to - from) & 1) != 0) {
          int v = LittleEndian.getInt(d, (to - 1) * 4);
          or |= v & 0xFFFFFFFFL;
          changes += v != prev ? 1 : 0;
        }
        break;
      }
      default: {
        long prev = LittleEndian.getLong(d, 8 * Math.max(0, from - 1));
        for (int i = from; i < to; i++) {
          long v = LittleEndian.getLong(d, i * 8);
          or |= v;
          changes += v != prev ? 1 : 0;
          prev = v;
        }
        break;
      }
    }
    acc[0] |= or;
    acc[1] += changes;
  }
}
