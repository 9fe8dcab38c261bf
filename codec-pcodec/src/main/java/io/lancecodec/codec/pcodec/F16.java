package io.lancecodec.codec.pcodec;

/**
 * IEEE binary16 conversions (Java 17 has none). pco's f16 arithmetic converts operands to f32,
 * computes there and rounds back to nearest-even, so these two functions define its results.
 */
final class F16 {
  private F16() {}

  static float toFloat(int h) {
    int sign = (h & 0x8000) << 16;
    int exp = (h >>> 10) & 0x1F;
    int man = h & 0x3FF;
    if (exp == 0x1F) {
      // Infinity keeps a zero mantissa; NaN keeps its payload and becomes quiet.
      return Float.intBitsToFloat(sign | 0x7F800000 | (man == 0 ? 0 : 0x400000 | man << 13));
    }
    if (exp == 0) {
      if (man == 0) {
        return Float.intBitsToFloat(sign);
      }
      // Subnormal: normalise the mantissa into f32's wider exponent range.
      int shift = Integer.numberOfLeadingZeros(man) - 21;
      int e = 127 - 15 - shift + 1;
      return Float.intBitsToFloat(sign | e << 23 | ((man << shift) & 0x3FF) << 13);
    }
    return Float.intBitsToFloat(sign | (exp - 15 + 127) << 23 | man << 13);
  }

  /** Rounds to the nearest binary16, ties to even; NaNs stay NaN with the quiet bit set. */
  static int fromFloat(float f) {
    int x = Float.floatToRawIntBits(f);
    int sign = (x >>> 16) & 0x8000;
    int exp = x & 0x7F800000;
    int man = x & 0x7FFFFF;
    if (exp == 0x7F800000) {
      return sign | 0x7C00 | (man == 0 ? 0 : 0x200) | man >>> 13;
    }
    int halfExp = (exp >>> 23) - 127 + 15;
    if (halfExp >= 0x1F) {
      return sign | 0x7C00;
    }
    if (halfExp <= 0) {
      if (14 - halfExp > 24) {
        return sign;
      }
      int full = man | 0x800000;
      int halfMan = full >>> (14 - halfExp);
      int roundBit = 1 << (13 - halfExp);
      if ((full & roundBit) != 0 && (full & (3 * roundBit - 1)) != 0) {
        halfMan++;
      }
      return sign | halfMan;
    }
    int bits = sign | halfExp << 10 | man >>> 13;
    int roundBit = 0x1000;
    if ((man & roundBit) != 0 && (man & (3 * roundBit - 1)) != 0) {
      bits++;
    }
    return bits & 0xFFFF;
  }
}
