package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The generated FOR kernels against the spec's formula, value by value, for every width they are
 * written for: random packed bytes (every byte string is a valid packing) unpacked by {@link
 * BitPacking}'s loop, the bases at both ends of the exact range and between, the multiply path's
 * (e, f) pairs and the divide path's 1 and 1. Bit patterns must agree.
 */
class AlpKernelsTest {
  @Test
  void float64KernelsDecodeAsTheFormulaSays() {
    SplittableRandom rnd = new SplittableRandom(11);
    long[] bases = {-(1L << 51), 1L << 53, 0, -1, 123_456_789};
    for (int w = 1; w <= AlpKernels.MAX_WIDTH_64; w++) {
      for (int trial = 0; trial < 8; trial++) {
        long base = trial < bases.length ? bases[trial] : rnd.nextLong(-(1L << 51), (1L << 53) + 1);
        check64(rnd, w, base, trial == 0 ? -1 : rnd.nextInt(19), rnd.nextInt(19));
      }
    }
  }

  @Test
  void float32KernelsDecodeAsTheFormulaSays() {
    SplittableRandom rnd = new SplittableRandom(12);
    int[] bases = {-(1 << 22), 1 << 24, 0, -1, 12_345};
    for (int w = 1; w <= AlpKernels.MAX_WIDTH_32; w++) {
      for (int trial = 0; trial < 8; trial++) {
        int base = trial < bases.length ? bases[trial] : rnd.nextInt(-(1 << 22), (1 << 24) + 1);
        check32(rnd, w, base, trial == 0 ? -1 : rnd.nextInt(11), rnd.nextInt(11));
      }
    }
  }

  /** {@code f < 0}: the divide path's {@code m1 = m2 = 1}. */
  private static void check64(SplittableRandom rnd, int w, long base, int f, int e) {
    int pad = rnd.nextInt(16);
    byte[] packed = new byte[pad + 128 * w];
    rnd.nextBytes(packed);
    long[] p = new long[1024];
    BitPacking.unpack64(packed, pad, false, w, 1024, p, 0);
    double m1 = f < 0 ? 1.0 : PowersOfTen.F64[f];
    double m2 = f < 0 ? 1.0 : PowersOfTen.INV_F64[e];
    double[] got = new double[1024 + 3];
    AlpKernels.for64(w).run(packed, pad, (double) base - 0x1.8p52, m1, m2, got, 3);
    for (int i = 0; i < 1024; i++) {
      double want = (double) (base + p[i]) * m1 * m2;
      if (Double.doubleToRawLongBits(want) != Double.doubleToRawLongBits(got[3 + i])) {
        throw new AssertionError("w " + w + " base " + base + " value " + i + ": want " + want + " got " + got[3 + i]);
      }
    }
  }

  private static void check32(SplittableRandom rnd, int w, int base, int f, int e) {
    int pad = rnd.nextInt(16);
    byte[] packed = new byte[pad + 128 * w];
    rnd.nextBytes(packed);
    int[] p = new int[1024];
    BitPacking.unpack32(packed, pad, false, w, 1024, p, 0);
    float m1 = f < 0 ? 1f : PowersOfTen.F32[f];
    float m2 = f < 0 ? 1f : PowersOfTen.INV_F32[e];
    float[] got = new float[1024 + 5];
    AlpKernels.for32(w).run(packed, pad, (float) base - 0x1.8p23f, m1, m2, got, 5);
    for (int i = 0; i < 1024; i++) {
      float want = (float) (base + p[i]) * m1 * m2;
      if (Float.floatToRawIntBits(want) != Float.floatToRawIntBits(got[5 + i])) {
        throw new AssertionError("w " + w + " base " + base + " value " + i + ": want " + want + " got " + got[5 + i]);
      }
    }
  }

  @Test
  void widthsOutsideTheExactRangeHaveNoKernel() {
    assertThrows(IllegalArgumentException.class, () -> AlpKernels.for64(0));
    assertThrows(IllegalArgumentException.class, () -> AlpKernels.for64(AlpKernels.MAX_WIDTH_64 + 1));
    assertThrows(IllegalArgumentException.class, () -> AlpKernels.for32(0));
    assertThrows(IllegalArgumentException.class, () -> AlpKernels.for32(AlpKernels.MAX_WIDTH_32 + 1));
  }

  /** Threads racing for every shape at once all get the one cached kernel per shape, and it decodes. */
  @Test
  void threadsRacingForAShapeShareOneKernel() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Object[]>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long seed = t;
        Callable<Object[]> task = () -> {
          Object[] seen = new Object[AlpKernels.MAX_WIDTH_64 + AlpKernels.MAX_WIDTH_32];
          SplittableRandom rnd = new SplittableRandom(seed);
          for (int w = 1; w <= AlpKernels.MAX_WIDTH_64; w++) {
            seen[w - 1] = AlpKernels.for64(w);
            check64(rnd, w, 7, 2, 3);
          }
          for (int w = 1; w <= AlpKernels.MAX_WIDTH_32; w++) {
            seen[AlpKernels.MAX_WIDTH_64 + w - 1] = AlpKernels.for32(w);
            check32(rnd, w, 7, 2, 3);
          }
          return seen;
        };
        runs.add(pool.submit(task));
      }
      Object[] first = runs.get(0).get();
      for (Future<Object[]> run : runs) {
        Object[] seen = run.get();
        assertEquals(first.length, seen.length);
        for (int i = 0; i < seen.length; i++) {
          assertSame(first[i], seen[i], "shape " + i);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
