package io.lancecodec.layout.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Dictionary indices resolved against variable- and fixed-width dictionaries, and bad dictionaries and indices refused. */
class DictionaryLookupTest {
  /** A variable-width block of {@code items} with offsets of {@code offsetBits}. */
  static DataBlock.VariableWidth strings(byte[][] items, int offsetBits) {
    int w = offsetBits / 8;
    byte[] offs = new byte[(items.length + 1) * w];
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    for (int i = 0; i < items.length; i++) {
      data.writeBytes(items[i]);
      LittleEndian.putUnsigned(offs, (i + 1) * w, w, data.size());
    }
    return new DataBlock.VariableWidth(offs, offsetBits, data.toByteArray(), items.length);
  }

  static byte[] value(DataBlock.VariableWidth b, int i) {
    return Arrays.copyOfRange(b.data(), (int) b.offset(i), (int) b.offset(i + 1));
  }

  @ParameterizedTest(name = "offsets {0} bits, indices {1} bits")
  @CsvSource({"32, 32", "32, 8", "32, 16", "64, 64", "64, 32"})
  void resolvesVariableWidthItemsWithNulls(int offsetBits, int indexBits) {
    Random rnd = new Random(offsetBits * 100L + indexBits);
    byte[][] items = new byte[200][];
    for (int i = 0; i < items.length; i++) {
      items[i] = new byte[rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(60)];
      rnd.nextBytes(items[i]);
    }
    DictionaryLookup d = new DictionaryLookup(strings(items, offsetBits), items.length);
    int n = 1000;
    int iw = indexBits / 8;
    byte[] idx = new byte[n * iw];
    short[] def = new short[n];
    int[] picked = new int[n];
    for (int i = 0; i < n; i++) {
      picked[i] = rnd.nextInt(indexBits == 8 ? Math.min(items.length, 256) : items.length);
      // a null slot may hold any index, even one past the dictionary
      def[i] = (short) (rnd.nextInt(5) == 0 ? 1 : 0);
      LittleEndian.putUnsigned(idx, i * iw, iw, def[i] != 0 ? (1L << (indexBits - 1)) - 1 : picked[i]);
    }
    DataBlock.VariableWidth out = (DataBlock.VariableWidth) d.resolve(new DataBlock.FixedWidth(idx, indexBits, n), def);
    assertEquals(n, out.numValues());
    assertEquals(offsetBits, out.bitsPerOffset());
    for (int i = 0; i < n; i++) {
      assertArrayEquals(def[i] != 0 ? new byte[0] : items[picked[i]], value(out, i), "slot " + i);
    }
  }

  @Test
  void resolvesFixedWidthItems() {
    byte[] dict = {1, 0, 2, 0, 3, 0};
    DictionaryLookup d = new DictionaryLookup(new DataBlock.FixedWidth(dict, 16, 3), 3);
    byte[] idx = new byte[16];
    int[] picks = {2, 0, 1, 2};
    for (int i = 0; i < 4; i++) {
      LittleEndian.putInt(idx, i * 4, picks[i]);
    }
    DataBlock.FixedWidth out = (DataBlock.FixedWidth) d.resolve(new DataBlock.FixedWidth(idx, 32, 4), null);
    assertArrayEquals(new byte[] {3, 0, 1, 0, 2, 0, 3, 0}, out.data());
  }

  @Test
  void refusesDictionariesWhoseItemsGoBackwardsOrPastTheirData() {
    byte[] offs = new byte[16];
    LittleEndian.putInt(offs, 4, 5);
    LittleEndian.putInt(offs, 8, 3); // before the previous item's start
    LittleEndian.putInt(offs, 12, 6);
    DataBlock.VariableWidth backwards = new DataBlock.VariableWidth(offs, 32, new byte[6], 3);
    assertEquals(LanceCodecException.Kind.CORRUPT,
        assertThrows(LanceCodecException.class, () -> new DictionaryLookup(backwards, 3)).kind());
    byte[] past = new byte[12];
    LittleEndian.putInt(past, 4, 2);
    LittleEndian.putInt(past, 8, 99);
    DataBlock.VariableWidth beyond = new DataBlock.VariableWidth(past, 32, new byte[4], 2);
    assertEquals(LanceCodecException.Kind.CORRUPT,
        assertThrows(LanceCodecException.class, () -> new DictionaryLookup(beyond, 2)).kind());
  }

