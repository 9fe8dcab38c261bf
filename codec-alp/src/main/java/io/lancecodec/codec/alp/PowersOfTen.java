package io.lancecodec.codec.alp;

/**
 * The powers of ten both sides of ALP multiply by. Encoder and decoder must use bit-identical
 * factors, so each is the correctly rounded conversion of the decimal literal {@code 1eK} or
 * {@code 1e-K} (what a compiler makes of {@code 10.0} or {@code 0.1} in every language), obtained
 * from the JDK's parser rather than typed in. Negative powers are not reciprocals of positive
 * ones: {@code 1 / 1e3} and {@code 1e-3} may differ in the last bit, and only the literal is
 * portable.
 */
final class PowersOfTen {
  /** 10^k for k = 0..18 as float64; exact up to 10^22. */
  static final double[] F64 = doubles("1e");

  /** 10^-k for k = 0..18 as float64, correctly rounded. */
  static final double[] INV_F64 = doubles("1e-");

  /** 10^k for k = 0..10 as float32; exact up to 10^10. */
  static final float[] F32 = floats("1e");

  /** 10^-k for k = 0..10 as float32, correctly rounded. */
  static final float[] INV_F32 = floats("1e-");

  private PowersOfTen() {}

  /**
   * {@code a / d} correctly rounded, as the use_div path defines it, for an integral {@code a}
   * and a power of ten {@code d} of the tables above, with {@code y} = {@code 1 / d} correctly
   * rounded (the INV table's entry): {@code q = a * y} is within one ulp of the quotient, the
   * fused {@code a - q * d} is then exact, and {@code q + r * y} rounds to the quotient
   * (Markstein's theorem, which needs no underflow: the quotients here are 0 or at least 1e-18).
   * Three multiplies pipeline where a division takes four cycles or more: float64 coordinates
   * decode 1.3x faster. The encoder keeps the division: its loop is bound elsewhere, and the
   * longer chain made it 1-3% slower. So does float32: C2 on JDK 17 vectorizes the division of
   * floats but not their fused multiply-add, so there the division is faster. FusedDecodeTest
   * checks the two agree.
   */
  static double quotient(double a, double d, double y) {
    double q = a * y;
    return Math.fma(Math.fma(-q, d, a), y, q);
  }

  private static double[] doubles(String prefix) {
    double[] t = new double[AlpFormat.MAX_EXPONENT_F64 + 1];
    for (int k = 0; k < t.length; k++) {
      t[k] = Double.parseDouble(prefix + k);
    }
    return t;
  }

  private static float[] floats(String prefix) {
    float[] t = new float[AlpFormat.MAX_EXPONENT_F32 + 1];
    for (int k = 0; k < t.length; k++) {
      t[k] = Float.parseFloat(prefix + k);
    }
    return t;
  }
}
