package io.lancecodec.codec.pcodec;

import java.util.Arrays;

/**
 * Equal-count histogram of one latent variable, the starting point of bin training (facts from
 * pcodec/pcodec {@code pco/src/histograms.rs} and {@code sort_utils.rs}, pco 1.0).
 *
 * <p>Up to 2^binsLog bins, each with a tight value range and an exact count; a run of one value
 * that straddles a bin boundary stays whole. pco does not sort the latents fully: it partitions
 * them quicksort-style around pivots and stops refining a part as soon as it lies inside one
 * bin, so the cost grows with log(bins) instead of log(n). We follow the same steps (pivot
 * choice, Lomuto partition, the bad-pivot budget with its pattern breaking and heapsort
 * fallback) because the resulting bins, and so the bytes written, depend on them in rare cases.
 *
 * <p>Values are "sortable": signed order equals the latents' unsigned order. Latents of fewer
 * than 64 bits are that already; 64-bit latents have their top bit flipped, and
 * the bins' bounds are flipped back at the end.
 */
final class Histogram {
  private final long[] a;
  private final long n;
  private final int nBinsLog;
  private final long nBins;

  private long applied;
  private long nextAvailBin;
  private boolean open;
  private int openCount;
  private long openLower;
  private long openUpper;

  int size;
  int[] counts = new int[16];
  long[] lowers = new long[16];
  long[] uppers = new long[16];

  /** Builds the histogram of {@code latents[from, to)} of a {@code bits}-wide variable. */
  static Histogram of(long[] latents, int from, int to, int bits, int binsLog) {
    long flip = bits == 64 ? Long.MIN_VALUE : 0;
    long[] a = Arrays.copyOfRange(latents, from, to);
    if (flip != 0) {
      for (int i = 0; i < a.length; i++) {
        a[i] ^= flip;
      }
    }
    long typeMin = flip;
    long typeMax = bits == 64 ? Long.MAX_VALUE : (1L << bits) - 1;
    Histogram h = new Histogram(a, binsLog);
    int badPivotLimit = 1 + (63 - Long.numberOfLeadingZeros(a.length + 1L));
    h.recurse(0, a.length, typeMin, false, typeMax, false, badPivotLimit);
    for (int i = 0; i < h.size; i++) {
      h.lowers[i] ^= flip;
      h.uppers[i] ^= flip;
    }
    return h;
  }

  private Histogram(long[] a, int nBinsLog) {
    this.a = a;
    this.n = a.length;
    this.nBinsLog = nBinsLog;
    this.nBins = 1L << nBinsLog;
  }

  private long binIdx(long cCount) {
    return (cCount << nBinsLog) / n;
  }

  /** Cumulative count at the end of bin {@code binIdx}: ceil((binIdx + 1) * n / nBins). */
  private long cCount(long binIdx) {
    return ((binIdx + 1) * n + nBins - 1) >> nBinsLog;
  }

  /**
   * Adds {@code a[from, to)} to the open bin. Tight bounds are exact; loose ones only bound the
   * values, so the exact minimum or maximum is computed when the bin needs it.
   */
  private void applyOpen(int from, int to, long lb, boolean lbTight, long ub, boolean ubTight) {
    if (from == to) {
      return;
    }
    long upper = ubTight ? ub : max(from, to);
    if (open) {
      openUpper = upper;
      openCount += to - from;
    } else {
      open = true;
      openCount = to - from;
      openLower = lbTight ? lb : min(from, to);
      openUpper = upper;
    }
    applied += to - from;
  }

  private long min(int from, int to) {
    long m = Long.MAX_VALUE;
    for (int i = from; i < to; i++) {
      m = Math.min(m, a[i]);
    }
    return m;
  }

  private long max(int from, int to) {
    long m = Long.MIN_VALUE;
    for (int i = from; i < to; i++) {
      m = Math.max(m, a[i]);
    }
    return m;
  }

  /** Closes the open bin as bin {@code binIdx}; false if nothing was open. */
  private boolean complete(long binIdx) {
    if (!open) {
      return false;
    }
    nextAvailBin = binIdx + 1;
    if (size == counts.length) {
      counts = Arrays.copyOf(counts, size * 2);
      lowers = Arrays.copyOf(lowers, size * 2);
      uppers = Arrays.copyOf(uppers, size * 2);
    }
    counts[size] = openCount;
    lowers[size] = openLower;
    uppers[size] = openUpper;
    size++;
    open = false;
    return true;
  }

  /** A run of one value: it goes to the bin its middle falls in, or to a free bin before. */
  private void applyConstantRun(int from, int to) {
    long start = applied;
    long mid = start + (to - from) / 2;
    long end = start + (to - from);
    long bin = binIdx(mid);
    if (bin > nextAvailBin) {
      long spare = bin - 1;
      if (!complete(spare)) {
        bin = spare;
      }
    }
    long x = a[from];
    applyOpen(from, to, x, true, x, true);
    if (end >= cCount(bin)) {
      complete(bin);
    }
  }

