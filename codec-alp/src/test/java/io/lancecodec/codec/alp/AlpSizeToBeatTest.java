package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lancecodec.spi.MiniBlocks;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * A page's size to beat only ever turns the encoder down: given exactly the bytes the unbounded
 * encoding takes it writes the same page, given one byte less it declines, whatever the data
 * (the encoder gives a page up early on a bound of what its remaining chunks take, so that bound
 * must be exact, and the estimate on which it declines a page outright must not misjudge one it
 * can beat: neither pages whose first vector is unlike the rest nor any of the round-trip kinds).
 */
class AlpSizeToBeatTest {
  private static final int[] SIZES = {1, 1025, 5000, 110_000};

  @Test
  void float64PagesAreTheSameUpToTheirOwnSizeAndDeclinedBelowIt() {
    for (AlpRoundTripTest.Kind kind : AlpRoundTripTest.Kind.values()) {
      for (int n : SIZES) {
        double[] v = AlpRoundTripTest.data64(kind, n, 17 + n);
        check(kind + " f64 " + n, beat -> new AlpEncoder().encodePage(v, 0, v.length, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, beat));
      }
    }
  }

  @Test
  void float32PagesAreTheSameUpToTheirOwnSizeAndDeclinedBelowIt() {
    for (AlpRoundTripTest.Kind kind : AlpRoundTripTest.Kind.values()) {
      for (int n : SIZES) {
        float[] v = AlpRoundTripTest.data32(kind, n, 29 + n);
        check(kind + " f32 " + n, beat -> new AlpEncoder().encodePage(v, 0, v.length, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, beat));
      }
    }
  }

  @Test
  void pagesWhoseVectorsDifferAreJudgedByTheirBestVector() {
    java.util.Random rnd = new java.util.Random(5);
    int n = 110_000;
    // a noisy first vector, then one value: ALP stores the rest in chunk headers
    float[] noisyHead = new float[n];
    double[] noisyHead64 = new double[n];
    for (int i = 0; i < n; i++) {
      noisyHead[i] = i < 1024 ? rnd.nextFloat() : 2.5f;
      noisyHead64[i] = i < 1024 ? rnd.nextDouble() : 2.5;
    }
    check("noisy head f32", beat -> new AlpEncoder().encodePage(noisyHead, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, beat));
    check("noisy head f64", beat -> new AlpEncoder().encodePage(noisyHead64, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, beat));
    // sorted minutes over 60 in long runs: ALP needs 20-odd bits a value, so a run-length size
    // far below that declines the page, and its own size does not
    float[] minutes = new float[n];
    for (int i = 0; i < n; i++) {
      minutes[i] = (i / 100) / 60f;
    }
    check("sorted minutes f32", beat -> new AlpEncoder().encodePage(minutes, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, beat));
    assertNull(new AlpEncoder().encodePage(minutes, 0, n, MiniBlocks.MAX_CHUNK_BYTES_2_1, false, (long) n * 5 / 100));
  }

  /** {@code encode}: the page with a size to beat, by a fresh encoder. */
  private static void check(String what, LongFunction<AlpPage> encode) {
    AlpPage free = encode.apply(Long.MAX_VALUE);
    assertNotNull(free, what);
    long size = free.encodedBytes();
    AlpPage atSize = encode.apply(size);
    assertNotNull(atSize, what);
    for (int i = 0; i < 4; i++) {
      assertArrayEquals(free.buffer(i), atSize.buffer(i), what + ", buffer " + i);
    }
    assertEquals(free.numChunks(), atSize.numChunks(), what);
    for (int c = 0; c < free.numChunks(); c++) {
      assertArrayEquals(free.chunks().get(c).bufferSizes(), atSize.chunks().get(c).bufferSizes(), what + ", chunk " + c);
      assertEquals(free.chunks().get(c).logNumValues(), atSize.chunks().get(c).logNumValues(), what + ", chunk " + c);
    }
    assertNull(encode.apply(size - 1), what);
  }
}
