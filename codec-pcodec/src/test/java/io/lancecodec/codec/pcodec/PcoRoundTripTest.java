package io.lancecodec.codec.pcodec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.LanceCodecException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Bit-exact round trips over every number type, level, data shape and awkward size. */
class PcoRoundTripTest {
  static byte[] roundTrip(NumberType type, long[] raw, PcoConfig cfg, String what) {
    byte[] file = PcoEncoder.compress(type, raw, cfg);
    assertArrayEquals(TestData.masked(type, raw), TestData.decodeRaw(type, file), what);
    return file;
  }

  @ParameterizedTest
  @EnumSource(NumberType.class)
  void everyShapeAndLevel(NumberType type) {
    long seed = 17;
    for (int level = 0; level <= PcoFormat.MAX_LEVEL; level++) {
      for (String shape : TestData.SHAPES) {
        long[] raw = TestData.generate(type, shape, 1000, seed++);
        roundTrip(type, raw, PcoConfig.level(level), type + " " + shape + " level " + level);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(NumberType.class)
  void batchAndPageBoundarySizes(NumberType type) {
    int[] sizes = {0, 1, 2, 3, 4, 5, 9, 10, 11, 255, 256, 257, 511, 512, 513, 1023, 1025};
    long seed = 99;
    for (int n : sizes) {
      for (String shape : new String[] {"random", "walk", "constant", "decimals"}) {
        long[] raw = TestData.generate(type, shape, n, seed++);
        roundTrip(type, raw, PcoConfig.level(8), type + " " + shape + " n=" + n);
        roundTrip(type, raw, PcoConfig.level(0), type + " " + shape + " n=" + n + " level 0");
      }
    }
  }

  @Test
  void bigInputsSpanSeveralChunks() {
    int n = (1 << 18) + 4321;
    for (NumberType type : new NumberType[] {NumberType.F64, NumberType.I32, NumberType.U16}) {
      long[] raw = TestData.generate(type, "walk", n, 5);
      byte[] file = roundTrip(type, raw, PcoConfig.level(8), type + " big walk");
      assertTrue(file.length < n * type.bits / 8 / 2, type + " walk should compress well: " + file.length);
    }
    long[] raw = TestData.generate(NumberType.I64, "random", 70_000, 6);
    roundTrip(NumberType.I64, raw, PcoConfig.level(3).withMaxChunkN(30_000), "i64 three chunks");
  }

  @Test
  void randomDataNeverExceedsPlainBitPacking() {
    for (NumberType type : NumberType.values()) {
      long[] raw = TestData.generate(type, "random", 5000, 8);
      byte[] file = roundTrip(type, raw, PcoConfig.level(8), type + " random");
      long plain = 5000L * type.bits / 8;
      assertTrue(file.length <= plain + 64, type + ": " + file.length + " vs " + plain);
    }
  }

  @ParameterizedTest
  @EnumSource(NumberType.class)
  void everyDeltaSpec(NumberType type) {
    long seed = 3;
    for (String shape : new String[] {"walk", "random", "runs", "sorted"}) {
      long[] raw = TestData.generate(type, shape, 3000, seed++);
      PcoConfig base = PcoConfig.level(6);
      for (int order = 0; order <= 7; order++) {
        roundTrip(type, raw, base.withDelta(PcoConfig.DeltaSpec.TRY_CONSECUTIVE, order), type + " " + shape + " consecutive " + order);
      }
      roundTrip(type, raw, base.withDelta(PcoConfig.DeltaSpec.TRY_LOOKBACK, 0), type + " " + shape + " lookback");
      roundTrip(type, raw, base.withDelta(PcoConfig.DeltaSpec.NONE, 0), type + " " + shape + " none");
      if (type.bits <= 32) {
        for (int order : new int[] {1, 2, 3, 6, 7, 32}) {
          roundTrip(type, raw, base.withDelta(PcoConfig.DeltaSpec.TRY_CONV1, order), type + " " + shape + " conv1 " + order);
        }
      }
    }
  }

  @Test
  void lookbackWindowSmallerThanThePage() {
    // pco's encoder caps the window at 2^15, so 100k numbers make the decoder's ring wrap.
    SplittableRandom rnd = new SplittableRandom(12);
    long[] motif = new long[5000];
    for (int i = 0; i < motif.length; i++) {
      motif[i] = rnd.nextLong();
    }
    long[] raw = new long[100_000];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = rnd.nextInt(50) == 0 ? rnd.nextLong() : motif[(i * 7 + i / 5000) % motif.length];
    }
    for (NumberType type : new NumberType[] {NumberType.U64, NumberType.F32, NumberType.I16}) {
      byte[] f = roundTrip(type, raw, PcoConfig.level(8).withDelta(PcoConfig.DeltaSpec.TRY_LOOKBACK, 0), type + " lookback wrap");
      BitReader r = new BitReader(f, 0, f.length);
      PcoDecoder.Header h = PcoDecoder.readHeader(r);
      r.readAlignedByte("type");
      r.readInt(PcoFormat.CHUNK_N_BITS);
      assertEquals(15, ChunkMeta.read(r, h.formatMajor, type).delta.windowLog);
    }
  }

  @ParameterizedTest
  @EnumSource(NumberType.class)
  void everyModeSpec(NumberType type) {
    long[] raw = TestData.generate(type, "decimals", 2000, 21);
    PcoConfig base = PcoConfig.level(8);
    roundTrip(type, raw, base.withMode(PcoConfig.ModeSpec.CLASSIC, 0), type + " classic");
    roundTrip(type, raw, base.withMode(PcoConfig.ModeSpec.TRY_DICT, 0), type + " dict");
    roundTrip(type, raw, base.withMode(PcoConfig.ModeSpec.TRY_DICT, 0).withDelta(PcoConfig.DeltaSpec.TRY_CONSECUTIVE, 2), type + " dict delta");
    if (type.isFloat()) {
      for (double b : new double[] {0.01, 0.1, 1.0 / 7, 3.0, type == NumberType.F16 ? 1e-7 : 1e-30}) {
        roundTrip(type, raw, base.withMode(PcoConfig.ModeSpec.TRY_FLOAT_MULT, Double.doubleToRawLongBits(b)), type + " float mult " + b);
      }
      long[] special = TestData.generate(type, "special", 2000, 22);
      roundTrip(type, special, base.withMode(PcoConfig.ModeSpec.TRY_FLOAT_MULT, Double.doubleToRawLongBits(0.1)), type + " special float mult");
      for (int k = 1; k <= type.precisionBits(); k += 3) {
        roundTrip(type, raw, base.withMode(PcoConfig.ModeSpec.TRY_FLOAT_QUANT, k), type + " float quant " + k);
        roundTrip(type, special, base.withMode(PcoConfig.ModeSpec.TRY_FLOAT_QUANT, k), type + " special float quant " + k);
      }
    } else {
      for (long b : new long[] {1, 2, 7, 1000, type.mask}) {
        roundTrip(type, raw, base.withMode(PcoConfig.ModeSpec.TRY_INT_MULT, b), type + " int mult " + b);
      }
    }
  }

  private static int chosenMode(NumberType type, byte[] file) {
    BitReader r = new BitReader(file, 0, file.length);
    PcoDecoder.Header h = PcoDecoder.readHeader(r);
    r.readAlignedByte("type");
    r.readInt(PcoFormat.CHUNK_N_BITS);
    return ChunkMeta.read(r, h.formatMajor, type).mode.kind;
  }

  @Test
  void automaticModesAreFound() {
    SplittableRandom rnd = new SplittableRandom(4);
    int n = 20_000;
    long[] cents = new long[n];
    long[] ints = new long[n];
    long[] quant = new long[n];
    for (int i = 0; i < n; i++) {
      cents[i] = Double.doubleToRawLongBits(rnd.nextInt(1_000_000) / 100.0);
      ints[i] = rnd.nextInt(1_000_000) * 1000L + (rnd.nextInt(4) == 0 ? 1 : 0);
      quant[i] = Double.doubleToRawLongBits((double) (float) (rnd.nextGaussian() * 1000));
    }
    byte[] f = roundTrip(NumberType.F64, cents, PcoConfig.level(8), "cents");
    assertEquals(PcoFormat.MODE_FLOAT_MULT, chosenMode(NumberType.F64, f));
    f = roundTrip(NumberType.I64, ints, PcoConfig.level(8), "multiples of 1000");
    assertEquals(PcoFormat.MODE_INT_MULT, chosenMode(NumberType.I64, f));
    f = roundTrip(NumberType.F64, quant, PcoConfig.level(8), "f32 in f64");
    assertEquals(PcoFormat.MODE_FLOAT_QUANT, chosenMode(NumberType.F64, f));
    assertTrue(f.length < n * 4 + 200, "quantized f64 should cost about 32 bits each: " + f.length);
  }

  /**
   * Prices kept as float32 and printed with six decimals (as in the S&amp;P 500 sample: 1455.219971)
   * are multiples of 10^-6 whose 31-bit multipliers the approximate Euclid cannot find; the
   * decimal step does, at about 60% of the classic size here. A mix of four and seven decimals
   * keeps the coarser base the Euclid finds (the decimal step is asked only when it finds none).
   */
  @Test
  void sixDecimalPricesUseTheDecimalStep() {
    SplittableRandom rnd = new SplittableRandom(5);
    int n = 20_000;
    long[] prices = new long[n];
    double p = 1400;
    for (int i = 0; i < n; i++) {
      p = Math.max(700, p + (rnd.nextInt(4001) - 2000) / 100.0);
      float asFloat = (float) p;
      prices[i] = Double.doubleToRawLongBits(Double.parseDouble(String.format(java.util.Locale.ROOT, "%.6f", asFloat)));
    }
    byte[] f = roundTrip(NumberType.F64, prices, PcoConfig.level(8), "six-decimal prices");
    assertEquals(PcoFormat.MODE_FLOAT_MULT, chosenMode(NumberType.F64, f));
    byte[] classic = PcoEncoder.compress(NumberType.F64, prices, PcoConfig.level(8).withMode(PcoConfig.ModeSpec.CLASSIC, 0));
    assertTrue(f.length < 0.7 * classic.length, f.length + " bytes against classic's " + classic.length);
  }

  /**
   * Below ~8,000 numbers the delta sample is the chunk's first 200 numbers; when one run fills
   * them every encoding ties on the sample. Lance's chunks of 4,096 numbers of a column of runs
   * (flights-200k's time) then went without delta at 20-30x the size of delta order 1.
   */
  @Test
  void runsLongerThanTheDeltaSampleStillGetDelta() {
    SplittableRandom rnd = new SplittableRandom(6);
    int n = 4096;
    long[] runs = new long[n];
    float value = 0;
    for (int i = 0, left = 250; i < n; i++, left--) {
      if (left == 0) {
        value = rnd.nextInt(2400) / 100f;
        left = 150 + rnd.nextInt(200);
      }
      runs[i] = Float.floatToRawIntBits(value) & 0xFFFFFFFFL;
    }
    byte[] auto = roundTrip(NumberType.F32, runs, PcoConfig.level(8), "runs");
    byte[] none = PcoEncoder.compress(NumberType.F32, runs, PcoConfig.level(8).withDelta(PcoConfig.DeltaSpec.NONE, 0));
    assertTrue(auto.length * 5 < none.length, auto.length + " bytes against " + none.length + " without delta");
    long[] constant = new long[n];
    java.util.Arrays.fill(constant, Float.floatToRawIntBits(1.5f));
    byte[] c = roundTrip(NumberType.F32, constant, PcoConfig.level(8), "constant");
    assertTrue(c.length < 64, "a constant chunk costs next to nothing: " + c.length);
  }

  @Test
  void floatMultBaseThatRoundsToZeroIsRejected() {
    long[] raw = TestData.generate(NumberType.F16, "decimals", 100, 1);
    LanceCodecException e = org.junit.jupiter.api.Assertions.assertThrows(LanceCodecException.class,
        () -> PcoEncoder.compress(NumberType.F16, raw,
            PcoConfig.level(8).withMode(PcoConfig.ModeSpec.TRY_FLOAT_MULT, Double.doubleToRawLongBits(1e-30))));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
  }

  @Test
  void publicApiPerType() {
    double[] d = {0.0, -0.0, Double.NaN, Double.longBitsToDouble(0x7FF0000000000123L), Double.MIN_VALUE, -1.5, Double.POSITIVE_INFINITY};
    byte[] f = Pco.compressF64(d, 0, d.length, 8);
    double[] back = Pco.decompressF64(f, 0, f.length);
    for (int i = 0; i < d.length; i++) {
      assertEquals(Double.doubleToRawLongBits(d[i]), Double.doubleToRawLongBits(back[i]));
    }
    float[] fl = {Float.intBitsToFloat(0x7FC00001), -0.0f, Float.MIN_VALUE, 1e30f, Float.NEGATIVE_INFINITY};
    f = Pco.compressF32(fl, 0, fl.length, 8);
    float[] flBack = new float[fl.length + 2];
    Pco.decompressF32Into(f, 0, f.length, flBack, 2, fl.length);
    for (int i = 0; i < fl.length; i++) {
      assertEquals(Float.floatToRawIntBits(fl[i]), Float.floatToRawIntBits(flBack[2 + i]));
    }
    short[] h = {0x7C01, (short) 0x8000, 0x0001, 0x3C00, (short) 0xFC00};
    f = Pco.compressF16(h, 0, h.length, 8);
    assertArrayEquals(h, Pco.decompressF16(f, 0, f.length));
    long[] l = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    assertArrayEquals(l, Pco.decompressI64(Pco.compressI64(l, 0, l.length, 8), 0, Pco.compressI64(l, 0, l.length, 8).length));
    byte[] u = Pco.compressU64(l, 1, 3, 0);
    assertArrayEquals(new long[] {-1, 0, 1}, Pco.decompressU64(u, 0, u.length));
    int[] iv = {Integer.MIN_VALUE, -5, 0, 7, Integer.MAX_VALUE};
    f = Pco.compressI32(iv, 0, iv.length, 12);
    assertArrayEquals(iv, Pco.decompressI32(f, 0, f.length));
    f = Pco.compressU32(iv, 0, iv.length, 12);
    assertArrayEquals(iv, Pco.decompressU32(f, 0, f.length));
    short[] sv = {Short.MIN_VALUE, -1, 0, 1, Short.MAX_VALUE};
    f = Pco.compressI16(sv, 0, sv.length, 5);
    assertArrayEquals(sv, Pco.decompressI16(f, 0, f.length));
    f = Pco.compressU16(sv, 0, sv.length, 5);
    assertArrayEquals(sv, Pco.decompressU16(f, 0, f.length));
    byte[] bv = {Byte.MIN_VALUE, -1, 0, 1, Byte.MAX_VALUE};
    f = Pco.compressI8(bv, 0, bv.length, 1);
    assertArrayEquals(bv, Pco.decompressI8(f, 0, f.length));
    f = Pco.compressU8(bv, 0, bv.length, 1);
    assertArrayEquals(bv, Pco.decompressU8(f, 0, f.length));
  }
}
