package io.lancecodec.codec.pcodec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Re-encodes the numbers behind each golden file with the settings pco used for it and compares
 * sizes. For the files pco 1.0 wrote the target is at most 1.02x pco's size; the table of all
 * ratios is printed.
 */
class PcoReencodeTest {
  private static final List<String> TABLE = new ArrayList<>();

  private static double ratio(String name, byte[] ours) {
    byte[] golden = GoldenNumbers.file(name);
    int theirs = golden.length;
    if (name.startsWith("v1_0_0")) {
      // Same header as pco 1.0: magic, standalone version 3, no uniform type, n hint, format 4.1.
      assertArrayEquals(Arrays.copyOf(golden, 10), Arrays.copyOf(ours, 10), name + " header");
    }
    double r = (double) ours.length / theirs;
    TABLE.add(String.format(Locale.ROOT, "%-30s pco %6d  ours %6d  ratio %.4f", name, theirs, ours.length, r));
    return r;
  }

  private static long[] raw(int[] v) {
    long[] r = new long[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = v[i];
    }
    return r;
  }

  private static long[] raw(byte[] v) {
    long[] r = new long[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = v[i];
    }
    return r;
  }

  private static long[] raw(float[] v) {
    long[] r = new long[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = Float.floatToRawIntBits(v[i]);
    }
    return r;
  }

  private static long[] raw(short[] v) {
    long[] r = new long[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = v[i];
    }
    return r;
  }

  private static final PcoConfig DEFAULT = PcoConfig.level(8);

  @AfterAll
  static void printTable() {
    System.out.println("pco golden re-encode sizes:");
    TABLE.forEach(System.out::println);
  }

  @Test
  void v1_0_0_dict() {
    long[] v = GoldenNumbers.dict();
    byte[] ours = PcoEncoder.compress(NumberType.U64, v,
        DEFAULT.withMode(PcoConfig.ModeSpec.TRY_DICT, 0).withDelta(PcoConfig.DeltaSpec.NONE, 0));
    assertArrayEquals(v, Pco.decompressU64(ours, 0, ours.length));
    assertTrue(ratio("v1_0_0_dict", ours) <= 1.02);
  }

  @Test
  void v1_0_0_conv1() {
    int[] v = GoldenNumbers.conv1();
    byte[] ours = PcoEncoder.compress(NumberType.I32, raw(v), DEFAULT.withDelta(PcoConfig.DeltaSpec.TRY_CONV1, 2));
    assertArrayEquals(v, Pco.decompressI32(ours, 0, ours.length));
    assertTrue(ratio("v1_0_0_conv1", ours) <= 1.02);
  }

  @Test
  void v1_0_0_u8() {
    byte[] v = GoldenNumbers.u8();
    byte[] ours = Pco.compressU8(v, 0, v.length, 8);
    assertArrayEquals(v, Pco.decompressU8(ours, 0, ours.length));
    assertTrue(ratio("v1_0_0_u8", ours) <= 1.02);
    // Nothing random is involved here: our bytes are pco's bytes.
    assertArrayEquals(GoldenNumbers.file("v1_0_0_u8"), ours);
  }

  @Test
  void v1_0_0_i8() {
    byte[] v = GoldenNumbers.i8();
    byte[] ours = Pco.compressI8(v, 0, v.length, 8);
    assertArrayEquals(v, Pco.decompressI8(ours, 0, ours.length));
    assertTrue(ratio("v1_0_0_i8", ours) <= 1.02);
    assertArrayEquals(GoldenNumbers.file("v1_0_0_i8"), ours);
  }

  @Test
  void olderFiles() {
    int[] classic = GoldenNumbers.classic();
    byte[] b = PcoEncoder.compress(NumberType.I32, raw(classic), DEFAULT.withDelta(PcoConfig.DeltaSpec.NONE, 0));
    assertArrayEquals(classic, Pco.decompressI32(b, 0, b.length));
    ratio("v0_0_0_classic", b);

    float[] dfm = GoldenNumbers.deltaFloatMult();
    b = PcoEncoder.compress(NumberType.F32, raw(dfm), DEFAULT.withDelta(PcoConfig.DeltaSpec.TRY_CONSECUTIVE, 1));
    assertArrayEquals(raw(dfm), raw(Pco.decompressF32(b, 0, b.length)));
    ratio("v0_0_0_delta_float_mult", b);

    int[] dim = GoldenNumbers.deltaIntMult();
    b = PcoEncoder.compress(NumberType.I32, raw(dim), DEFAULT.withDelta(PcoConfig.DeltaSpec.TRY_CONSECUTIVE, 1));
    assertArrayEquals(dim, Pco.decompressI32(b, 0, b.length));
    ratio("v0_1_0_delta_int_mult", b);

    b = PcoEncoder.compress(NumberType.F32, new long[0], DEFAULT);
    ratio("v0_1_1_standalone_versioned", b);

    short[] f16 = GoldenNumbers.pseudorandomF16();
    b = PcoEncoder.compress(NumberType.F16, raw(f16), DEFAULT);
    assertArrayEquals(f16, Pco.decompressF16(b, 0, b.length));
    ratio("v0_3_0_f16", b);

    float[] fq = GoldenNumbers.floatQuant();
    b = PcoEncoder.compress(NumberType.F32, raw(fq), DEFAULT.withMode(PcoConfig.ModeSpec.TRY_FLOAT_QUANT, 13));
    assertArrayEquals(raw(fq), raw(Pco.decompressF32(b, 0, b.length)));
    ratio("v0_3_0_float_quant", b);

    int[] lb = GoldenNumbers.lookback();
    b = PcoEncoder.compress(NumberType.U32, raw(lb), DEFAULT.withDelta(PcoConfig.DeltaSpec.TRY_LOOKBACK, 0));
    assertArrayEquals(lb, Pco.decompressU32(b, 0, b.length));
    ratio("v0_4_0_lookback_delta", b);

    int[] five = GoldenNumbers.oneToFive();
    b = PcoEncoder.compress(NumberType.U32, raw(five), DEFAULT.withMaxChunkN(3).withUniformType(NumberType.U32));
    assertArrayEquals(five, Pco.decompressU32(b, 0, b.length));
    ratio("v0_4_5_uniform_type", b);

    b = PcoEncoder.compress(NumberType.U32, raw(five), DEFAULT);
    ratio("v0_4_8_minor_version", b);
  }
}
