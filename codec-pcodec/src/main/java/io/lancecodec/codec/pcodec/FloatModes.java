package io.lancecodec.codec.pcodec;

import io.lancecodec.spi.LanceCodecException;
import java.util.Arrays;

/**
 * Float mode choice (facts from pcodec/pcodec {@code pco/src/mode/float_mult.rs},
 * {@code float_quant.rs}, {@code data_types/float.rs}). Float mult looks for a base with
 * {@code x ~ mult * base}, either from common trailing zeros (a power of two times an integer
 * divisor) or from an approximate Euclidean algorithm on sample pairs; float quant looks for
 * numbers whose low k mantissa bits are mostly zero. The bid saving the most bits wins.
 */
final class FloatModes {
  private static final int REQUIRED_PRECISION_BITS = 6;
  private static final double SNAP_THRESHOLD_ABSOLUTE = 0.02;
  private static final double SNAP_THRESHOLD_DECIMAL_RELATIVE = 0.01;
  private static final int INTERESTING_TRAILING_ZEROS = 5;
  private static final double REQUIRED_TRAILING_ZEROS_FREQUENCY = 0.5;
  private static final double REQUIRED_GCD_PAIR_FREQUENCY = 0.001;
  /** Float quant must save at least this many bits per number. */
  private static final double QUANT_REQUIRED_BITS_SAVED = 1.5;

  private FloatModes() {}

  static ModeChooser.Split choose(NumberType type, long[] nums, PcoConfig cfg) {
    FloatKind f = FloatKind.of(type);
    switch (cfg.modeSpec) {
      case AUTO:
        return chooseAuto(f, nums);
      case CLASSIC:
        return ModeChooser.classic(nums);
      case TRY_FLOAT_MULT: {
        double base = f.fromF64(Double.longBitsToDouble(cfg.modeParam));
        if (!f.isFiniteNonzero(f.toRaw(base))) {
          throw LanceCodecException.invalidArgument("pcodec: float mult base must be finite and nonzero");
        }
        return floatMult(f, nums, base, f.div(1.0, base));
      }
      case TRY_FLOAT_QUANT: {
        int k = (int) cfg.modeParam;
        if (k <= 0 || k > type.precisionBits()) {
          throw LanceCodecException.invalidArgument("pcodec: float quant k " + k + " invalid for " + type);
        }
        return floatQuant(type, nums, k);
      }
      case TRY_DICT:
        return ModeChooser.dict(nums);
      default:
        throw LanceCodecException.invalidArgument("pcodec: int mult mode for float type " + type);
    }
  }

  private static ModeChooser.Split chooseAuto(FloatKind f, long[] nums) {
    int[] pos = Sampling.modeSamplePositions(nums.length);
    if (pos == null) {
      return ModeChooser.classic(nums);
    }
    double max = f.maxForSampling();
    double[] sample = new double[pos.length];
    int len = 0;
    for (int p : pos) {
      double x = f.fromOrdered(nums[p]);
      // Infinities, NaNs and subnormals compress fine but say nothing about the mode.
      if (f.isNormal(x)) {
        double abs = f.abs(x);
        if (abs <= max) {
          sample[len++] = abs;
        }
      }
    }
    if (len < Sampling.MIN_SAMPLE) {
      return ModeChooser.classic(nums);
    }
    sample = Arrays.copyOf(sample, len);
    double bestSaved = 0.0;
    double[] multConfig = null;
    for (double[] config : new double[][] {byTrailingZeros(f, sample), byEuclidean(f, sample)}) {
      if (config == null) {
        continue;
      }
      double saved = multBitsSaved(f, config[0], config[1], sample);
      if (saved >= ModeChooser.MULT_REQUIRED_BITS_SAVED && (multConfig == null || saved >= bestSaved)) {
        bestSaved = saved;
        multConfig = config;
      }
    }
    if (multConfig == null) {
      // Only where pco's two ways find nothing: on a mix of decimal counts (quake coordinates of
      // four and of seven decimals) the estimate prefers the finest step, which measured 11%
      // larger than the coarser base the approximate Euclid finds there.
      double[] config = byDecimalStep(f, sample);
      double saved = config == null ? Double.NaN : multBitsSaved(f, config[0], config[1], sample);
      if (saved >= ModeChooser.MULT_REQUIRED_BITS_SAVED) {
        bestSaved = saved;
        multConfig = config;
      }
    }
    double multSaved = multConfig == null ? Double.NaN : bestSaved;
    double[] quant = bestQuantK(f, sample);
    int k = (int) quant[0];
    double quantSaved = k == 0 ? Double.NaN : quantBitsSaved(f, sample, k, quant[1]);
    boolean useQuant = quantSaved > QUANT_REQUIRED_BITS_SAVED && !(multSaved > quantSaved);
    if (useQuant) {
      return floatQuant(f.type, nums, k);
    }
    if (multConfig != null) {
      return floatMult(f, nums, multConfig[0], multConfig[1]);
    }
    return ModeChooser.classic(nums);
  }

