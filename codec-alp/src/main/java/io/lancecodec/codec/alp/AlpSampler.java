package io.lancecodec.codec.alp;

/**
 * The paper's two-level choice of exponents, as its reference implementation (cwida/ALP) makes
 * it, so that the writer can always fall back to the paper's choice for a vector, plus the
 * use_div candidates the spec adds.
 *
 * <p>First level, once per row group of up to 100 vectors: the vectors at indices 0, 12, 24, ...
 * of the group (the reference's jump of (100 * 1024 / 8) / 1024 = 12 vectors in integer
 * arithmetic, so a full group samples 9 vectors and a page of up to 12 vectors only its first),
 * skipping a final vector of fewer than 32 values unless it is the only one; from each, the values
 * at every ceil(n / 32)-th position. Per sampled vector, every multiply candidate (e, f) with
 * 0 &lt;= f &lt;= e &lt;= max is estimated as {@code k * FOR width of the admitted values +
 * exceptions * (T + 16)} bits (k sampled values), candidates admitting fewer than two values are
 * skipped, and the smallest wins, ties to the one tried first: larger e, then larger f. A vector
 * where no candidate qualifies counts for (0, 0). The at most 5 most frequent winners (ties: larger
 * e, then larger f) form the row group's list. A float64 row group goes to ALP-RD when even the
 * best vector's best estimate reaches 48 bits per sampled value (48 * 32 bits).
 *
 * <p>Second level, per vector: the values at every floor(n / 32)-th position (at least 1); the
 * candidates of the list in order, each estimated as {@code 32 * FOR width + exceptions * (T + 16)}
 * (the width of an empty range is 1, as the reference computes it); stop after two in a row fail
 * to beat the best so far.
 *
 * <p>Ours on top: on the same first-level samples, plus 8 evenly spread vectors when the
 * reference samples fewer (a row group under 85 vectors), the use_div candidates (e alone)
 * compete with each vector's multiply winner, and the winners of that contest form a second list
 * (ties: multiply, then larger e, then larger f), which the second level ranks the same way. The writer
 * encodes both lists' picks and keeps the smaller chunk. The reference rounds with a
 * magic-number addition valid below 2^51 and rejects values scaled beyond ±2^63; here every
 * candidate is judged by the decoder's own formula on the exact bits ({@link Math#rint}), which
 * agrees with the reference wherever its rounding is valid.
 *
 * <p>Speed without changing a result: a probe stops as soon as its exceptions alone rule the
 * candidate out (it could no longer reach two admitted values or beat the best estimate so far);
 * the first level tries the previous sampled vector's winner first, so that bound is tight from
 * the start, and keeps the reference's tie rule for candidates it reaches later; the second
 * level's sample and estimates serve both lists.
 */
final class AlpSampler {
  /** Reference: ROWGROUP_SAMPLES_JUMP = (ROWGROUP_SIZE / ROWGROUP_VECTOR_SAMPLES) / VECTOR_SIZE. */
  static final int SAMPLE_JUMP =
      AlpFormat.ROW_GROUP_VECTORS * AlpFormat.MAX_CHUNK_VALUES / AlpFormat.SAMPLED_VECTORS / AlpFormat.MAX_CHUNK_VALUES;

  /**
   * Sampled values of one vector: at most 32 on the first level; on the second, every
   * floor(n / 32)-th value, which is up to 63 for a short vector (63 values, step 1).
   */
  private final double[] sample64 = new double[2 * AlpFormat.SAMPLES_PER_VECTOR];
  private final float[] sample32 = new float[2 * AlpFormat.SAMPLES_PER_VECTOR];
  /** Candidates and their wins in the current row group, by first appearance. */
  private final int[] winners = new int[64];
  private final int[] wins = new int[64];
  private final int[] ourWinners = new int[64];
  private final int[] ourWins = new int[64];

  private double[] values64;
  private float[] values32;
  /** The vector the second level's sample is of, its size, and the estimates made on it. */
  private int sampledOff = -1;
  private int sampledN;
  private int sampledK;
  private int probed;
  private final int[] probedCombination = new int[2 * AlpFormat.MAX_COMBINATIONS];
  private final long[] probedEstimate = new long[2 * AlpFormat.MAX_COMBINATIONS];
  /** The first level's winner on the last sampled vector, tried first on the next; -1 for none. */
  private int lastWinner = -1;

