package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.LanceCodecException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link AlpDecoder#decodeRange}: a FOR chunk's values read one by one equal the whole-chunk
 * decode bit for bit (packed and raw payloads, multiply and use_div, width 0 and 64, exceptions
 * inside and outside the range); Delta and ALP-RD chunks are declined untouched.
 */
class AlpDecodeRangeTest {
  static final int[] SIZES = {1, 3, 31, 700, 1023, 1024};

  /** Every chunk of the encoder's page of {@code v}, each range checked against the full decode. */
  static int check64(double[] v, Random rnd) {
    AlpPage page = new AlpEncoder().encodePage(v, 0, v.length, Integer.MAX_VALUE, false);
    int picked = 0;
    int[] from = new int[4];
    AlpDecoder dec = new AlpDecoder();
    for (int c = 0; c < page.numChunks(); c++) {
      int n = page.chunkValues(c);
      byte[][] b = new byte[4][];
      for (int i = 0; i < 4; i++) {
        int size = page.chunks().get(c).bufferSizes()[i];
        b[i] = java.util.Arrays.copyOfRange(page.buffer(i), from[i], from[i] + size);
        from[i] += size;
      }
      Chunks.Joined j = Chunks.join(b);
      double[] whole = new double[n];
      dec.decodeChunk(j.chunk(), j.offsets(), j.sizes(), n, whole, 0);
      int mode = b[1][0];
      for (int t = 0; t < 20; t++) {
        int lo = rnd.nextInt(n + 1);
        int hi = lo + rnd.nextInt(Math.min(n - lo, 40) + 1);
        double[] out = new double[hi - lo + 2];
        java.util.Arrays.fill(out, -7.0);
        boolean did = dec.decodeRange(j.chunk(), j.offsets(), j.sizes(), n, lo, hi, out, 1);
        assertEquals((mode & (AlpFormat.MODE_DELTA | AlpFormat.MODE_RD)) == 0, did, "mode " + mode);
        if (did) {
          picked++;
          Chunks.assertBitsEqual(java.util.Arrays.copyOfRange(whole, lo, hi), java.util.Arrays.copyOfRange(out, 1, 1 + hi - lo));
        }
        assertEquals(-7.0, out[0]);
        assertEquals(-7.0, out[out.length - 1]);
        if (!did) {
          for (int i = 1; i < out.length - 1; i++) {
            assertEquals(-7.0, out[i], "a declined range writes nothing");
          }
        }
      }
    }
    return picked;
  }

  static int check32(float[] v, Random rnd) {
    AlpPage page = new AlpEncoder().encodePage(v, 0, v.length, Integer.MAX_VALUE, false);
    int picked = 0;
    int[] from = new int[4];
    AlpDecoder dec = new AlpDecoder();
    for (int c = 0; c < page.numChunks(); c++) {
      int n = page.chunkValues(c);
      byte[][] b = new byte[4][];
      for (int i = 0; i < 4; i++) {
        int size = page.chunks().get(c).bufferSizes()[i];
        b[i] = java.util.Arrays.copyOfRange(page.buffer(i), from[i], from[i] + size);
        from[i] += size;
      }
      Chunks.Joined j = Chunks.join(b);
      float[] whole = new float[n];
      dec.decodeChunk(j.chunk(), j.offsets(), j.sizes(), n, whole, 0);
      for (int t = 0; t < 20; t++) {
        int lo = rnd.nextInt(n + 1);
        int hi = lo + rnd.nextInt(Math.min(n - lo, 40) + 1);
        float[] out = new float[hi - lo];
        if (dec.decodeRange(j.chunk(), j.offsets(), j.sizes(), n, lo, hi, out, 0)) {
          picked++;
          Chunks.assertBitsEqual(java.util.Arrays.copyOfRange(whole, lo, hi), out);
        } else {
          assertTrue((b[1][0] & AlpFormat.MODE_DELTA) != 0);
        }
      }
    }
    return picked;
  }

  @Test
  void rangesMatchTheWholeChunk() {
    Random rnd = new Random(5);
    int picked = 0;
    long seed = 11;
    for (AlpRoundTripTest.Kind kind : AlpRoundTripTest.Kind.values()) {
      for (int n : SIZES) {
        picked += check64(AlpRoundTripTest.data64(kind, n, seed), rnd);
        picked += check32(AlpRoundTripTest.data32(kind, n, seed++), rnd);
      }
    }
    assertTrue(picked > 500, picked + " ranges picked");
  }

  @Test
  void explicitForms() {
    Random rnd = new Random(6);
    double[] v = new double[1024];
    for (int i = 0; i < v.length; i++) {
      v[i] = i % 50 == 0 ? Math.PI * i : (rnd.nextInt(2_000_000) - 1_000_000) / 100.0;
    }
    for (boolean div : new boolean[] {false, true}) {
      byte[][] b = Chunks.alp64(v, 2, div ? 0 : 1, div, false);
      double[] whole = Chunks.decode64(b, v.length);
      Chunks.Joined j = Chunks.join(b);
      for (int lo = 0; lo < 1024; lo += 37) {
        double[] out = new double[3];
        int hi = Math.min(1024, lo + 3);
        assertTrue(new AlpDecoder().decodeRange(j.chunk(), j.offsets(), j.sizes(), 1024, lo, hi, out, 0));
        Chunks.assertBitsEqual(java.util.Arrays.copyOfRange(whole, lo, hi), java.util.Arrays.copyOf(out, hi - lo));
      }
      byte[][] d = Chunks.alp64(v, 2, div ? 0 : 1, div, true);
      Chunks.Joined jd = Chunks.join(d);
      assertFalse(new AlpDecoder().decodeRange(jd.chunk(), jd.offsets(), jd.sizes(), 1024, 0, 1, new double[1], 0));
    }
    byte[][] rd = Chunks.rd64(v, 48);
    Chunks.Joined jr = Chunks.join(rd);
    assertFalse(new AlpDecoder().decodeRange(jr.chunk(), jr.offsets(), jr.sizes(), 1024, 0, 1, new double[1], 0));
  }

  @Test
  void badRangesAndDamagedChunks() {
    double[] v = {1.5, 2.25, 3.0, 4.75};
    byte[][] b = Chunks.alp64(v, 2, 0, false, false);
    Chunks.Joined j = Chunks.join(b);
    AlpDecoder dec = new AlpDecoder();
    assertThrows(LanceCodecException.class, () -> dec.decodeRange(j.chunk(), j.offsets(), j.sizes(), 4, 3, 5, new double[4], 0));
    assertThrows(LanceCodecException.class, () -> dec.decodeRange(j.chunk(), j.offsets(), j.sizes(), 4, 0, 2, new double[1], 0));
    int[] sizes = j.sizes().clone();
    sizes[1]--;
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> dec.decodeRange(j.chunk(), j.offsets(), sizes, 4, 0, 1, new double[1], 0));
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind());
  }
}
