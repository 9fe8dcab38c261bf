package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Test helpers: one chunk encoded with explicit parameters, decoded back, shown as hex. */
final class Chunks {
  private Chunks() {}

  static ByteSink[] sinks() {
    return new ByteSink[] {new ByteSink(16), new ByteSink(16), new ByteSink(16), new ByteSink(16)};
  }

  static byte[][] arrays(ByteSink[] out) {
    return new byte[][] {out[0].toArray(), out[1].toArray(), out[2].toArray(), out[3].toArray()};
  }

  static byte[][] alp64(double[] v, int e, int f, boolean div, boolean delta) {
    AlpChunkEncoder enc = new AlpChunkEncoder();
    enc.scan64(v, 0, v.length, e, f, div);
    enc.keep();
    ByteSink[] out = sinks();
    int size = enc.write(delta, out);
    byte[][] b = arrays(out);
    assertEquals(size, b[0].length + b[1].length + b[2].length + b[3].length, "reported size");
    return b;
  }

  static byte[][] alp32(float[] v, int e, int f, boolean div, boolean delta) {
    AlpChunkEncoder enc = new AlpChunkEncoder();
    enc.scan32(v, 0, v.length, e, f, div);
    enc.keep();
    ByteSink[] out = sinks();
    int size = enc.write(delta, out);
    byte[][] b = arrays(out);
    assertEquals(size, b[0].length + b[1].length + b[2].length + b[3].length, "reported size");
    return b;
  }

  static byte[][] rd64(double[] v, int d) {
    AlpRdEncoder enc = new AlpRdEncoder();
    int size = enc.useWidth(v, 0, v.length, d);
    ByteSink[] out = sinks();
    assertEquals(size, enc.write(out));
    byte[][] b = arrays(out);
    assertEquals(size, b[0].length + b[1].length + b[2].length + b[3].length, "reported size");
    return b;
  }

  /** The four buffers laid out in one array with gaps, as a mini-block chunk hands them over. */
  static double[] decode64(byte[][] b, int n) {
    Joined j = join(b);
    double[] out = new double[n + 3];
    new AlpDecoder().decodeChunk(j.chunk, j.offsets, j.sizes, n, out, 3);
    double[] viaBuffers = new double[n];
    new AlpDecoder().decodeChunk(ByteBuffer.wrap(b[0]), ByteBuffer.wrap(b[1]), ByteBuffer.wrap(b[2]),
        ByteBuffer.wrap(b[3]), n, viaBuffers, 0);
    double[] result = java.util.Arrays.copyOfRange(out, 3, n + 3);
    for (int i = 0; i < n; i++) {
      assertEquals(Double.doubleToRawLongBits(result[i]), Double.doubleToRawLongBits(viaBuffers[i]));
    }
    return result;
  }

  static float[] decode32(byte[][] b, int n) {
    Joined j = join(b);
    float[] out = new float[n + 3];
    new AlpDecoder().decodeChunk(j.chunk, j.offsets, j.sizes, n, out, 3);
    return java.util.Arrays.copyOfRange(out, 3, n + 3);
  }

  record Joined(byte[] chunk, int[] offsets, int[] sizes) {}

  static Joined join(byte[][] b) {
    int total = 1;
    for (byte[] x : b) {
      total += x.length + 3;
    }
    byte[] chunk = new byte[total];
    java.util.Arrays.fill(chunk, (byte) 0xEE);
    int[] offsets = new int[4];
    int[] sizes = new int[4];
    int at = 1;
    for (int i = 0; i < 4; i++) {
      offsets[i] = at;
      sizes[i] = b[i].length;
      System.arraycopy(b[i], 0, chunk, at, b[i].length);
      at += b[i].length + 3;
    }
    return new Joined(chunk, offsets, sizes);
  }

  static String hex(byte[] b) {
    return HexFormat.ofDelimiter(" ").formatHex(b);
  }

  static void assertBitsEqual(double[] want, double[] got) {
    assertEquals(want.length, got.length);
    for (int i = 0; i < want.length; i++) {
      if (Double.doubleToRawLongBits(want[i]) != Double.doubleToRawLongBits(got[i])) {
        throw new AssertionError("value " + i + ": want " + want[i] + " (0x"
            + Long.toHexString(Double.doubleToRawLongBits(want[i])) + ") got " + got[i] + " (0x"
            + Long.toHexString(Double.doubleToRawLongBits(got[i])) + ")");
      }
    }
  }

  static void assertBitsEqual(float[] want, float[] got) {
    assertEquals(want.length, got.length);
    for (int i = 0; i < want.length; i++) {
      if (Float.floatToRawIntBits(want[i]) != Float.floatToRawIntBits(got[i])) {
        throw new AssertionError("value " + i + ": want " + want[i] + " (0x"
            + Integer.toHexString(Float.floatToRawIntBits(want[i])) + ") got " + got[i] + " (0x"
            + Integer.toHexString(Float.floatToRawIntBits(got[i])) + ")");
      }
    }
  }
}
