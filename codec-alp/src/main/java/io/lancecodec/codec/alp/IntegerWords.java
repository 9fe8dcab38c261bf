package io.lancecodec.codec.alp;

import io.lancecodec.spi.LittleEndian;

/**
 * The second pre-gate of {@code lance-encoding:alp=auto}: whether a page of 32- or 64-bit words is
 * made of integers rather than floats. The writer's blocks do not say which they are, and ALP is
 * offered on both; its output is right either way (every value is admitted only after a bitwise
 * round trip), but integers must not pay for the candidate scan or come out as ALP-RD.
 *
 * <p>A word is integer-like when, read as a float, it is a value ALP can never admit because it is
 * too small: below 2^-61 for float64 (10^18 &lt; 2^60, so even the largest scale rounds it to 0)
 * and 2^-35 for float32 (10^10 &lt; 2^34). Every non-negative int64 below about 4.3 · 10^18 (ids,
 * counters, timestamps down to nanoseconds) reads as such a double, every non-negative int32 below
 * about 7.7 · 10^8 as such a float; small negative integers have all exponent bits set and read as
 * NaNs with a payload, which count too. Zero ({@code 0} and {@code +0.0} alike) and -0.0 count
 * for neither; the canonical quiet NaNs and the infinities count as floats. A page is declined
 * when its sample has integer-like words and they are at least half of its non-zero words, or no
 * non-zero word at all: a float column with a few stray tiny values stays in, a counter that is
 * mostly 0 and a timestamp column are out. (A float column of values that small loses only ALP-RD, since ALP itself would make
 * every one of them an exception; {@code alp=on} still forces the scan.)
 */
final class IntegerWords {
  /** Values sampled, evenly spread over the page: enough to see a minority, cheap next to a chunk. */
  static final int SAMPLE = 256;

  /** Fewer non-zero words than this in the spread sample, and the whole page is looked through. */
  static final int MIN_NON_ZERO = 16;

  /** Biased exponents below this are doubles under 2^-61, which 10^18 (&lt; 2^60) scales below 1/2. */
  static final int MIN_ADMISSIBLE_EXPONENT_64 = 1023 - 61;

  /** Biased exponents below this are floats under 2^-35, which 10^10 (&lt; 2^34) scales below 1/2. */
  static final int MIN_ADMISSIBLE_EXPONENT_32 = 127 - 35;

  private static final long QUIET_NAN_64 = Double.doubleToRawLongBits(Double.NaN);
  private static final int QUIET_NAN_32 = Float.floatToRawIntBits(Float.NaN);

  private IntegerWords() {}

  /**
   * Whether the {@code n} little-endian words of {@code width} bits at {@code data[0..]} look like
   * integers. A page of zeros counts as integers too: nothing in it says float, and bit-packing
   * stores zeros in less than an ALP chunk header.
   */
  static boolean dominate(byte[] data, int width, long n) {
    if (n <= 0) {
      return false;
    }
    long step = Math.max(1, n / SAMPLE);
    long counts = count(data, width, n, step, Integer.MAX_VALUE);
    if (nonZero(counts) < MIN_NON_ZERO && step > 1) {
      // mostly zeros, where the spread sample may miss the few words that tell: walk the page
      // until enough of them are seen (a pass over the words, still far below one encoding)
      counts = count(data, width, n, 1, SAMPLE);
    }
    int integers = (int) (counts >>> 32);
    int nonZero = nonZero(counts);
    return nonZero == 0 || (integers > 0 && 2 * integers >= nonZero);
  }

  private static int nonZero(long counts) {
    return (int) counts;
  }

  /**
   * Integer-like and non-zero words among every {@code step}-th word, stopping after
   * {@code enough} non-zero ones: {@code integers << 32 | nonZero}.
   */
  private static long count(byte[] data, int width, long n, long step, int enough) {
    int integers = 0;
    int nonZero = 0;
    for (long i = 0; i < n && nonZero < enough; i += step) {
      int at = (int) (i * (width / 8));
      boolean integer;
      if (width == 64) {
        long bits = LittleEndian.getLong(data, at);
        if ((bits & Long.MAX_VALUE) == 0) {
          continue;
        }
        integer = integerLike64(bits);
      } else {
        int bits = LittleEndian.getInt(data, at);
        if ((bits & Integer.MAX_VALUE) == 0) {
          continue;
        }
        integer = integerLike32(bits);
      }
      nonZero++;
      integers += integer ? 1 : 0;
    }
    return (long) integers << 32 | nonZero;
  }

  static boolean integerLike64(long bits) {
    int exponent = (int) (bits >>> 52) & 0x7FF;
    if (exponent < MIN_ADMISSIBLE_EXPONENT_64) {
      return true;
    }
    long magnitude = bits & Long.MAX_VALUE;
    // all exponent bits set: NaN or infinity; only a NaN with a payload is an integer's pattern
    return exponent == 0x7FF && magnitude != (QUIET_NAN_64 & Long.MAX_VALUE)
        && magnitude != Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
  }

  static boolean integerLike32(int bits) {
    int exponent = (bits >>> 23) & 0xFF;
    if (exponent < MIN_ADMISSIBLE_EXPONENT_32) {
      return true;
    }
    int magnitude = bits & Integer.MAX_VALUE;
    return exponent == 0xFF && magnitude != (QUIET_NAN_32 & Integer.MAX_VALUE)
        && magnitude != Float.floatToRawIntBits(Float.POSITIVE_INFINITY);
  }
}
