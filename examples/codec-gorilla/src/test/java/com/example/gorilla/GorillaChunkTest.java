package com.example.gorilla;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lancecodec.spi.LanceCodecException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GorillaChunkTest {
  /**
   * Worked by hand: 1.0 (0x3FF0000000000000) whole; 1.0 again is one 0 bit; 3.0 (0x4008...) XORs
   * to 0x7FF8000000000000: 1 leading zero, 12 meaningful bits, 51 trailing, so 11, 000001,
   * 001011, 111111111111; 3.0 again, 0. The 28 bits after the first value,
   * 0 11 000001 001011 111111111111 0, padded with zeros: 0110 0000 1001 0111 1111 1111 1110 0000.
   */
  @Test
  void goldenBytes() {
    long[] words = {Double.doubleToLongBits(1.0), Double.doubleToLongBits(1.0), Double.doubleToLongBits(3.0),
        Double.doubleToLongBits(3.0)};
    byte[] out = new byte[GorillaChunk.maxBytes(4, 64)];
    int n = GorillaChunk.encode(words, 4, 64, out, 0);
    assertEquals("3ff0000000000000" + "6097ffe0", HexFormat.of().formatHex(out, 0, n));
    long[] back = new long[4];
    GorillaChunk.decode(out, 0, n, 4, 64, back);
    assertArrayEquals(words, back);
  }

  @Test
  void randomWordsRoundTrip() {
    Random rnd = new Random(7);
    for (int width : new int[] {32, 64}) {
      for (int n : new int[] {1, 2, 3, 100, 1024}) {
        long[] words = new long[n];
        for (int i = 0; i < n; i++) {
          long v = rnd.nextInt(4) == 0 && i > 0 ? words[i - 1] : rnd.nextLong();
          words[i] = width == 32 ? v & 0xFFFF_FFFFL : v;
        }
        byte[] out = new byte[GorillaChunk.maxBytes(n, width)];
        int size = GorillaChunk.encode(words, n, width, out, 0);
        long[] back = new long[n];
        GorillaChunk.decode(out, 0, size, n, width, back);
        assertArrayEquals(words, back, width + " bits, " + n + " values");
      }
    }
  }

  @Test
  void damagedChunksAreCorrupt() {
    long[] words = {1, 2, 3, 4};
    byte[] out = new byte[GorillaChunk.maxBytes(4, 64)];
    int size = GorillaChunk.encode(words, 4, 64, out, 0);
    long[] back = new long[4];
    // cut short, one byte too many, and a count the chunk does not hold (the count is the
    // layout's; a few more repeats of the last value would hide in the last byte's zero padding)
    assertThrows(LanceCodecException.class, () -> GorillaChunk.decode(out, 0, size - 1, 4, 64, back));
    assertThrows(LanceCodecException.class, () -> GorillaChunk.decode(Arrays.copyOf(out, size + 1), 0, size + 1, 4, 64, back));
    assertThrows(LanceCodecException.class, () -> GorillaChunk.decode(out, 0, size, 12, 64, new long[12]));
  }
}
