package io.lancecodec.codec.alp;

import static io.lancecodec.codec.alp.Chunks.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Chunks checked byte by byte against values worked out by hand (each expected byte is
 * explained next to it), then decoded back bit for bit. All integers little-endian.
 */
class AlpGoldenTest {
  @Test
  void float64DivideForWithNaN() {
    // Halves are exact in binary, so v * 10 is exact and q / 10 (one correctly rounded division)
    // gives v back: 1.5 -> 15, 2.5 -> 25, -0.5 -> -5. NaN has no integer: an exception.
    double[] v = {1.5, 2.5, -0.5, Double.NaN};
    byte[][] b = Chunks.alp64(v, 1, 0, true, false);
    // FOR: min = -5; the NaN slot repeats the previous integer (-5); offsets 20, 30, 0, 0 need
    // W = 5 bits. Four values: padding to 1024 costs 5 * 1020 bits, packing saves 59 * 4, so the
    // payload is four raw u64 words.
    assertEquals("14 00 00 00 00 00 00 00 1e 00 00 00 00 00 00 00 "
        + "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", hex(b[0]));
    // mode 0x02 (use_div, FOR), e = 1, f = 0, W = 5, min = -5 as i64
    assertEquals("02 01 00 05 fb ff ff ff ff ff ff ff", hex(b[1]));
    // one exception at position 3, u16
    assertEquals("03 00", hex(b[2]));
    // its bits: the canonical NaN 0x7ff8000000000000
    assertEquals("00 00 00 00 00 00 f8 7f", hex(b[3]));
    Chunks.assertBitsEqual(v, Chunks.decode64(b, v.length));
  }

  @Test
  void float64IntegersFor() {
    // e = f = 0: q = v and v = q * 1 * 1, exact for integers below 2^53.
    double[] v = {100, 101, 103};
    byte[][] b = Chunks.alp64(v, 0, 0, false, false);
    // offsets from min 100: 0, 1, 3 -> W = 2; three values stay raw (2 * 1021 >= 62 * 3)
    assertEquals("00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00", hex(b[0]));
    // mode 0 (multiply, FOR), e = 0, f = 0, W = 2, min = 100 = 0x64
    assertEquals("00 00 00 02 64 00 00 00 00 00 00 00", hex(b[1]));
    assertEquals("", hex(b[2]));
    assertEquals("", hex(b[3]));
    Chunks.assertBitsEqual(v, Chunks.decode64(b, v.length));
  }

  @Test
  void float64PackedBlock() {
    // 64 values 0, 1, 0, 1, ... with e = f = 0: offsets i % 2, W = 1. Padding costs 1 * 960
    // bits, packing saves 63 * 64: one FastLanes block of 128 * W = 128 bytes, 16 lanes of one
    // u64 word. Values 0-15 are row 0 of lanes 0-15, 16-31 row 32, 32-47 row 16, 48-63 row 48;
    // with W = 1 row r is bit r of the lane's word. Odd values sit in odd lanes, so odd lanes
    // hold bits 0, 16, 32, 48 = 0x0001000100010001 and even lanes 0.
    double[] v = new double[64];
    for (int i = 0; i < 64; i++) {
      v[i] = i % 2;
    }
    byte[][] b = Chunks.alp64(v, 0, 0, false, false);
    String even = "00 00 00 00 00 00 00 00";
    String odd = "01 00 01 00 01 00 01 00";
    StringBuilder want = new StringBuilder();
    for (int lane = 0; lane < 16; lane++) {
      want.append(lane > 0 ? " " : "").append(lane % 2 == 0 ? even : odd);
    }
    assertEquals(want.toString(), hex(b[0]));
    // mode 0, e = 0, f = 0, W = 1, min = 0
    assertEquals("00 00 00 01 00 00 00 00 00 00 00 00", hex(b[1]));
    Chunks.assertBitsEqual(v, Chunks.decode64(b, v.length));
  }

