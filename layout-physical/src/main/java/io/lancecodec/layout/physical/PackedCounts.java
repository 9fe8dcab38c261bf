package io.lancecodec.layout.physical;

import io.lancecodec.spi.LanceCodecException;

/**
 * Per-chunk counts (bytes, values, rows) kept for the life of a reader in as few bits as they
 * need: every entry but the last as its difference from the smallest, bit-packed, with the
 * running sum kept every {@link #GROUP} entries; the last entry (a page's short tail chunk)
 * apart, so pages of equal chunks cost no bits per chunk at all. Sums and searches walk at most
 * one group, which is per chunk, never per value.
 */
final class PackedCounts {
  // a running sum every 16 entries: a take looks up several prefixes, and walking up to 63
  // packed entries for each was a tenth of a one-row take of token lists
  private static final int SHIFT = 4;
  static final int GROUP = 1 << SHIFT;

  private final int n;
  private final long base;
  private final int bits;
  private final long[] packed;
  private final long[] sums; // sums[g] = prefix(g * GROUP); null when bits == 0
  private final long last;
  private final long total;

  PackedCounts(long[] values, int n) {
    this.n = n;
    int m = Math.max(0, n - 1);
    long min = Long.MAX_VALUE;
    long max = 0;
    for (int k = 0; k < m; k++) {
      if (values[k] < 0) {
        throw LanceCodecException.internal("negative chunk count " + values[k]);
      }
      min = Math.min(min, values[k]);
      max = Math.max(max, values[k]);
    }
    this.base = m == 0 ? 0 : min;
    this.bits = m == 0 ? 0 : 64 - Long.numberOfLeadingZeros(max - min);
    this.last = n == 0 ? 0 : values[n - 1];
    if (bits == 0) {
      packed = null;
      sums = null;
    } else {
      packed = new long[(int) (((long) m * bits + 63) >>> 6)];
      sums = new long[((m - 1) >>> SHIFT) + 1];
      long run = 0;
      for (int k = 0; k < m; k++) {
        if ((k & (GROUP - 1)) == 0) {
          sums[k >>> SHIFT] = run;
        }
        put(k, values[k] - base);
        run += values[k];
      }
    }
    long t = 0;
    for (int k = 0; k < n; k++) {
      t += values[k];
    }
    this.total = t;
  }

  private void put(int k, long v) {
    long bit = (long) k * bits;
    int w = (int) (bit >>> 6);
    int s = (int) (bit & 63);
    packed[w] |= v << s;
    if (s + bits > 64) {
      packed[w + 1] |= v >>> (64 - s);
    }
  }

  private long unpack(int k) {
    long bit = (long) k * bits;
    int w = (int) (bit >>> 6);
    int s = (int) (bit & 63);
    long v = packed[w] >>> s;
    if (s + bits > 64) {
      v |= packed[w + 1] << (64 - s);
    }
    return bits == 64 ? v : v & ((1L << bits) - 1);
  }

  int size() {
    return n;
  }

  long get(int k) {
    if (k == n - 1) {
      return last;
    }
    return bits == 0 ? base : base + unpack(k);
  }

  /** The sum of entries {@code [0, k)}, for k in [0, size]. */
  long prefix(int k) {
    if (k >= n) {
      return total;
    }
    if (k == n - 1) {
      return total - last;
    }
    if (bits == 0) {
      return base * k;
    }
    int g = k >>> SHIFT;
    long s = sums[g];
    for (int i = g << SHIFT; i < k; i++) {
      s += base + unpack(i);
    }
    return s;
  }

  /** The largest k in [0, size] with {@code prefix(k) <= x} (ties go to the largest). */
  int search(long x) {
    if (n == 0 || x < 0) {
      return 0;
    }
    if (total <= x) {
      return n;
    }
    int m = n - 1;
    int k;
    long s;
    if (bits == 0) {
      k = base == 0 ? m : (int) Math.min(m, x / base);
      return k;
    }
    int lo = 0;
    int hi = sums.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (sums[mid] <= x) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    k = lo << SHIFT;
    s = sums[lo];
    while (k < m) {
      long next = s + base + unpack(k);
      if (next > x) {
        break;
      }
      s = next;
      k++;
    }
    return k;
  }

  /**
   * Bytes of state: the packed entries, the group sums, and the base, the last entry and the
   * width/count word (JVM object headers are not counted, as for every search-cache figure).
   */
  long bytes() {
    return 24 + (packed == null ? 0 : 8L * packed.length) + (sums == null ? 0 : 8L * sums.length);
  }
}