  @Test
  void refusesIndicesPastTheDictionary() {
    DictionaryLookup d = new DictionaryLookup(strings(new byte[][] {{1}, {2}}, 32), 2);
    byte[] idx = new byte[8];
    LittleEndian.putInt(idx, 4, 2);
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> d.resolve(new DataBlock.FixedWidth(idx, 32, 2), null));
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
  }

  /**
   * Whole chunks appended straight from the dictionary hold the items their indices name (empty
   * for nulls) and their levels, and so do resolved chunks appended as blocks: items of 0 to 100
   * bytes (word copies and array copies, lengths around the 8-byte words), nulls, a null chunk
   * first, and an expected count below, at and far above the real one (the projected growth).
   */
  @ParameterizedTest(name = "offsets {0} bits, indices {1} bits, expected x{2}")
  @CsvSource({"32, 32, 1", "32, 8, 0", "32, 16, 4", "64, 64, 1", "64, 32, 100", "32, 32, 100"})
  void appendsTheNamedItemsOfWholeChunks(int offsetBits, int indexBits, int expectedFactor) {
    Random rnd = new Random(offsetBits * 31L + indexBits * 7L + expectedFactor);
    byte[][] items = new byte[250][];
    for (int i = 0; i < items.length; i++) {
      items[i] = new byte[i < 40 ? i : rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(101)];
      rnd.nextBytes(items[i]);
    }
    DictionaryLookup d = new DictionaryLookup(strings(items, offsetBits), items.length);
    int chunks = 12;
    int[] sizes = new int[chunks];
    int total = 0;
    for (int c = 0; c < chunks; c++) {
      sizes[c] = 1 + rnd.nextInt(700);
      total += sizes[c];
    }
    BlockAppender direct = new BlockAppender((long) total * expectedFactor);
    BlockAppender viaBlocks = new BlockAppender(total);
    direct.append(new DataBlock.AllNull(3), 0, 3, new short[] {1, 1, 1});
    viaBlocks.append(new DataBlock.AllNull(3), 0, 3, new short[] {1, 1, 1});
    List<byte[]> expected = new ArrayList<>(List.of(new byte[0], new byte[0], new byte[0]));
    short[] levels = new short[total + 3];
    Arrays.fill(levels, 0, 3, (short) 1);
    int iw = indexBits / 8;
    for (int c = 0; c < chunks; c++) {
      int n = sizes[c];
      byte[] idx = new byte[n * iw];
      short[] def = c % 3 == 1 ? null : new short[n];
      for (int i = 0; i < n; i++) {
        boolean isNull = def != null && rnd.nextInt(6) == 0;
        if (isNull) {
          def[i] = 1;
        }
        long v = isNull ? (1L << (indexBits - 1)) - 1 : rnd.nextInt(indexBits == 8 ? 250 : items.length);
        LittleEndian.putUnsigned(idx, i * iw, iw, v);
        levels[expected.size()] = (short) (isNull ? 1 : 0);
        expected.add(isNull ? new byte[0] : items[(int) v]);
      }
      DataBlock.FixedWidth indices = new DataBlock.FixedWidth(idx, indexBits, n);
      d.resolveInto(indices, def, direct);
      viaBlocks.append(d.resolve(indices, def), 0, n, def);
    }
    DataBlock.VariableWidth a = (DataBlock.VariableWidth) direct.block();
    DataBlock.VariableWidth b = (DataBlock.VariableWidth) viaBlocks.block();
    assertEquals(total + 3, a.numValues());
    assertEquals(offsetBits, a.bitsPerOffset());
    for (int i = 0; i < total + 3; i++) {
      assertArrayEquals(expected.get(i), value(a, i), "appended value " + i);
      assertArrayEquals(expected.get(i), value(b, i), "resolved value " + i);
    }
    assertArrayEquals(levels, direct.levels());
    assertArrayEquals(levels, viaBlocks.levels());
  }

  @Test
  void appendingRefusesIndicesPastTheDictionary() {
    DictionaryLookup d = new DictionaryLookup(strings(new byte[][] {{1}, {2}}, 32), 2);
    byte[] idx = new byte[8];
    LittleEndian.putInt(idx, 4, 7);
    BlockAppender out = new BlockAppender(2);
    LanceCodecException e =
        assertThrows(LanceCodecException.class, () -> d.resolveInto(new DataBlock.FixedWidth(idx, 32, 2), null, out));
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
  }

  @ParameterizedTest(name = "items {0} bits, indices {1} bits")
  @CsvSource({"64, 8", "64, 32", "32, 16", "16, 8", "8, 64"})
  void resolvesOnlyTheRowsAReadTakes(int itemBits, int indexBits) {
    Random rnd = new Random(itemBits * 100L + indexBits);
    int w = itemBits / 8;
    int size = 100;
    byte[] dict = new byte[size * w];
    rnd.nextBytes(dict);
    DictionaryLookup d = new DictionaryLookup(new DataBlock.FixedWidth(dict, itemBits, size), size);
    int n = 1461;
    int iw = indexBits / 8;
    byte[] idx = new byte[n * iw];
    short[] def = new short[n];
    for (int i = 0; i < n; i++) {
      def[i] = (short) (rnd.nextInt(7) == 0 ? 1 : 0);
      // a null slot's index is never looked up, even one past the dictionary
      LittleEndian.putUnsigned(idx, i * iw, iw, def[i] != 0 ? size + 5 : rnd.nextInt(size));
    }
    DataBlock.FixedWidth indices = new DataBlock.FixedWidth(idx, indexBits, n);
    DataBlock.FixedWidth whole = (DataBlock.FixedWidth) d.resolve(indices, def);
    for (int[] r : new int[][] {{0, 0}, {0, 1}, {700, 701}, {1460, 1461}, {1000, 1461}, {3, 1024}, {0, 1461}}) {
      DataBlock.FixedWidth part = (DataBlock.FixedWidth) d.resolve(indices, def, r[0], r[1]);
      assertEquals(n, part.numValues());
      assertArrayEquals(Arrays.copyOfRange(whole.data(), r[0] * w, r[1] * w), Arrays.copyOfRange(part.data(), r[0] * w, r[1] * w));
      // slots outside the range are left alone (zero)
      for (int b = 0; b < n * w; b++) {
        if (b < r[0] * w || b >= r[1] * w) {
          assertEquals(0, part.data()[b], "byte " + b + " outside [" + r[0] + ", " + r[1] + ")");
        }
      }
    }
    // an index past the dictionary inside the range is refused; outside it, it is not read
    byte[] bad = idx.clone();
    int at = 10;
    def[at] = 0;
    LittleEndian.putUnsigned(bad, at * iw, iw, size);
    DataBlock.FixedWidth badIndices = new DataBlock.FixedWidth(bad, indexBits, n);
    d.resolve(badIndices, def, at + 1, n);
    assertThrows(LanceCodecException.class, () -> d.resolve(badIndices, def, at, at + 1));
  }
}
