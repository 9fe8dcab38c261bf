package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lancecodec.spi.MiniBlocks;
import org.junit.jupiter.api.Test;

/**
 * A page's size to beat only ever turns the encoder down: given exactly the bytes the unbounded
 * encoding takes it writes the same page, given one byte less it declines, whatever the data
 * (its scans give up on a chunk once the page would pass that size, so the bound must be exact).
 */
class AlpSizeToBeatTest {
  private static final int[] SIZES = {1, 1025, 5000, 110_000};

  @Test
  void float64PagesAreTheSameUpToTheirOwnSizeAndDeclinedBelowIt() {
    for (AlpRoundTripTest.Kind kind : AlpRoundTripTest.Kind.values()) {
      for (int n : SIZES) {
        double[] v = AlpRoundTripTest.data64(kind, n, 17 + n);
        AlpPage free = new AlpEncoder().encodePage(v, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false);
        assertNotNull(free, kind + " " + n);
        long size = free.encodedBytes();
        assertSame(free, new AlpEncoder().encodePage(v, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, size), kind + " " + n);
        assertNull(new AlpEncoder().encodePage(v, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, size - 1), kind + " " + n);
      }
    }
  }

  @Test
  void float32PagesAreTheSameUpToTheirOwnSizeAndDeclinedBelowIt() {
    for (AlpRoundTripTest.Kind kind : AlpRoundTripTest.Kind.values()) {
      for (int n : SIZES) {
        float[] v = AlpRoundTripTest.data32(kind, n, 29 + n);
        AlpPage free = new AlpEncoder().encodePage(v, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false);
        assertNotNull(free, kind + " " + n);
        long size = free.encodedBytes();
        assertSame(free, new AlpEncoder().encodePage(v, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, size), kind + " " + n);
        assertNull(new AlpEncoder().encodePage(v, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, size - 1), kind + " " + n);
      }
    }
  }

  private static void assertSame(AlpPage expected, AlpPage actual, String what) {
    assertNotNull(actual, what);
    for (int i = 0; i < 4; i++) {
      assertArrayEquals(expected.buffer(i), actual.buffer(i), what + ", buffer " + i);
    }
    assertEquals(expected.numChunks(), actual.numChunks(), what);
    for (int c = 0; c < expected.numChunks(); c++) {
      assertArrayEquals(expected.chunks().get(c).bufferSizes(), actual.chunks().get(c).bufferSizes(), what + ", chunk " + c);
      assertEquals(expected.chunks().get(c).logNumValues(), actual.chunks().get(c).logNumValues(), what + ", chunk " + c);
    }
  }
}
