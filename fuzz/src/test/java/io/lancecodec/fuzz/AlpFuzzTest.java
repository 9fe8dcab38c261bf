package io.lancecodec.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.lancecodec.codec.alp.AlpDecoder;
import io.lancecodec.codec.alp.AlpEncoder;
import io.lancecodec.codec.alp.AlpPage;
import io.lancecodec.spi.LanceCodecException;
import java.nio.ByteBuffer;

/**
 * One ALP or ALP-RD chunk (codec-alp's {@link AlpDecoder}) from arbitrary bytes. Input: a flags
 * byte (bit 0: float64), the value count (u16, little-endian; 1..1024 are valid), the sizes of
 * the four buffers (u16 each), then their bytes; missing bytes make the buffers shorter. The
 * property: the chunk decodes or fails with one CORRUPT {@link LanceCodecException}; and what
 * decodes re-encodes (our encoder, any size) and decodes to the same bits.
 */
public class AlpFuzzTest {
  static final int HEADER = 1 + 2 + 4 * 2;

  private static final AlpDecoder DECODER = new AlpDecoder();
  private static final AlpEncoder ENCODER = new AlpEncoder();

  @FuzzTest(maxDuration = "30s")
  void chunk(byte[] input) {
    fuzzerTestOneInput(input);
  }

  public static void fuzzerTestOneInput(byte[] in) {
    if (in.length < HEADER) {
      return;
    }
    boolean f64 = (in[0] & 1) != 0;
    int n = u16(in, 1);
    ByteBuffer[] buffers = new ByteBuffer[4];
    int at = HEADER;
    for (int i = 0; i < 4; i++) {
      int size = Math.min(u16(in, 3 + 2 * i), in.length - at);
      buffers[i] = ByteBuffer.wrap(in, at, size).slice();
      at += size;
    }
    try {
      if (f64) {
        double[] out = new double[Math.max(n, 1)];
        DECODER.decodeChunk(buffers[0], buffers[1], buffers[2], buffers[3], n, out, 0);
        AlpPage page = ENCODER.encodePage(out, 0, n, Integer.MAX_VALUE, false);
        double[] again = new double[n];
        DECODER.decodePage(page, again, 0);
        for (int i = 0; i < n; i++) {
          if (Double.doubleToRawLongBits(out[i]) != Double.doubleToRawLongBits(again[i])) {
            throw new AssertionError("value " + i + " re-encoded as " + again[i] + ", decoded " + out[i]);
          }
        }
      } else {
        float[] out = new float[Math.max(n, 1)];
        DECODER.decodeChunk(buffers[0], buffers[1], buffers[2], buffers[3], n, out, 0);
        AlpPage page = ENCODER.encodePage(out, 0, n, Integer.MAX_VALUE, false);
        float[] again = new float[n];
        DECODER.decodePage(page, again, 0);
        for (int i = 0; i < n; i++) {
          if (Float.floatToRawIntBits(out[i]) != Float.floatToRawIntBits(again[i])) {
            throw new AssertionError("value " + i + " re-encoded as " + again[i] + ", decoded " + out[i]);
          }
        }
      }
    } catch (LanceCodecException e) {
      if (e.kind() != LanceCodecException.Kind.CORRUPT) {
        throw new AssertionError("not CORRUPT: " + e.kind() + " " + e.getMessage(), e);
      }
    }
  }

  static int u16(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
  }
}
