package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Fixed-seed property tests: whatever is encoded decodes to the same bits. */
class AlpRoundTripTest {
  static final int[] SIZES = {1, 2, 3, 31, 1023, 1024, 1025, 2048, 5000};

  static final long[] SPECIAL_BITS_64 = {
    0x7FF8000000000000L, 0x7FF0000000000001L, 0xFFF8000000000123L, 0x7FF4000000000000L,
    0x0000000000000000L, 0x8000000000000000L, 0x7FF0000000000000L, 0xFFF0000000000000L,
    0x0000000000000001L, 0x000FFFFFFFFFFFFFL, 0x800000000000ABCDL, 0x0010000000000000L,
    0x7FEFFFFFFFFFFFFFL, 0xFFEFFFFFFFFFFFFFL
  };

  static final int[] SPECIAL_BITS_32 = {
    0x7FC00000, 0x7F800001, 0xFFC01234, 0x7FA00000, 0x00000000, 0x80000000, 0x7F800000,
    0xFF800000, 0x00000001, 0x007FFFFF, 0x8000ABCD, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF
  };

  /** A decimal with 0..15 significant digits and 0..15 fraction digits, parsed as Java does. */
  static double decimal(Random rnd) {
    int digits = rnd.nextInt(16);
    long unscaled = digits == 0 ? 0 : (long) (rnd.nextDouble() * Math.pow(10, digits));
    if (rnd.nextBoolean()) {
      unscaled = -unscaled;
    }
    return new BigDecimal(java.math.BigInteger.valueOf(unscaled), rnd.nextInt(16)).doubleValue();
  }

  enum Kind { RANDOM_BITS, UNIFORM, DECIMALS, FIXED_DECIMALS, RUNS, SORTED, SPECIALS, MIXED }

  static double[] data64(Kind kind, int n, long seed) {
    Random rnd = new Random(seed);
    double[] v = new double[n];
    int scale = rnd.nextInt(5);
    double acc = rnd.nextInt(1000) / 10.0;
    for (int i = 0; i < n; i++) {
      switch (kind) {
        case RANDOM_BITS -> v[i] = Double.longBitsToDouble(rnd.nextLong());
        case UNIFORM -> v[i] = rnd.nextDouble() * 1000;
        case DECIMALS -> v[i] = decimal(rnd);
        case FIXED_DECIMALS -> v[i] = BigDecimal.valueOf(rnd.nextInt(2_000_000) - 1_000_000, scale).doubleValue();
        case RUNS -> v[i] = i % 97 < 60 ? 42.5 : (i / 97) * 0.25;
        case SORTED -> {
          acc += rnd.nextInt(50) / 10.0;
          v[i] = BigDecimal.valueOf(Math.round(acc * 10), 1).doubleValue();
        }
        case SPECIALS -> v[i] = Double.longBitsToDouble(SPECIAL_BITS_64[rnd.nextInt(SPECIAL_BITS_64.length)]);
        case MIXED -> v[i] = rnd.nextInt(10) == 0
            ? Double.longBitsToDouble(SPECIAL_BITS_64[rnd.nextInt(SPECIAL_BITS_64.length)])
            : BigDecimal.valueOf(rnd.nextInt(100_000), 2).doubleValue();
        default -> throw new AssertionError();
      }
    }
    return v;
  }

  static float[] data32(Kind kind, int n, long seed) {
    double[] d = data64(kind, n, seed);
    Random rnd = new Random(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      switch (kind) {
        case RANDOM_BITS -> v[i] = Float.intBitsToFloat(rnd.nextInt());
        case SPECIALS -> v[i] = Float.intBitsToFloat(SPECIAL_BITS_32[rnd.nextInt(SPECIAL_BITS_32.length)]);
        // decimals go through their string, as a float32 column would be filled
        default -> v[i] = Float.parseFloat(Double.toString(d[i]));
      }
    }
    return v;
  }

  @Test
  void pagesOfFloat64() {
    AlpEncoder encoder = new AlpEncoder();
    long seed = 100;
    for (Kind kind : Kind.values()) {
      for (int n : SIZES) {
        double[] v = data64(kind, n, seed++);
        AlpPage page = encoder.encodePage(v, 0, n);
        if (page == null) {
          continue;
        }
        assertTrue(page.encodedBytes() < 8L * n, kind + " n=" + n);
        double[] back = new double[n + 1];
        new AlpDecoder().decodePage(page, back, 1);
        Chunks.assertBitsEqual(v, java.util.Arrays.copyOfRange(back, 1, n + 1));
      }
    }
  }

