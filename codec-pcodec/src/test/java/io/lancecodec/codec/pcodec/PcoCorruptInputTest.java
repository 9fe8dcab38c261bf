package io.lancecodec.codec.pcodec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lancecodec.spi.LanceCodecException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile input: every truncation and thousands of seeded byte mutations of pco's golden files
 * and of our own outputs either decode or fail with CORRUPT and a one-line message.
 */
class PcoCorruptInputTest {
  /** A compressed file with its number type and count. */
  static final class Sample {
    final String name;
    final NumberType type;
    final byte[] file;
    final int count;

    Sample(String name, NumberType type, byte[] file, int count) {
      this.name = name;
      this.type = type;
      this.file = file;
      this.count = count;
    }
  }

  static List<Sample> samples() {
    List<Sample> s = new ArrayList<>();
    s.add(new Sample("v0_0_0_classic", NumberType.I32, GoldenNumbers.file("v0_0_0_classic"), 2000));
    s.add(new Sample("v0_0_0_delta_float_mult", NumberType.F32, GoldenNumbers.file("v0_0_0_delta_float_mult"), 2000));
    s.add(new Sample("v0_1_0_delta_int_mult", NumberType.I32, GoldenNumbers.file("v0_1_0_delta_int_mult"), 2000));
    s.add(new Sample("v0_1_1_standalone_versioned", NumberType.F32, GoldenNumbers.file("v0_1_1_standalone_versioned"), 0));
    s.add(new Sample("v0_3_0_f16", NumberType.F16, GoldenNumbers.file("v0_3_0_f16"), 2000));
    s.add(new Sample("v0_3_0_float_quant", NumberType.F32, GoldenNumbers.file("v0_3_0_float_quant"), 2000));
    s.add(new Sample("v0_4_0_lookback_delta", NumberType.U32, GoldenNumbers.file("v0_4_0_lookback_delta"), 1000));
    s.add(new Sample("v0_4_5_uniform_type", NumberType.U32, GoldenNumbers.file("v0_4_5_uniform_type"), 5));
    s.add(new Sample("v0_4_8_minor_version", NumberType.U32, GoldenNumbers.file("v0_4_8_minor_version"), 5));
    s.add(new Sample("v1_0_0_dict", NumberType.U64, GoldenNumbers.file("v1_0_0_dict"), 3000));
    s.add(new Sample("v1_0_0_conv1", NumberType.I32, GoldenNumbers.file("v1_0_0_conv1"), 2000));
    s.add(new Sample("v1_0_0_u8", NumberType.U8, GoldenNumbers.file("v1_0_0_u8"), 129));
    s.add(new Sample("v1_0_0_i8", NumberType.I8, GoldenNumbers.file("v1_0_0_i8"), 129));
    PcoConfig c = PcoConfig.level(8);
    addOurs(s, "ours lookback u16", NumberType.U16, TestData.generate(NumberType.U16, "runs", 700, 1),
        c.withDelta(PcoConfig.DeltaSpec.TRY_LOOKBACK, 0));
    addOurs(s, "ours conv1 i16", NumberType.I16, TestData.generate(NumberType.I16, "walk", 600, 2),
        c.withDelta(PcoConfig.DeltaSpec.TRY_CONV1, 3));
    addOurs(s, "ours float mult f64", NumberType.F64, TestData.generate(NumberType.F64, "decimals", 600, 3),
        c.withMode(PcoConfig.ModeSpec.TRY_FLOAT_MULT, Double.doubleToRawLongBits(0.01)));
    addOurs(s, "ours float quant f64", NumberType.F64, TestData.generate(NumberType.F64, "quantized", 600, 4),
        c.withMode(PcoConfig.ModeSpec.TRY_FLOAT_QUANT, 29).withDelta(PcoConfig.DeltaSpec.TRY_CONSECUTIVE, 2));
    addOurs(s, "ours int mult i64", NumberType.I64, TestData.generate(NumberType.I64, "multiples", 600, 5),
        c.withMode(PcoConfig.ModeSpec.TRY_INT_MULT, 7));
    addOurs(s, "ours dict f32 two chunks", NumberType.F32, TestData.generate(NumberType.F32, "runs", 600, 6),
        c.withMode(PcoConfig.ModeSpec.TRY_DICT, 0).withMaxChunkN(300));
    addOurs(s, "ours f16 special", NumberType.F16, TestData.generate(NumberType.F16, "special", 300, 7), c);
    return s;
  }

