package io.lancecodec.codec.pcodec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The numbers behind pco's golden files, generated with the formulas of pco's compatibility test
 * ({@code pco/src/tests/compatibility.rs} in pcodec/pcodec), and the files themselves.
 */
final class GoldenNumbers {
  private GoldenNumbers() {}

  static byte[] file(String name) {
    try (InputStream in = GoldenNumbers.class.getResourceAsStream("/pco-golden/" + name + ".pco")) {
      if (in == null) {
        throw new IllegalStateException("missing golden file " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int[] classic() {
    int[] v = new int[2000];
    for (int i = 0; i < 1000; i++) {
      v[i] = i;
      v[1000 + i] = 2000 + i;
    }
    return v;
  }

  static float[] deltaFloatMult() {
    float[] v = new float[2000];
    for (int i = 0; i < 2000; i++) {
      v[i] = i;
    }
    v[1337] += 1.001f;
    return v;
  }

  static int[] deltaIntMult() {
    int[] v = new int[2000];
    for (int i = 0; i < 2000; i++) {
      v[i] = i * 1000;
    }
    v[1337] -= 1;
    return v;
  }

  /** Halves spread over (-2, -1] and [1, 2) by a chaotic map in f32, as binary16 bits. */
  static short[] pseudorandomF16() {
    short[] v = new short[2000];
    float num = 0.1f;
    for (int i = 0; i < 2000; i++) {
      num = ((num * 77.7f) + 0.1f) % 2.0f;
      float x = num < 1.0f ? -1.0f - num : num;
      v[i] = (short) F16.fromFloat(x);
    }
    return v;
  }

  static float[] floatQuant() {
    short[] halves = pseudorandomF16();
    float[] v = new float[halves.length];
    for (int i = 0; i < halves.length; i++) {
      float x = F16.toFloat(halves[i] & 0xFFFF);
      v[i] = Math.abs(x) < 1.1f ? Float.intBitsToFloat(Float.floatToRawIntBits(x) + 1) : x;
    }
    return v;
  }

  static int[] lookback() {
    long[] base = {1121827092L, 729032807L, 3968137854L, 2875434067L, 3775328080L, 431649926L,
        1048116090L, 1906978350L, 14752788L, 1180462487L};
    int[] v = new int[1000];
    for (int i = 0; i < 1000; i++) {
      v[i] = (int) base[i % base.length];
    }
    return v;
  }

  static int[] oneToFive() {
    return new int[] {1, 2, 3, 4, 5};
  }

  static long[] dict() {
    long[] base = {8924659283L, 234897984367L, 9827358920L};
    long[] v = new long[3000];
    for (int i = 0; i < 3000; i++) {
      v[i] = base[i % 3];
    }
    return v;
  }

  /** A second-order recurrence near resonance plus a sawtooth, computed in f32. */
  static int[] conv1() {
    int[] v = new int[2000];
    float xm1 = 0f;
    float xm2 = 0f;
    for (int i = 0; i < 2000; i++) {
      float x = xm1 * 1.99f - xm2 + (float) ((i * 47) % 77 - 38);
      v[i] = (int) (x + 10000.0f);
      xm2 = xm1;
      xm1 = x;
    }
    return v;
  }

  static byte[] u8() {
    byte[] v = new byte[65 + 64];
    for (int i = 0; i <= 64; i++) {
      v[i] = (byte) i;
    }
    for (int i = 192; i <= 255; i++) {
      v[65 + i - 192] = (byte) i;
    }
    return v;
  }

  static byte[] i8() {
    byte[] v = new byte[65 + 64];
    for (int i = -128; i <= -64; i++) {
      v[i + 128] = (byte) i;
    }
    for (int i = 64; i <= 127; i++) {
      v[65 + i - 64] = (byte) i;
    }
    return v;
  }
}
