package io.lancecodec.codec.alp;

import io.lancecodec.spi.LittleEndian;

/**
 * The hot loops of the decoder. Each reads the packed words of one chunk, extracts the values,
 * undoes FOR or Delta and writes the floats, with no intermediate integer array.
 *
 * <p>Shape, chosen by measurement on JDK 17 (see {@code bench/README.md}, AlpBenchmark): rows of
 * the FastLanes block are visited in logical order ({@link BitPacking#rows}), and one row is 16
 * (float64) or 32 (float32) lanes of consecutive values read from consecutive words with one
 * shift. Each row runs one of two inner loops, chosen once per row: the value lies in one word,
 * or it straddles two. The mode (FOR or Delta, multiply or divide) is fixed per method, so the
 * inner loops carry no tests. C2 does not vectorize the integer-to-float conversion on JDK 17, so
 * these loops stay scalar; the multiply path scales in the same pass ({@code q * m1 * m2}), and
 * integers that fit 51 bits (float64) or 22 (float32) convert through a biased bit pattern
 * ({@link #BIAS_64}, {@link #BIAS_32}).
 * On the divide path a scalar division per value would bound the loop (about one per four
 * cycles), so it writes {@code float(q)} to the output and divides the chunk's floats there in a
 * second, vectorized pass over at most 8 KiB that are still in L1; no integer array is kept.
 * For float64 that pass multiplies by the reciprocal and corrects with two fused multiply-adds
 * ({@link PowersOfTen#quotient}).
 *
 * <p>Whole FOR chunks whose values convert exactly go to {@link AlpKernels} instead: the same
 * exact-path loop unrolled per bit width with constant shifts, written at run time. Where the JVM
 * resolves the Vector API ({@code --add-modules jdk.incubator.vector}; {@link Vector}), whole FOR
 * chunks go to {@link VectorFor}: float64 ones that convert exactly and every float32 one, the
 * division included.
 *
 * <p>Callers have validated every size: the payload holds {@code 128 * w} bytes (packed) or
 * {@code n} words (raw), and the output has room for {@code n} values.
 */
final class FusedDecode {
  private static final int STRIDE = BitPacking.ROW_STRIDE;

  private FusedDecode() {}

  /**
   * float64 ALP: {@code q = base + p} (FOR) or {@code q_i = q_(i-1) + step + p_i} with
   * {@code q_0 = base + p_0} (Delta), wrapping; then {@code q / m1} when {@code div}, else
   * {@code q * m1 * m2}, left to right. With {@code kernels}, a whole FOR chunk whose values
   * convert exactly ({@link #exact64}) takes the generated kernel of its width ({@link AlpKernels}).
   */
  static void alp64(byte[] b, int p0, boolean raw, int w, int n, boolean delta, long base, long step,
      boolean div, double m1, double m2, boolean kernels, double[] out, int oo) {
    if (raw) {
      raw64(b, p0, n, delta, base, step, out, oo);
    } else if (delta) {
      delta64(b, p0, w, n, base, step, div ? 1.0 : m1, div ? 1.0 : m2, out, oo);
    } else if (kernels && n == AlpFormat.MAX_CHUNK_VALUES && exact64(w, base)) {
      // a whole chunk: the generated kernel of its width (1 and 1 leave float(q) for the division)
      if (Vector.USABLE) {
        // the division too, in the same pass
        VectorFor.for64(b, p0, w, (double) base - BIAS_64, div, m1, div ? 1.0 / m1 : m2, out, oo);
        return;
      } else {
        AlpKernels.for64(w).run(b, p0, (double) base - BIAS_64, div ? 1.0 : m1, div ? 1.0 : m2, out, oo);
      }
    } else if (div) {
      for64(b, p0, w, n, base, 1.0, 1.0, out, oo);
    } else if (exact64(w, base)) {
      forExact64(b, p0, w, n, base, m1, m2, out, oo);
      return;
    } else {
      for64(b, p0, w, n, base, m1, m2, out, oo);
      return;
    }
    if (div) {
      divide(out, oo, n, m1);
    } else if (raw) {
      scale(out, oo, n, m1, m2);
    }
  }

