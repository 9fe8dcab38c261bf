package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile input to every decoder of codec-bitpack: each fails with one CORRUPT line (or decodes,
 * when the damage happens to leave a valid chunk), never another exception, a hang or a huge
 * allocation. Forged lengths that once escaped as IndexOutOfBounds have their own tests.
 */
@Timeout(60)
class BitpackCorruptInputTest {
  static LanceCodecException corrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(!e.getMessage().isBlank() && !e.getMessage().contains("\n"), e.getMessage());
    return e;
  }

  /** Runs {@code r}; a LanceCodecException must be CORRUPT, anything else fails the test. */
  static void decodesOrCorrupt(Runnable r, String what) {
    try {
      assertTimeoutPreemptively(r);
    } catch (LanceCodecException e) {
      assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), what + ": " + e.getMessage());
    }
  }

  private static void assertTimeoutPreemptively(Runnable r) {
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(2), r::run);
  }

  /** A block RLE run length of 0xFFFFFFFF (32-bit lengths, as 2.2 definition levels may have). */
  @Test
  void blockRleRunLengthOfAllOnes() {
    byte[] b = new byte[8 + 2 + 4];
    LittleEndian.putLong(b, 0, 2); // one 16-bit run value
    LittleEndian.putShort(b, 8, (short) 3);
    LittleEndian.putInt(b, 10, 0xFFFFFFFF);
    RleCodec.BlockDecompressor d = new RleCodec.BlockDecompressor(16, 32);
    // the run covers more than asked: the values asked for are all the run's value
    DataBlock.FixedWidth out = (DataBlock.FixedWidth) d.decompress(b, 5);
    for (int i = 0; i < 5; i++) {
      assertEquals(3, LittleEndian.getShort(out.data(), 2 * i));
    }
    // a huge count is refused before anything is allocated
    corrupt(() -> d.decompress(b, 1L << 40));
    // two runs of 2^32 - 1 never wrap the position
    byte[] two = new byte[8 + 4 + 8];
    LittleEndian.putLong(two, 0, 4);
    LittleEndian.putInt(two, 12, 0xFFFFFFFF);
    LittleEndian.putInt(two, 16, 0xFFFFFFFF);
    assertEquals(1000, new RleCodec.BlockDecompressor(16, 32).decompress(two, 1000).numValues());
  }

  @Test
  void rleRunsThatDoNotCoverTheValues() {
    byte[] b = new byte[8 + 2 + 1];
    LittleEndian.putLong(b, 0, 2);
    b[10] = 4;
    corrupt(() -> new RleCodec.BlockDecompressor(16, 8).decompress(b, 5));
    corrupt(() -> new RleCodec.BlockDecompressor(16, 8).decompress(Arrays.copyOf(b, 7), 1));
    byte[] lie = b.clone();
    LittleEndian.putLong(lie, 0, Long.MAX_VALUE);
    corrupt(() -> new RleCodec.BlockDecompressor(16, 8).decompress(lie, 1));
    // mini-block form: values and lengths that disagree
    corrupt(() -> new RleCodec.Decompressor(32).decompress(MiniBlockBuffers.of(new byte[8], new byte[1]), 1, null));
    corrupt(() -> new RleCodec.Decompressor(32).decompress(MiniBlockBuffers.of(new byte[4]), 1, null));
  }

  /** Out-of-line packing: value counts whose output would overflow an int are CORRUPT, not negative sizes. */
  @Test
  void outOfLineCountsThatOverflow() {
    OutOfLineBitpackingCodec.Decompressor d = new OutOfLineBitpackingCodec.Decompressor(64, 3);
    corrupt(() -> d.decompress(new byte[24], Integer.MAX_VALUE / 4));
    corrupt(() -> d.decompress(new byte[24], -1));
    corrupt(() -> d.decompress(new byte[23], 1024));
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void inlineWidthsAndSizes(int bits) {
    InlineBitpackingCodec.Decompressor d = new InlineBitpackingCodec.Decompressor(bits);
    byte[] wide = new byte[bits / 8 + 128 * bits];
    LittleEndian.putUnsigned(wide, 0, bits / 8, bits + 1);
    corrupt(() -> d.decompress(MiniBlockBuffers.of(wide), 1024, null));
    corrupt(() -> d.decompress(MiniBlockBuffers.of(new byte[bits / 8 - 1 + 1 / 8]), 1, null));
    corrupt(() -> d.decompress(MiniBlockBuffers.of(wide), 1025, null));
    corrupt(() -> d.decompress(new byte[3], 2000));
  }

  /** Real chunks of every codec, damaged at random (seeded) and truncated at every length. */
  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void damagedRealChunks(int bits) {
    Random rnd = new Random(bits);
    int n = 3000;
    byte[] raw = new byte[n * bits / 8];
    for (int i = 0; i < n; i++) {
      long v = i % 97 < 60 ? i / 40 : rnd.nextInt(1 << Math.min(bits - 1, 20));
      LittleEndian.putUnsigned(raw, i * bits / 8, bits / 8, v);
    }
    DataBlock.FixedWidth block = new DataBlock.FixedWidth(raw, bits, n);
    MiniBlockCompressed packed = new InlineBitpackingCodec.Compressor().compress(block);
    MiniBlockCompressed rle = new RleCodec.Compressor().compress(block);
    sweepChunks(packed, new InlineBitpackingCodec.Decompressor(bits), rnd, "inline");
    sweepChunks(rle, new RleCodec.Decompressor(bits), rnd, "rle");
    int width = 64 - Long.numberOfLeadingZeros(orOf(raw, bits));
    byte[] ool = new OutOfLineBitpackingCodec.Compressor(width).compress(block).data();
    byte[] blockRle = new RleCodec.Block().compress(block).data();
    OutOfLineBitpackingCodec.Decompressor oolDec = new OutOfLineBitpackingCodec.Decompressor(bits, width);
    RleCodec.BlockDecompressor rleDec = new RleCodec.BlockDecompressor(bits, 8);
    assertArrayEquals(raw, ((DataBlock.FixedWidth) oolDec.decompress(ool, n)).data());
    assertArrayEquals(raw, ((DataBlock.FixedWidth) rleDec.decompress(blockRle, n)).data());
    for (int len = 0; len < ool.length; len += Math.max(1, ool.length / 50)) {
      byte[] cut = Arrays.copyOf(ool, len);
      corrupt(() -> oolDec.decompress(cut, n));
    }
    for (int k = 0; k < 300; k++) {
      byte[] bad = blockRle.clone();
      bad[rnd.nextInt(bad.length)] ^= (byte) (1 + rnd.nextInt(255));
      decodesOrCorrupt(() -> rleDec.decompress(bad, n), "block rle flip " + k);
      byte[] cut = Arrays.copyOf(blockRle, rnd.nextInt(blockRle.length));
      decodesOrCorrupt(() -> rleDec.decompress(cut, n), "block rle cut " + k);
    }
  }

  private static long orOf(byte[] raw, int bits) {
    long or = 0;
    for (int i = 0; i < raw.length; i += bits / 8) {
      or |= LittleEndian.getUnsigned(raw, i, bits / 8);
    }
    return or;
  }

  private static void sweepChunks(MiniBlockCompressed c, io.lancecodec.spi.MiniBlockDecompressor d, Random rnd, String what) {
    int[] pos = new int[c.buffers().size()];
    long item = 0;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      int n = (int) (k == c.chunks().size() - 1 ? c.numValues() - item : 1L << ch.logNumValues());
      byte[][] bufs = new byte[pos.length][];
      for (int b = 0; b < pos.length; b++) {
        bufs[b] = Arrays.copyOfRange(c.buffers().get(b), pos[b], pos[b] + ch.bufferSizes()[b]);
        pos[b] += ch.bufferSizes()[b];
      }
      assertEquals(n, d.decompress(MiniBlockBuffers.of(bufs), n, null).numValues());
      for (int t = 0; t < 40; t++) {
        byte[][] bad = new byte[bufs.length][];
        for (int b = 0; b < bufs.length; b++) {
          bad[b] = bufs[b].clone();
        }
        int b = rnd.nextInt(bad.length);
        if (t % 2 == 0 && bad[b].length > 0) {
          bad[b][rnd.nextInt(bad[b].length)] ^= (byte) (1 + rnd.nextInt(255));
        } else {
          bad[b] = Arrays.copyOf(bad[b], bad[b].length == 0 ? 0 : rnd.nextInt(bad[b].length));
        }
        int count = t % 5 == 0 ? n + 1 + rnd.nextInt(5000) : n;
        decodesOrCorrupt(() -> d.decompress(MiniBlockBuffers.of(bad), count, null), what + " chunk " + k + " damage " + t);
      }
      item += n;
    }
  }
}
