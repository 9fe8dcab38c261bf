package io.lancecodec.codec.pcodec;

/**
 * tANS tables shared by both directions (facts from pcodec/pcodec {@code pco/src/ans/}).
 *
 * <p>States live in [0, 2^sizeLog). Symbols (bins) are spread over the table with a fixed odd
 * stride near 3/5 of its size, so rare bins land far apart; the spread is part of the format.
 * Decoding a state yields its bin, how many bits to read, and the base of the next state.
 */
final class Ans {
  private Ans() {}

  /** The bin owning each state; weights must sum to 2^sizeLog (callers check). */
  static int[] spread(int sizeLog, int[] weights) {
    int size = 1 << sizeLog;
    int[] symbols = new int[size];
    int stride = (3 * size) / 5;
    if ((stride & 1) == 0) {
      stride++;
    }
    int step = 0;
    for (int s = 0; s < weights.length; s++) {
      for (int w = 0; w < weights[s]; w++) {
        symbols[(stride * step) & (size - 1)] = s;
        step++;
      }
    }
    return symbols;
  }

  /** Bit layout of a decoding node: next state base (14 bits), bits to read (4), offset bits (7). */
  static final int NODE_BITS_SHIFT = 14;

  static final int NODE_OFFSET_BITS_SHIFT = 18;

  static final int NODE_BASE_MASK = (1 << NODE_BITS_SHIFT) - 1;

  /**
   * Decoding nodes packed as {@code nextStateBase | bitsToRead << 14 | offsetBits << 18}, one
   * per state, so the decode loop needs a single int load per latent besides the bin's lower
   * bound. Tables have at most 2^14 states, so the base is below 2^14 and at most 14 bits are read.
   */
  static int[] decodeNodes(int sizeLog, int[] weights, int[] offsetBits, int[] symbols) {
    int size = 1 << sizeLog;
    int[] xs = weights.clone();
    int[] nodes = new int[size];
    int sizeLz = Integer.numberOfLeadingZeros(size);
    for (int state = 0; state < size; state++) {
      int sym = symbols[state];
      int x = xs[sym]++;
      int bitsToRead = Integer.numberOfLeadingZeros(x) - sizeLz;
      int nextBase = (x << bitsToRead) - size;
      int ob = sym < offsetBits.length ? offsetBits[sym] : 0;
      nodes[state] = nextBase | bitsToRead << NODE_BITS_SHIFT | ob << NODE_OFFSET_BITS_SHIFT;
    }
    return nodes;
  }

  /** Encoder tables for one latent variable. */
  static final class Encoder {
    final int sizeLog;
    final int[] weights;
    /** States from this one on emit one bit more than {@link #minRenormBits} for the symbol. */
    final int[] cutoff;
    final int[] minRenormBits;
    /** States to move to, grouped per symbol starting at {@code firstNext[symbol]}. */
    final int[] nextStates;
    final int[] firstNext;

    Encoder(int sizeLog, int[] weights) {
      this.sizeLog = sizeLog;
      this.weights = weights;
      int n = weights.length;
      int size = 1 << sizeLog;
      cutoff = new int[n];
      minRenormBits = new int[n];
      firstNext = new int[n + 1];
      for (int s = 0; s < n; s++) {
        int w = weights[s];
        int maxXs = 2 * w - 1;
        minRenormBits[s] = sizeLog - (31 - Integer.numberOfLeadingZeros(maxXs));
        cutoff[s] = (2 * w) << minRenormBits[s];
        firstNext[s + 1] = firstNext[s] + w;
      }
      nextStates = new int[size];
      int[] filled = new int[n];
      int[] symbols = spread(sizeLog, weights);
      for (int state = 0; state < size; state++) {
        int s = symbols[state];
        nextStates[firstNext[s] + filled[s]++] = size + state;
      }
    }

    int initialState() {
      return 1 << sizeLog;
    }

    /** Bits of the current state to emit before moving on with {@code symbol}. */
    int renormBits(int state, int symbol) {
      return state >= cutoff[symbol] ? minRenormBits[symbol] + 1 : minRenormBits[symbol];
    }

    int next(int state, int symbol, int renormBits) {
      return nextStates[firstNext[symbol] + (state >>> renormBits) - weights[symbol]];
    }
  }

  /**
   * Chooses the table size and integer weights for bins seen {@code counts} times: each bin gets
   * at least 1, the rest is shared in proportion, and a common power of two is divided out.
   * Returns the size log in element 0 of {@code sizeLogOut}.
   */
  static int[] quantizeWeights(int[] counts, long total, int maxSizeLog, int[] sizeLogOut) {
    if (counts.length == 1) {
      sizeLogOut[0] = 0;
      return new int[] {1};
    }
    int minSizeLog = 64 - Long.numberOfLeadingZeros(counts.length - 1L);
    int sizeLog = Math.max(minSizeLog, maxSizeLog);
    int[] weights = quantizeTo(counts, total, sizeLog);
    int shift = 32;
    for (int w : weights) {
      shift = Math.min(shift, Integer.numberOfTrailingZeros(w));
    }
    sizeLog -= shift;
    for (int i = 0; i < weights.length; i++) {
      weights[i] >>>= shift;
    }
    sizeLogOut[0] = sizeLog;
    return weights;
  }

  private static int[] quantizeTo(int[] counts, long total, int sizeLog) {
    if (sizeLog == 0) {
      return new int[] {1};
    }
    int required = 1 << sizeLog;
    float multiplier = (float) required / (float) total;
    float[] surplus = new float[counts.length];
    float desired = 0f;
    for (int i = 0; i < counts.length; i++) {
      surplus[i] = Math.max((float) counts[i] * multiplier - 1.0f, 0.0f);
      desired += surplus[i];
    }
    int requiredSurplus = required - counts.length;
    float surplusMult = desired == 0f ? 0f : (float) requiredSurplus / desired;
    float[] exact = new float[counts.length];
    int[] weights = new int[counts.length];
    int sum = 0;
    for (int i = 0; i < counts.length; i++) {
      exact[i] = 1.0f + surplus[i] * surplusMult;
      weights[i] = (int) roundHalfAway(exact[i]);
      sum += weights[i];
    }
    // Rounding misses the target sum by a little: take from bins that were rounded up, give to
    // bins that were rounded down, scanning from the front as the reference does. A pass that
    // changes nothing (float noise) falls back to adjusting the heaviest bin.
    while (sum > required) {
      boolean changed = false;
      for (int i = 0; i < weights.length && sum > required; i++) {
        if (weights[i] > 1 && (float) weights[i] > exact[i]) {
          weights[i]--;
          sum--;
          changed = true;
        }
      }
      if (!changed) {
        weights[heaviest(weights)]--;
        sum--;
      }
    }
    while (sum < required) {
      boolean changed = false;
      for (int i = 0; i < weights.length && sum < required; i++) {
        if ((float) weights[i] < exact[i]) {
          weights[i]++;
          sum++;
          changed = true;
        }
      }
      if (!changed) {
        weights[heaviest(weights)]++;
        sum++;
      }
    }
    return weights;
  }

  private static int heaviest(int[] weights) {
    int best = 0;
    for (int i = 1; i < weights.length; i++) {
      if (weights[i] > weights[best]) {
        best = i;
      }
    }
    return best;
  }

  static float roundHalfAway(float x) {
    float t = x < 0 ? (float) Math.ceil(x) : (float) Math.floor(x);
    if (Math.abs(x - t) >= 0.5f) {
      t += Math.signum(x);
    }
    return t;
  }
}