  static ModeChooser.Split floatMult(FloatKind f, long[] nums, double base, double invBase) {
    return f.type == NumberType.F64 ? floatMultF64(nums, base, invBase) : floatMultGeneric(f, nums, base, invBase);
  }

  static ModeChooser.Split floatMultGeneric(FloatKind f, long[] nums, double base, double invBase) {
    NumberType type = f.type;
    long[] mults = new long[nums.length];
    long[] adjs = new long[nums.length];
    for (int i = 0; i < nums.length; i++) {
      double x = f.fromOrdered(nums[i]);
      double mult = f.round(f.mul(x, invBase));
      mults[i] = f.intFloatToLatent(mult);
      adjs[i] = (nums[i] - f.ordered(f.mul(mult, base)) + type.mid) & type.mask;
    }
    return new ModeChooser.Split(Mode.floatMult(f.ordered(base)), mults, adjs);
  }

  /**
   * The f64 split written out without {@link FloatKind}'s virtual calls and sign branches; the
   * same arithmetic as the generic path (tests compare both on every float-mult input they make).
   */
  static ModeChooser.Split floatMultF64(long[] nums, double base, double invBase) {
    long mid = Long.MIN_VALUE;
    long gpi = 1L << 53;
    long gpiRaw = Double.doubleToRawLongBits((double) gpi);
    long[] mults = new long[nums.length];
    long[] adjs = new long[nums.length];
    for (int i = 0; i < nums.length; i++) {
      long o = nums[i];
      double x = Double.longBitsToDouble(o ^ (~(o >> 63) | Long.MIN_VALUE));
      double mult = FloatKind.roundHalfAway(x * invBase);
      long raw = Double.doubleToRawLongBits(mult);
      long absRaw = raw & Long.MAX_VALUE;
      double abs = Double.longBitsToDouble(absRaw);
      long absInt = abs < (double) gpi ? (long) abs : gpi + (absRaw - gpiRaw);
      // Non-negative: MID + absInt; negative: MID - 1 - absInt = MID + ~absInt.
      mults[i] = mid + (absInt ^ (raw >> 63));
      long p = Double.doubleToRawLongBits(mult * base);
      adjs[i] = o - (p ^ ((p >> 63) | Long.MIN_VALUE)) + mid;
    }
    return new ModeChooser.Split(Mode.floatMult(FloatKind.F64_KIND.ordered(base)), mults, adjs);
  }

  static ModeChooser.Split floatQuant(NumberType type, long[] nums, int k) {
    long lowMax = (1L << k) - 1;
    long[] high = new long[nums.length];
    long[] low = new long[nums.length];
    for (int i = 0; i < nums.length; i++) {
      long o = nums[i];
      high[i] = o >>> k;
      long bits = o & lowMax;
      // Negative floats have their low bits complemented in the ordered latent: undo that.
      low[i] = (o & type.mid) != 0 ? bits : lowMax - bits;
    }
    return new ModeChooser.Split(Mode.floatQuant(k), high, low);
  }

  // ---- float mult by trailing zeros ----

  private static int powerOfTwoDivisor(FloatKind f, int exponent, int trailingZeros) {
    return exponent - Math.max(0, f.precision - trailingZeros);
  }

  /** {base, invBase} from common trailing zeros, or null. */
  private static double[] byTrailingZeros(FloatKind f, double[] sample) {
    int k = Integer.MAX_VALUE;
    int count = 0;
    for (double x : sample) {
      int tz = f.trailingZeros(x);
      if (x != 0 && tz >= INTERESTING_TRAILING_ZEROS) {
        count++;
        k = Math.min(k, powerOfTwoDivisor(f, f.exponent(x), tz));
      }
    }
    int required = Math.max((int) Math.ceil(sample.length * REQUIRED_TRAILING_ZEROS_FREQUENCY), Sampling.MIN_SAMPLE);
    if (count < required) {
      return null;
    }
    int bits = f.type.bits;
    int lshift = bits - f.precision - 1;
    long mask = f.type.mask;
    long[] ints = new long[sample.length];
    int len = 0;
    for (double x : sample) {
      int e = f.exponent(x);
      int kPrime = powerOfTwoDivisor(f, e, f.trailingZeros(x));
      if (kPrime >= k && (long) e < (long) k + bits) {
        int rshift = bits - 1 - (e - k);
        long withMantissa = ((f.toRaw(x) << lshift) & mask) | f.type.mid;
        ints[len++] = withMantissa >>> rshift;
      }
    }
    if (len < required) {
      return null;
    }
    double[] candidate = ModeChooser.chooseCandidateBase(ints, len);
    long intBase = candidate == null ? 1 : Double.doubleToRawLongBits(candidate[0]);
    double base = f.mul(f.fromUnsigned(intBase), f.exp2(k));
    return new double[] {base, f.div(1.0, base)};
  }

