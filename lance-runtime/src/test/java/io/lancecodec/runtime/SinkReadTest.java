package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Large reads of flat fixed-width and fixed-size-list columns, whose values go straight into the
 * Arrow buffer: pages that hand their values back (mini-block, all-null, rows with item validity)
 * and pages that write them to the sink (plain full-zip rows, with and without null rows) mixed
 * in one read, checked value by value against what was written.
 */
class SinkReadTest extends WithAllocator {
  static final int DIM = 96;

  /** Batches of 700 rows, each its own page, in turn: plain rows, null rows, null items, all-null rows. */
  static final int BATCH = 700;

  static final String[] KINDS = {"plain", "null-rows", "null-items", "all-null", "plain"};

  static Stream<Arguments> versionsAndItems() {
    return Stream.of(FileVersion.V2_1, FileVersion.V2_2).flatMap(v -> Stream.of(Arguments.of(v, true), Arguments.of(v, false)));
  }

  /**
   * Pages with null rows or null items carry item validity (a null row's items are null, as in
   * the reference's files) and hand their rows back; plain pages sink theirs.
   */
  @ParameterizedTest
  @MethodSource("versionsAndItems")
  void vectorsMixedPages(FileVersion version, boolean nullableItems) {
    FieldType itemType = new FieldType(nullableItems, new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), null);
    Field item = new Field("item", itemType, null);
    Field vec = new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(item));
    Schema schema = new Schema(List.of(vec));
    Random rnd = new Random(5);
    List<String> expected = new ArrayList<>();
    Path path = dir.resolve("vectors-" + version + "-" + nullableItems + ".lance");
    // a page budget below one batch's bytes cuts a page at every batch
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version).withPageBytesPerColumn(64 << 10))) {
      for (String kind : KINDS) {
        if (!nullableItems && kind.equals("null-items")) {
          continue;
        }
        try (VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator)) {
          FixedSizeListVector v = (FixedSizeListVector) b.getVector(0);
          Float4Vector items = (Float4Vector) v.getDataVector();
          v.allocateNew();
          items.allocateNew(BATCH * DIM);
          for (int r = 0; r < BATCH; r++) {
            boolean nullRow = kind.equals("all-null") || kind.equals("null-rows") && rnd.nextInt(4) == 0;
            if (nullRow) {
              v.setNull(r);
              continue;
            }
            v.setNotNull(r);
            for (int j = 0; j < DIM; j++) {
              if (kind.equals("null-items") && rnd.nextInt(9) == 0) {
                items.setNull(r * DIM + j);
              } else {
                items.set(r * DIM + j, (float) rnd.nextGaussian());
              }
            }
          }
          items.setValueCount(BATCH * DIM);
          v.setValueCount(BATCH);
          b.setRowCount(BATCH);
          for (int r = 0; r < BATCH; r++) {
            expected.add(String.valueOf(v.getObject(r)));
          }
          w.write(b);
        }
      }
    }
    checkReads(path, expected, rnd);
  }

  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void flatMixedPages(FileVersion version) {
    Field big = new Field("i", FieldType.nullable(new ArrowType.Int(64, true)), null);
    // 300-byte values go to full-zip rows, which sink themselves
    Field wide = new Field("w", FieldType.nullable(new ArrowType.FixedSizeBinary(300)), null);
    Schema schema = new Schema(List.of(big, wide));
    Random rnd = new Random(9);
    List<String> expectedI = new ArrayList<>();
    List<String> expectedW = new ArrayList<>();
    Path path = dir.resolve("flat-" + version + ".lance");
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version).withPageBytesPerColumn(8 << 10))) {
      for (String kind : KINDS) {
        try (VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator)) {
          BigIntVector iv = (BigIntVector) b.getVector(0);
          FixedSizeBinaryVector wv = (FixedSizeBinaryVector) b.getVector(1);
          iv.allocateNew(BATCH * 10);
          wv.allocateNew(BATCH * 10);
          for (int r = 0; r < BATCH * 10; r++) {
            boolean nul = kind.equals("all-null") || !kind.equals("plain") && rnd.nextInt(3) == 0;
            if (nul) {
              iv.setNull(r);
              wv.setNull(r);
            } else {
              iv.set(r, rnd.nextLong() >> rnd.nextInt(64));
              byte[] x = new byte[300];
              rnd.nextBytes(x);
              wv.set(r, x);
            }
          }
          b.setRowCount(BATCH * 10);
          for (int r = 0; r < BATCH * 10; r++) {
            expectedI.add(String.valueOf(iv.getObject(r)));
            expectedW.add(wv.isNull(r) ? "null" : Arrays.toString(wv.getObject(r)));
          }
          w.write(b);
        }
      }
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      int n = expectedI.size();
      try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
        for (int i = 0; i < n; i++) {
          assertEquals(expectedI.get(i), String.valueOf(all.getVector(0).getObject(i)), "i row " + i);
          FixedSizeBinaryVector wv = (FixedSizeBinaryVector) all.getVector(1);
          assertEquals(expectedW.get(i), wv.isNull(i) ? "null" : Arrays.toString(wv.getObject(i)), "w row " + i);
        }
        assertEquals(countNulls(expectedI), all.getVector(0).getNullCount());
        assertEquals(countNulls(expectedW), all.getVector(1).getNullCount());
      }
      List<List<String>> pages = r.columnSummaries().stream().map(c -> c.pages().stream().map(Object::toString).toList()).toList();
      assertTrue(pages.get(1).stream().allMatch(d -> d.contains("full-zip") || d.contains("constant")), "w: " + pages.get(1));
      assertTrue(pages.get(0).stream().anyMatch(d -> d.contains("constant")), "i has an all-null page: " + pages.get(0));
      assertTrue(pages.get(0).size() >= KINDS.length, "i: " + pages.get(0));
    }
  }

  /**
   * A list of strings column whose pages differ in batches: long strings (full-zip rows, which
   * decode in steps into the variable-width sink; codec-fsst's tests cover FSST ones), short ones
   * (mini-block, whose values are moved into the sink), lists that are all null or empty, and
   * null items; long batches hold over a MiB of row bytes, so one read splits a page into steps.
   */
  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void listsOfStringsMixedPages(FileVersion version) {
    Map<String, String> meta = Map.of("lance-encoding:compression", "none");
    Field item = new Field("item", new FieldType(true, ArrowType.Utf8.INSTANCE, null, meta), null);
    Field list = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    Schema schema = new Schema(List.of(list));
    Random rnd = new Random(21);
    List<String> expected = new ArrayList<>();
    Path path = dir.resolve("lists-" + version + ".lance");
    String[] kinds = {"short", "long", "all-null", "empty", "long", "short"};
    String[] words = {"lance", "arrow", "column", "page", "chunk", "the", "of", "mail", "list", "re:", "[dev]", "patch", "2026"};
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version).withPageBytesPerColumn(64 << 10))) {
      for (String kind : kinds) {
        try (VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator)) {
          ListVector lv = (ListVector) b.getVector(0);
          VarCharVector items = (VarCharVector) lv.getDataVector();
          lv.allocateNew();
          int at = 0;
          for (int r = 0; r < BATCH; r++) {
            int k = kind.equals("empty") ? 0 : rnd.nextInt(kind.equals("short") ? 60 : 8);
            if (kind.equals("all-null") || rnd.nextInt(10) == 0) {
              lv.setNull(r);
              continue;
            }
            lv.startNewValue(r);
            for (int j = 0; j < k; j++) {
              if (rnd.nextInt(7) == 0) {
                items.setNull(at);
              } else {
                int len = kind.equals("long") ? 40 + rnd.nextInt(120) : rnd.nextInt(3);
                StringBuilder sb = new StringBuilder("r" + r + ":");
                for (int c = 0; c < len; c++) {
                  sb.append(words[rnd.nextInt(words.length)]).append(' ');
                }
                items.setSafe(at, sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
              }
              at++;
            }
            lv.endValue(r, k);
          }
          items.setValueCount(at);
          lv.setValueCount(BATCH);
          b.setRowCount(BATCH);
          for (int r = 0; r < BATCH; r++) {
            expected.add(String.valueOf(lv.getObject(r)));
          }
          w.write(b);
        }
      }
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      List<String> pages = r.columnSummaries().get(0).pages().stream().map(Object::toString).toList();
      assertTrue(pages.stream().anyMatch(d -> d.contains("full-zip")) && pages.stream().anyMatch(d -> d.contains("mini-block")),
          "pages: " + pages);
      assertReads(r, expected, rnd, 1);
    }
  }

  private static long countNulls(List<String> values) {
    return values.stream().filter("null"::equals).count();
  }

  /** Checks the reads of a file of vectors whose pages differ (see {@link #vectorsMixedPages}). */
  private void checkReads(Path path, List<String> expected, Random rnd) {
    try (LanceFileReader r = LanceFileReader.open(path)) {
      List<String> pages = r.columnSummaries().get(0).pages().stream().map(Object::toString).toList();
      assertTrue(pages.size() >= 4 && pages.stream().anyMatch(d -> d.contains("full-zip")), "pages: " + pages);
      assertTrue(pages.stream().anyMatch(d -> d.contains("item validity")), "pages: " + pages);
      assertReads(r, expected, rnd, BATCH);
    }
  }

  /**
   * A full read, a scan in odd batches, row ranges (of at least {@code minRange} rows) across page
   * edges and a large sorted take, each checked row by row against {@code expected}.
   */
  private void assertReads(LanceFileReader r, List<String> expected, Random rnd, int minRange) {
    int n = expected.size();
    try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
      assertRows(expected, all.getVector(0), 0, null);
      assertEquals(countNulls(expected), all.getVector(0).getNullCount());
    }
    Iterator<VectorSchemaRoot> it = r.scan(null, 1001, allocator);
    int at = 0;
    while (it.hasNext()) {
      try (VectorSchemaRoot b = it.next()) {
        assertRows(expected, b.getVector(0), at, null);
        at += b.getRowCount();
      }
    }
    assertEquals(n, at);
    for (int k = 0; k < 4; k++) {
      int from = rnd.nextInt(n / 2);
      int to = from + minRange + rnd.nextInt(n - from - minRange);
      try (VectorSchemaRoot range = r.readRange(from, to, null, allocator)) {
        assertRows(expected, range.getVector(0), from, null);
      }
    }
    long[] rows = rnd.longs(1500, 0, n).sorted().toArray();
    try (VectorSchemaRoot t = r.take(rows, null, allocator)) {
      assertRows(expected, t.getVector(0), 0, rows);
    }
  }

  private static void assertRows(List<String> expected, FieldVector v, int from, long[] rows) {
    int n = rows == null ? v.getValueCount() : rows.length;
    assertEquals(n, v.getValueCount());
    for (int i = 0; i < n; i++) {
      int src = rows == null ? from + i : (int) rows[i];
      assertEquals(expected.get(src), String.valueOf(v.getObject(i)), "row " + src);
    }
  }
}
