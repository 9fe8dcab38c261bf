package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The compact packer against a slow bit-by-bit reference and the golden vectors of docs/wire/codecs.md. */
class BitPackingTest {
  private static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  /**
   * Reference kernel, written from the layout description only: lane l is the concatenation,
   * least significant bit first, of the low w bits of its rows 0..t-1, where row r of lane l is
   * value 16 * ORDER[r / 8] + 128 * (r % 8) + l; stream bit s goes to bit s % t of the lane's
   * word s / t, stored at word index lanes * (s / t) + l; words are little-endian.
   */
  static byte[] referencePack(long[] values1024, int t, int w) {
    int lanes = 1024 / t;
    byte[] out = new byte[128 * w];
    for (int l = 0; l < lanes; l++) {
      for (int r = 0; r < t; r++) {
        long v = values1024[16 * ORDER[r / 8] + 128 * (r % 8) + l];
        for (int bit = 0; bit < w; bit++) {
          if (((v >>> bit) & 1) == 0) {
            continue;
          }
          int s = r * w + bit;
          int word = lanes * (s / t) + l;
          int byteIndex = word * (t / 8) + (s % t) / 8;
          out[byteIndex] |= (byte) (1 << ((s % t) % 8));
        }
      }
    }
    return out;
  }

  static long[] random(Random rnd, int n, int w) {
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = w == 64 ? rnd.nextLong() : w == 0 ? 0 : rnd.nextLong() & ((1L << w) - 1);
    }
    return v;
  }

  static byte[] pack(long[] v, int n, int t, int w) {
    byte[] out = new byte[BitPacking.packedBytes(t, w, n) + 5];
    int bytes = BitPacking.pack(v, n, t, w, out, 5, new long[1024]);
    assertEquals(BitPacking.packedBytes(t, w, n), bytes);
    return java.util.Arrays.copyOfRange(out, 5, 5 + bytes);
  }

  @Test
  void fullBlocksMatchTheReference() {
    Random rnd = new Random(7);
    for (int t : new int[] {16, 32, 64}) {
      for (int w = 0; w <= t; w++) {
        long[] v = random(rnd, 1024, w);
        assertArrayEquals(referencePack(v, t, w), pack(v, 1024, t, w), "t=" + t + " w=" + w);
      }
    }
  }

  @Test
  void shortChunksArePaddedOrRaw() {
    Random rnd = new Random(8);
    for (int t : new int[] {16, 32, 64}) {
      for (int w = 0; w <= t; w++) {
        for (int n : new int[] {1, 2, 3, 31, 100, 511, 1000, 1023, 1024}) {
          long[] v = random(rnd, n, w);
          byte[] got = pack(v, n, t, w);
          if (BitPacking.rawTail(t, w, n)) {
            assertEquals(n * t / 8, got.length);
            for (int i = 0; i < n; i++) {
              assertEquals(v[i], BitPacking.getWord(t, got, i * t / 8), "raw word " + i);
            }
          } else {
            assertArrayEquals(referencePack(java.util.Arrays.copyOf(v, 1024), t, w), got,
                "t=" + t + " w=" + w + " n=" + n);
          }
          long[] back = new long[n];
          boolean raw = BitPacking.rawTail(t, w, n);
          BitPacking.unpack(got, 0, raw, t, w, n, back);
          assertArrayEquals(v, back, "t=" + t + " w=" + w + " n=" + n);
          // the row-loop unpackers (the plain baseline of the benchmarks, the ALP-RD index stream)
          byte[] shifted = new byte[got.length + 3];
          System.arraycopy(got, 0, shifted, 3, got.length);
          if (t == 64) {
            long[] out = new long[n + 2];
            BitPacking.unpack64(shifted, 3, raw, w, n, out, 2);
            assertArrayEquals(v, java.util.Arrays.copyOfRange(out, 2, n + 2), "unpack64 w=" + w + " n=" + n);
          } else if (t == 32) {
            int[] out = new int[n + 2];
            BitPacking.unpack32(shifted, 3, raw, w, n, out, 2);
            for (int i = 0; i < n; i++) {
              assertEquals((int) v[i], out[i + 2], "unpack32 w=" + w + " n=" + n + " i=" + i);
            }
          } else if (w <= 16) {
            int[] out = new int[n];
            int max = BitPacking.unpack16(shifted, 3, raw, w, n, out);
            long want = 0;
            for (int i = 0; i < n; i++) {
              assertEquals(v[i], out[i], "unpack16 w=" + w + " n=" + n + " i=" + i);
              want = Math.max(want, v[i]);
            }
            assertEquals(want, max);
          }
        }
      }
    }
  }

  @Test
  void tailRuleIsUpstreams() {
    // padding costs w * (1024 - n) bits, packing saves (t - w) * n: pad only when strictly cheaper
    assertTrue(BitPacking.rawTail(64, 2, 3));
    assertFalse(BitPacking.rawTail(64, 3, 1000));
    assertTrue(BitPacking.rawTail(64, 16, 256)); // 16 * 768 == 48 * 256: a tie stays raw
    assertFalse(BitPacking.rawTail(64, 16, 257));
    assertFalse(BitPacking.rawTail(64, 0, 1)); // w = 0 packs to nothing
    assertTrue(BitPacking.rawTail(32, 32, 1023)); // w = t never pays
    assertFalse(BitPacking.rawTail(64, 64, 1024)); // full blocks are always packed
    assertEquals(0, BitPacking.packedBytes(16, 0, 7));
    assertEquals(128 * 3, BitPacking.packedBytes(64, 3, 1000));
  }

  static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  @Test
  void goldenVectorsOfTheWireNotes() throws Exception {
    // docs/wire/codecs.md section 1.4, kernel only
    long[] v = new long[1024];
    for (int i = 0; i < 1024; i++) {
      v[i] = i;
    }
    byte[] t32 = pack(v, 1024, 32, 10);
    assertEquals(0x10020000, io.lancecodec.spi.LittleEndian.getInt(t32, 0));
    assertEquals("fded69a758643dbc59d8e5afc1cd28f96576f71c04aafbe0507dd7837e5a6d1c", sha256(t32));
    byte[] t64 = pack(v, 1024, 64, 11);
    assertEquals(0x4020030040040000L, io.lancecodec.spi.LittleEndian.getLong(t64, 0));
    assertEquals("8baeb124c78589624d509f3209efa62406494f034a54693a8365cc8e813beb96", sha256(t64));
    long[] mod32 = new long[1024];
    for (int i = 0; i < 1024; i++) {
      mod32[i] = i % 32;
    }
    assertEquals("3f628e11a7102d2d403bc605959bb939881f07e80e343c3c4966e9675328ff68",
        sha256(pack(mod32, 1024, 16, 5)));
  }

  @Test
  void singleBitPlacement() {
    // docs/wire/codecs.md section 1.4: input index -> (word index, word value) for w = 1
    int[] inputs = {0, 1, 16, 32, 64, 96, 128, 1023};
    long[][] t16 = {{0, 1}, {1, 1}, {16, 1}, {32, 1}, {0, 1 << 8}, {32, 1 << 8}, {0, 2}, {63, 0x8000}};
    long[][] t32 = {{0, 1}, {1, 1}, {16, 1}, {0, 1 << 16}, {0, 1 << 8}, {0, 1 << 24}, {0, 2}, {31, 0x80000000L}};
    long[][] t64 = {{0, 1}, {1, 1}, {0, 1L << 32}, {0, 1 << 16}, {0, 1 << 8}, {0, 1 << 24}, {0, 2}, {15, 1L << 63}};
    int[] widths = {16, 32, 64};
    long[][][] expected = {t16, t32, t64};
    for (int k = 0; k < 3; k++) {
      int t = widths[k];
      for (int j = 0; j < inputs.length; j++) {
        long[] v = new long[1024];
        v[inputs[j]] = 1;
        byte[] got = pack(v, 1024, t, 1);
        for (int word = 0; word < 1024 / t; word++) {
          long want = word == expected[k][j][0] ? expected[k][j][1] : 0;
          assertEquals(want, BitPacking.getWord(t, got, word * t / 8), "t=" + t + " input " + inputs[j] + " word " + word);
        }
      }
    }
  }

  @Test
  void rowOrderVisitsValuesInOrder() {
    for (int t : new int[] {16, 32, 64}) {
      int lanes = 1024 / t;
      int[] rows = BitPacking.rows(t);
      for (int b = 0; b < t; b++) {
        assertEquals(b * lanes, BitPacking.index(rows[b], 0), "t=" + t + " block " + b);
      }
    }
  }
}