  /** Applies a sorted stretch: bins cut at their target counts, straddling runs kept whole. */
  private void applySorted(int from, int to) {
    int i = from;
    while (i < to) {
      long target = binIdx(applied);
      long targetI = cCount(target) - applied;
      if (targetI >= to - i) {
        applyOpen(i, to, a[i], true, a[to - 1], true);
        if (targetI == to - i) {
          complete(target);
        }
        return;
      }
      int l = i + (int) targetI - 1;
      int r = i + (int) targetI;
      long x = a[l];
      while (l > i && a[l - 1] == x) {
        l--;
      }
      while (r < to && a[r] == x) {
        r++;
      }
      if (l > i) {
        applyOpen(i, l, a[i], true, a[l - 1], true);
      }
      applyConstantRun(l, r);
      i = r;
    }
  }

  /** Values of {@code a[from, to)} lie in [lb, ub]; all values below lb were applied already. */
  private void recurse(int from, int to, long lb, boolean lbTight, long ub, boolean ubTight, int badPivotLimit) {
    if (from == to) {
      return;
    }
    long target = binIdx(applied);
    long targetCount = cCount(target);
    long end = applied + (to - from);
    if (end <= targetCount) {
      applyOpen(from, to, lb, lbTight, ub, ubTight);
      if (end == targetCount) {
        complete(target);
      }
      return;
    }
    if (lb == ub || to - from == 1) {
      applyConstantRun(from, to);
      return;
    }
    long tentative = choosePivot(from, to);
    long pivot;
    long lhsUb;
    boolean lhsUbTight;
    long rhsLb;
    boolean rhsLbTight;
    if (tentative > lb) {
      pivot = tentative;
      lhsUb = tentative - 1;
      lhsUbTight = false;
      rhsLb = tentative;
      rhsLbTight = true;
    } else {
      pivot = tentative + 1;
      lhsUb = tentative;
      lhsUbTight = true;
      rhsLb = tentative + 1;
      rhsLbTight = false;
    }
    int len = to - from;
    int lhsCount = partition(from, to, pivot);
    int mid = from + lhsCount;
    int limit = badPivotLimit;
    if (1 + Math.min(lhsCount, len - lhsCount) < len / 8) {
      limit--;
      if (limit == 0) {
        heapsort(from, mid);
        heapsort(mid, to);
        applySorted(from, to);
        return;
      }
      breakPatterns(from, mid);
      breakPatterns(mid, to);
    }
    recurse(from, mid, lb, lbTight, lhsUb, lhsUbTight, limit);
    recurse(mid, to, rhsLb, rhsLbTight, ub, ubTight, limit);
  }

  /** Median of three positions, or of three medians of neighbours from 50 values on. */
  private long choosePivot(int from, int to) {
    int len = to - from;
    int[] idx = {from + len / 4, from + len / 2, from + (len * 3) / 4};
    if (len >= 8) {
      if (len >= 50) {
        for (int k = 0; k < 3; k++) {
          int[] t = {idx[k] - 1, idx[k], idx[k] + 1};
          sort3(t);
          idx[k] = t[1];
        }
      }
      sort3(idx);
    }
    return a[idx[1]];
  }

  private void sort3(int[] ix) {
    sort2(ix, 0, 1);
    sort2(ix, 1, 2);
    sort2(ix, 0, 1);
  }

  private void sort2(int[] ix, int i, int j) {
    if (a[ix[j]] < a[ix[i]]) {
      int t = ix[i];
      ix[i] = ix[j];
      ix[j] = t;
    }
  }

  /**
   * Lomuto partition: values below the pivot move to the front, in the order and with the
   * swaps pco makes (later pivots are picked by position). Returns how many are below.
   */
  private int partition(int from, int to, long pivot) {
    long[] a = this.a;
    int left = from;
    for (int pos = from; pos < to; pos++) {
      long v = a[pos];
      a[pos] = a[left];
      a[left] = v;
      left += v < pivot ? 1 : 0;
    }
    return left - from;
  }

  /** After a bad pivot: swaps three elements near the middle with pseudo-random ones. */
  private void breakPatterns(int from, int to) {
    int len = to - from;
    if (len < 8) {
      return;
    }
    long seed = len;
    long modulus = Long.highestOneBit(len) == len ? len : Long.highestOneBit(len) << 1;
    int pos = len / 4 * 2;
    for (int i = 0; i < 3; i++) {
      // Marsaglia's 64-bit xorshift, as pco on 64-bit platforms.
      seed ^= seed << 13;
      seed ^= seed >>> 7;
      seed ^= seed << 17;
      long other = seed & (modulus - 1);
      if (other >= len) {
        other -= len;
      }
      int x = from + pos - 1 + i;
      int y = from + (int) other;
      long t = a[x];
      a[x] = a[y];
      a[y] = t;
    }
  }

  private void heapsort(int from, int to) {
    int len = to - from;
    for (int i = len / 2 - 1; i >= 0; i--) {
      siftDown(from, len, i);
    }
    for (int i = len - 1; i >= 1; i--) {
      long t = a[from];
      a[from] = a[from + i];
      a[from + i] = t;
      siftDown(from, i, 0);
    }
  }

  private void siftDown(int from, int len, int node) {
    while (true) {
      int child = 2 * node + 1;
      if (child >= len) {
        return;
      }
      if (child + 1 < len && a[from + child] < a[from + child + 1]) {
        child++;
      }
      if (a[from + node] >= a[from + child]) {
        return;
      }
      long t = a[from + node];
      a[from + node] = a[from + child];
      a[from + child] = t;
      node = child;
    }
  }
}
