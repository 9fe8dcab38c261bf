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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated FOR kernels against the spec's formula, value by value, for every width they are
 * written for: random packed bytes (every byte string is a valid packing) unpacked by {@link
 * BitPacking}'s loop, the bases at both ends of the exact range and between, the multiply path's
 * (e, f) pairs and the divide path's 1 and 1. Bit patterns must agree.
 */
class AlpKernelsTest {
  /** The generated kernels, and the Vector API ones when this JVM has the module. */
  static List<Kernels> kernels() {
    List<Kernels> all = new ArrayList<>();
    all.add(new Kernels("generated", (w) -> AlpKernels.for64(w), (w) -> AlpKernels.for32(w)));
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
      all.add(new Kernels("vector",
          (w) -> (b, p, shifted, m1, m2, out, oo) -> VectorFor.for64(b, p, w, shifted, false, m1, m2, out, oo),
          (w) -> (b, p, shifted, m1, m2, out, oo) -> VectorFor.for32(b, p, w, (int) (shifted + 0x1.8p23f), false, m1, m2, out, oo)));
    }
    return all;
  }

  /** One implementation of the kernels, by width. */
  record Kernels(String name, java.util.function.IntFunction<AlpKernels.For64> f64, java.util.function.IntFunction<AlpKernels.For32> f32) {
    @Override
    public String toString() {
      return name;
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kernels")
  void float64KernelsDecodeAsTheFormulaSays(Kernels k) {
    SplittableRandom rnd = new SplittableRandom(11);
    long[] bases = {-(1L << 51), 1L << 53, 0, -1, 123_456_789};
    for (int w = 1; w <= AlpKernels.MAX_WIDTH_64; w++) {
      for (int trial = 0; trial < 8; trial++) {
        long base = trial < bases.length ? bases[trial] : rnd.nextLong(-(1L << 51), (1L << 53) + 1);
        check64(k.f64().apply(w), rnd, w, base, trial == 0 ? -1 : rnd.nextInt(19), rnd.nextInt(19));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kernels")
  void float32KernelsDecodeAsTheFormulaSays(Kernels k) {
    SplittableRandom rnd = new SplittableRandom(12);
    int[] bases = {-(1 << 22), 1 << 24, 0, -1, 12_345};
    for (int w = 1; w <= AlpKernels.MAX_WIDTH_32; w++) {
      for (int trial = 0; trial < 8; trial++) {
        int base = trial < bases.length ? bases[trial] : rnd.nextInt(-(1 << 22), (1 << 24) + 1);
        check32(k.f32().apply(w), rnd, w, base, trial == 0 ? -1 : rnd.nextInt(11), rnd.nextInt(11));
      }
    }
  }

  /** The Vector API kernels' divide path, which divides in the same pass: {@code float(q) / 10^e}. */
  @Test
  void vectorKernelsDivideAsTheDivisionDoes() {
    org.junit.jupiter.api.Assumptions.assumeTrue(FusedDecode.Vector.USABLE, "the Vector API is not resolved in this JVM");
    SplittableRandom rnd = new SplittableRandom(13);
    for (int w = 1; w <= AlpKernels.MAX_WIDTH_64; w++) {
      int pad = rnd.nextInt(16);
      byte[] packed = new byte[pad + 128 * w];
      rnd.nextBytes(packed);
      long[] p = new long[1024];
      BitPacking.unpack64(packed, pad, false, w, 1024, p, 0);
      long base = rnd.nextLong(-(1L << 51), (1L << 53) + 1 - (1L << w));
      int e = rnd.nextInt(19);
      double d = PowersOfTen.F64[e];
      double[] got = new double[1024];
      VectorFor.for64(packed, pad, w, (double) base - 0x1.8p52, true, d, 1.0 / d, got, 0);
      for (int i = 0; i < 1024; i++) {
        assertEquals(Double.doubleToRawLongBits((double) (base + p[i]) / d), Double.doubleToRawLongBits(got[i]),
            "w " + w + " e " + e + " value " + i);
      }
    }
    for (int w = 1; w <= 32; w++) {
      byte[] packed = new byte[128 * w];
      rnd.nextBytes(packed);
      int[] p = new int[1024];
      BitPacking.unpack32(packed, 0, false, w, 1024, p, 0);
      int base = rnd.nextInt();
      int e = rnd.nextInt(11);
      float d = PowersOfTen.F32[e];
      float[] got = new float[1024];
      VectorFor.for32(packed, 0, w, base, true, d, 1f, got, 0);
      for (int i = 0; i < 1024; i++) {
        assertEquals(Float.floatToRawIntBits((float) (base + p[i]) / d), Float.floatToRawIntBits(got[i]),
            "w " + w + " e " + e + " value " + i);
      }
    }
  }

  /**
   * The float32 Vector API kernel takes every width and base (its conversion rounds as the
   * scalar one does): integers past 2^24, sums that wrap, both paths.
   */
  @Test
  void vectorFloat32KernelsTakeEveryWidthAndBase() {
    org.junit.jupiter.api.Assumptions.assumeTrue(FusedDecode.Vector.USABLE, "the Vector API is not resolved in this JVM");
    SplittableRandom rnd = new SplittableRandom(14);
    for (int w = 1; w <= 32; w++) {
      for (int trial = 0; trial < 4; trial++) {
        byte[] packed = new byte[128 * w];
        rnd.nextBytes(packed);
        int[] p = new int[1024];
        BitPacking.unpack32(packed, 0, false, w, 1024, p, 0);
        int base = trial == 0 ? Integer.MAX_VALUE : trial == 1 ? Integer.MIN_VALUE : rnd.nextInt();
        float m1 = PowersOfTen.F32[rnd.nextInt(11)];
        float m2 = PowersOfTen.INV_F32[rnd.nextInt(11)];
        float[] got = new float[1024];
        VectorFor.for32(packed, 0, w, base, false, m1, m2, got, 0);
        for (int i = 0; i < 1024; i++) {
          assertEquals(Float.floatToRawIntBits((float) (base + p[i]) * m1 * m2), Float.floatToRawIntBits(got[i]),
              "w " + w + " base " + base + " value " + i);
        }
      }
    }
  }

  /**
   * The build runs these tests with the module ({@code --add-modules jdk.incubator.vector}, in
   * codec-alp's pom), and then the decoder must take the Vector API kernels; without it, the
   * generated ones.
   */
  @Test
  void theDecoderUsesTheVectorKernelsWhereTheModuleIsResolved() {
    boolean module = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    assertEquals(module && !"false".equals(System.getProperty("lancecodec.alp.vector")), FusedDecode.Vector.USABLE);
  }

  /** {@code f < 0}: the divide path's {@code m1 = m2 = 1}. */
  private static void check64(AlpKernels.For64 kernel, SplittableRandom rnd, int w, long base, int f, int e) {
    int pad = rnd.nextInt(16);
    byte[] packed = new byte[pad + 128 * w];
    rnd.nextBytes(packed);
    long[] p = new long[1024];
    BitPacking.unpack64(packed, pad, false, w, 1024, p, 0);
    double m1 = f < 0 ? 1.0 : PowersOfTen.F64[f];
    double m2 = f < 0 ? 1.0 : PowersOfTen.INV_F64[e];
    double[] got = new double[1024 + 3];
    kernel.run(packed, pad, (double) base - 0x1.8p52, m1, m2, got, 3);
    for (int i = 0; i < 1024; i++) {
      double want = (double) (base + p[i]) * m1 * m2;
      if (Double.doubleToRawLongBits(want) != Double.doubleToRawLongBits(got[3 + i])) {
        throw new AssertionError("w " + w + " base " + base + " value " + i + ": want " + want + " got " + got[3 + i]);
      }
    }
  }

  private static void check32(AlpKernels.For32 kernel, SplittableRandom rnd, int w, int base, int f, int e) {
    int pad = rnd.nextInt(16);
    byte[] packed = new byte[pad + 128 * w];
    rnd.nextBytes(packed);
    int[] p = new int[1024];
    BitPacking.unpack32(packed, pad, false, w, 1024, p, 0);
    float m1 = f < 0 ? 1f : PowersOfTen.F32[f];
    float m2 = f < 0 ? 1f : PowersOfTen.INV_F32[e];
    float[] got = new float[1024 + 5];
    kernel.run(packed, pad, (float) base - 0x1.8p23f, m1, m2, got, 5);
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
            check64(AlpKernels.for64(w), rnd, w, 7, 2, 3);
          }
          for (int w = 1; w <= AlpKernels.MAX_WIDTH_32; w++) {
            seen[AlpKernels.MAX_WIDTH_64 + w - 1] = AlpKernels.for32(w);
            check32(AlpKernels.for32(w), rnd, w, 7, 2, 3);
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
