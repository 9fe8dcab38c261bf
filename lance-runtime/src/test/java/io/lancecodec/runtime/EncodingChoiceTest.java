package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which layout and compression the writer picks for characteristic data, and that options steer it. */
class EncodingChoiceTest {
  @TempDir Path dir;
  static final int N = 10_000;

  private String encode(ArrowType type, Map<String, String> meta, WriterOptions options, IntFunction<Object> value) throws Exception {
    Path file = dir.resolve("c" + System.nanoTime() + ".lance");
    Schema schema = new Schema(List.of(new Field("c", new FieldType(true, type, null, meta), null)));
    try (BufferAllocator al = new RootAllocator(); VectorSchemaRoot root = VectorSchemaRoot.create(schema, al)) {
      FieldVector v = root.getVector(0);
      v.setInitialCapacity(N);
      v.allocateNew();
      for (int i = 0; i < N; i++) {
        Object x = value.apply(i);
        if (x == null) {
          v.setNull(i);
        } else if (v instanceof IntVector iv) {
          iv.setSafe(i, (Integer) x);
        } else if (v instanceof BigIntVector bv) {
          bv.setSafe(i, (Long) x);
        } else {
          ((VarCharVector) v).setSafe(i, ((String) x).getBytes(StandardCharsets.UTF_8));
        }
      }
      v.setValueCount(N);
      root.setRowCount(N);
      try (LanceFileWriter w = LanceFileWriter.open(file, schema, options)) {
        w.write(root);
      }
      try (LanceFileReader r = LanceFileReader.open(file); VectorSchemaRoot back = r.readRange(0, N, null, al)) {
        for (int i = 0; i < N; i++) {
          assertEquals(v.getObject(i), back.getVector(0).getObject(i), "row " + i);
        }
        return r.columnSummaries().get(0).pages().get(0).toString();
      }
    }
  }

  private static final ArrowType I32 = new ArrowType.Int(32, true);
  private static final ArrowType I64 = new ArrowType.Int(64, true);
  private static final WriterOptions V21 = WriterOptions.defaults();
  private static final WriterOptions V22 = WriterOptions.defaults().withVersion(FileVersion.V2_2);

  private static final WriterOptions V23 = WriterOptions.defaults().withVersion(FileVersion.V2_3);

  /**
   * 2.3 dense pages choose what 2.2 chooses, under 2.3 messages: bit-packing and RLE of values,
   * levels bit-packed or run-length encoded, a string dictionary's items as a Variable block,
   * Flat full-zip rows; options steer it as in 2.2.
   */
  @Test
  void choicesIn23() throws Exception {
    assertTrue(encode(I32, null, V23, i -> i / 3).endsWith("dense, chunked values: bitpack(32)"));
    String runs = encode(I32, null, V23, i -> (i / 500) * 1_000_003);
    // 2.3 dictionary indices are u8/u16 and repeat across nulls: the runs of a small dictionary beat the runs of the values
    assertTrue(runs.endsWith("chunked values: rle(flat(8), flat(8)), dictionary of 20: range(32, start 0, step 1000003)"), runs);
    assertTrue(encode(I32, Map.of("lance-encoding:rle-threshold", "0"), V23, i -> i / 500).endsWith("chunked values: bitpack(32)"));
    assertTrue(encode(I32, Map.of("lance-encoding:compression", "none"), V23, i -> i / 3).endsWith("chunked values: flat(32)"));
    String nulls = encode(I32, null, V23, i -> i % 7 == 0 ? null : i / 3);
    assertTrue(nulls.endsWith("chunked values: bitpack(32), def: bitpack-ool(16, flat(1))"), nulls);
    String runsOfNulls = encode(I32, null, V23, i -> (i / 1000) % 2 == 0 ? null : i);
    assertTrue(runsOfNulls.endsWith("def: rle(flat(16), flat(8))"), runsOfNulls);
    String words = encode(ArrowType.Utf8.INSTANCE, null, V23, i -> new String[] {"rain", "sun", "fog"}[i % 3]);
    assertTrue(words.endsWith("chunked values: bitpack(8), dictionary of 3: variable(flat(32))"), words);
    String wide = encode(ArrowType.Utf8.INSTANCE, null, V23, i -> "x".repeat(300) + i);
    assertTrue(wide.contains("zipped values: variable(flat(32))"), wide);
    String forced = encode(I32, Map.of("lance-encoding:structural-encoding", "fullzip"), V23, i -> i);
    assertTrue(forced.contains("zipped values: flat(32)"), forced);
    // 1% valid delays of a few distinct values: every slot chunked, one u8 dictionary run per value,
    // beats the valid values zipped; distinct valid values stay zipped
    String delays = encode(new ArrowType.Int(64, true), null, V23, i -> i % 100 == 7 ? (Object) (long) (i % 7 - 3) : null);
    assertTrue(delays.contains("sparse [validity(100 valid") && delays.contains("chunked values: rle(flat(8), flat(8)), dictionary of 7: "), delays);
    String ids = encode(new ArrowType.Int(64, true), null, V23, i -> i % 100 == 7 ? (Object) (i * 0x9E3779B97F4A7C15L) : null);
    assertTrue(ids.contains("sparse [validity(100 valid") && ids.endsWith("zipped values: flat(64)"), ids);
  }

