package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static io.lancecodec.testkit.NestedData.i32;
import static io.lancecodec.testkit.NestedData.list;
import static io.lancecodec.testkit.NestedData.str;
import static io.lancecodec.testkit.NestedData.struct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The opt-in repetition index of depth 2 ({@code lance-encoding:repetition-index-depth=2}):
 * pages with two or more list levels get three u64 per chunk, whose first and last agree with
 * the depth-1 index of the same data and whose middle word counts (twice) the row and
 * inner-list starts of the chunk's trailing row, plus one when that part begins inside an inner
 * list; such files read back the same by range, scan and take.
 */
class RepetitionIndexDepthTest extends WithAllocator {
  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 100;
    Map<String, Field> schemas = new java.util.LinkedHashMap<>();
    schemas.put("list_list_int", list("ll", list("item", i32("item"))));
    schemas.put("list_list_str", list("ls", list("item", str("item"))));
    schemas.put("struct_list_list_struct", struct("q", list("r", list("item", struct("item", i32("t"), str("u"))))));
    schemas.put("list_list_list", list("l3", list("item", list("item", i32("item")))));
    for (FileVersion v : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2}) {
      for (var e : schemas.entrySet()) {
        for (int maxLen : new int[] {3, 60}) {
          out.add(Arguments.of(v, e.getKey(), e.getValue(), maxLen, seed++));
        }
      }
    }
    return out.stream();
  }

  private static List<Object> write(Path path, FileVersion v, Field f, int n, int maxLen, long seed, int depth) {
    Schema schema = new Schema(List.of(f));
    WriterOptions opts = WriterOptions.defaults().withVersion(v);
    if (depth > 0) {
      opts = opts.withFieldDefault("lance-encoding:repetition-index-depth", Integer.toString(depth));
    }
    List<Object> expected = new ArrayList<>();
    Random rnd = new Random(seed);
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, opts);
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      for (int i = 0; i < n; i++) {
        NestedData.set(batch.getVector(0), i, NestedData.value(f, rnd, 0.15, maxLen, 0));
      }
      batch.setRowCount(n);
      for (int i = 0; i < n; i++) {
        expected.add(batch.getVector(0).getObject(i));
      }
      w.write(batch);
    }
    return expected;
  }

  private static long[] index(Path path, LanceFileReader r, int leaf) throws java.io.IOException {
    ColumnMetadata.Page p = r.columns().get(leaf).meta().get(0);
    byte[] b = ReadCountTest.buffer(path, p, p.getBufferSizesCount() - 1);
    long[] out = new long[b.length / 8];
    for (int i = 0; i < out.length; i++) {
      out[i] = LittleEndian.getLong(b, i * 8);
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {1} maxLen={3}")
  @MethodSource("cases")
  void depthTwoRoundTripsAndExtendsTheDepthOneIndex(FileVersion v, String name, Field f, int maxLen, long seed) throws Exception {
    int n = maxLen > 10 ? 400 : 3000;
    Path one = dir.resolve(name + "-" + seed + "-d1.lance");
    Path two = dir.resolve(name + "-" + seed + "-d2.lance");
    List<Object> expected = write(one, v, f, n, maxLen, seed, 0);
    assertEquals(expected, write(two, v, f, n, maxLen, seed, 2));
    try (LanceFileReader r1 = LanceFileReader.open(one); LanceFileReader r2 = LanceFileReader.open(two)) {
      for (int leaf = 0; leaf < r2.columns().size(); leaf++) {
        String d = r2.columnSummaries().get(leaf).pages().get(0).toString();
        assertTrue(d.contains("mini-block") && d.contains("repetition index depth 2"), d);
        assertFalse(r1.columnSummaries().get(leaf).pages().get(0).toString().contains("repetition index depth"));
        long[] i1 = index(one, r1, leaf);
        long[] i2 = index(two, r2, leaf);
        int chunks = i1.length / 2;
        assertEquals(3 * chunks, i2.length);
        assertTrue(chunks > 1, "several chunks: " + chunks);
        for (int k = 0; k < chunks; k++) {
          assertEquals(i1[2 * k], i2[3 * k], "rows of chunk " + k);
          assertEquals(i1[2 * k + 1], i2[3 * k + 2], "left-over items of chunk " + k);
          long left = i2[3 * k + 2];
          long word = i2[3 * k + 1];
          // the trailing part holds at least as many levels as starts; the word is zero exactly
          // when there is no trailing row (what a depth-1 reader looks at)
          assertTrue((word >>> 1) <= left && (left > 0) == (word > 0), "chunk " + k + ": word " + word + " for " + left + " levels");
        }
      }
      try (VectorSchemaRoot all = r2.readRange(0, n, null, allocator)) {
        for (int i = 0; i < n; i++) {
          assertEquals(expected.get(i), all.getVector(0).getObject(i), "row " + i);
        }
      }
      int at = 0;
      for (Iterator<VectorSchemaRoot> it = r2.scan(null, 333, allocator); it.hasNext(); ) {
        try (VectorSchemaRoot b = it.next()) {
          for (int i = 0; i < b.getRowCount(); i++) {
            assertEquals(expected.get(at + i), b.getVector(0).getObject(i), "scan row " + (at + i));
          }
          at += b.getRowCount();
        }
      }
      assertEquals(n, at);
      long[] rows = new Random(seed).longs(200, 0, n).toArray();
      try (VectorSchemaRoot t = r2.take(rows, null, allocator)) {
        for (int i = 0; i < rows.length; i++) {
          assertEquals(expected.get((int) rows[i]), t.getVector(0).getObject(i), "take row " + rows[i]);
        }
      }
    }
  }

  /** Hand-made pages: the middle words are exactly twice the trailing row's starts (+1 inside a list). */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void middleEntriesCountTheTrailingRowsStarts(boolean giant) throws Exception {
    // one row of 9000 inner lists of 1 item (or, giant, one inner list of 9000 items), then
    // rows of 2 lists: chunks cut the big row; its starts are counted in the chunks they fall in
    Field f = list("ll", list("item", i32("item")));
    Schema schema = new Schema(List.of(f));
    Path path = dir.resolve("hand-" + giant + ".lance");
    List<Object> rows = new ArrayList<>();
    List<Object> big = new ArrayList<>();
    List<Object> one = new ArrayList<>();
    for (int j = 0; j < 9000; j++) {
      if (giant) {
        one.add(j % 7);
      } else {
        big.add(new ArrayList<>(List.of(j % 7)));
      }
    }
    if (giant) {
      big.add(one);
    }
    rows.add(big);
    for (int i = 0; i < 10; i++) {
      rows.add(new ArrayList<>(List.of(new ArrayList<>(List.of(1, 2)), new ArrayList<>(List.of(3)))));
    }
    try (LanceFileWriter w = LanceFileWriter.open(path, schema,
            WriterOptions.defaults().withFieldDefault("lance-encoding:repetition-index-depth", "2"));
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      for (int i = 0; i < rows.size(); i++) {
        NestedData.set(batch.getVector(0), i, rows.get(i));
      }
      batch.setRowCount(rows.size());
      w.write(batch);
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      long[] idx = index(path, r, 0);
      ColumnMetadata.Page page = r.columns().get(0).meta().get(0);
      long[] first = ReadCountTest.chunks(ReadCountTest.buffer(path, page, 0), false, 9030)[1];
      int chunks = first.length - 1;
      assertTrue(chunks >= 3, chunks + " chunks");
      assertEquals(3 * chunks, idx.length);
      // levels: the big row is 9000 levels each starting an inner list; then rows of 3 levels
      // (row start, same list, new list) starting at 9000, 9003, ...
      java.util.TreeSet<Long> rowStarts = new java.util.TreeSet<>();
      rowStarts.add(0L);
      for (long s = 9000; s < 9030; s += 3) {
        rowStarts.add(s);
      }
      for (int k = 0; k < chunks; k++) {
        long a = first[k];
        long b = first[k + 1];
        boolean lastChunk = k == chunks - 1;
        boolean trailer = !lastChunk && !rowStarts.contains(b);
        long ended = rowStarts.subSet(a + 1, b).size() + (trailer ? 0 : 1);
        long t = rowStarts.floor(b - 1) >= a ? rowStarts.floor(b - 1) : a;
        long starts = 0;
        for (long l = t; l < b; l++) {
          starts += (l < 9000 && !giant) || rowStarts.contains(l) || (l >= 9000 && (l - 9000) % 3 == 2) ? 1 : 0;
        }
        long inside = giant && t == a && a > 0 && a < 9000 ? 1 : 0;
        assertEquals(List.of(ended, trailer ? 2 * starts + inside : 0, trailer ? b - t : 0), List.of(idx[3 * k], idx[3 * k + 1], idx[3 * k + 2]),
            "chunk " + k + " items [" + a + ", " + b + ")");
      }
      try (VectorSchemaRoot got = r.take(new long[] {0, 5}, null, allocator)) {
        assertEquals(rows.get(0), got.getVector(0).getObject(0));
        assertEquals(rows.get(5), got.getVector(0).getObject(1));
      }
    }
  }

  @Test
  void badDepthIsRefused() {
    Field f = list("ll", list("item", i32("item")));
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> LanceFileWriter.open(dir.resolve("bad.lance"), new Schema(List.of(f)),
            WriterOptions.defaults().withFieldDefault("lance-encoding:repetition-index-depth", "3")).close());
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
    assertTrue(e.getMessage().contains("repetition-index-depth"), e.getMessage());
  }
}
