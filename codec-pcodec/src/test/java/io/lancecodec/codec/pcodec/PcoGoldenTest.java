package io.lancecodec.codec.pcodec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Every golden file written by pco decodes to exactly the numbers pco's compatibility test defines. */
class PcoGoldenTest {
  private static void assertBits(float[] expected, float[] actual) {
    assertEquals(expected.length, actual.length);
    for (int i = 0; i < expected.length; i++) {
      assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(actual[i]), "at " + i);
    }
  }

  @Test
  void v0_0_0_classic() {
    byte[] f = GoldenNumbers.file("v0_0_0_classic");
    assertArrayEquals(GoldenNumbers.classic(), Pco.decompressI32(f, 0, f.length));
  }

  @Test
  void v0_0_0_delta_float_mult() {
    byte[] f = GoldenNumbers.file("v0_0_0_delta_float_mult");
    assertBits(GoldenNumbers.deltaFloatMult(), Pco.decompressF32(f, 0, f.length));
  }

  @Test
  void v0_1_0_delta_int_mult() {
    byte[] f = GoldenNumbers.file("v0_1_0_delta_int_mult");
    assertArrayEquals(GoldenNumbers.deltaIntMult(), Pco.decompressI32(f, 0, f.length));
  }

  @Test
  void v0_1_1_standalone_versioned() {
    byte[] f = GoldenNumbers.file("v0_1_1_standalone_versioned");
    assertEquals(0, Pco.decompressF32(f, 0, f.length).length);
    Pco.decompressF32Into(f, 0, f.length, new float[0], 0, 0);
  }

  @Test
  void v0_3_0_f16() {
    byte[] f = GoldenNumbers.file("v0_3_0_f16");
    assertArrayEquals(GoldenNumbers.pseudorandomF16(), Pco.decompressF16(f, 0, f.length));
  }

  @Test
  void v0_3_0_float_quant() {
    byte[] f = GoldenNumbers.file("v0_3_0_float_quant");
    assertBits(GoldenNumbers.floatQuant(), Pco.decompressF32(f, 0, f.length));
  }

  @Test
  void v0_4_0_lookback_delta() {
    byte[] f = GoldenNumbers.file("v0_4_0_lookback_delta");
    assertArrayEquals(GoldenNumbers.lookback(), Pco.decompressU32(f, 0, f.length));
  }

  @Test
  void v0_4_5_uniform_type() {
    byte[] f = GoldenNumbers.file("v0_4_5_uniform_type");
    assertArrayEquals(GoldenNumbers.oneToFive(), Pco.decompressU32(f, 0, f.length));
  }

  @Test
  void v0_4_8_minor_version() {
    byte[] f = GoldenNumbers.file("v0_4_8_minor_version");
    assertArrayEquals(GoldenNumbers.oneToFive(), Pco.decompressU32(f, 0, f.length));
  }

  @Test
  void v1_0_0_dict() {
    byte[] f = GoldenNumbers.file("v1_0_0_dict");
    assertArrayEquals(GoldenNumbers.dict(), Pco.decompressU64(f, 0, f.length));
  }

  @Test
  void v1_0_0_conv1() {
    byte[] f = GoldenNumbers.file("v1_0_0_conv1");
    assertArrayEquals(GoldenNumbers.conv1(), Pco.decompressI32(f, 0, f.length));
  }

  @Test
  void v1_0_0_u8() {
    byte[] f = GoldenNumbers.file("v1_0_0_u8");
    assertArrayEquals(GoldenNumbers.u8(), Pco.decompressU8(f, 0, f.length));
  }

  @Test
  void v1_0_0_i8() {
    byte[] f = GoldenNumbers.file("v1_0_0_i8");
    assertArrayEquals(GoldenNumbers.i8(), Pco.decompressI8(f, 0, f.length));
  }

  @Test
  void intoCallerArrayAtOffset() {
    byte[] f = GoldenNumbers.file("v1_0_0_conv1");
    int[] expected = GoldenNumbers.conv1();
    int[] dst = new int[expected.length + 7];
    Pco.decompressI32Into(f, 0, f.length, dst, 7, expected.length);
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], dst[7 + i], "at " + i);
    }
  }
}