  @Test
  void sortedSmallIntegersAreBitPacked() throws Exception {
    assertTrue(encode(I32, null, V21, i -> i / 3).contains("values: bitpack(32)"));
  }

  @Test
  void longRunsUseRle() throws Exception {
    assertTrue(encode(I32, null, V21, i -> (i / 500) * 1_000_003).contains("values: rle(flat(32), flat(8))"));
  }

  /**
   * Full-width random values each repeated with probability 0.3: 0.7 runs per value, over the
   * spec's 0.5 threshold, yet RLE (5 bytes a run) beats plain (4 bytes a value), and the
   * reference 7.0.0 picks it on such data too (hourly pressure: 0.77 runs per value).
   */
  @Test
  void rleIsChosenBySizeUnlessAThresholdIsSet() throws Exception {
    Random rnd = new Random(3);
    int[] vals = new int[N];
    for (int i = 0; i < N; i++) {
      vals[i] = i > 0 && rnd.nextInt(10) < 3 ? vals[i - 1] : rnd.nextInt() | 0x80000000;
    }
    assertTrue(encode(I32, null, V21, i -> vals[i]).contains("values: rle(flat(32), flat(8))"));
    assertTrue(encode(I32, null, V22, i -> vals[i]).contains("values: rle(flat(32), flat(8))"));
    Map<String, String> half = Map.of("lance-encoding:rle-threshold", "0.5");
    assertTrue(encode(I32, half, V21, i -> vals[i]).contains("values: flat(32)"), "an explicit threshold gates RLE");
    Map<String, String> high = Map.of("lance-encoding:rle-threshold", "0.9");
    assertTrue(encode(I32, high, V21, i -> vals[i]).contains("values: rle("));
  }

  /** RLE chunks hold up to 4096 values (the reference 7.0.0 writes 733 chunks for 3 M sorted timestamps). */
  @Test
  void rleChunksHoldUpTo4096Values() throws Exception {
    String d = encode(I64, null, V21, i -> (long) (i / 100) * 1_000_000_007L);
    assertTrue(d.contains("3 chunks, values: rle(flat(64), flat(8))"), d);
  }

  /** Packing widths are per 1024-value chunk: one full-width value does not unpack the others. */
  @Test
  void oneWideValueLeavesTheOtherChunksPacked() throws Exception {
    Random rnd = new Random(4);
    String d = encode(I32, null, V21, i -> i == 5 ? -1 : rnd.nextInt(1 << 20));
    assertTrue(d.contains("values: bitpack(32)") && !d.contains("dictionary"), d);
    String wide = encode(I32, null, V21, i -> i % 700 == 5 ? -1 : rnd.nextInt(1 << 20));
    assertTrue(wide.contains("values: flat(32)"), "every chunk full width: " + wide);
  }

  @Test
  void constantPages() throws Exception {
    // 2.1 has no constant layout with a value; a one-item dictionary with 0-bit indices beats RLE.
    String c21 = encode(I32, null, V21, i -> 42);
    assertTrue(c21.contains("values: bitpack(32), dictionary of 1: flat(32)"), c21);
    assertEquals("constant", encode(I32, null, V22, i -> 42).replaceAll(".*: ", ""));
    assertTrue(encode(I32, null, V22, i -> i % 5 == 0 ? null : 42).endsWith("constant"));
    assertTrue(encode(I32, null, V21, i -> null).endsWith("constant (all null)"));
  }

  @Test
  void randomValuesStayFlat() throws Exception {
    Random rnd = new Random(1);
    assertTrue(encode(I64, null, V21, i -> rnd.nextLong()).contains("values: flat(64)"));
  }