  @Test
  void float32MultiplyWithNegativeZero() {
    // e = 1, f = 0: 0.5f * 10 = 5 and 1.5f * 10 = 15 exactly; back, 5 * 1 * 0.1f is within an
    // eighth of an ulp of 0.5f and 15 * 0.1f within a fifth of an ulp of 1.5f: both round home.
    // -0.0f scales to integer 0, which decodes to +0.0f: an exception.
    float[] v = {0.5f, -0.0f, 1.5f};
    byte[][] b = Chunks.alp32(v, 1, 0, false, false);
    // integers 5, 5 (exception slot repeats the previous), 15; min 5, offsets 0, 0, 10 -> W = 4;
    // raw u32 words (4 * 1021 >= 28 * 3)
    assertEquals("00 00 00 00 00 00 00 00 0a 00 00 00", hex(b[0]));
    // mode 0, e = 1, f = 0, W = 4, min = 5 as i32
    assertEquals("00 01 00 04 05 00 00 00", hex(b[1]));
    // exception at position 1 holding the bits of -0.0f, 0x80000000
    assertEquals("01 00", hex(b[2]));
    assertEquals("00 00 00 80", hex(b[3]));
    Chunks.assertBitsEqual(v, Chunks.decode32(b, v.length));
  }

  @Test
  void float32Delta() {
    // Sorted integers 10, 12, 15, 19 (e = f = 0): steps 2, 3, 4, min_delta 2, so the payload is
    // p_0 = 0 (always written 0), then 0, 1, 2 -> W = 2, raw u32 words.
    float[] v = {10, 12, 15, 19};
    byte[][] b = Chunks.alp32(v, 0, 0, false, true);
    assertEquals("00 00 00 00 00 00 00 00 01 00 00 00 02 00 00 00", hex(b[0]));
    // mode 0x01 (Delta), e = 0, f = 0, W = 2, first = 10, min_delta = 2 (i32 each)
    assertEquals("01 00 00 02 0a 00 00 00 02 00 00 00", hex(b[1]));
    Chunks.assertBitsEqual(v, Chunks.decode32(b, v.length));
  }

  @Test
  void float64AlpRd() {
    // Three patterns chosen by their bits, split at d = 8: left parts are bits >>> 8.
    double[] v = {
      Double.longBitsToDouble(0x3FF0000000000001L),
      Double.longBitsToDouble(0x4000000000000003L),
      Double.longBitsToDouble(0x3FF0000000000005L)
    };
    byte[][] b = Chunks.rd64(v, 8);
    // right parts 0x01, 0x03, 0x05; d = 8 bits, three values stay raw (8 * 1021 >= 56 * 3)
    assertEquals("01 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 05 00 00 00 00 00 00 00", hex(b[0]));
    // mode 0x04 (ALP-RD), d = 8, index_bits = 1, reserved 0, dict_len = 2 (u32)
    assertEquals("04 08 01 00 02 00 00 00", hex(b[1]));
    // dictionary ascending: 0x003ff00000000000, 0x0040000000000000 (u64)
    assertEquals("00 00 00 00 00 f0 3f 00 00 00 00 00 00 00 40 00", hex(b[2]));
    // indices 0, 1, 0 as raw u16 words (1 * 1021 >= 15 * 3)
    assertEquals("00 00 01 00 00 00", hex(b[3]));
    Chunks.assertBitsEqual(v, Chunks.decode64(b, v.length));
  }

  @Test
  void float64AlpRdSingleEntry() {
    // All left parts equal at d = 56: one dictionary entry, index_bits = 0, no index stream.
    double[] v = {1.25, 1.5, 1.75};
    byte[][] b = Chunks.rd64(v, 56);
    // 1.25 = 0x3ff4000000000000: right part (low 56 bits) 0xf4000000000000, left part 0x3f
    assertEquals("00 00 00 00 00 00 f4 00 00 00 00 00 00 00 f8 00 00 00 00 00 00 00 fc 00", hex(b[0]));
    assertEquals("04 38 00 00 01 00 00 00", hex(b[1]));
    assertEquals("3f 00 00 00 00 00 00 00", hex(b[2]));
    assertEquals("", hex(b[3]));
    Chunks.assertBitsEqual(v, Chunks.decode64(b, v.length));
  }
}
