package io.lancecodec.codec.pcodec;

/**
 * Applies delta encodings in place (facts from pcodec/pcodec {@code pco/src/delta/}). Each
 * encoder leaves {@code stateN} junk latents at the front, returns the state the page metadata
 * stores, and centres the deltas (adds MID) so that small negative deltas sort next to small
 * positive ones.
 */
final class DeltaEncoders {
  /** Lookback candidates per latent: 6 recent positions, 4 recently used lookbacks, 6 hashed. */
  private static final int PROPOSED = 16;
  private static final int BRUTE = 6;
  private static final int REPEATING = 4;
  private static final int[] COARSENESSES = {0, 8};
  private static final int MIN_WINDOW_LOG = 4;
  private static final int MAX_WINDOW_LOG = 15;

  private DeltaEncoders() {}

  /** Moments of orders 1..{@code order}; the deltas follow from {@code from + order}. */
  static long[] encodeConsecutive(int order, long[] lat, int from, int to, int bits) {
    long mask = bits == 64 ? -1L : (1L << bits) - 1;
    long[] moments = new long[order];
    int start = from;
    for (int o = 0; o < order; o++) {
      moments[o] = start < to ? lat[start] : 0;
      for (int i = to - 1; i > start; i--) {
        lat[i] = (lat[i] - lat[i - 1]) & mask;
      }
      if (start < to) {
        start++;
      }
    }
    toggle(lat, start, to, bits);
    return moments;
  }

  static void toggle(long[] lat, int from, int to, int bits) {
    long mask = bits == 64 ? -1L : (1L << bits) - 1;
    long mid = 1L << (bits - 1);
    for (int i = from; i < to; i++) {
      lat[i] = (lat[i] + mid) & mask;
    }
  }

  /** The lookback configuration pco's encoder uses for n numbers: one state, window ~n. */
  static DeltaEncoding newLookback(int n) {
    int windowLog = 32 - Integer.numberOfLeadingZeros(n - 1);
    windowLog = Math.max(MIN_WINDOW_LOG, Math.min(MAX_WINDOW_LOG, windowLog));
    return DeltaEncoding.lookback(windowLog, 0, false);
  }

  private static int hash(long x, int mask) {
    x = (x ^ (x >>> 32)) * 0x9E3779B97F4A7C15L;
    x ^= x >>> 32;
    return (int) x & mask;
  }

  /**
   * Chooses a lookback for each latent after the first {@code stateN}: among the proposals it
   * takes the one whose target is closest in value, favouring lookbacks already used often.
   */
  static long[] chooseLookbacks(DeltaEncoding cfg, long[] lat, int from, int to, int bits) {
    int n = to - from;
    int stateN = 1 << cfg.stateLog;
    if (n <= stateN) {
      return new long[0];
    }
    int windowN = 1 << cfg.windowLog;
    int tableN = 1 << (cfg.windowLog + 1);
    int[] counts = new int[Math.min(windowN, n)];
    java.util.Arrays.fill(counts, 1);
    long[] lookbacks = new long[n - stateN];
    int[] table = new int[COARSENESSES.length * tableN];
    int[] proposed = new int[PROPOSED];
    for (int i = 0; i < PROPOSED; i++) {
      proposed[i] = Math.min(i + 1, stateN);
    }
    int best = 1;
    int repeatingIdx = 0;
    int hashMask = tableN - 1;
    for (int i = stateN; i < n; i++) {
      long l = lat[from + i];
      int brute = Math.min(i, PROPOSED);
      proposed[brute - 1] = brute;

      int proposal = BRUTE + REPEATING;
      int offset = 0;
      for (int coarseness : COARSENESSES) {
        long bucket = l >>> coarseness;
        for (long b = bucket - 1, end = bucket + 2; b != end; b++) {
          int toLast = i - table[offset + hash(b, hashMask)];
          proposed[proposal] = toLast <= windowN ? toLast : Math.min(proposal, i);
          proposal++;
        }
        table[offset + hash(bucket, hashMask)] = i;
        offset += tableN;
      }

      int bestGoodness = 0;
      int chosen = 0;
      for (int lb : proposed) {
        int lbGoodness = 32 - Integer.numberOfLeadingZeros(counts[lb - 1]);
        long other = lat[from + i - lb];
        long delta = minUnsigned(wrap(l - other, bits), wrap(other - l, bits));
        int deltaGoodness = Long.numberOfLeadingZeros(delta) - (64 - bits);
        int goodness = lbGoodness + deltaGoodness;
        if (goodness > bestGoodness) {
          bestGoodness = goodness;
          chosen = lb;
        }
      }
      if (chosen != best) {
        repeatingIdx++;
      }
      proposed[BRUTE + repeatingIdx % REPEATING] = chosen;
      best = chosen;
      lookbacks[i - stateN] = best;
      counts[best - 1]++;
    }
    return lookbacks;
  }

  private static long wrap(long x, int bits) {
    return bits == 64 ? x : x & ((1L << bits) - 1);
  }

  private static long minUnsigned(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? a : b;
  }

  /** Replaces latents by differences to their looked-back latents; returns the stored state. */
  static long[] encodeLookback(DeltaEncoding cfg, long[] lookbacks, long[] lat, int from, int to, int bits) {
    long mask = bits == 64 ? -1L : (1L << bits) - 1;
    int n = to - from;
    int stateN = 1 << cfg.stateLog;
    int realStateN = Math.min(n, stateN);
    for (int i = n - 1; i >= realStateN; i--) {
      int lb = (int) lookbacks[i - stateN];
      lat[from + i] = (lat[from + i] - lat[from + i - lb]) & mask;
    }
    long[] state = new long[stateN];
    System.arraycopy(lat, from, state, stateN - realStateN, realStateN);
    toggle(lat, from, to, bits);
    return state;
  }
}