  @Test
  void lowCardinalityStringsUseADictionary() throws Exception {
    String[] words = {"rain", "sun", "fog", "drizzle", "snow"};
    String d = encode(ArrowType.Utf8.INSTANCE, null, V21, i -> words[i % 5]);
    assertTrue(d.contains("dictionary of 5: variable(flat(32))") && d.contains("values: bitpack(32)"), d);
    String hi = encode(ArrowType.Utf8.INSTANCE, null, V21, i -> "value-" + i);
    assertTrue(hi.contains("values: variable(flat(32))") && !hi.contains("dictionary"), hi);
    Random rnd = new Random(2);
    long[] pool = new long[7];
    for (int k = 0; k < pool.length; k++) {
      pool[k] = rnd.nextLong();
    }
    assertTrue(encode(I64, null, V22, i -> pool[(i * 7 + i / 3) % 7]).contains("dictionary of 7"), "64-bit dictionary in 2.2");
    // The reference writes 64-bit dictionaries from 2.2 on only, but reads them in 2.1 too; ours
    // takes one there when the page shrinks by a fifth or more.
    assertTrue(encode(I64, null, V21, i -> pool[(i * 7 + i / 3) % 7]).contains("dictionary of 7"), "64-bit dictionary in 2.1");
  }

  /**
   * Beyond the reference: small negative integers (which it stores plain, having no zig-zag) and
   * other low-cardinality 16/32-bit values get a dictionary when the page shrinks by at least a
   * fifth; where packing alone does about as well, they do not.
   */
  @Test
  void extendedDictionariesOnlyWhereTheyPay() throws Exception {
    Random rnd = new Random(7);
    int[] delay = new int[N];
    for (int i = 0; i < N; i++) {
      delay[i] = rnd.nextInt(10) == 0 ? -rnd.nextInt(90) : (int) (-Math.log(1 - rnd.nextDouble()) * 25);
    }
    for (WriterOptions v : List.of(V21, V22)) {
      String d = encode(I32, null, v, i -> delay[i]);
      assertTrue(d.contains("values: bitpack(32), dictionary of "), d);
    }
    int[] wide = new int[N];
    for (int i = 0; i < N; i++) {
      wide[i] = rnd.nextInt(4096);
    }
    String packed = encode(I32, null, V21, i -> wide[i]);
    assertTrue(packed.contains("values: bitpack(32)") && !packed.contains("dictionary"), packed);
  }

  @Test
  void wideValuesGoFullZip() throws Exception {
    assertTrue(encode(ArrowType.Utf8.INSTANCE, null, V21, i -> "x".repeat(300) + i).contains("full-zip"));
  }

  @Test
  void optionsSteerTheChoice() throws Exception {
    Map<String, String> noRle = Map.of("lance-encoding:rle-threshold", "0");
    assertTrue(encode(I32, noRle, V21, i -> (i / 500)).contains("bitpack(32)"));
    Map<String, String> none = Map.of("lance-encoding:compression", "none");
    assertTrue(encode(I32, none, V21, i -> i / 3).contains("values: flat(32)"));
    Map<String, String> fullZip = Map.of("lance-encoding:structural-encoding", "fullzip");
    assertTrue(encode(I32, fullZip, V21, i -> i).contains("full-zip"));
    WriterOptions allFullZip = V21.withFieldDefault("lance-encoding:structural-encoding", "fullzip");
    assertTrue(encode(I32, null, allFullZip, i -> i).contains("full-zip"));
    assertTrue(encode(I32, Map.of("lance-encoding:structural-encoding", "miniblock"), allFullZip, i -> i).contains("mini-block"),
        "field metadata wins over writer defaults");
  }

  @Test
  void sparseStructureNeedsVersion23() {
    Map<String, String> sparse = Map.of("lance-encoding:structural-encoding", "sparse");
    // every page shape is refused, constant and all-null pages included, not only chunked ones
    for (IntFunction<Object> values : List.<IntFunction<Object>>of(i -> i, i -> 7, i -> null)) {
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> encode(I32, sparse, V22, values));
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
      assertTrue(e.getMessage().contains("sparse needs file version 2.3"), e.getMessage());
    }
  }

  @Test
  void badOptionValuesNameTheKey() {
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> encode(I32, Map.of("lance-encoding:rle-threshold", "lots"), V21, i -> i));
    assertTrue(e.getMessage().contains("lance-encoding:rle-threshold") && e.getMessage().contains("lots"), e.getMessage());
    assertThrows(LanceCodecException.class, () -> V21.withFieldDefault("compression", "zstd"));
    assertThrows(LanceCodecException.class, () -> V21.withFieldDefault("lance-encoding:dict-divisor", "1"));
  }
}
