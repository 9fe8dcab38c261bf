package io.lancecodec.codec.fsst;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The encoder's step tables and the learner's matcher against the definition: at each position
 * the longest symbol equal to the input (the lowest code among equal symbols), else an escape.
 * Tables are drawn over a 4-letter alphabet so that symbols share prefixes of every length and
 * inputs end inside symbols; strings of 0..20 bytes exercise the tail of every string.
 */
class LongestMatchTest {
  @Test
  void encoderAndMatcherTakeTheLongestSymbol() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int round = 0; round < 200; round++) {
      int n = 1 + rnd.nextInt(FsstFormat.MAX_SYMBOLS);
      long[] values = new long[n];
      int[] lengths = new int[n];
      for (int i = 0; i < n; i++) {
        lengths[i] = 1 + rnd.nextInt(FsstFormat.MAX_SYMBOL_LENGTH);
        for (int k = 0; k < lengths[i]; k++) {
          values[i] |= (long) ('a' + rnd.nextInt(4)) << (8 * k);
        }
      }
      SymbolTable table = new SymbolTable(true, 0, 0, values, lengths);
      FsstEncoder encoder = new FsstEncoder(table);
      SymbolMatcher matcher = new SymbolMatcher(values, lengths, n);
      byte[] in = new byte[4000];
      for (int i = 0; i < in.length; i++) {
        in[i] = (byte) ('a' + rnd.nextInt(5));
      }
      byte[] out = new byte[2 * in.length + 1];
      int start = 0;
      int o = 0;
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      while (start < in.length) {
        int end = Math.min(in.length, start + rnd.nextInt(21));
        o = encoder.compress(in, start, end, out, o);
        for (int p = start; p < end; ) {
          int code = longest(values, lengths, in, p, end);
          int matched = code < 0 ? in[p] & 0xFF : SymbolMatcher.CODE_BASE + code;
          assertEquals(matched, matcher.match(SymbolMatcher.load(in, p, end), end - p), "matcher at " + p);
          if (code < 0) {
            expected.write(FsstFormat.ESCAPE);
            expected.write(in[p]);
            p++;
          } else {
            expected.write(code);
            p += lengths[code];
          }
        }
        start = end;
      }
      assertArrayEquals(expected.toByteArray(), Arrays.copyOf(out, o), "round " + round);
    }
  }

  /**
   * A page above the two-core threshold (its halves compressed apart and joined) gives the same
   * codes and offsets as compressing its values one after another.
   */
  @Test
  void pageInHalvesEqualsValueByValue() {
    SplittableRandom rnd = new SplittableRandom(11);
    int n = 30_000;
    byte[] offsets = new byte[(n + 1) * 4];
    java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      int len = rnd.nextInt(2) == 0 ? rnd.nextInt(4) : rnd.nextInt(40);
      for (int k = 0; k < len; k++) {
        data.write('a' + rnd.nextInt(6));
      }
      io.lancecodec.spi.LittleEndian.putInt(offsets, (i + 1) * 4, data.size());
    }
    byte[] bytes = data.toByteArray();
    assertTrue(bytes.length >= FsstEncoder.PARALLEL_MIN_BYTES);
    io.lancecodec.spi.DataBlock.VariableWidth block = new io.lancecodec.spi.DataBlock.VariableWidth(offsets, 32, bytes, n);
    SymbolTable table = SymbolTableBuilder.build(SymbolTableBuilder.sample(block));
    FsstEncoder encoder = new FsstEncoder(table);
    io.lancecodec.spi.DataBlock.VariableWidth page = encoder.compress(block);
    byte[] out = new byte[2 * bytes.length + 1];
    int o = 0;
    for (int i = 0; i < n; i++) {
      o = encoder.compress(bytes, io.lancecodec.spi.LittleEndian.getInt(offsets, i * 4), io.lancecodec.spi.LittleEndian.getInt(offsets, (i + 1) * 4), out, o);
      assertEquals(o, io.lancecodec.spi.LittleEndian.getInt(page.offsets(), (i + 1) * 4), "offset " + (i + 1));
    }
    assertArrayEquals(Arrays.copyOf(out, o), page.data());
  }

  private static int longest(long[] values, int[] lengths, byte[] in, int p, int end) {
    int best = -1;
    for (int i = 0; i < values.length; i++) {
      int len = lengths[i];
      if (len > end - p || (best >= 0 && len <= lengths[best])) {
        continue;
      }
      boolean equal = true;
      for (int k = 0; k < len && equal; k++) {
        equal = (byte) (values[i] >>> (8 * k)) == in[p + k];
      }
      if (equal) {
        best = i;
      }
    }
    return best;
  }

  /**
   * A block's values are compressed in two interleaved lanes (and on two cores when the block is
   * large): the result must be each value compressed on its own, back to back, with the offsets
   * of that; values of 0..40 bytes put lane switches and string tails everywhere.
   */
  @Test
  void blocksCompressAsTheirValuesOneByOne() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 60; round++) {
      int n = round < 10 ? round : 1 + rnd.nextInt(round < 50 ? 400 : 12_000);
      java.util.List<byte[]> values = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] v = new byte[rnd.nextInt(rnd.nextInt(8) == 0 ? 4 : 41)];
        for (int k = 0; k < v.length; k++) {
          v[k] = (byte) ('a' + rnd.nextInt(5));
        }
        values.add(v);
      }
      io.lancecodec.spi.DataBlock.VariableWidth block = TestBlocks.block(values, round % 2 == 0 ? 32 : 64);
      int symbols = 1 + rnd.nextInt(FsstFormat.MAX_SYMBOLS);
      long[] symbolValues = new long[symbols];
      int[] lengths = new int[symbols];
      for (int i = 0; i < symbols; i++) {
        lengths[i] = 1 + rnd.nextInt(FsstFormat.MAX_SYMBOL_LENGTH);
        for (int k = 0; k < lengths[i]; k++) {
          symbolValues[i] |= (long) ('a' + rnd.nextInt(4)) << (8 * k);
        }
      }
      FsstEncoder encoder = new FsstEncoder(new SymbolTable(true, 0, 0, symbolValues, lengths));
      io.lancecodec.spi.DataBlock.VariableWidth got = encoder.compress(block);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      byte[] scratch = new byte[2 * 41 + 1];
      assertEquals(n, got.numValues(), "round " + round);
      assertEquals(0, got.offset(0));
      for (int i = 0; i < n; i++) {
        int len = encoder.compress(values.get(i), 0, values.get(i).length, scratch, 0);
        expected.write(scratch, 0, len);
        assertEquals(expected.size(), got.offset(i + 1), "end of value " + i + ", round " + round);
      }
      assertArrayEquals(expected.toByteArray(), Arrays.copyOf(got.data(), (int) got.offset(n)), "round " + round);
    }
  }
}
