package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.spi.DataBlock;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Golden vectors of the FastLanes layout (docs/wire/codecs.md §1.4): SHA-256 of the packed
 * little-endian words. A sequential packer would round-trip yet fail these.
 */
class FastLanesGoldenTest {

  static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  static byte[] packKernel(int bits, int width, IntToLongFunction f) {
    long[] in = new long[1024];
    for (int i = 0; i < 1024; i++) {
      in[i] = f.applyAsLong(i);
    }
    long[] words = new long[1024];
    FastLanes.pack(bits, width, in, words);
    int n = 1024 / bits * width;
    byte[] out = new byte[n * bits / 8];
    Words.write(words, n, bits, out, 0);
    return out;
  }

  @ParameterizedTest
  @CsvSource({
    "32, 3, mod8, 7afe47fcd6854cf99d4e808b4f975ca7a2e0dc552ffb6953292b3d4d9445875f",
    "32, 10, identity, fded69a758643dbc59d8e5afc1cd28f96576f71c04aafbe0507dd7837e5a6d1c",
    "8, 3, mod8, 7945d0198a02bc9b0487f4d7328158ccc79f9c59cba41b9abba0c4e468265731",
    "16, 5, mod32, 3f628e11a7102d2d403bc605959bb939881f07e80e343c3c4966e9675328ff68",
    "64, 11, identity, 8baeb124c78589624d509f3209efa62406494f034a54693a8365cc8e813beb96",
  })
  void kernelMatchesGolden(int bits, int width, String pattern, String sha) throws Exception {
    IntToLongFunction f =
        pattern.equals("mod8") ? i -> i % 8 : pattern.equals("mod32") ? i -> i % 32 : i -> i;
    assertEquals(sha, sha256(packKernel(bits, width, f)));
  }

  @Test
  void firstWordsOfThreeBitPacking() {
    byte[] out = packKernel(32, 3, i -> i % 8);
    int[] expect = {0x00000000, 0x49249249, 0x92492492, 0xdb6db6db, 0x24924924, 0x6db6db6d, 0xb6db6db6, 0xffffffff};
    for (int k = 0; k < expect.length; k++) {
      assertEquals(expect[k], io.lancecodec.spi.LittleEndian.getInt(out, 4 * k), "word " + k);
    }
    // hand check: lane 0 rows 0..3 read inputs 0, 128, 256, 384
    byte[] ten = packKernel(32, 10, i -> i);
    assertEquals(0x10020000, io.lancecodec.spi.LittleEndian.getInt(ten, 0));
  }

  static byte[] chunk(int bits, int n, IntToLongFunction f) {
    byte[] data = new byte[n * bits / 8];
    for (int i = 0; i < n; i++) {
      io.lancecodec.spi.LittleEndian.putUnsigned(data, i * bits / 8, bits / 8, f.applyAsLong(i));
    }
    return InlineBitpacking.packChunk(data, bits, 0, n, new long[1024], new long[1024]);
  }

  @ParameterizedTest
  @CsvSource({
    "32, 1000, mod8, 388, c68fa0546abd00357ddc2d04fc44857404ae7b9548d593c84efedf7fe7a782d9",
    "32, 1024, mod8, 388, 235ff664d8e2ddf15289f6d00b4d5fecc090fbc2f8f3031dce297f15ebd522d4",
    "16, 1024, seven, 1282, 76a42059e77e6e517056d02573fbe144fe81fd7ca45663a249167920ea0e84b0",
    "8, 600, mod8, 385, 6f13c3642ce1c686637fcca9e206daf2c745c29c61fbf99f65abe9f153fc086c",
  })
  void inlineChunksMatchGolden(int bits, int n, String pattern, int size, String sha) throws Exception {
    IntToLongFunction f = pattern.equals("mod8") ? i -> i % 8 : i -> (7L * i) % 1000;
    byte[] c = chunk(bits, n, f);
    assertEquals(size, c.length);
    assertEquals(sha, sha256(c));
    DataBlock back = new InlineBitpacking.Decompressor(bits).decompress(List.of(c), n);
    byte[] expect = new byte[n * bits / 8];
    for (int i = 0; i < n; i++) {
      io.lancecodec.spi.LittleEndian.putUnsigned(expect, i * bits / 8, bits / 8, f.applyAsLong(i));
    }
    assertArrayEquals(expect, ((DataBlock.FixedWidth) back).data());
  }

  @Test
  void zeroWidthChunkIsHeaderOnly() {
    byte[] c = chunk(64, 1024, i -> 0);
    assertArrayEquals(new byte[8], c);
  }

  /** The division-free 32-bit kernel agrees with the plain per-value formula at every width. */
  @Test
  void fastUnpack32MatchesReferenceFormula() {
    java.util.Random rnd = new java.util.Random(5);
    for (int width = 0; width <= 32; width++) {
      long[] in = new long[1024];
      for (int i = 0; i < 1024; i++) {
        in[i] = width == 0 ? 0 : rnd.nextLong() & (width == 64 ? -1L : (1L << width) - 1);
      }
      long[] words = new long[1024];
      FastLanes.pack(32, width, in, words);
      byte[] bytes = new byte[4 * 32 * width];
      Words.write(words, 32 * width, 32, bytes, 0);
      int[] fast = new int[1024];
      FastLanes.unpack32(bytes, 0, width, new int[1024 + 32], fast);
      long[] slow = new long[1024];
      slowUnpack(32, width, words, slow);
      for (int i = 0; i < 1024; i++) {
        assertEquals(slow[i], fast[i] & 0xFFFFFFFFL, "width " + width + " value " + i);
        assertEquals(in[i], slow[i], "width " + width + " value " + i);
      }
      for (int bits : new int[] {8, 16, 64}) {
        if (width > bits) {
          continue;
        }
        long[] w2 = new long[1024];
        long[] in2 = new long[1024];
        for (int i = 0; i < 1024; i++) {
          in2[i] = in[i] & (bits == 64 ? -1L : (1L << bits) - 1);
        }
        FastLanes.pack(bits, width, in2, w2);
        long[] a = new long[1024];
        long[] b = new long[1024];
        FastLanes.unpack(bits, width, w2, a);
        slowUnpack(bits, width, w2, b);
        assertArrayEquals(b, a, "bits " + bits + " width " + width);
      }
    }
  }

  /** The obvious formula: stream bit s of lane l lives in word s / T at bit s % T. */
  static void slowUnpack(int bits, int width, long[] words, long[] out) {
    int lanes = 1024 / bits;
    int[] order = {0, 4, 2, 6, 1, 5, 3, 7};
    for (int l = 0; l < lanes; l++) {
      for (int r = 0; r < bits; r++) {
        long v = 0;
        for (int b = 0; b < width; b++) {
          int s = r * width + b;
          long word = words[lanes * (s / bits) + l];
          v |= ((word >>> (s % bits)) & 1L) << b;
        }
        out[16 * order[r / 8] + 128 * (r % 8) + l] = v;
      }
    }
  }
}
