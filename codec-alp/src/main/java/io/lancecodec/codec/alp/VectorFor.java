package io.lancecodec.codec.alp;

import java.util.SplittableRandom;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Whole FOR chunks decoded with the JDK's Vector API (the incubator module {@code
 * jdk.incubator.vector}), used where the JVM was started with {@code --add-modules
 * jdk.incubator.vector}: the same values as {@link AlpKernels}, several lanes of a row at once.
 * C2 on JDK 17 converts integers to floats one value at a time, even through the biased bit
 * pattern ({@code MoveL2D} has no vector form there), so the scalar kernels spend most of a value's
 * time on it; with the Vector API the whole chain (shift, mask, bias, reinterpret, add, two
 * multiplies) runs on 512- or 256-bit registers. Why it is kept: bench/README.md, section "ALP",
 * "Vector API kernels".
 *
 * <p>A row of the FastLanes block is 16 (float64) or 32 (float32) lanes of consecutive values,
 * whose packed words lie side by side: one vector load takes a row's word for several lanes, and
 * the row's values go to consecutive outputs. Words are loaded as bytes and reinterpreted, which
 * reads them in the platform's byte order, so the class serves little-endian platforms only;
 * {@code ByteVector.fromArray} and {@code reinterpretAs*} exist in every release of the API
 * (the byte-order loads of JDK 17 were removed in JDK 19).
 *
 * <p>Nothing here may be touched unless {@link FusedDecode.Vector#USABLE} says so: without the module
 * the class does not link.
 */
final class VectorFor {
  private VectorFor() {}

  /** The shape used: the platform's preferred one, at most 512 bits so a row holds whole vectors. */
  private static final VectorShape SHAPE =
      VectorShape.preferredShape().vectorBitSize() > 512 ? VectorShape.S_512_BIT : VectorShape.preferredShape();

  private static final VectorSpecies<Byte> BYTES = VectorSpecies.of(byte.class, SHAPE);
  private static final VectorSpecies<Long> LONGS = VectorSpecies.of(long.class, SHAPE);
  private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, SHAPE);
  private static final VectorSpecies<Double> DOUBLES = VectorSpecies.of(double.class, SHAPE);

  private static final int STRIDE = BitPacking.ROW_STRIDE;

  /**
   * A float64 FOR chunk of 1024 values, {@code 1 <= w <= AlpKernels.MAX_WIDTH_64}: value (row,
   * lane) is {@code a = bits(BIAS | p) + shifted} times {@code m1} times {@code m2}, as {@link
   * AlpKernels.For64} computes it; or, with {@code div}, {@code a / m1} correctly rounded, from
   * {@code m2 = 1 / m1} and two fused multiply-adds as {@link PowersOfTen#quotient} computes it (the
   * scalar kernels leave that to a second pass).
   */
  static void for64(byte[] b, int p0, int w, double shifted, boolean div, double m1, double m2, double[] out, int oo) {
    long mask = (1L << w) - 1;
    int[] rows = BitPacking.rows(64);
    int lanes = LONGS.length();
    for (int r = 0; r < 64; r++) {
      int s = rows[r] * w;
      int p = p0 + (s >>> 6) * STRIDE;
      for (int l = 0; l < 16; l += lanes) {
        DoubleVector a = row64(b, p + 8 * l, s & 63, w, mask).or(FusedDecode.BIAS_BITS_64).reinterpretAsDoubles().add(shifted);
        scale64(a, div, m1, m2).intoArray(out, oo + 16 * r + l);
      }
    }
  }

  /** Lanes {@code [at, at + lanes)} of a row whose values start at bit {@code o} of their words. */
  private static LongVector row64(byte[] b, int at, int o, int w, long mask) {
    LongVector v = words64(b, at).lanewise(VectorOperators.LSHR, o);
    if (o + w > 64) {
      v = v.or(words64(b, at + STRIDE).lanewise(VectorOperators.LSHL, 64 - o));
    }
    return v.and(mask);
  }

  private static LongVector words64(byte[] b, int at) {
    return ByteVector.fromArray(BYTES, b, at).reinterpretAsLongs();
  }

  private static DoubleVector scale64(DoubleVector a, boolean div, double m1, double m2) {
    if (!div) {
      return a.mul(m1).mul(m2);
    }
    DoubleVector q = a.mul(m2);
    return q.neg().fma(DoubleVector.broadcast(DOUBLES, m1), a).fma(DoubleVector.broadcast(DOUBLES, m2), q);
  }

  /**
   * {@link #for64} for float32, 32 lanes a row, of any width {@code 1 <= w <= 32} and base: value
   * (row, lane) is {@code a = float(base + p)} (the sum wrapping as an int, the conversion rounding
   * to nearest), times {@code m1} times {@code m2}, or with {@code div}, {@code a / m1} ({@code m2}
   * unused). The vector conversion rounds as the scalar one does, so unlike {@link AlpKernels}
   * this needs no exact range: float32 coordinates at 10^6 (26-bit integers near 4 * 10^7) went
   * through the scalar loop a value at a time.
   */
  static void for32(byte[] b, int p0, int w, int base, boolean div, float m1, float m2, float[] out, int oo) {
    int mask = w == 32 ? -1 : (1 << w) - 1;
    int[] rows = BitPacking.rows(32);
    int lanes = INTS.length();
    for (int r = 0; r < 32; r++) {
      int s = rows[r] * w;
      int p = p0 + (s >>> 5) * STRIDE;
      for (int l = 0; l < 32; l += lanes) {
        IntVector x = row32(b, p + 4 * l, s & 31, w, mask).add(base);
        scale32(x, div, m1, m2).intoArray(out, oo + 32 * r + l);
      }
    }
  }

  private static IntVector row32(byte[] b, int at, int o, int w, int mask) {
    IntVector v = words32(b, at).lanewise(VectorOperators.LSHR, o);
    if (o + w > 32) {
      v = v.or(words32(b, at + STRIDE).lanewise(VectorOperators.LSHL, 32 - o));
    }
    return v.and(mask);
  }

  private static IntVector words32(byte[] b, int at) {
    return ByteVector.fromArray(BYTES, b, at).reinterpretAsInts();
  }

  private static FloatVector scale32(IntVector q, boolean div, float m1, float m2) {
    FloatVector a = (FloatVector) q.convert(VectorOperators.I2F, 0);
    return div ? a.div(m1) : a.mul(m1).mul(m2);
  }

  /**
   * Whether chunks of a few widths (values within one word and straddling two) decode here as the spec's formula says, bit for bit: run once, before the first use ({@link
   * FusedDecode.Vector#USABLE}), so that a JDK whose API does not link or computes otherwise fails here
   * rather than in a read.
   */
  static boolean agrees() {
    SplittableRandom rnd = new SplittableRandom(1);
    int[] widths64 = {1, 17, AlpKernels.MAX_WIDTH_64};
    int[] widths32 = {1, 13, 27, 32};
    byte[] packed = new byte[128 * AlpKernels.MAX_WIDTH_64];
    rnd.nextBytes(packed);
    long[] p64 = new long[1024];
    double[] got64 = new double[1024];
    for (int w : widths64) {
      BitPacking.unpack64(packed, 0, false, w, 1024, p64, 0);
      for64(packed, 0, w, -12345.0 - 0x1.8p52, false, 10.0, 1e-3, got64, 0);
      for (int i = 0; i < 1024; i++) {
        if (Double.doubleToRawLongBits(got64[i]) != Double.doubleToRawLongBits((double) (p64[i] - 12345) * 10.0 * 1e-3)) {
          return false;
        }
      }
      for64(packed, 0, w, -12345.0 - 0x1.8p52, true, 1e7, 1e-7, got64, 0);
      for (int i = 0; i < 1024; i++) {
        if (Double.doubleToRawLongBits(got64[i]) != Double.doubleToRawLongBits((double) (p64[i] - 12345) / 1e7)) {
          return false;
        }
      }
    }
    int[] p32 = new int[1024];
    float[] got32 = new float[1024];
    for (int w : widths32) {
      BitPacking.unpack32(packed, 0, false, w, 1024, p32, 0);
      for32(packed, 0, w, 40_000_123, false, 10f, 1e-2f, got32, 0);
      for (int i = 0; i < 1024; i++) {
        if (Float.floatToRawIntBits(got32[i]) != Float.floatToRawIntBits((float) (p32[i] + 40_000_123) * 10f * 1e-2f)) {
          return false;
        }
      }
      for32(packed, 0, w, -123, true, 1e5f, 1f, got32, 0);
      for (int i = 0; i < 1024; i++) {
        if (Float.floatToRawIntBits(got32[i]) != Float.floatToRawIntBits((float) (p32[i] - 123) / 1e5f)) {
          return false;
        }
      }
    }
    return SHAPE.vectorBitSize() >= 256;
  }
}
