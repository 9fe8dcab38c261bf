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
}
