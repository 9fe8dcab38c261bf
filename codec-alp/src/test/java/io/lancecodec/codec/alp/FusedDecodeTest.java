package io.lancecodec.codec.alp;

import io.lancecodec.spi.LittleEndian;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decoder's loops against the spec's formula computed one value at a time, on hand-built
 * chunks of every mode whose integers lie inside the range the exact (biased bit pattern)
 * conversions take, at its edges and far outside it (wide FOR, Delta sums that wander), packed and
 * raw. Bit patterns must agree exactly. Both with the kernels for whole chunks (the Vector API's,
 * {@link VectorFor}, as the build runs these tests with the module; else the
 * generated FOR ones, {@link AlpKernels}) and without them (the loops, which still decode the rest).
 */
class FusedDecodeTest {
  private static final int CHUNKS = 3000;

  @ParameterizedTest(name = "kernels {0}")
  @ValueSource(booleans = {true, false})
  void float64ChunksDecodeAsTheFormulaSays(boolean kernels) {
    SplittableRandom rnd = new SplittableRandom(7);
    AlpDecoder decoder = decoder(kernels);
    for (int k = 0; k < CHUNKS; k++) {
      Chunk c = chunk(rnd, 64);
      double[] got = new double[c.n];
      decoder.decodeChunk(c.buffers[0], c.buffers[1], c.buffers[2], c.buffers[3], c.n, got, 0);
      double m1 = c.div ? PowersOfTen.F64[c.e] : PowersOfTen.F64[c.f];
      double m2 = PowersOfTen.INV_F64[c.e];
      long acc = c.base - c.step;
      for (int i = 0; i < c.n; i++) {
        long q = c.delta ? (acc += c.step + c.p[i]) : c.base + c.p[i];
        double want = c.div ? (double) q / m1 : (double) q * m1 * m2;
        if (Double.doubleToRawLongBits(want) != Double.doubleToRawLongBits(got[i])) {
          throw new AssertionError(c + " value " + i + " (q " + q + "): want " + want + " got " + got[i]);
        }
      }
    }
  }

  @ParameterizedTest(name = "kernels {0}")
  @ValueSource(booleans = {true, false})
  void float32ChunksDecodeAsTheFormulaSays(boolean kernels) {
    SplittableRandom rnd = new SplittableRandom(8);
    AlpDecoder decoder = decoder(kernels);
    for (int k = 0; k < CHUNKS; k++) {
      Chunk c = chunk(rnd, 32);
      float[] got = new float[c.n];
      decoder.decodeChunk(c.buffers[0], c.buffers[1], c.buffers[2], c.buffers[3], c.n, got, 0);
      float m1 = c.div ? PowersOfTen.F32[c.e] : PowersOfTen.F32[c.f];
      float m2 = PowersOfTen.INV_F32[c.e];
      int acc = (int) c.base - (int) c.step;
      for (int i = 0; i < c.n; i++) {
        int q = c.delta ? (acc += (int) c.step + (int) c.p[i]) : (int) c.base + (int) c.p[i];
        float want = c.div ? q / m1 : q * m1 * m2;
        if (Float.floatToRawIntBits(want) != Float.floatToRawIntBits(got[i])) {
          throw new AssertionError(c + " value " + i + " (q " + q + "): want " + want + " got " + got[i]);
        }
      }
    }
  }

  /**
   * The float64 divide pass (a reciprocal multiply corrected by two fused multiply-adds) against
   * the division, for every exponent: integers of every magnitude (beyond 2^53 too, where the
   * conversion rounds), multiples of the power of ten and their neighbours, where a quotient
   * is exact or lies next to a rounding boundary.
   */
  @Test
  void theDividePassRoundsAsTheDivisionDoes() {
    SplittableRandom rnd = new SplittableRandom(9);
    double[] got64 = new double[1 << 16];
    for (int e = 0; e <= AlpFormat.MAX_EXPONENT_F64; e++) {
      double d = PowersOfTen.F64[e];
      for (int i = 0; i < got64.length; i++) {
        got64[i] = integer64(rnd, (long) d);
      }
      double[] in = got64.clone();
      FusedDecode.divide(got64, 0, got64.length, d);
      for (int i = 0; i < in.length; i++) {
        if (Double.doubleToRawLongBits(got64[i]) != Double.doubleToRawLongBits(in[i] / d)) {
          throw new AssertionError("e " + e + ": " + in[i] + " / " + d + " gave " + got64[i]);
        }
      }
    }
  }

  /** An integer of a random magnitude, or a multiple of {@code scale} give or take a little. */
  private static long integer64(SplittableRandom rnd, long scale) {
    long x = rnd.nextLong() >> rnd.nextInt(64);
    return rnd.nextBoolean() ? x : (x >> 24) * scale + rnd.nextInt(-2, 3);
  }

