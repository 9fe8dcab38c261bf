package io.lancecodec.layout.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Dictionary encoding of pages whose indices outgrow their first allocation: long runs of nulls
 * before, between and after the values, so a valid value sits far past the indices written so
 * far; each page is resolved back through {@link DictionaryLookup} and compared slot by slot.
 */
class DictionaryEncoderTest {
  @ParameterizedTest(name = "{0} values, nulls first {1}, last {2}, variable {3}")
  @CsvSource({
    "50000, 0, 0, false", "50000, 20000, 0, false", "50000, 0, 30000, false", "50000, 45000, 4000, false",
    "50000, 0, 0, true", "50000, 20000, 0, true", "50000, 0, 30000, true", "50000, 45000, 4000, true",
    "3000, 0, 0, true", "9000, 4095, 1, false"
  })
  void indicesGrowPastLongNullRuns(int n, int leadingNulls, int trailingNulls, boolean variable) {
    Random rnd = new Random(n * 31L + leadingNulls * 7L + trailingNulls + (variable ? 1 : 0));
    short[] def = new short[n];
    long[] picks = new long[n];
    for (int i = 0; i < n; i++) {
      boolean isNull = i < leadingNulls || i >= n - trailingNulls || rnd.nextInt(10) == 0;
      def[i] = (short) (isNull ? 1 : 0);
      picks[i] = rnd.nextInt(37) * 1_000_003L;
    }
    DataBlock values;
    if (variable) {
      byte[] offs = new byte[(n + 1) * 4];
      java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
      for (int i = 0; i < n; i++) {
        if (def[i] == 0) {
          data.writeBytes(("item-" + picks[i]).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        LittleEndian.putInt(offs, 4 * (i + 1), data.size());
      }
      values = new DataBlock.VariableWidth(offs, 32, data.toByteArray(), n);
    } else {
      byte[] data = new byte[16 * n];
      for (int i = 0; i < n; i++) {
        LittleEndian.putLong(data, 16 * i, def[i] == 0 ? picks[i] : 0);
        LittleEndian.putLong(data, 16 * i + 8, def[i] == 0 ? ~picks[i] : 0);
      }
      values = new DataBlock.FixedWidth(data, 128, n);
    }
    DictionaryEncoder.Result r = DictionaryEncoder.tryEncode(values, def, FieldOptions.DEFAULT, FileVersion.V2_1);
    assertNotNull(r, "37 distinct values in " + n + " slots make a dictionary");
    assertEquals(n, r.indices().numValues());
    assertEquals((long) n * r.indices().bitsPerValue() / 8, r.indices().data().length);
    DataBlock back = new DictionaryLookup(r.items(), r.numItems()).resolve(r.indices(), def);
    for (int i = 0; i < n; i++) {
      if (def[i] == 0) {
        assertArrayEquals(slot(values, i), slot(back, i), "slot " + i);
      }
    }
  }

  /**
   * 2.1/2.2 keep the reference's u32 indices with 0 in null slots; 2.3 stores them 8 or 16 bits
   * wide as the item count allows (u32 when the field asks for general compression) and repeats
   * the previous index in null slots (the first valid one before any), which resolves to the same
   * values.
   */
  @ParameterizedTest(name = "{0} distinct")
  @CsvSource({"37, 8", "256, 8", "257, 16", "3000, 16"})
  void indicesIn23AreNarrowAndRepeatAcrossNulls(int distinct, int bits) {
    int n = 40_000;
    Random rnd = new Random(distinct);
    short[] def = new short[n];
    byte[] data = new byte[8 * n];
    for (int i = 0; i < n; i++) {
      def[i] = (short) (i < 100 || rnd.nextInt(3) == 0 ? 1 : 0);
      LittleEndian.putLong(data, 8 * i, def[i] == 0 ? (i < 100 + 2 * distinct ? i % distinct : rnd.nextInt(distinct)) * 7919L : 0);
    }
    DataBlock.FixedWidth values = new DataBlock.FixedWidth(data, 64, n);
    DictionaryEncoder.Result r22 = DictionaryEncoder.tryEncode(values, def, FieldOptions.DEFAULT, FileVersion.V2_2);
    DictionaryEncoder.Result r23 = DictionaryEncoder.tryEncode(values, def, FieldOptions.DEFAULT, FileVersion.V2_3);
    assertEquals(distinct, r22.numItems());
    assertEquals(distinct, r23.numItems());
    assertEquals(32, r22.indices().bitsPerValue());
    assertEquals(bits, r23.indices().bitsPerValue());
    int firstValid = 0;
    while (def[firstValid] != 0) {
      firstValid++;
    }
    long last = LittleEndian.getUnsigned(r22.indices().data(), 4 * firstValid, 4);
    for (int i = 0; i < n; i++) {
      long i22 = LittleEndian.getUnsigned(r22.indices().data(), 4 * i, 4);
      long i23 = LittleEndian.getUnsigned(r23.indices().data(), i * bits / 8, bits / 8);
      if (def[i] == 0) {
        assertEquals(i22, i23, "slot " + i);
        last = i23;
      } else {
        assertEquals(0, i22, "the reference's null index, slot " + i);
        assertEquals(last, i23, "null slot " + i);
      }
    }
    // under a general-compression ask the indices stay u32 (byte-stream split feeds zstd zero bytes), nulls still filled
    DictionaryEncoder.Result z23 = DictionaryEncoder.tryEncode(values, def, FieldOptions.builder().compression("zstd").build(), FileVersion.V2_3);
    assertEquals(32, z23.indices().bitsPerValue());
    for (int i = 0; i < n; i++) {
      assertEquals(LittleEndian.getUnsigned(r23.indices().data(), i * bits / 8, bits / 8), LittleEndian.getUnsigned(z23.indices().data(), 4 * i, 4), "slot " + i);
    }
    DataBlock back = new DictionaryLookup(r23.items(), r23.numItems()).resolve(r23.indices(), def);
    for (int i = 0; i < n; i++) {
      if (def[i] == 0) {
        assertArrayEquals(slot(values, i), slot(back, i), "slot " + i);
      }
    }
  }

  @ParameterizedTest(name = "variable {0}")
  @CsvSource({"false", "true"})
  void distinctValuesAreRefused(boolean variable) {
    int n = 20000;
    DataBlock values;
    if (variable) {
      byte[] offs = new byte[(n + 1) * 4];
      java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
      for (int i = 0; i < n; i++) {
        data.writeBytes(("v" + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        LittleEndian.putInt(offs, 4 * (i + 1), data.size());
      }
      values = new DataBlock.VariableWidth(offs, 32, data.toByteArray(), n);
    } else {
      byte[] data = new byte[16 * n];
      for (int i = 0; i < n; i++) {
        LittleEndian.putLong(data, 16 * i, i);
      }
      values = new DataBlock.FixedWidth(data, 128, n);
    }
    assertNull(DictionaryEncoder.tryEncode(values, null, FieldOptions.DEFAULT, FileVersion.V2_1));
  }

  /**
   * Extended dictionaries of 16-, 32- and 64-bit values (word keys): every slot resolves back,
   * items get ids in order of first appearance, and nulls leave index 0.
   */
  @ParameterizedTest(name = "{0}-bit, {1} items")
  @CsvSource({"16, 300", "32, 300", "64, 300", "32, 5000", "64, 5000", "32, 140000", "32, 300"})
  void wordValuesGetFirstSeenIds(int bits, int items) {
    // 5,000 items rehash the table several times; 140,000 outgrow the tables a thread keeps; the
    // trials run one after another on one thread, each over what the last left in those tables
    int n = Math.max(20_000, 8 * items);
    int w = bits / 8;
    Random rnd = new Random(bits + items);
    FieldOptions options = FieldOptions.builder().dictMaxCardinality(Math.max(100_000, 2 * items)).build();
    long[] distinct = new long[items];
    for (int k = 0; k < distinct.length; k++) {
      distinct[k] = (rnd.nextLong() >>> (64 - bits)) | 1L << (bits - 1);
    }
    short[] def = new short[n];
    byte[] data = new byte[n * w];
    for (int i = 0; i < n; i++) {
      def[i] = (short) (rnd.nextInt(20) == 0 ? 1 : 0);
      LittleEndian.putUnsigned(data, i * w, w, def[i] == 0 ? distinct[rnd.nextInt(distinct.length)] : 0);
    }
    DataBlock.FixedWidth values = new DataBlock.FixedWidth(data, bits, n);
    DictionaryEncoder.Result r = DictionaryEncoder.tryEncode(values, def, options, FileVersion.V2_1);
    assertNotNull(r, items + " distinct values in " + n + " slots make a dictionary");
    DataBlock back = new DictionaryLookup(r.items(), r.numItems()).resolve(r.indices(), def);
    int nextId = 0;
    for (int i = 0; i < n; i++) {
      int id = LittleEndian.getInt(r.indices().data(), 4 * i);
      if (def[i] != 0) {
        assertEquals(0, id, "null slot " + i);
        continue;
      }
      assertArrayEquals(slot(values, i), slot(back, i), "slot " + i);
      if (id == nextId) {
        nextId++;
      } else {
        assertTrue(id < nextId, "slot " + i + " has id " + id + " before item " + nextId + " was seen");
      }
    }
    assertEquals(r.numItems(), nextId);
  }

  private static byte[] slot(DataBlock b, int i) {
    if (b instanceof DataBlock.VariableWidth vw) {
      return Arrays.copyOfRange(vw.data(), (int) vw.offset(i), (int) vw.offset(i + 1));
    }
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) b;
    int w = fw.bitsPerValue() / 8;
    return Arrays.copyOfRange(fw.data(), i * w, i * w + w);
  }
}