  private static void addOurs(List<Sample> s, String name, NumberType type, long[] raw, PcoConfig cfg) {
    s.add(new Sample(name, type, PcoEncoder.compress(type, raw, cfg), raw.length));
  }

  /** Decodes with both entry points; true if it decoded, false if it failed with CORRUPT. */
  static boolean decodesOrCorrupt(Sample s, byte[] bytes, int len, String what) {
    boolean ok = true;
    try {
      PcoDecoder.decode(bytes, 0, len, new TestData.RawSink(s.type));
    } catch (LanceCodecException e) {
      assertCorrupt(e, what);
      ok = false;
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      fail(what + ": " + e, e);
    }
    try {
      PcoDecoder.decode(bytes, 0, len, new BoundedSink(s.type, s.count));
    } catch (LanceCodecException e) {
      assertCorrupt(e, what + " (bounded)");
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      fail(what + " (bounded): " + e, e);
    }
    return ok;
  }

  /** Like the "into" entry points: refuses more numbers than the caller expects. */
  static final class BoundedSink extends NumberSink {
    BoundedSink(NumberType type, long limit) {
      super(type, limit);
    }

    @Override
    void accept(long[] ordered, int len) {
      count += len;
    }
  }

  static void assertCorrupt(LanceCodecException e, String what) {
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), what + ": " + e.getMessage());
    String m = e.getMessage();
    assertTrue(m.startsWith("pcodec: "), what + ": " + m);
    assertFalse(m.contains("\n"), what + ": " + m);
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void everyTruncationFails() {
    for (Sample s : samples()) {
      assertTrue(decodesOrCorrupt(s, s.file, s.file.length, s.name + " whole"), s.name);
      for (int len = 0; len < s.file.length; len++) {
        byte[] cut = Arrays.copyOf(s.file, len);
        int l = len;
        LanceCodecException e = assertThrows(LanceCodecException.class,
            () -> PcoDecoder.decode(cut, 0, l, new TestData.RawSink(s.type)), s.name + " cut at " + len);
        assertCorrupt(e, s.name + " cut at " + len);
      }
    }
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void seededByteMutationsDecodeOrFailCorrupt() {
    SplittableRandom rnd = new SplittableRandom(0x5EED);
    int decoded = 0;
    int corrupt = 0;
    for (Sample s : samples()) {
      for (int round = 0; round < 400; round++) {
        byte[] m = s.file.clone();
        int edits = 1 + rnd.nextInt(3);
        for (int e = 0; e < edits; e++) {
          // Half the edits hit the first 48 bytes, where headers and metadata live.
          int at = rnd.nextBoolean() ? rnd.nextInt(Math.min(48, m.length)) : rnd.nextInt(m.length);
          if (rnd.nextBoolean()) {
            m[at] ^= (byte) (1 << rnd.nextInt(8));
          } else {
            m[at] = (byte) rnd.nextInt(256);
          }
        }
        if (decodesOrCorrupt(s, m, m.length, s.name + " mutation " + round)) {
          decoded++;
        } else {
          corrupt++;
        }
      }
    }
    System.out.println("mutations: " + corrupt + " corrupt, " + decoded + " decoded");
    assertTrue(corrupt > 1000, "most mutations should be detected: " + corrupt + " corrupt, " + decoded + " decoded");
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void randomBodiesAfterValidHeaders() {
    SplittableRandom rnd = new SplittableRandom(42);
    for (Sample s : samples()) {
      if (s.file.length < 16) {
        continue;
      }
      for (int round = 0; round < 300; round++) {
        // Keep the header and chunk preamble, replace everything after with random bytes.
        int keep = 8 + rnd.nextInt(8);
        byte[] m = Arrays.copyOf(s.file, keep + 1 + rnd.nextInt(300));
        for (int i = keep; i < m.length; i++) {
          m[i] = (byte) rnd.nextInt(256);
        }
        decodesOrCorrupt(s, m, m.length, s.name + " random body " + round);
      }
    }
  }

  @Test
  void headerErrorsAreNamed() {
    byte[] f = GoldenNumbers.file("v1_0_0_dict");
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> Pco.decompressF64(f, 0, f.length));
    assertCorrupt(e, "wrong type");
    assertTrue(e.getMessage().contains("u64"), e.getMessage());
    byte[] bad = f.clone();
    bad[0] = 'x';
    e = assertThrows(LanceCodecException.class, () -> Pco.decompressU64(bad, 0, bad.length));
    assertTrue(e.getMessage().contains("magic"), e.getMessage());
    byte[] newer = f.clone();
    newer[4] = 4;
    e = assertThrows(LanceCodecException.class, () -> Pco.decompressU64(newer, 0, newer.length));
    assertTrue(e.getMessage().contains("standalone version 4"), e.getMessage());
    long[] wrongCount = new long[2999];
    e = assertThrows(LanceCodecException.class, () -> Pco.decompressU64Into(f, 0, f.length, wrongCount, 0, 2999));
    assertCorrupt(e, "too many");
    long[] more = new long[3001];
    e = assertThrows(LanceCodecException.class, () -> Pco.decompressU64Into(f, 0, f.length, more, 0, 3001));
    assertTrue(e.getMessage().contains("expected 3001"), e.getMessage());
    byte[] trailing = Arrays.copyOf(f, f.length + 1);
    e = assertThrows(LanceCodecException.class, () -> Pco.decompressU64(trailing, 0, trailing.length));
    assertTrue(e.getMessage().contains("after the terminator"), e.getMessage());
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void hugeDeclaredCountsAreBoundedByTheCaller() {
    // A constant chunk costs no bits per number, so 2^24 numbers fit in a few bytes legally:
    // the caller's expected count must bound the work, not the file.
    long[] constant = new long[1 << 16];
    byte[] f = PcoEncoder.compress(NumberType.U64, constant, PcoConfig.level(8));
    assertTrue(f.length < 40, "constant chunk: " + f.length);
    long[] dst = new long[100];
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> Pco.decompressU64Into(f, 0, f.length, dst, 0, 100));
    assertCorrupt(e, "bounded");
  }

  /**
   * 23 bytes of pco (found by fuzzing) whose chunk declares millions of numbers: legitimate for
   * pco, which stores equal numbers in almost no bits, but a caller who knows better passes a
   * limit, and the decoder refuses the chunk before decoding it.
   */
  @Test
  void aCallersLimitRefusesAChunkOfTooManyNumbers() {
    byte[] bomb = java.util.HexFormat.of().parseHex("70636f2101033328bb10080004000000022700000a0028");
    LanceCodecException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(1),
        () -> org.junit.jupiter.api.Assertions.assertThrows(LanceCodecException.class, () -> Pco.decompressI32(bomb, 0, bomb.length, 1 << 16)));
    assertCorrupt(e, "bomb");
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("more than 65536 numbers"), e.getMessage());

    int[] v = new int[5000];
    for (int i = 0; i < v.length; i++) {
      v[i] = i * 7;
    }
    byte[] file = Pco.compressI32(v, 0, v.length, 8);
    org.junit.jupiter.api.Assertions.assertArrayEquals(v, Pco.decompressI32(file, 0, file.length, 5000));
    assertCorrupt(org.junit.jupiter.api.Assertions.assertThrows(LanceCodecException.class,
        () -> Pco.decompressI32(file, 0, file.length, 4999)), "limit");
    org.junit.jupiter.api.Assertions.assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT,
        org.junit.jupiter.api.Assertions.assertThrows(LanceCodecException.class, () -> Pco.decompressI32(file, 0, file.length, -1)).kind());
  }
}