  // ---- float mult by approximate Euclid ----

  private static double insignificantPart(FloatKind f, double x) {
    int spare = Math.max(0, f.precision - REQUIRED_PRECISION_BITS);
    return f.mul(x, f.exp2(-spare));
  }

  /** Approximate gcd of two floats, or NaN when they share no meaningful one. */
  private static double approxPairGcd(FloatKind f, double greater, double lesser) {
    if (lesser <= insignificantPart(f, greater) || lesser == greater) {
      return Double.NaN;
    }
    double eps = f.exp2(-f.precision);
    double gVal = greater;
    double gErr = 0;
    double lVal = lesser;
    double lErr = 0;
    while (true) {
      double prev = gVal;
      double ratio = f.round(f.div(gVal, lVal));
      gErr = f.add(gErr, f.add(f.mul(ratio, lErr), f.mul(gVal, eps)));
      gVal = f.abs(f.sub(gVal, f.mul(ratio, lVal)));
      if (gVal <= f.mul(prev, f.exp2(-16)) || gVal <= gErr) {
        return lVal;
      }
      if (gVal <= insignificantPart(f, greater) || gVal <= f.mul(gErr, f.exp2(REQUIRED_PRECISION_BITS))) {
        return Double.NaN;
      }
      double t = gVal;
      gVal = lVal;
      lVal = t;
      t = gErr;
      gErr = lErr;
      lErr = t;
    }
  }

  private static double[] byEuclidean(FloatKind f, double[] sample) {
    double[] gcds = new double[sample.length / 2 + 1];
    int n = 0;
    for (int i = 0; i + 1 < sample.length; i += 2) {
      double a = sample[i];
      double b = sample[i + 1];
      double g = approxPairGcd(f, Math.max(a, b), Math.min(a, b));
      if (!Double.isNaN(g)) {
        gcds[n++] = g;
      }
    }
    int required = 1 + (int) Math.ceil(sample.length * REQUIRED_GCD_PAIR_FREQUENCY);
    if (n < required) {
      return null;
    }
    Arrays.sort(gcds, 0, n);
    double tolerance = f.fromF64(0.01);
    double found = Double.NaN;
    for (double percentile : new double[] {0.1, 0.3, 0.5}) {
      double candidate = gcds[(int) (percentile * n)];
      int similar = 0;
      for (int i = 0; i < n; i++) {
        if (f.abs(f.sub(gcds[i], candidate)) < f.mul(tolerance, candidate)) {
          similar++;
        }
      }
      if (similar >= required) {
        found = candidate;
        break;
      }
    }
    if (Double.isNaN(found)) {
      return null;
    }
    double base = centerBase(f, found, sample);
    if (!f.isFiniteNonzero(f.toRaw(base))) {
      return null;
    }
    return snapToIntReciprocal(f, base);
  }

  /** Nudges the base to minimise the weighted relative error of the sample's multiples. */
  private static double centerBase(FloatKind f, double base, double[] sample) {
    double inv = f.div(1.0, base);
    double tweakSum = 0;
    double tweakWeight = 0;
    for (double x : sample) {
      double mult = f.round(f.mul(x, inv));
      long multExp = f.exponent(mult) & 0xFFFFFFFFL;
      if (multExp < f.precision && mult != 0) {
        double overshoot = f.sub(f.mul(mult, base), x);
        double weight = f.fromF64((double) (f.precision - multExp));
        tweakSum = f.add(tweakSum, f.mul(weight, f.div(overshoot, mult)));
        tweakWeight = f.add(tweakWeight, weight);
      }
    }
    return f.sub(base, f.div(tweakSum, tweakWeight));
  }

  /** Prefers bases that are 1/integer or a power of ten when close enough. */
  private static double[] snapToIntReciprocal(FloatKind f, double base) {
    double inv = f.div(1.0, base);
    double roundInv = f.round(inv);
    double decimalInv = f.fromF64(Math.pow(10.0, Conv1Fit.roundHalfAway(Math.log10(inv))));
    if (f.abs(f.sub(inv, roundInv)) < f.fromF64(SNAP_THRESHOLD_ABSOLUTE)) {
      return new double[] {f.div(1.0, roundInv), roundInv};
    }
    if (f.div(f.abs(f.sub(inv, decimalInv)), inv) < f.fromF64(SNAP_THRESHOLD_DECIMAL_RELATIVE)) {
      return new double[] {f.div(1.0, decimalInv), decimalInv};
    }
    return new double[] {base, inv};
  }