  /** The multiply-path candidate (0, 0), which the reference counts for vectors no candidate fits. */
  static final int FALLBACK = 0;

  AlpSampler() {}

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
    lastWinner = -1;
    sampledOff = -1;
  }

  void bind(float[] v) {
    values32 = v;
    values64 = null;
    lastWinner = -1;
    sampledOff = -1;
  }

  private int wordBits() {
    return values64 != null ? 64 : 32;
  }

  private int maxExponent() {
    return values64 != null ? AlpFormat.MAX_EXPONENT_F64 : AlpFormat.MAX_EXPONENT_F32;
  }

  /** Copies the values at every {@code step}-th position of {@code [off, off+n)}; returns how many. */
  private int takeSample(int off, int n, int step) {
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

  /**
   * FOR width of the admitted values of the sample under one candidate, and its exceptions:
   * {@code exceptions << 8 | width}. An empty range has width 1 (the reference's unsigned
   * {@code max - min} of its initial bounds). The probe stops once the exceptions exceed
   * {@code maxExceptions} (the candidate has lost: the caller only needs to see that) and then
   * returns {@code maxExceptions + 1} exceptions and width 0.
   */
  private int probe(int k, int e, int f, boolean div, int maxExceptions) {
    return values64 != null
        ? probe64(sample64, k, e, f, div, maxExceptions)
        : probe32(sample32, k, e, f, div, maxExceptions);
  }

  /**
   * {@link #probe} of a multiply candidate that also stops, returning {@code k} exceptions, once
   * the estimate provably reaches {@code stopAt} bits: the width of the admitted values so far
   * only grows, so {@code k} times it plus the exceptions so far is a lower bound. Scales above
   * the data's take every value with a few bits more and no exception, and ran to the end.
   */
  private int probeMultiply(int k, int e, int f, int maxExceptions, long stopAt) {
    return values64 != null
        ? probe64(sample64, k, e, f, false, maxExceptions, stopAt, exceptionBits())
        : probe32(sample32, k, e, f, false, maxExceptions, stopAt, exceptionBits());
  }

  /** The most exceptions a candidate may have and still estimate below {@code bound} bits. */
  private long exceptionLimit(long bound) {
    return (bound - 1) / exceptionBits();
  }

  static int probe64(double[] s, int k, int e, int f, boolean div, int maxExceptions) {
    return probe64(s, k, e, f, div, maxExceptions, Long.MAX_VALUE, 0);
  }

  /** {@link #probe64(double[], int, int, int, boolean, int)} with the bound of {@link #probeMultiply}. */
  static int probe64(double[] s, int k, int e, int f, boolean div, int maxExceptions, long stopAt, long exceptionBits) {
    double up = PowersOfTen.F64[e];
    double upFactor = PowersOfTen.INV_F64[div ? 0 : f];
    double down = div ? PowersOfTen.F64[e] : PowersOfTen.F64[f];
    double downExponent = PowersOfTen.INV_F64[e];
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    int exceptions = 0;
    for (int i = 0; i < k; i++) {
      double x = s[i];
      long q = (long) Math.rint(div ? x * up : x * up * upFactor);
      double back = div ? q / down : q * down * downExponent;
      boolean ok = Double.doubleToRawLongBits(back) == Double.doubleToRawLongBits(x);
      lo = Math.min(lo, ok ? q : Long.MAX_VALUE);
      hi = Math.max(hi, ok ? q : Long.MIN_VALUE);
      exceptions += ok ? 0 : 1;
      if (exceptions > maxExceptions) {
        return exceptions << 8;
      }
      // hi < lo while nothing is admitted: no width yet
      long width = hi >= lo ? AlpFormat.bitWidth(hi - lo) : 0;
      if (k * width + exceptions * exceptionBits >= stopAt) {
        return k << 8;
      }
    }
    return exceptions << 8 | AlpFormat.bitWidth(hi - lo);
  }

  static int probe32(float[] s, int k, int e, int f, boolean div, int maxExceptions) {
    return probe32(s, k, e, f, div, maxExceptions, Long.MAX_VALUE, 0);
  }

  /** {@link #probe32(float[], int, int, int, boolean, int)} with the bound of {@link #probeMultiply}. */
  static int probe32(float[] s, int k, int e, int f, boolean div, int maxExceptions, long stopAt, long exceptionBits) {
    float up = PowersOfTen.F32[e];
    float upFactor = PowersOfTen.INV_F32[div ? 0 : f];
    float down = div ? PowersOfTen.F32[e] : PowersOfTen.F32[f];
    float downExponent = PowersOfTen.INV_F32[e];
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    int exceptions = 0;
    for (int i = 0; i < k; i++) {
      float x = s[i];
      double r = Math.rint(div ? x * up : x * up * upFactor);
      int q = (int) r;
      float back = div ? q / down : q * down * downExponent;
      boolean ok = r >= Integer.MIN_VALUE && r <= Integer.MAX_VALUE
          && Float.floatToRawIntBits(back) == Float.floatToRawIntBits(x);
      lo = Math.min(lo, ok ? q : Integer.MAX_VALUE);
      hi = Math.max(hi, ok ? q : Integer.MIN_VALUE);
      exceptions += ok ? 0 : 1;
      if (exceptions > maxExceptions) {
        return exceptions << 8;
      }
      // hi < lo while nothing is admitted: no width yet
      long width = hi >= lo ? AlpFormat.bitWidth((hi - lo) & 0xFFFF_FFFFL) : 0;
      if (k * width + exceptions * exceptionBits >= stopAt) {
        return k << 8;
      }
    }
    return exceptions << 8 | AlpFormat.bitWidth((hi - lo) & 0xFFFF_FFFFL);
  }

  /** Bits of one exception in the estimates: its value and its u16 position. */
  private long exceptionBits() {
    return wordBits() + 16;
  }

  /** First-level result: the paper's candidates, ours, and whether float64 goes ALP-RD. */
  static final class RowGroup {
    /** The reference's list: multiply candidates, most frequent first. */
    final int[] candidates;
    /**
     * Our list: the same ranking over multiply and use_div candidates together (a sampled vector's
     * winner is its best of both; ties: multiply, then larger e, then larger f).
     */
    final int[] ours;
    /** The reference sends the row group to ALP-RD. */
    final boolean preferRd;
    /** Float64: some sampled vector's best use_div estimate stays below ALP-RD's bound. */
    final boolean divBelowRdBound;

    RowGroup(int[] candidates, int[] ours, boolean preferRd, boolean divBelowRdBound) {
      this.candidates = candidates;
      this.ours = ours;
      this.preferRd = preferRd;
      this.divBelowRdBound = divBelowRdBound;
    }
  }

  /** First level over the row group {@code [off, off+n)}. */
  RowGroup firstLevel(int off, int n) {
    sampledOff = -1; // the sample buffers are reused here
    int vectors = (n + AlpFormat.MAX_CHUNK_VALUES - 1) / AlpFormat.MAX_CHUNK_VALUES;
    int maxE = maxExponent();
    long exceptionBits = exceptionBits();
    int distinct = 0;
    int ourDistinct = 0;
    long best = -1;
    long bestDiv = Long.MAX_VALUE;
    boolean sampled = false;
    // The reference's vectors feed its list. Ours also takes 8 evenly spread vectors when the
    // reference samples fewer (a row group under 85 vectors: the last of a page, or a short page,
    // where the reference sees only every 12th vector, often just the first).
    int referenceCount = (vectors + SAMPLE_JUMP - 1) / SAMPLE_JUMP;
    int spread = referenceCount < AlpFormat.SAMPLED_VECTORS ? Math.min(AlpFormat.SAMPLED_VECTORS, vectors) : 0;
    int nextSpread = 0;
    for (int vector = 0; vector < vectors; vector++) {
      boolean spreadVector = nextSpread < spread && vector == (int) ((long) nextSpread * vectors / spread);
      if (spreadVector) {
        nextSpread++;
      }
      int start = vector * AlpFormat.MAX_CHUNK_VALUES;
      int len = Math.min(AlpFormat.MAX_CHUNK_VALUES, n - start);
      boolean reference = vector % SAMPLE_JUMP == 0 && !(len < AlpFormat.SAMPLES_PER_VECTOR && sampled);
      if (!reference && !(spreadVector && (len >= AlpFormat.SAMPLES_PER_VECTOR || vector == 0))) {
        continue;
      }
      sampled |= reference;
      int step = Math.max(1, (len + AlpFormat.SAMPLES_PER_VECTOR - 1) / AlpFormat.SAMPLES_PER_VECTOR);
      int k = takeSample(off + start, len, step);
      // The reference starts each search from the worst case: every value an exception, twice.
      long worst = k * (2 * exceptionBits - 16);
      if (best < 0 && reference) {
        best = worst;
      }
      long vectorBest = worst;
      int found = FALLBACK;
      // The last winner first: its estimate bounds all other probes from the start, so losing
      // candidates stop after a few values. The result is the reference's: the smallest estimate,
      // ties to the candidate the reference tries first.
      int seed = lastWinner;
      if (seed >= 0) {
        int p = probe(k, exponent(seed), factor(seed), false, k - 2);
        int exceptions = p >>> 8;
        if (k - exceptions >= 2) {
          long estimate = (long) k * (p & 0xFF) + exceptions * exceptionBits;
          if (estimate < vectorBest) {
            vectorBest = estimate;
            found = seed;
          }
        }
      }
      for (int e = maxE; e >= 0; e--) {
        for (int f = e; f >= 0; f--) {
          int c = combination(e, f, false);
          if (c == seed) {
            continue;
          }
          // Only a candidate with at least two admitted values and an estimate below the best (or
          // equal to it, if the reference would have tried it first) can win; the probe stops as
          // soon as this one cannot.
          boolean first = found == seed && seed >= 0 && precedes(c, seed);
          long limit = first ? vectorBest / exceptionBits : exceptionLimit(vectorBest);
          int p = probeMultiply(k, e, f, (int) Math.min(k - 2, limit), first ? vectorBest + 1 : vectorBest);
          int exceptions = p >>> 8;
          if (k - exceptions < 2) {
            continue;
          }
          long estimate = (long) k * (p & 0xFF) + exceptions * exceptionBits;
          if (estimate < vectorBest || estimate == vectorBest && first) {
            vectorBest = estimate;
            found = c;
          }
        }
      }
      lastWinner = found;
      if (reference) {
        best = Math.min(best, vectorBest);
        distinct = count(winners, wins, distinct, found);
      }
      // ours: the use_div candidates on the same sample, ranked with the multiply winner
      long ourBest = vectorBest;
      int ourFound = found;
      for (int e = maxE; e >= 0; e--) {
        int maxExceptions = (int) Math.min(k - 2, exceptionLimit(ourBest));
        // float32 has no ALP-RD, so only the winner matters and a loser may stop on its width;
        // float64 keeps every estimate for bestDiv.
        int p = values64 != null
            ? probe(k, e, 0, true, maxExceptions)
            : probe32(sample32, k, e, 0, true, maxExceptions, ourBest, exceptionBits);
        int exceptions = p >>> 8;
        if (k - exceptions < 2) {
          continue;
        }
        long estimate = (long) k * (p & 0xFF) + exceptions * exceptionBits;
        bestDiv = Math.min(bestDiv, estimate);
        if (estimate < ourBest) {
          ourBest = estimate;
          ourFound = combination(e, 0, true);
        }
      }
      ourDistinct = count(ourWinners, ourWins, ourDistinct, ourFound);
    }
    long rdBound = (long) AlpFormat.RD_TRIGGER_BITS_F64 * AlpFormat.SAMPLES_PER_VECTOR;
    boolean preferRd = values64 != null && best >= rdBound;
    return new RowGroup(top(winners, wins, distinct), top(ourWinners, ourWins, ourDistinct), preferRd,
        bestDiv < rdBound);
  }

  /**
   * Whether every multiply and use_div candidate's first-level estimate on a sample of the vector
   * {@code [off, off+n)}, and the estimate of every value an exception, exceed {@code limit}
   * bits per sampled value; float64 never does when ALP-RD's narrowest right part fits the
   * limit. Stops at the first candidate within it, and each probe once its bound passes it, so a
   * vector far outside the limit costs a few values per candidate. Leaves no sample behind for
   * the second level.
   */
  boolean vectorExceeds(int off, int n, double limit) {
    if (values64 != null && AlpFormat.RD_RIGHT_WIDTHS[0] <= limit) {
      return false;
    }
    sampledOff = -1;
    int step = Math.max(1, (n + AlpFormat.SAMPLES_PER_VECTOR - 1) / AlpFormat.SAMPLES_PER_VECTOR);
    int k = takeSample(off, n, step);
    long exceptionBits = exceptionBits();
    // an estimate of at most `within` bits is within the limit
    long within = (long) Math.floor(limit * k);
    if (k * exceptionBits <= within) {
      return false;
    }
    int maxExceptions = (int) Math.min(k - 2, exceptionLimit(within + 1));
    for (int e = maxExponent(); e >= 0; e--) {
      for (int f = e; f >= 0; f--) {
        if (withinLimit(probeMultiply(k, e, f, maxExceptions, within + 1), k, exceptionBits, within)) {
          return false;
        }
      }
      int p = values64 != null
          ? probe(k, e, 0, true, maxExceptions)
          : probe32(sample32, k, e, 0, true, maxExceptions, within + 1, exceptionBits);
      if (withinLimit(p, k, exceptionBits, within)) {
        return false;
      }
    }
    return true;
  }

  private static boolean withinLimit(int p, int k, long exceptionBits, long within) {
    int exceptions = p >>> 8;
    return k - exceptions >= 2 && (long) k * (p & 0xFF) + exceptions * exceptionBits <= within;
  }

  /** Counts one win of {@code c} among the first {@code distinct} winners; returns the new count of winners. */
  private static int count(int[] winners, int[] wins, int distinct, int c) {
    int at = 0;
    while (at < distinct && winners[at] != c) {
      at++;
    }
    if (at == distinct) {
      winners[distinct] = c;
      wins[distinct++] = 0;
    }
    wins[at]++;
    return distinct;
  }

  /** The at most 5 most frequent winners: most wins, then the tie rule of {@link #preferred}. */
  private static int[] top(int[] winners, int[] wins, int distinct) {
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
    return top;
  }

  /** Whether the reference tries multiply candidate {@code a} before {@code b}: larger e, then larger f. */
  private static boolean precedes(int a, int b) {
    return exponent(a) > exponent(b) || exponent(a) == exponent(b) && factor(a) > factor(b);
  }

  /**
   * Tie rule of the reference's ranking: larger e, then larger f; multiply before use_div (only
   * our list mixes them).
   */
  private static boolean preferred(int a, int b) {
    if (divides(a) != divides(b)) {
      return !divides(a);
    }
    if (exponent(a) != exponent(b)) {
      return exponent(a) > exponent(b);
    }
    return factor(a) > factor(b);
  }

  /** Second level: the reference's candidate for the vector {@code [off, off+n)}. */
  int secondLevel(int off, int n, RowGroup group) {
    return secondLevel(off, n, group.candidates);
  }

  /**
   * Second level over {@code candidates}: the reference's procedure, use_div candidates estimated
   * the same way. The sample and each candidate's estimate are kept for the next call on the same
   * vector (the writer asks for the reference's list and for ours).
   */
  int secondLevel(int off, int n, int[] candidates) {
    if (candidates.length == 1) {
      return candidates[0];
    }
    if (off != sampledOff || n != sampledN) {
      sampledK = takeSample(off, n, Math.max(1, n / AlpFormat.SAMPLES_PER_VECTOR));
      sampledOff = off;
      sampledN = n;
      probed = 0;
    }
    int best = candidates[0];
    long bestSize = 0;
    int worse = 0;
    for (int i = 0; i < candidates.length; i++) {
      long size = secondLevelEstimate(candidates[i]);
      if (i == 0) {
        bestSize = size;
        continue;
      }
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

  /** The reference's second-level estimate of one candidate on the current vector's sample. */
  private long secondLevelEstimate(int c) {
    for (int j = 0; j < probed; j++) {
      if (probedCombination[j] == c) {
        return probedEstimate[j];
      }
    }
    int k = sampledK;
    int p = probe(k, exponent(c), factor(c), divides(c), k);
    long size = (long) AlpFormat.SAMPLES_PER_VECTOR * (p & 0xFF) + (long) (p >>> 8) * exceptionBits();
    if (probed < probedCombination.length) {
      probedCombination[probed] = c;
      probedEstimate[probed++] = size;
    }
    return size;
  }
}
