package io.lancecodec.codec.alp;

/**
 * The paper's two-level choice of exponents. First level, once per row group of 100 vectors:
 * sample 8 evenly spread vectors, 32 evenly spread values of each, find each sample's best
 * candidate by trying them all, and keep the (at most 5) candidates that won most often. Second
 * level, once per vector: try those few on 32 of its values and stop after two in a row fail to
 * improve.
 *
 * <p>A candidate is (e, f) on the multiply path or e alone on the divide path (use_div), packed
 * in an int by {@link #combination}. Candidates are estimated as the paper does: bits for the FOR
 * range of the sample plus, per exception, its value and its u16 position. Ties go to the
 * multiply path (cheaper to decode), then the larger e, then the larger f.
 */
final class AlpSampler {
  private final AlpChunkEncoder probe;
  private final double[] sample64 = new double[AlpFormat.SAMPLES_PER_VECTOR];
  private final float[] sample32 = new float[AlpFormat.SAMPLES_PER_VECTOR];
  private final int[] winners = new int[AlpFormat.SAMPLED_VECTORS];
  private final int[] wins = new int[AlpFormat.SAMPLED_VECTORS];

  private double[] values64;
  private float[] values32;

  /** Estimate of the last {@link #bestCandidate} call. */
  private long bestEstimate;

  /** The multiply-path candidate (0, 0): what chunks fall back to when no sample is encodable. */
  static final int FALLBACK = 0;

  AlpSampler(AlpChunkEncoder probe) {
    this.probe = probe;
  }

  static int combination(int e, int f, boolean div) {
    return e | (div ? 0 : f) << 8 | (div ? 1 << 16 : 0);
  }

  static int exponent(int combination) {
    return combination & 0xFF;
  }

  static int factor(int combination) {
    return (combination >>> 8) & 0xFF;
  }

  static boolean divides(int combination) {
    return (combination >>> 16) != 0;
  }

  void bind(double[] v) {
    values64 = v;
    values32 = null;
  }

  void bind(float[] v) {
    values32 = v;
    values64 = null;
  }

  private int wordBits() {
    return values64 != null ? 64 : 32;
  }

  /** Copies up to 32 evenly spread values of {@code [off, off+n)} to the sample; returns how many. */
  private int takeSample(int off, int n) {
    int step = Math.max(1, (n + AlpFormat.SAMPLES_PER_VECTOR - 1) / AlpFormat.SAMPLES_PER_VECTOR);
    int k = 0;
    for (int i = 0; i < n; i += step) {
      if (values64 != null) {
        sample64[k++] = values64[off + i];
      } else {
        sample32[k++] = values32[off + i];
      }
    }
    return k;
  }

  /** The paper's size estimate, in bits, of the sample's {@code k} values under one candidate. */
  private long estimate(int k, int combination) {
    int e = exponent(combination);
    int f = factor(combination);
    boolean div = divides(combination);
    int exceptions = values64 != null
        ? probe.scan64(sample64, 0, k, e, f, div)
        : probe.scan32(sample32, 0, k, e, f, div);
    // The paper skips candidates that leave fewer than two values encodable.
    if (k - exceptions < 2 && k >= 2) {
      return Long.MAX_VALUE;
    }
    return (long) k * probe.forWidth() + (long) exceptions * (wordBits() + 16);
  }

  /** The best of all candidates for the current sample, or -1 if none admits two values. */
  private int bestCandidate(int k) {
    int maxE = values64 != null ? AlpFormat.MAX_EXPONENT_F64 : AlpFormat.MAX_EXPONENT_F32;
    int best = -1;
    bestEstimate = Long.MAX_VALUE;
    for (int pass = 0; pass < 2; pass++) {
      boolean div = pass == 1;
      for (int e = maxE; e >= 0; e--) {
        for (int f = div ? 0 : e; f >= 0; f--) {
          int c = combination(e, f, div);
          long est = estimate(k, c);
          if (est < bestEstimate) {
            bestEstimate = est;
            best = c;
          }
        }
      }
    }
    return best;
  }

  /** First-level result: the candidates to try per vector and whether float64 should go ALP-RD. */
  static final class RowGroup {
    final int[] candidates;
    final boolean preferRd;

    RowGroup(int[] candidates, boolean preferRd) {
      this.candidates = candidates;
      this.preferRd = preferRd;
    }
  }

  /** First level over the row group {@code [off, off+n)}. */
  RowGroup firstLevel(int off, int n) {
    int vectors = (n + AlpFormat.MAX_CHUNK_VALUES - 1) / AlpFormat.MAX_CHUNK_VALUES;
    int sampled = Math.min(AlpFormat.SAMPLED_VECTORS, vectors);
    int distinct = 0;
    double bestBitsPerValue = Double.POSITIVE_INFINITY;
    for (int j = 0; j < sampled; j++) {
      int start = (int) ((long) j * vectors / sampled) * AlpFormat.MAX_CHUNK_VALUES;
      int len = Math.min(AlpFormat.MAX_CHUNK_VALUES, n - start);
      // Paper: a short vector is only sampled when it is the only one.
      if (len < AlpFormat.SAMPLES_PER_VECTOR && j > 0) {
        continue;
      }
      int k = takeSample(off + start, len);
      int c = bestCandidate(k);
      if (c < 0) {
        continue;
      }
      bestBitsPerValue = Math.min(bestBitsPerValue, (double) bestEstimate / k);
      int at = 0;
      while (at < distinct && winners[at] != c) {
        at++;
      }
      if (at == distinct) {
        winners[distinct] = c;
        wins[distinct++] = 0;
      }
      wins[at]++;
    }
    boolean preferRd = values64 != null && bestBitsPerValue >= AlpFormat.RD_TRIGGER_BITS_F64;
    if (distinct == 0) {
      return new RowGroup(new int[] {FALLBACK}, preferRd);
    }
    // Selection sort of at most 8 entries: most wins, then the tie rule of bestCandidate.
    int k = Math.min(distinct, AlpFormat.MAX_COMBINATIONS);
    int[] top = new int[k];
    for (int i = 0; i < k; i++) {
      int pick = i;
      for (int j = i + 1; j < distinct; j++) {
        if (wins[j] > wins[pick] || (wins[j] == wins[pick] && preferred(winners[j], winners[pick]))) {
          pick = j;
        }
      }
      int w = winners[pick];
      winners[pick] = winners[i];
      winners[i] = w;
      int count = wins[pick];
      wins[pick] = wins[i];
      wins[i] = count;
      top[i] = w;
    }
    return new RowGroup(top, preferRd);
  }

  /** Tie rule: multiply before divide, then larger e, then larger f. */
  private static boolean preferred(int a, int b) {
    if (divides(a) != divides(b)) {
      return !divides(a);
    }
    if (exponent(a) != exponent(b)) {
      return exponent(a) > exponent(b);
    }
    return factor(a) > factor(b);
  }

  /** Second level: the candidate of {@code group} to encode the vector {@code [off, off+n)} with. */
  int secondLevel(int off, int n, RowGroup group) {
    int[] candidates = group.candidates;
    if (candidates.length == 1) {
      return candidates[0];
    }
    int k = takeSample(off, n);
    int best = candidates[0];
    long bestSize = estimate(k, best);
    int worse = 0;
    for (int i = 1; i < candidates.length; i++) {
      long size = estimate(k, candidates[i]);
      if (size >= bestSize) {
        if (++worse == AlpFormat.EARLY_EXIT_WORSE) {
          break;
        }
        continue;
      }
      best = candidates[i];
      bestSize = size;
      worse = 0;
    }
    return best;
  }
}