  @Test
  void pagesOfFloat32() {
    AlpEncoder encoder = new AlpEncoder();
    long seed = 200;
    for (Kind kind : Kind.values()) {
      for (int n : SIZES) {
        float[] v = data32(kind, n, seed++);
        AlpPage page = encoder.encodePage(v, 0, n);
        if (page == null) {
          continue;
        }
        assertTrue(page.encodedBytes() < 4L * n, kind + " n=" + n);
        float[] back = new float[n];
        new AlpDecoder().decodePage(page, back, 0);
        Chunks.assertBitsEqual(v, back);
      }
    }
  }

  @Test
  void decimalPagesAreAlwaysWorthIt() {
    AlpEncoder encoder = new AlpEncoder();
    for (Kind kind : new Kind[] {Kind.FIXED_DECIMALS, Kind.RUNS, Kind.SORTED}) {
      for (int n : new int[] {1024, 5000}) {
        assertNotNull(encoder.encodePage(data64(kind, n, 7), 0, n), kind + " float64 n=" + n);
        assertNotNull(encoder.encodePage(data32(kind, n, 7), 0, n), kind + " float32 n=" + n);
      }
    }
  }

  /** Every candidate and integer form on every kind of data, chunk by chunk, including useless ones. */
  @Test
  void chunksUnderForcedParameters() {
    Random pick = new Random(5);
    long seed = 300;
    for (Kind kind : Kind.values()) {
      for (int n : new int[] {1, 2, 1023, 1024}) {
        for (int round = 0; round < 6; round++) {
          double[] v = data64(kind, n, seed++);
          int e = pick.nextInt(AlpFormat.MAX_EXPONENT_F64 + 1);
          int f = pick.nextInt(e + 1);
          boolean div = pick.nextBoolean();
          boolean delta = n > 1 && pick.nextBoolean();
          Chunks.assertBitsEqual(v, Chunks.decode64(Chunks.alp64(v, e, f, div, delta), n));
          int d = 1 + pick.nextInt(63);
          Chunks.assertBitsEqual(v, Chunks.decode64(Chunks.rd64(v, d), n));
          float[] s = data32(kind, n, seed++);
          int e32 = pick.nextInt(AlpFormat.MAX_EXPONENT_F32 + 1);
          Chunks.assertBitsEqual(s, Chunks.decode32(Chunks.alp32(s, e32, pick.nextInt(e32 + 1), div, delta), n));
        }
      }
    }
  }

  @Test
  void extremeIntegersWrapCorrectly() {
    // FOR and Delta ranges spanning the whole integer type exercise the wrapping arithmetic.
    double[] v = {-9.2e18, 9.2e18, 0, -1, 1, 9.2e18, -9.2e18};
    for (boolean delta : new boolean[] {false, true}) {
      byte[][] b = Chunks.alp64(v, 0, 0, false, delta);
      assertEquals(0, b[2].length, "all admitted");
      Chunks.assertBitsEqual(v, Chunks.decode64(b, v.length));
    }
    float[] s = {-2.1e9f, 2.1e9f, 0, -1, 1, 2.1e9f};
    for (boolean delta : new boolean[] {false, true}) {
      byte[][] b = Chunks.alp32(s, 0, 0, false, delta);
      assertEquals(0, b[2].length, "all admitted");
      Chunks.assertBitsEqual(s, Chunks.decode32(b, s.length));
    }
  }

  @Test
  void offsetsIntoLargerArrays() {
    double[] v = data64(Kind.FIXED_DECIMALS, 3000, 9);
    AlpPage page = new AlpEncoder().encodePage(v, 500, 2100);
    assertNotNull(page);
    assertEquals(3, page.numChunks());
    assertEquals(10, page.chunks().get(0).logNumValues());
    assertEquals(0, page.chunks().get(2).logNumValues());
    assertEquals(52, page.chunkValues(2));
    double[] back = new double[2100];
    new AlpDecoder().decodePage(page, back, 0);
    Chunks.assertBitsEqual(java.util.Arrays.copyOfRange(v, 500, 2600), back);
  }
}