  /** Estimated bits saved per number by float mult with this base, or NaN below the bar. */
  private static double multBitsSaved(FloatKind f, double base, double invBase, double[] sample) {
    long[] primaries = new long[sample.length];
    double[] saved = new double[sample.length];
    int bits = f.type.bits;
    for (int i = 0; i < sample.length; i++) {
      double x = sample[i];
      double mult = f.round(f.mul(x, invBase));
      primaries[i] = f.intFloatToLatent(mult);
      long multExp = f.exponent(mult) & 0xFFFFFFFFL;
      long interBaseBits = Math.max(0, f.precision - multExp);
      long approx = f.ordered(f.mul(mult, base));
      long actual = f.ordered(x);
      long absAdj = Long.compareUnsigned(actual, approx) >= 0 ? actual - approx : approx - actual;
      int adjBits = 1 + 2 * (bits - (Long.numberOfLeadingZeros(absAdj) - (64 - bits)));
      saved[i] = (double) interBaseBits - adjBits;
    }
    return Sampling.estBitsSavedPerNum(primaries, saved, sample.length);
  }

  // ---- float mult by a decimal step (our addition to pco 1.0's two ways) ----

  /** Share of the sample that must sit next to a multiple of the decimal step. */
  private static final double REQUIRED_DECIMAL_FREQUENCY = 0.9;

  /**
   * {10^-d, 10^d} for the smallest d at which nearly every sampled number is at most one unit in
   * the last place from a multiple of 10^-d, or null. Numbers written with a fixed count of
   * decimals (prices and coordinates with six: 1455.219971) have such a step, but their
   * multipliers of 30 bits and more leave the approximate Euclid above too few spare bits to
   * find it. Whether the base pays is then judged like the other candidates'.
   */
  private static double[] byDecimalStep(FloatKind f, double[] sample) {
    // 10^d must be exact and its multipliers integers the float can hold
    int maxD = f.type == NumberType.F64 ? 15 : f.type == NumberType.F32 ? 7 : 3;
    double inv = 1.0;
    for (int d = 0; d <= maxD; d++, inv *= 10.0) {
      double fInv = f.fromF64(inv);
      double base = f.div(1.0, fInv);
      int near = 0;
      for (double x : sample) {
        double mult = f.round(f.mul(x, fInv));
        if (mult != 0 && (f.exponent(mult) & 0xFFFFFFFFL) < f.precision) {
          long a = f.ordered(f.mul(mult, base));
          long b = f.ordered(x);
          long dist = Long.compareUnsigned(a, b) >= 0 ? a - b : b - a;
          if (Long.compareUnsigned(dist, 1) <= 0) {
            near++;
          }
        }
      }
      if (near >= sample.length * REQUIRED_DECIMAL_FREQUENCY) {
        return new double[] {base, fInv};
      }
    }
    return null;
  }

  // ---- float quant ----

  /**
   * The first k that locally maximises the bits saved by a number whose high part is rare, as
   * {k, bits saved}; k = 0 when none saves anything.
   */
  private static double[] bestQuantK(FloatKind f, double[] sample) {
    int p = f.precision;
    int[] hist = new int[p + 1];
    for (double x : sample) {
      hist[Math.min(p, f.trailingZeros(x))]++;
    }
    for (int i = p - 1; i >= 0; i--) {
      hist[i] += hist[i + 1];
    }
    int bestK = 0;
    double best = 0.0;
    for (int k = 1; k <= p; k++) {
      if (hist[k] == 0) {
        continue;
      }
      double freq = (double) hist[k] / sample.length;
      double nCategories = (double) ((1L << k) - 1);
      double saved = k - ModeChooser.worstCaseEntropy(freq, nCategories);
      if (saved > best) {
        bestK = k;
        best = saved;
      } else {
        break;
      }
    }
    return new double[] {bestK, best};
  }

  private static double quantBitsSaved(FloatKind f, double[] sample, int k, double savedPerInfrequent) {
    long[] primaries = new long[sample.length];
    double[] saved = new double[sample.length];
    for (int i = 0; i < sample.length; i++) {
      primaries[i] = f.toRaw(sample[i]) >>> k;
      saved[i] = savedPerInfrequent;
    }
    return Sampling.estBitsSavedPerNum(primaries, saved, sample.length);
  }
}
