package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.Random;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * LZ4 frames are written by lz4-java's Unsafe compressor for speed; the bytes must be exactly
 * what its safe compressor writes (files stay byte for byte what they were), and decode back.
 * Inputs of every size class around the compressor's 64 KiB switch, text-like, repetitive,
 * random and empty (seeded), at offsets inside larger arrays.
 */
class Lz4FramesTest {
  private static final LZ4Compressor SAFE = LZ4Factory.safeInstance().fastCompressor();

  @Test
  void framesAreTheSafeCompressorsBytes() {
    Lz4Codec codec = new Lz4Codec();
    Random rnd = new Random(42);
    for (int len : new int[] {0, 1, 12, 13, 100, 4096, 65_546, 65_547, 65_548, 300_000, 1_100_000}) {
      for (String shape : new String[] {"text", "runs", "random"}) {
        byte[] src = new byte[len + 37];
        fill(src, shape, rnd);
        int off = 17;
        byte[] frame = new byte[codec.maxFrameBytes(len) + 5];
        int n = codec.compressInto(src, off, len, frame, 3);
        byte[] safe = new byte[SAFE.maxCompressedLength(len)];
        int m = SAFE.compress(src, off, len, safe, 0, safe.length);
        String what = shape + ", " + len + " bytes";
        assertEquals(len, LittleEndian.getInt(frame, 3), what);
        assertArrayEquals(Arrays.copyOf(safe, m), Arrays.copyOfRange(frame, 3 + Lz4Codec.PREFIX, 3 + n), what);
        byte[] back = new byte[len];
        codec.decompressInto(frame, 3, n, back, 0, len);
        assertArrayEquals(Arrays.copyOfRange(src, off, off + len), back, what);
      }
    }
  }

  private static void fill(byte[] b, String shape, Random rnd) {
    String[] words = {"https://", "listman.", "mailman/", "listinfo/", "exmh-", "workers", ".org/", "yahoo", "click", "?id="};
    int i = 0;
    while (i < b.length) {
      switch (shape) {
        case "text": {
          byte[] w = words[rnd.nextInt(words.length)].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
          for (int k = 0; k < w.length && i < b.length; k++) {
            b[i++] = w[k];
          }
          if (i < b.length && rnd.nextInt(4) == 0) {
            b[i++] = (byte) ('a' + rnd.nextInt(26));
          }
          break;
        }
        case "runs": {
          byte v = (byte) rnd.nextInt(4);
          for (int k = rnd.nextInt(300); k > 0 && i < b.length; k--) {
            b[i++] = v;
          }
          break;
        }
        default:
          b[i++] = (byte) rnd.nextInt();
      }
    }
  }
}
