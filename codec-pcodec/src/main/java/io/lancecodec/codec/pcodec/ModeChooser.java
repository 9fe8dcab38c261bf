package io.lancecodec.codec.pcodec;

import io.lancecodec.spi.LanceCodecException;

/**
 * Picks a chunk's mode and splits its numbers into latents, as pco's encoder does (facts from
 * pcodec/pcodec {@code pco/src/mode/} and {@code data_types/}): integers get int mult when a
 * common divisor of sampled differences is statistically convincing, floats get whichever of
 * float mult and float quant claims the most bits saved (classic otherwise). Dict mode is only
 * used when asked for, as in pco.
 */
final class ModeChooser {
  /** Int mult must save at least this many bits per number. */
  static final double MULT_REQUIRED_BITS_SAVED = 0.5;
  private static final double ZETA_OF_2 = Math.PI * Math.PI / 6.0;

  /** A mode with its latents; secondary is null for single-latent modes. */
  static final class Split {
    final Mode mode;
    final long[] primary;
    final long[] secondary;

    Split(Mode mode, long[] primary, long[] secondary) {
      this.mode = mode;
      this.primary = primary;
      this.secondary = secondary;
    }
  }

  private ModeChooser() {}

  static Split choose(NumberType type, long[] nums, PcoConfig cfg) {
    if (type.isFloat()) {
      return FloatModes.choose(type, nums, cfg);
    }
    switch (cfg.modeSpec) {
      case AUTO: {
        long base = chooseIntMultBase(nums);
        return base == 0 ? classic(nums) : intMult(type, nums, base);
      }
      case CLASSIC:
        return classic(nums);
      case TRY_INT_MULT:
        if ((cfg.modeParam & type.mask) == 0) {
          throw LanceCodecException.invalidArgument("pcodec: int mult base " + cfg.modeParam + " is 0 in " + type.bits + " bits");
        }
        return intMult(type, nums, cfg.modeParam & type.mask);
      case TRY_DICT:
        return dict(nums);
      default:
        throw LanceCodecException.invalidArgument("pcodec: float mode " + cfg.modeSpec + " for integer type " + type);
    }
  }

  /** Classic mode shares the numbers' array: the chunk encoder copies it before any delta. */
  static Split classic(long[] nums) {
    return new Split(Mode.CLASSIC, nums, null);
  }

  static Split intMult(NumberType type, long[] nums, long base) {
    long[] mults = new long[nums.length];
    long[] adjs = new long[nums.length];
    for (int i = 0; i < nums.length; i++) {
      mults[i] = Long.divideUnsigned(nums[i], base);
      adjs[i] = Long.remainderUnsigned(nums[i], base);
    }
    return new Split(Mode.intMult(base), mults, adjs);
  }

  /** Dictionary of the distinct values, most frequent first; latents are 32-bit indices. */
  static Split dict(long[] nums) {
    Sampling.LongStats stats = new Sampling.LongStats(nums.length);
    for (long x : nums) {
      stats.add(x, 0);
    }
    int distinct = 0;
    for (boolean u : stats.used) {
      distinct += u ? 1 : 0;
    }
    long[] packed = new long[distinct];
    int k = 0;
    for (int s = 0; s < stats.keys.length; s++) {
      if (stats.used[s]) {
        // Sort key: count descending, then slot; slots and counts both fit in 32 bits.
        packed[k++] = ((long) (Integer.MAX_VALUE - stats.counts[s]) << 32) | s;
      }
    }
    java.util.Arrays.sort(packed);
    long[] values = new long[distinct];
    int[] indexOfSlot = new int[stats.keys.length];
    for (int i = 0; i < distinct; i++) {
      int slot = (int) packed[i];
      values[i] = stats.keys[slot];
      indexOfSlot[slot] = i;
    }
    long[] idx = new long[nums.length];
    for (int i = 0; i < nums.length; i++) {
      idx[i] = indexOfSlot[stats.add(nums[i], 0)];
    }
    return new Split(Mode.dict(values), idx, null);
  }

  private static long gcd(long a, long b) {
    if (a == 0) {
      return b;
    }
    while (b != 0) {
      long t = Long.remainderUnsigned(a, b);
      a = b;
      b = t;
    }
    return a;
  }

  /** Int mult base for these ordered latents, or 0 for none. */
  static long chooseIntMultBase(long[] nums) {
    int[] pos = Sampling.modeSamplePositions(nums.length);
    if (pos == null) {
      return 0;
    }
    long[] sample = new long[pos.length];
    for (int i = 0; i < pos.length; i++) {
      sample[i] = nums[pos[i]];
    }
    double[] best = chooseCandidateBase(sample, sample.length);
    if (best == null) {
      return 0;
    }
    long base = Double.doubleToRawLongBits(best[0]);
    long[] primaries = new long[sample.length];
    double[] saved = new double[sample.length];
    for (int i = 0; i < sample.length; i++) {
      primaries[i] = Long.divideUnsigned(sample[i], base);
      saved[i] = best[1];
    }
    return Sampling.estBitsSavedPerNum(primaries, saved, sample.length) > MULT_REQUIRED_BITS_SAVED ? base : 0;
  }

