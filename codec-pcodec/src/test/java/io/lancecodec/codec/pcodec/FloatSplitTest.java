package io.lancecodec.codec.pcodec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The branchless float helpers against plain definitions, value by value. */
class FloatSplitTest {
  /** Rust's round as its definition reads: truncate, then step away from zero from one half on. */
  private static double roundByDefinition(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return x;
    }
    double t = x < 0 ? Math.ceil(x) : Math.floor(x);
    if (Math.abs(x - t) >= 0.5) {
      t += Math.signum(x);
    }
    return t;
  }

  private static double[] awkwardDoubles() {
    return new double[] {0.0, -0.0, 0.5, -0.5, 0.49999999999999994, -0.49999999999999994, 1.5, -2.5,
      0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p52, 0x1p53 + 2, 0x1p63, -0x1p63, 1e300, -1e300, Double.MIN_VALUE,
      -Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
      0.1, -0.3, 2.675, 1234567.5, -1234567.5};
  }

  @Test
  void roundHalfAwayMatchesTheDefinition() {
    for (double x : awkwardDoubles()) {
      assertEquals(Double.doubleToRawLongBits(roundByDefinition(x)),
          Double.doubleToRawLongBits(FloatKind.roundHalfAway(x)), "round " + x);
    }
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 200_000; i++) {
      double x = switch (i % 3) {
        case 0 -> (rnd.nextDouble() - 0.5) * 1000;
        case 1 -> Double.longBitsToDouble(rnd.nextLong());
        default -> rnd.nextInt(-100_000, 100_000) / 2.0;
      };
      assertEquals(Double.doubleToRawLongBits(roundByDefinition(x)),
          Double.doubleToRawLongBits(FloatKind.roundHalfAway(x)), "round " + x);
    }
  }

  @Test
  void f64FloatMultSplitEqualsTheGenericOne() {
    SplittableRandom rnd = new SplittableRandom(5);
    double[] bases = {0.1, 0.01, 0.25, 3.0, 1e-7, 7.5e12, -0.1, Double.MIN_VALUE, 1e300};
    long[] nums = new long[4000];
    for (double base : bases) {
      for (int i = 0; i < nums.length; i++) {
        double x = switch (i % 4) {
          case 0 -> rnd.nextInt(-5000, 5000) * base;
          case 1 -> Double.longBitsToDouble(rnd.nextLong());
          case 2 -> awkwardDoubles()[i % awkwardDoubles().length];
          default -> (rnd.nextDouble() - 0.5) * 1e6;
        };
        nums[i] = NumberType.F64.toOrdered(Double.doubleToRawLongBits(x));
      }
      FloatKind f = FloatKind.F64_KIND;
      ModeChooser.Split fast = FloatModes.floatMultF64(nums, base, f.div(1.0, base));
      ModeChooser.Split generic = FloatModes.floatMultGeneric(f, nums, base, f.div(1.0, base));
      assertEquals(generic.mode.base, fast.mode.base, "base " + base);
      assertArrayEquals(generic.primary, fast.primary, "mults, base " + base);
      assertArrayEquals(generic.secondary, fast.secondary, "adjustments, base " + base);
    }
  }
}