  private record Chunk(int t, int n, int w, boolean delta, boolean div, int e, int f, long base, long step,
      long[] p, java.nio.ByteBuffer[] buffers) {
    @Override
    public String toString() {
      return "chunk(t=" + t + " n=" + n + " w=" + w + " delta=" + delta + " div=" + div + " e=" + e + " f=" + f
          + " base=" + base + " step=" + step + ")";
    }
  }

  /** A chunk without exceptions whose integers come from one of several ranges. */
  private static Chunk chunk(SplittableRandom rnd, int t) {
    int n = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(1023) : 1024;
    int limit = t == 64 ? 51 : 22;
    int w = switch (rnd.nextInt(4)) {
      case 0 -> rnd.nextInt(t + 1);                               // anything
      case 1 -> Math.max(0, limit - 2 + rnd.nextInt(5));          // around the biased range's edge
      default -> rnd.nextInt(Math.min(t, 30) + 1);                // the common, narrow widths
    };
    boolean delta = rnd.nextBoolean();
    boolean div = rnd.nextBoolean();
    int maxE = t == 64 ? AlpFormat.MAX_EXPONENT_F64 : AlpFormat.MAX_EXPONENT_F32;
    int e = rnd.nextInt(maxE + 1);
    int f = div ? 0 : rnd.nextInt(e + 1);
    long mask = w == 64 ? -1L : (1L << w) - 1;
    long edge = 1L << limit;
    // the FOR bases the exact loops take: [-2^51, 2^53] (float64), [-2^22, 2^24] (float32)
    long forLow = -edge;
    long forHigh = 1L << (t == 64 ? 53 : 24);
    long base = switch (rnd.nextInt(8)) {
      case 0 -> rnd.nextLong();
      case 1 -> -edge + rnd.nextInt(3);                           // the lowest integer in range
      case 2 -> edge - mask - 1 - rnd.nextInt(3) + 1;             // the highest value at or past the edge
      case 3 -> forLow - 1 - rnd.nextInt(3);                      // just below the FOR bases taken
      case 4 -> 2 * forLow - 1 - 2 * rnd.nextInt(3);              // odd, far below: base - bias is no float
      case 5 -> forHigh - rnd.nextInt(3) + rnd.nextInt(2);        // at the top of the FOR bases taken
      default -> rnd.nextLong(-1000, 1000);
    };
    long step = rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextLong(-4, 4);
    if (t == 32) {
      base = (int) base;
      step = (int) step;
    }
    long[] p = new long[n];
    for (int i = 0; i < n; i++) {
      p[i] = rnd.nextInt(3) == 0 ? mask : rnd.nextLong() & mask;
    }
    int bytes = t / 8;
    byte[] payload = new byte[Math.max(128 * w, n * bytes)];
    int size = BitPacking.pack(p, n, t, w, payload, 0, new long[1024]);
    byte[] header = new byte[AlpFormat.alpHeaderBytes(delta, bytes)];
    header[0] = (byte) ((delta ? AlpFormat.MODE_DELTA : 0) | (div ? AlpFormat.MODE_DIV : 0));
    header[1] = (byte) e;
    header[2] = (byte) f;
    header[3] = (byte) w;
    if (t == 64) {
      LittleEndian.putLong(header, AlpFormat.ALP_HEADER_FIXED, base);
      if (delta) {
        LittleEndian.putLong(header, AlpFormat.ALP_HEADER_FIXED + 8, step);
      }
    } else {
      LittleEndian.putInt(header, AlpFormat.ALP_HEADER_FIXED, (int) base);
      if (delta) {
        LittleEndian.putInt(header, AlpFormat.ALP_HEADER_FIXED + 4, (int) step);
      }
    }
    java.nio.ByteBuffer[] buffers = {
      java.nio.ByteBuffer.wrap(payload, 0, size), java.nio.ByteBuffer.wrap(header),
      java.nio.ByteBuffer.allocate(0), java.nio.ByteBuffer.allocate(0)
    };
    return new Chunk(t, n, w, delta, div, e, f, base, step, p, buffers);
  }

  /** A decoder made while {@code lance.codec.fused} says whether to use the kernels. */
  private static AlpDecoder decoder(boolean kernels) {
    String was = System.getProperty("lance.codec.fused");
    System.setProperty("lance.codec.fused", Boolean.toString(kernels));
    try {
      return new AlpDecoder();
    } finally {
      if (was == null) {
        System.clearProperty("lance.codec.fused");
      } else {
        System.setProperty("lance.codec.fused", was);
      }
    }
  }
}