  /**
   * The most convincing divisor of differences within sample triples, as {raw long bits of the
   * base, bits saved per adjustment}, or null. Shared with float mult's integer path.
   */
  static double[] chooseCandidateBase(long[] sample, int len) {
    int nTriples = len / 3;
    Sampling.LongStats counts = new Sampling.LongStats(nTriples);
    for (int t = 0; t < nTriples; t++) {
      long a = sample[3 * t];
      long b = sample[3 * t + 1];
      long c = sample[3 * t + 2];
      if (Long.compareUnsigned(a, b) > 0) {
        long x = a;
        a = b;
        b = x;
      }
      if (Long.compareUnsigned(b, c) > 0) {
        long x = b;
        b = c;
        c = x;
      }
      if (Long.compareUnsigned(a, b) > 0) {
        long x = a;
        a = b;
        b = x;
      }
      long g = gcd(b - a, c - a);
      if (Long.compareUnsigned(g, 1) > 0) {
        counts.add(g, 0);
      }
    }
    double bestScore = Double.NEGATIVE_INFINITY;
    long bestBase = 0;
    boolean found = false;
    for (int s = 0; s < counts.keys.length; s++) {
      if (!counts.used[s]) {
        continue;
      }
      double g = FloatKind.F64_KIND.fromUnsigned(counts.keys[s]);
      double score = scoreTripleGcd(g, counts.counts[s], nTriples);
      if (!Double.isNaN(score) && (!found || score > bestScore)) {
        bestScore = score;
        bestBase = counts.keys[s];
        found = true;
      }
    }
    return found ? new double[] {Double.longBitsToDouble(bestBase), bestScore} : null;
  }

  /**
   * Bits saved per number by a divisor seen in {@code withGcd} of {@code total} triples, or NaN
   * when not significant: a z test against uniform residues, a lower confidence bound on the
   * congruent share, and the worst-case entropy of residues given that share.
   */
  private static double scoreTripleGcd(double gcd, int withGcd, int total) {
    double triplesWithGcd = withGcd;
    double totalTriples = total;
    double probPerTriple = triplesWithGcd / totalTriples;
    double naturalProb = 1.0 / (ZETA_OF_2 * gcd * gcd);
    double stdev = Math.sqrt(naturalProb * (1.0 - naturalProb) / totalTriples);
    double z = (probPerTriple - naturalProb) / stdev;
    if (z < 3.0) {
      return Double.NaN;
    }
    double lcb = triplesWithGcd - Math.sqrt(triplesWithGcd);
    if (lcb <= 0.0) {
      return Double.NaN;
    }
    double congruenceLcb = Math.min(ZETA_OF_2 * lcb / totalTriples, 1.0);
    double gcdM1 = gcd - 1.0;
    double gcdM1InvSq = 1.0 / (gcdM1 * gcdM1);
    double lb = 1.0 / gcd;
    double ub = Math.cbrt(congruenceLcb) + Math.ulp(1.0);
    double p = falsePosition(congruenceLcb, gcdM1InvSq, lb, ub);
    if (Double.isNaN(p)) {
      return Double.NaN;
    }
    double saved = log2(gcd) - worstCaseEntropy(p, gcdM1);
    return saved < MULT_REQUIRED_BITS_SAVED ? Double.NaN : saved;
  }

  private static double cubicGap(double p, double target, double invSq) {
    return Math.pow(p, 3) + Math.pow(1.0 - p, 3) * invSq - target;
  }

  /** Root of the cubic gap in [lb, ub] by false position nudged toward bisection, or NaN. */
  private static double falsePosition(double target, double invSq, double lb, double ub) {
    double flb = cubicGap(lb, target, invSq);
    double fub = cubicGap(ub, target, invSq);
    if (flb > 0.0 || fub < 0.0) {
      return Double.NaN;
    }
    while (ub - lb > 1e-4 && fub - flb > 0.0) {
      double lbProp = 0.001 + 0.998 * fub / (fub - flb);
      double mid = lbProp * lb + (1.0 - lbProp) * ub;
      double fmid = cubicGap(mid, target, invSq);
      if (fmid < 0.0) {
        lb = mid;
        flb = fmid;
      } else {
        ub = mid;
        fub = fmid;
      }
    }
    return (lb + ub) / 2.0;
  }

  static double log2(double x) {
    return Math.log(x) / Math.log(2.0);
  }

  private static double singleEntropy(double p) {
    return p == 0.0 || p == 1.0 ? 0.0 : -p * log2(p);
  }

  /** Entropy when one category has probability p and the other n - 1 share the rest evenly. */
  static double worstCaseEntropy(double p, double nCategoriesM1) {
    return singleEntropy(p) + nCategoriesM1 * singleEntropy((1.0 - p) / nCategoriesM1);
  }
}
