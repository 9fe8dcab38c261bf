package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 2.3 inline bit-packed level blocks read straight into a read's level array: the same levels as
 * decoding the block and converting it, from any offset of the source and into any offset of
 * the destination, for short last groups too; and the same CORRUPT for broken blocks.
 */
class InlineBlock23LevelsTest {
  private static final InlineBlock23.Decompressor D = new InlineBlock23.Decompressor(16);

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 5, 1023, 1024, 1025, 3000})
  void levelsAsTheBlockDecodes(int n) {
    Random r = new Random(n);
    short[] levels = new short[n];
    int max = 1 + r.nextInt(7);
    for (int i = 0; i < n; i++) {
      levels[i] = (short) (r.nextInt(4) == 0 ? r.nextInt(max + 1) : 0);
    }
    byte[] raw = new byte[2 * n];
    for (int i = 0; i < n; i++) {
      LittleEndian.putShort(raw, 2 * i, levels[i]);
    }
    byte[] packed = InlineBlock23.pack(raw, n, 16);
    assertArrayEquals(raw, Arrays.copyOf(((DataBlock.FixedWidth) D.decompress(packed, n)).data(), 2 * n));
    byte[] framed = new byte[packed.length + 7];
    System.arraycopy(packed, 0, framed, 3, packed.length);
    short[] back = new short[n + 5];
    Arrays.fill(back, (short) -1);
    D.decompressLevels(framed, 3, packed.length, n, back, 4);
    assertArrayEquals(levels, Arrays.copyOfRange(back, 4, 4 + n));
    assertEquals(-1, back[3]);
    assertEquals(-1, back[4 + n]);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 1500})
  void brokenBlocksAreCorruptAsWhenDecoded(int n) {
    byte[] packed = InlineBlock23.pack(new byte[2 * n], n, 16);
    short[] dst = new short[n];
    // truncated, a byte too many, a width above 16
    for (byte[] bad : new byte[][] {Arrays.copyOf(packed, packed.length - 1), Arrays.copyOf(packed, packed.length + 1), widthOf(packed, 17)}) {
      LanceCodecException a = assertThrows(LanceCodecException.class, () -> D.decompress(bad, n));
      LanceCodecException b = assertThrows(LanceCodecException.class, () -> D.decompressLevels(bad, 0, bad.length, n, dst, 0));
      assertEquals(LanceCodecException.Kind.CORRUPT, a.kind());
      assertEquals(a.getMessage(), b.getMessage());
    }
    assertEquals(LanceCodecException.Kind.CORRUPT,
        assertThrows(LanceCodecException.class, () -> D.decompressLevels(packed, 1, packed.length, n, dst, 0)).kind());
  }

  private static byte[] widthOf(byte[] packed, int width) {
    byte[] b = packed.clone();
    LittleEndian.putShort(b, 0, (short) width);
    return b;
  }
}
