package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Hostile chunks fail with one line of kind CORRUPT, never another exception, never a large allocation. */
class AlpCorruptInputTest {
  static LanceCodecException corrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().startsWith("alp: "), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    return e;
  }

  static LanceCodecException corrupt64(byte[][] b, int n) {
    return corrupt(() -> Chunks.decode64(b, n));
  }

  static byte[][] copy(byte[][] b) {
    byte[][] c = new byte[4][];
    for (int i = 0; i < 4; i++) {
      c[i] = b[i].clone();
    }
    return c;
  }

  /**
   * 1000 two-digit decimals q / 100 on the divide path (exact by construction) with two
   * exceptions: a packed payload (q up to 6993, W = 13) and non-empty exception buffers.
   */
  static byte[][] packedChunk() {
    double[] v = new double[1000];
    for (int i = 0; i < v.length; i++) {
      v[i] = (i * 7 % 10000) / 100.0;
    }
    v[5] = Double.NaN;
    v[999] = -0.0;
    return Chunks.alp64(v, 2, 0, true, false);
  }

  static byte[][] rdChunk(int n) {
    double[] v = new double[n];
    Random rnd = new Random(3);
    for (int i = 0; i < n; i++) {
      v[i] = rnd.nextDouble() * (1 + i % 5);
    }
    return Chunks.rd64(v, 48);
  }

  @Test
  void truncatedBuffers() {
    byte[][] good = packedChunk();
    Chunks.decode64(good, 1000);
    for (int k = 0; k < 4; k++) {
      for (int cut : new int[] {1, 2, good[k].length}) {
        if (cut > good[k].length) {
          continue;
        }
        byte[][] b = copy(good);
        b[k] = Arrays.copyOf(b[k], b[k].length - cut);
        corrupt64(b, 1000);
      }
    }
    byte[][] rd = rdChunk(700);
    Chunks.decode64(rd, 700);
    for (int k = 0; k < 4; k++) {
      byte[][] b = copy(rd);
      b[k] = Arrays.copyOf(b[k], b[k].length - 1);
      corrupt64(b, 700);
    }
  }

  @Test
  void badHeaderWidths() {
    byte[][] good = packedChunk();
    assertEquals(13, good[1][3]);
    assertEquals(4, good[2].length);
    byte[][] wider = copy(good);
    wider[1][3] = 65;
    assertTrue(corrupt64(wider, 1000).getMessage().contains("bit width 65"));
    for (int w : new int[] {12, 14, 0, 64}) {
      byte[][] b = copy(good);
      b[1][3] = (byte) w;
      assertTrue(corrupt64(b, 1000).getMessage().contains("fits neither"), "w=" + w);
    }
    byte[][] e = copy(good);
    e[1][1] = 19;
    assertTrue(corrupt64(e, 1000).getMessage().contains("e=19"));
    byte[][] f = Chunks.alp64(new double[] {1, 2, 3}, 2, 0, false, false);
    f[1][2] = 3; // f > e = 2 on the multiply path (the divide path ignores f)
    assertTrue(corrupt64(f, 3).getMessage().contains("f=3"));
    byte[][] mode = copy(good);
    mode[1][0] = 8;
    assertTrue(corrupt64(mode, 1000).getMessage().contains("unknown bits"));
    byte[][] delta = copy(good);
    delta[1][0] = AlpFormat.MODE_DELTA; // a Delta header needs 20 bytes, this one has 12
    assertTrue(corrupt64(delta, 1000).getMessage().contains("expected 20"));
    byte[][] empty = copy(good);
    empty[1] = new byte[0];
    corrupt64(empty, 1000);
  }

  @Test
  void float32Limits() {
    float[] v = {1.5f, 2.5f, 3.5f};
    byte[][] good = Chunks.alp32(v, 1, 0, false, false);
    byte[][] e = copy(good);
    e[1][1] = 11;
    corrupt(() -> Chunks.decode32(e, 3));
    byte[][] w = copy(good);
    w[1][3] = 33;
    corrupt(() -> Chunks.decode32(w, 3));
    byte[][] rd = rdChunk(10);
    assertTrue(corrupt(() -> Chunks.decode32(rd, 10)).getMessage().contains("float32"));
  }

  @Test
  void exceptionPositionsOutOfRange() {
    byte[][] good = packedChunk();
    byte[][] b = copy(good);
    LittleEndian.putShort(b[2], 2, (short) 1000);
    assertTrue(corrupt64(b, 1000).getMessage().contains("position 1000"));
    byte[][] high = copy(good);
    LittleEndian.putShort(high[2], 0, (short) 0xFFFF);
    assertTrue(corrupt64(high, 1000).getMessage().contains("position 65535"));
    // a chunk read with fewer values than it was written for
    corrupt64(good, 999);
    byte[][] odd = copy(good);
    odd[2] = Arrays.copyOf(odd[2], 3);
    corrupt64(odd, 1000);
    byte[][] mismatch = copy(good);
    mismatch[3] = Arrays.copyOf(mismatch[3], 24);
    corrupt64(mismatch, 1000);
  }

  @Test
  void dictionaryIndexOutOfRange() {
    // three left parts, index_bits 2; dropping the last entry leaves index 2 dangling
    double[] v = {
      Double.longBitsToDouble(0x3FF0000000000001L),
      Double.longBitsToDouble(0x4000000000000003L),
      Double.longBitsToDouble(0x4010000000000005L),
      Double.longBitsToDouble(0x3FF0000000000007L)
    };
    byte[][] good = Chunks.rd64(v, 8);
    Chunks.assertBitsEqual(v, Chunks.decode64(good, 4));
    assertEquals(3, LittleEndian.getInt(good[1], 4));
    byte[][] b = copy(good);
    LittleEndian.putInt(b[1], 4, 2);
    b[2] = Arrays.copyOf(b[2], 16);
    assertTrue(corrupt64(b, 4).getMessage().contains("index 2"));
  }

  @Test
  void badAlpRdHeaders() {
    byte[][] good = rdChunk(1024);
    Chunks.decode64(good, 1024);
    int entries = LittleEndian.getInt(good[1], 4);
    byte[][] reserved = copy(good);
    reserved[1][3] = 1;
    corrupt64(reserved, 1024);
    byte[][] extraMode = copy(good);
    extraMode[1][0] = AlpFormat.MODE_RD | AlpFormat.MODE_DELTA;
    corrupt64(extraMode, 1024);
    for (int d : new int[] {0, 64, 200, 47, 49}) {
      byte[][] b = copy(good);
      b[1][1] = (byte) d;
      corrupt64(b, 1024);
    }
    byte[][] ib = copy(good);
    ib[1][2] = 17;
    corrupt64(ib, 1024);
    byte[][] noDict = copy(good);
    LittleEndian.putInt(noDict[1], 4, 0);
    noDict[2] = new byte[0];
    corrupt64(noDict, 1024);
    byte[][] huge = copy(good);
    LittleEndian.putInt(huge[1], 4, -1); // 4 billion entries: rejected before any allocation
    corrupt64(huge, 1024);
    byte[][] wide = copy(good);
    LittleEndian.putLong(wide[2], 8 * (entries - 1), 1L << 16); // 17 bits, left parts have 16
    assertTrue(corrupt64(wide, 1024).getMessage().contains("wider"));
    byte[][] strayIndex = Chunks.rd64(new double[] {1.25, 1.5}, 56);
    strayIndex[3] = new byte[4];
    corrupt64(strayIndex, 2);
  }

  @Test
  void chunkFraming() {
    byte[][] good = packedChunk();
    corrupt(() -> new AlpDecoder().decodeChunk(new byte[10], new int[] {0, 0, 0, 0}, new int[] {0, 12, 0, 11},
        1, new double[1], 0));
    corrupt(() -> new AlpDecoder().decodeChunk(new byte[10], new int[] {0, 0, 0}, new int[] {0, 0, 0},
        1, new double[1], 0));
    corrupt(() -> new AlpDecoder().decodeChunk(new byte[10], new int[] {-1, 0, 0, 0}, new int[] {1, 0, 0, 0},
        1, new double[1], 0));
    corrupt64(good, 0);
    corrupt64(good, 1025);
    LanceCodecException small = assertThrows(LanceCodecException.class, () -> {
      Chunks.Joined j = Chunks.join(good);
      new AlpDecoder().decodeChunk(j.chunk(), j.offsets(), j.sizes(), 1000, new double[999], 0);
    });
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, small.kind());
  }

  @Test
  void randomDamageNeverEscapes() {
    Random rnd = new Random(11);
    byte[][][] samples = {packedChunk(), rdChunk(1024), rdChunk(77),
        Chunks.alp64(new double[] {1, 2, 3, 5, 8, 13}, 0, 0, false, true)};
    int[] counts = {1000, 1024, 77, 6};
    for (int s = 0; s < samples.length; s++) {
      for (int round = 0; round < 400; round++) {
        byte[][] b = copy(samples[s]);
        int k = rnd.nextInt(4);
        if (b[k].length > 0 && rnd.nextBoolean()) {
          b[k][rnd.nextInt(b[k].length)] ^= (byte) (1 << rnd.nextInt(8));
        } else {
          b[k] = Arrays.copyOf(b[k], rnd.nextInt(b[k].length + 9));
        }
        int n = rnd.nextInt(8) == 0 ? rnd.nextInt(1100) : counts[s];
        try {
          Chunks.decode64(b, n);
        } catch (LanceCodecException e) {
          assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
        }
      }
    }
  }
}
