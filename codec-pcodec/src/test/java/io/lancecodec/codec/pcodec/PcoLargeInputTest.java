package io.lancecodec.codec.pcodec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.LanceCodecException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Inputs larger than twice {@link BitReader#PAD} are read in place, without a copy, until the
 * position comes near their end. These tests decode such files from the middle of a larger array
 * (garbage around them must not matter) and cut or damage them near the end, where the reader
 * moves onto its padded copy.
 */
class PcoLargeInputTest {
  private static final PcoConfig LEVEL_8 = PcoConfig.level(8);

  private static byte[] embed(byte[] file, int before, int after, long seed) {
    byte[] a = new byte[before + file.length + after];
    new SplittableRandom(seed).nextBytes(a);
    System.arraycopy(file, 0, a, before, file.length);
    return a;
  }

  @Test
  void filesInsideLargerArraysDecodeExactly() {
    String[] shapes = {"random", "walk", "decimals", "runs"};
    long seed = 11;
    for (NumberType type : NumberType.values()) {
      for (String shape : shapes) {
        long[] raw = TestData.generate(type, shape, 40_000, seed++);
        byte[] file = PcoEncoder.compress(type, raw, LEVEL_8.withMaxChunkN(15_000));
        if (file.length <= 2 * BitReader.PAD) {
          continue;
        }
        byte[] around = embed(file, 37, 4100, seed);
        TestData.RawSink sink = new TestData.RawSink(type);
        PcoDecoder.decode(around, 37, file.length, sink);
        assertArrayEquals(TestData.masked(type, raw), Arrays.copyOf(sink.out, sink.pos), type + " " + shape);
      }
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void cutsNearTheEndFailCorrupt() {
    long[] raw = TestData.generate(NumberType.I64, "random", 6000, 5);
    byte[] file = PcoEncoder.compress(NumberType.I64, raw, LEVEL_8.withMaxChunkN(2500));
    assertTrue(file.length > 3 * BitReader.PAD, "file of " + file.length + " bytes");
    byte[] around = embed(file, 5, 64, 6);
    for (int len = file.length - 3 * BitReader.PAD; len < file.length; len++) {
      int l = len;
      LanceCodecException e = assertThrows(LanceCodecException.class,
          () -> PcoDecoder.decode(around, 5, l, new TestData.RawSink(NumberType.I64)), "cut at " + len);
      PcoCorruptInputTest.assertCorrupt(e, "cut at " + len);
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void damageNearTheEndDecodesOrFailsCorrupt() {
    long[] raw = TestData.generate(NumberType.F32, "random", 12_000, 7);
    byte[] file = PcoEncoder.compress(NumberType.F32, raw, LEVEL_8.withMaxChunkN(4000));
    assertTrue(file.length > 3 * BitReader.PAD, "file of " + file.length + " bytes");
    PcoCorruptInputTest.Sample s = new PcoCorruptInputTest.Sample("large f32", NumberType.F32, file, raw.length);
    SplittableRandom rnd = new SplittableRandom(8);
    for (int round = 0; round < 500; round++) {
      byte[] m = file.clone();
      int at = m.length - 1 - rnd.nextInt(3 * BitReader.PAD);
      m[at] = (byte) rnd.nextInt(256);
      PcoCorruptInputTest.decodesOrCorrupt(s, m, m.length, "damage at " + at);
    }
  }
}