  /** Raw words: {@code float(q)} only; the caller scales. */
  private static void raw64(byte[] b, int p0, int n, boolean delta, long base, long step, double[] out, int oo) {
    long acc = base - step;
    for (int i = 0; i < n; i++) {
      long v = LittleEndian.getLong(b, p0 + 8 * i);
      long q;
      if (delta) {
        acc += step + v;
        q = acc;
      } else {
        q = base + v;
      }
      out[oo + i] = q;
    }
  }

  /** Packed FOR, scaled by {@code m1 * m2} in the same pass (1 and 1 leave {@code float(q)}). */
  private static void for64(byte[] b, int p0, int w, int n, long base, double m1, double m2, double[] out, int oo) {
    if (w == 0) {
      java.util.Arrays.fill(out, oo, oo + n, base * m1 * m2);
      return;
    }
    long mask = w == 64 ? -1L : (1L << w) - 1;
    int[] rows = BitPacking.rows(64);
    int full = n >>> 4;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 63;
      int p = p0 + (s >>> 6) * STRIDE;
      int ob = oo + 16 * r;
      if (o + w <= 64) {
        for (int l = 0; l < 16; l++) {
          long v = (LittleEndian.getLong(b, p + 8 * l) >>> o) & mask;
          out[ob + l] = (base + v) * m1 * m2;
        }
      } else {
        int back = 64 - o;
        for (int l = 0; l < 16; l++) {
          long v = ((LittleEndian.getLong(b, p + 8 * l) >>> o) | (LittleEndian.getLong(b, p + STRIDE + 8 * l) << back)) & mask;
          out[ob + l] = (base + v) * m1 * m2;
        }
      }
    }
    for (int i = 16 * full; i < n; i++) {
      out[oo + i] = (base + get64(b, p0, rows, w, mask, i)) * m1 * m2;
    }
  }

  /**
   * {@link #for64} for the multiply path, with {@code base} in {@code [-2^51, 2^53]} and {@code w
   * <= 51}: each value is the bits of {@code 1.5 * 2^52 + p} read as a double (exactly that sum)
   * plus {@code base - 1.5 * 2^52} (an integer of magnitude at most 2^53, so a double too), one
   * rounding of {@code p + base}, which is {@code float(base + p)}. {@code cvtsi2sd} merges into
   * its destination register, and C2 on JDK 17 reuses that register for the value before's
   * product, so each conversion waited for two multiplies: weather f64 decodes 1.35x faster this
   * way, and 1.03-1.08x more with the bias folded into the base's constant (one subtraction a
   * value fewer). The divide path keeps the conversion: this loop measured level or slower there
   * (coordinates 0.8-1.0x).
   */
  private static void forExact64(byte[] b, int p0, int w, int n, long base, double m1, double m2, double[] out, int oo) {
    long mask = (1L << w) - 1;
    int[] rows = BitPacking.rows(64);
    double shifted = (double) base - BIAS_64;
    int full = n >>> 4;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 63;
      int p = p0 + (s >>> 6) * STRIDE;
      int ob = oo + 16 * r;
      if (o + w <= 64) {
        for (int l = 0; l < 16; l++) {
          long v = (LittleEndian.getLong(b, p + 8 * l) >>> o) & mask;
          out[ob + l] = (Double.longBitsToDouble(BIAS_BITS_64 + v) + shifted) * m1 * m2;
        }
      } else {
        int back = 64 - o;
        for (int l = 0; l < 16; l++) {
          long v = ((LittleEndian.getLong(b, p + 8 * l) >>> o) | (LittleEndian.getLong(b, p + STRIDE + 8 * l) << back)) & mask;
          out[ob + l] = (Double.longBitsToDouble(BIAS_BITS_64 + v) + shifted) * m1 * m2;
        }
      }
    }
    for (int i = 16 * full; i < n; i++) {
      out[oo + i] = (Double.longBitsToDouble(BIAS_BITS_64 + get64(b, p0, rows, w, mask, i)) + shifted) * m1 * m2;
    }
  }

  /** Whether a packed FOR chunk's values {@code base + p} convert through {@link #BIAS_64}. */
  private static boolean exact64(int w, long base) {
    return w > 0 && w <= EXACT_BITS_64 && base >= -(1L << 51) && base <= 1L << 53;
  }

  /** Widths whose values convert through {@link #BIAS_64}. */
  static final int EXACT_BITS_64 = 51;

  /**
   * 1.5 * 2^52: its ulp is 1, and adding an integer below 2^51 in magnitude keeps the exponent, so
   * the bits of 1.5 * 2^52 plus such an integer, read as a double, are exactly their sum.
   */
  private static final double BIAS_64 = 0x1.8p52;

  static final long BIAS_BITS_64 = Double.doubleToRawLongBits(BIAS_64);

  /**
   * Whether every running sum of a packed Delta chunk ({@code w > 0} bits, {@code n} values) stays
   * below {@code limit} in magnitude: a bound, with room for its own rounding below the exact
   * conversions' 2^51 (float64) and 2^22 (float32).
   */
  private static boolean sumsBelow(int w, int n, long base, long step, double limit) {
    return w > 0 && Math.abs((double) base) + n * (Math.abs((double) step) + Math.scalb(1.0, w)) < limit;
  }

  /**
   * Packed Delta: the running sum is the only thing carried from value to value. When no sum can
   * reach 2^51 in magnitude it converts through {@link #BIAS_64}: 1.3-1.5x on sorted and hourly
   * f64 (see {@link #forExact64} for why); otherwise one value at a time.
   */
  private static void delta64(byte[] b, int p0, int w, int n, long base, long step, double m1, double m2,
      double[] out, int oo) {
    long acc = base - step;
    long mask = w == 64 ? -1L : (1L << w) - 1;
    int[] rows = BitPacking.rows(64);
    if (!sumsBelow(w, n, base, step, 0x1p50)) {
      for (int i = 0; i < n; i++) {
        acc += step + (w == 0 ? 0 : get64(b, p0, rows, w, mask, i));
        out[oo + i] = acc * m1 * m2;
      }
      return;
    }
    // the running sum kept inside the bit pattern of 1.5 * 2^52 + acc rather than added to it
    // for each value
    acc += BIAS_BITS_64;
    int full = n >>> 4;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 63;
      int p = p0 + (s >>> 6) * STRIDE;
      int ob = oo + 16 * r;
      if (o + w <= 64) {
        for (int l = 0; l < 16; l++) {
          acc += step + ((LittleEndian.getLong(b, p + 8 * l) >>> o) & mask);
          out[ob + l] = (Double.longBitsToDouble(acc) - BIAS_64) * m1 * m2;
        }
      } else {
        int back = 64 - o;
        for (int l = 0; l < 16; l++) {
          long v = ((LittleEndian.getLong(b, p + 8 * l) >>> o) | (LittleEndian.getLong(b, p + STRIDE + 8 * l) << back)) & mask;
          acc += step + v;
          out[ob + l] = (Double.longBitsToDouble(acc) - BIAS_64) * m1 * m2;
        }
      }
    }
    for (int i = 16 * full; i < n; i++) {
      acc += step + get64(b, p0, rows, w, mask, i);
      out[oo + i] = (Double.longBitsToDouble(acc) - BIAS_64) * m1 * m2;
    }
  }

  /** Value {@code i} of a packed float64 block (the tail of a short chunk). */
  /**
   * Values {@code [from, to)} of a float64 FOR chunk (no Delta: nothing is carried), each read
   * from its place in the packed block or raw words and rebuilt by the same formula as
   * {@link #alp64}, to {@code out[oo..]}: a small read of a chunk pays for its own values only.
   */
  static void pick64(byte[] b, int p0, boolean raw, int w, int from, int to, long base, boolean div, double m1, double m2,
      double[] out, int oo) {
    long mask = w == 64 ? -1L : (1L << w) - 1;
    int[] rows = BitPacking.rows(64);
    for (int i = from; i < to; i++) {
      long v = raw ? LittleEndian.getLong(b, p0 + 8 * i) : w == 0 ? 0 : get64(b, p0, rows, w, mask, i);
      double q = base + v;
      out[oo + i - from] = div ? q / m1 : q * m1 * m2;
    }
  }

  /** The float32 form of {@link #pick64}. */
  static void pick32(byte[] b, int p0, boolean raw, int w, int from, int to, int base, boolean div, float m1, float m2,
      float[] out, int oo) {
    int mask = w == 32 ? -1 : (1 << w) - 1;
    int[] rows = BitPacking.rows(32);
    for (int i = from; i < to; i++) {
      int v = raw ? LittleEndian.getInt(b, p0 + 4 * i) : w == 0 ? 0 : get32(b, p0, rows, w, mask, i);
      float q = base + v;
      out[oo + i - from] = div ? q / m1 : q * m1 * m2;
    }
  }

  private static long get64(byte[] b, int p0, int[] rows, int w, long mask, int i) {
    int s = rows[i >>> 4] * w;
    int o = s & 63;
    int p = p0 + (s >>> 6) * STRIDE + 8 * (i & 15);
    long v = LittleEndian.getLong(b, p) >>> o;
    if (o + w > 64) {
      v |= LittleEndian.getLong(b, p + STRIDE) << (64 - o);
    }
    return v & mask;
  }

  /** {@code out[i] / d} for a power of ten {@code d} ({@link PowersOfTen#quotient}). */
  static void divide(double[] out, int oo, int n, double d) {
    double y = 1.0 / d;
    for (int i = oo; i < oo + n; i++) {
      out[i] = PowersOfTen.quotient(out[i], d, y);
    }
  }

  private static void scale(double[] out, int oo, int n, double m1, double m2) {
    for (int i = oo; i < oo + n; i++) {
      out[i] = out[i] * m1 * m2;
    }
  }

  /** float32 ALP: {@link #alp64} with 32-bit words, int arithmetic and float scaling (kernels too). */
  static void alp32(byte[] b, int p0, boolean raw, int w, int n, boolean delta, int base, int step,
      boolean div, float m1, float m2, boolean kernels, float[] out, int oo) {
    if (raw) {
      raw32(b, p0, n, delta, base, step, out, oo);
    } else if (delta && sumsBelow(w, n, base, step, 0x1p21)) {
      deltaExact32(b, p0, w, n, base, step, div ? 1f : m1, div ? 1f : m2, out, oo);
    } else if (delta) {
      delta32(b, p0, w, n, base, step, div ? 1f : m1, div ? 1f : m2, out, oo);
    } else if (kernels && n == AlpFormat.MAX_CHUNK_VALUES && w > 0 && Vector.USABLE) {
      // any width and base, the division too, in one pass
      VectorFor.for32(b, p0, w, base, div, m1, m2, out, oo);
      return;
    } else if (kernels && n == AlpFormat.MAX_CHUNK_VALUES && exact32(w, base)) {
      AlpKernels.for32(w).run(b, p0, (float) base - BIAS_32, div ? 1f : m1, div ? 1f : m2, out, oo);
    } else if (div) {
      for32(b, p0, w, n, base, 1f, 1f, out, oo);
    } else if (exact32(w, base)) {
      forExact32(b, p0, w, n, base, m1, m2, out, oo);
      return;
    } else {
      for32(b, p0, w, n, base, m1, m2, out, oo);
      return;
    }
    if (div) {
      divide(out, oo, n, m1);
    } else if (raw) {
      scale(out, oo, n, m1, m2);
    }
  }

  private static void raw32(byte[] b, int p0, int n, boolean delta, int base, int step, float[] out, int oo) {
    int acc = base - step;
    for (int i = 0; i < n; i++) {
      int v = LittleEndian.getInt(b, p0 + 4 * i);
      int q;
      if (delta) {
        acc += step + v;
        q = acc;
      } else {
        q = base + v;
      }
      out[oo + i] = q;
    }
  }

  private static void for32(byte[] b, int p0, int w, int n, int base, float m1, float m2, float[] out, int oo) {
    if (w == 0) {
      java.util.Arrays.fill(out, oo, oo + n, base * m1 * m2);
      return;
    }
    int mask = w == 32 ? -1 : (1 << w) - 1;
    int[] rows = BitPacking.rows(32);
    int full = n >>> 5;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 31;
      int p = p0 + (s >>> 5) * STRIDE;
      int ob = oo + 32 * r;
      if (o + w <= 32) {
        for (int l = 0; l < 32; l++) {
          int v = (LittleEndian.getInt(b, p + 4 * l) >>> o) & mask;
          out[ob + l] = (base + v) * m1 * m2;
        }
      } else {
        int back = 32 - o;
        for (int l = 0; l < 32; l++) {
          int v = ((LittleEndian.getInt(b, p + 4 * l) >>> o) | (LittleEndian.getInt(b, p + STRIDE + 4 * l) << back)) & mask;
          out[ob + l] = (base + v) * m1 * m2;
        }
      }
    }
    for (int i = 32 * full; i < n; i++) {
      out[oo + i] = (base + get32(b, p0, rows, w, mask, i)) * m1 * m2;
    }
  }

  private static void delta32(byte[] b, int p0, int w, int n, int base, int step, float m1, float m2,
      float[] out, int oo) {
    int acc = base - step;
    if (w == 0) {
      for (int i = 0; i < n; i++) {
        acc += step;
        out[oo + i] = acc * m1 * m2;
      }
      return;
    }
    int mask = w == 32 ? -1 : (1 << w) - 1;
    int[] rows = BitPacking.rows(32);
    int full = n >>> 5;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 31;
      int p = p0 + (s >>> 5) * STRIDE;
      int ob = oo + 32 * r;
      if (o + w <= 32) {
        for (int l = 0; l < 32; l++) {
          acc += step + ((LittleEndian.getInt(b, p + 4 * l) >>> o) & mask);
          out[ob + l] = acc * m1 * m2;
        }
      } else {
        int back = 32 - o;
        for (int l = 0; l < 32; l++) {
          int v = ((LittleEndian.getInt(b, p + 4 * l) >>> o) | (LittleEndian.getInt(b, p + STRIDE + 4 * l) << back)) & mask;
          acc += step + v;
          out[ob + l] = acc * m1 * m2;
        }
      }
    }
    for (int i = 32 * full; i < n; i++) {
      acc += step + get32(b, p0, rows, w, mask, i);
      out[oo + i] = acc * m1 * m2;
    }
  }

  /**
   * {@link #delta32} when no running sum can reach 2^22 in magnitude, converting through {@link
   * #BIAS_32} (see {@link #forExact64} for why).
   */
  private static void deltaExact32(byte[] b, int p0, int w, int n, int base, int step, float m1, float m2,
      float[] out, int oo) {
    int acc = base - step;
    int mask = (1 << w) - 1;
    int[] rows = BitPacking.rows(32);
    // the running sum kept inside the bit pattern of 1.5 * 2^23 + acc (see delta64)
    acc += BIAS_BITS_32;
    int full = n >>> 5;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 31;
      int p = p0 + (s >>> 5) * STRIDE;
      int ob = oo + 32 * r;
      if (o + w <= 32) {
        for (int l = 0; l < 32; l++) {
          acc += step + ((LittleEndian.getInt(b, p + 4 * l) >>> o) & mask);
          out[ob + l] = (Float.intBitsToFloat(acc) - BIAS_32) * m1 * m2;
        }
      } else {
        int back = 32 - o;
        for (int l = 0; l < 32; l++) {
          int v = ((LittleEndian.getInt(b, p + 4 * l) >>> o) | (LittleEndian.getInt(b, p + STRIDE + 4 * l) << back)) & mask;
          acc += step + v;
          out[ob + l] = (Float.intBitsToFloat(acc) - BIAS_32) * m1 * m2;
        }
      }
    }
    for (int i = 32 * full; i < n; i++) {
      acc += step + get32(b, p0, rows, w, mask, i);
      out[oo + i] = (Float.intBitsToFloat(acc) - BIAS_32) * m1 * m2;
    }
  }

  /**
   * {@link #for32} for the multiply path with {@code base} in {@code [-2^22, 2^24]} and {@code w <= 22}: {@code
   * bits(1.5 * 2^23 + p) + (base - 1.5 * 2^23)}, two exact terms rounded once (see {@link #forExact64}).
   */
  private static void forExact32(byte[] b, int p0, int w, int n, int base, float m1, float m2, float[] out, int oo) {
    int mask = (1 << w) - 1;
    int[] rows = BitPacking.rows(32);
    float shifted = (float) base - BIAS_32;
    int full = n >>> 5;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 31;
      int p = p0 + (s >>> 5) * STRIDE;
      int ob = oo + 32 * r;
      if (o + w <= 32) {
        for (int l = 0; l < 32; l++) {
          int v = (LittleEndian.getInt(b, p + 4 * l) >>> o) & mask;
          out[ob + l] = (Float.intBitsToFloat(BIAS_BITS_32 + v) + shifted) * m1 * m2;
        }
      } else {
        int back = 32 - o;
        for (int l = 0; l < 32; l++) {
          int v = ((LittleEndian.getInt(b, p + 4 * l) >>> o) | (LittleEndian.getInt(b, p + STRIDE + 4 * l) << back)) & mask;
          out[ob + l] = (Float.intBitsToFloat(BIAS_BITS_32 + v) + shifted) * m1 * m2;
        }
      }
    }
    for (int i = 32 * full; i < n; i++) {
      out[oo + i] = (Float.intBitsToFloat(BIAS_BITS_32 + get32(b, p0, rows, w, mask, i)) + shifted) * m1 * m2;
    }
  }

  /** Whether a packed FOR chunk's values {@code base + p} convert through {@link #BIAS_32}. */
  private static boolean exact32(int w, int base) {
    return w > 0 && w <= EXACT_BITS_32 && base >= -(1 << 22) && base <= 1 << 24;
  }

  /** Widths and magnitudes below 2^22 convert through {@link #BIAS_32}. */
  static final int EXACT_BITS_32 = 22;

  /** 1.5 * 2^23: its ulp is 1, and adding an integer below 2^22 in magnitude keeps the exponent. */
  private static final float BIAS_32 = 0x1.8p23f;

  static final int BIAS_BITS_32 = Float.floatToRawIntBits(BIAS_32);

  private static int get32(byte[] b, int p0, int[] rows, int w, int mask, int i) {
    int s = rows[i >>> 5] * w;
    int o = s & 31;
    int p = p0 + (s >>> 5) * STRIDE + 4 * (i & 31);
    int v = LittleEndian.getInt(b, p) >>> o;
    if (o + w > 32) {
      v |= LittleEndian.getInt(b, p + STRIDE) << (32 - o);
    }
    return v & mask;
  }

  private static void divide(float[] out, int oo, int n, float d) {
    for (int i = oo; i < oo + n; i++) {
      out[i] = out[i] / d;
    }
  }

  private static void scale(float[] out, int oo, int n, float m1, float m2) {
    for (int i = oo; i < oo + n; i++) {
      out[i] = out[i] * m1 * m2;
    }
  }

  /**
   * float64 ALP-RD: the bits of value i are {@code left[index[i]] | right_i}, where
   * {@code left} holds the dictionary's entries already shifted up by {@code d} ({@code d < 64}).
   */
  static void rd64(byte[] b, int p0, boolean raw, int d, int n, int[] index, long[] left, double[] out, int oo) {
    long mask = (1L << d) - 1;
    if (raw) {
      for (int i = 0; i < n; i++) {
        long v = LittleEndian.getLong(b, p0 + 8 * i) & mask;
        out[oo + i] = Double.longBitsToDouble(left[index[i]] | v);
      }
      return;
    }
    int[] rows = BitPacking.rows(64);
    int full = n >>> 4;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * d;
      int o = s & 63;
      int p = p0 + (s >>> 6) * STRIDE;
      int ob = 16 * r;
      if (o + d <= 64) {
        for (int l = 0; l < 16; l++) {
          long v = (LittleEndian.getLong(b, p + 8 * l) >>> o) & mask;
          out[oo + ob + l] = Double.longBitsToDouble(left[index[ob + l]] | v);
        }
      } else {
        int back = 64 - o;
        for (int l = 0; l < 16; l++) {
          long v = ((LittleEndian.getLong(b, p + 8 * l) >>> o) | (LittleEndian.getLong(b, p + STRIDE + 8 * l) << back)) & mask;
          out[oo + ob + l] = Double.longBitsToDouble(left[index[ob + l]] | v);
        }
      }
    }
    for (int i = 16 * full; i < n; i++) {
      out[oo + i] = Double.longBitsToDouble(left[index[i]] | get64(b, p0, rows, d, mask, i));
    }
  }
  /**
   * Whether whole FOR chunks take {@link VectorFor} rather than {@link AlpKernels}: the JVM
   * resolved {@code jdk.incubator.vector} ({@code --add-modules jdk.incubator.vector}), the
   * platform is little-endian, {@code -Dlancecodec.alp.vector} is not {@code false}, and {@link
   * VectorFor#agrees}. A class of its own, initialized on first use: this one names no type of
   * the module, so it loads without it, and its constants are set by the time the probe reads them.
   */
  static final class Vector {
    private Vector() {}

    static final boolean USABLE = usable();

    private static boolean usable() {
      if (!Boolean.parseBoolean(System.getProperty("lancecodec.alp.vector", "true"))
          || ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()
          || java.nio.ByteOrder.nativeOrder() != java.nio.ByteOrder.LITTLE_ENDIAN) {
        return false;
      }
      try {
        return VectorFor.agrees();
      } catch (LinkageError | RuntimeException e) {
        return false;
      }
    }
  }

}
