package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import static io.lancecodec.testkit.NestedData.i32;
import static io.lancecodec.testkit.NestedData.list;
import static io.lancecodec.testkit.NestedData.str;
import static io.lancecodec.testkit.NestedData.struct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code takeElements}: {@code rows[i][from..to)} equals the slice of the whole row, on pages
 * with a depth-2 repetition index (read from the chunks holding the elements) and without
 * (whole row read and sliced); the depth-2 path reads exactly the chunks from the one where
 * element {@code from} starts to the one where element {@code to - 1} ends.
 */
class ElementTakeTest extends WithAllocator {
  private static WriterOptions options(FileVersion v, int depth) {
    WriterOptions o = WriterOptions.defaults().withVersion(v);
    return depth == 2 ? o.withFieldDefault("lance-encoding:repetition-index-depth", "2") : o;
  }

  /** Writes the rows of column 0 (and an int id in column 1 when the schema has it). */
  private static void write(Path path, Schema schema, WriterOptions opts, List<Object> rows) {
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, opts);
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      for (int i = 0; i < rows.size(); i++) {
        NestedData.set(batch.getVector(0), i, rows.get(i));
        if (schema.getFields().size() > 1) {
          NestedData.set(batch.getVector(1), i, i);
        }
      }
      batch.setRowCount(rows.size());
      w.write(batch);
    }
  }

  /**
   * Rows of list&lt;list&lt;int&gt;&gt; in shapes that stress the index: null and empty rows,
   * short rows, rows of thousands of small inner lists (some null or empty) spanning several
   * chunks, and rows holding one inner list longer than a chunk.
   */
  private static List<Object> shapedRows(Random rnd, int n) {
    List<Object> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int mode = rnd.nextInt(10);
      if (mode == 0) {
        rows.add(null);
        continue;
      }
      List<Object> row = new ArrayList<>();
      int lists = mode == 1 ? 0 : mode <= 4 ? rnd.nextInt(6) : mode <= 8 ? 500 + rnd.nextInt(2500) : 1 + rnd.nextInt(4);
      int giant = mode == 9 ? rnd.nextInt(lists) : -1;
      for (int j = 0; j < lists; j++) {
        double u = rnd.nextDouble();
        if (j != giant && u < 0.1) {
          row.add(null);
          continue;
        }
        int len = j == giant ? 5000 + rnd.nextInt(15000) : u < 0.2 ? 0 : rnd.nextInt(7);
        List<Object> inner = new ArrayList<>();
        for (int t = 0; t < len; t++) {
          inner.add(rnd.nextDouble() < 0.05 ? null : rnd.nextInt(1 << 20));
        }
        row.add(inner);
      }
      rows.add(row);
    }
    return rows;
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 7000;
    for (FileVersion v : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2}) {
      for (int depth : new int[] {1, 2}) {
        for (String shape : new String[] {"shaped", "list_list_str", "list_list_list", "list_struct_list", "list_struct_lists", "list_int"}) {
          out.add(Arguments.of(v, depth, shape, seed++));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} depth {1} {2}")
  @MethodSource("cases")
  void elementsEqualTheSliceOfTheWholeRow(FileVersion v, int depth, String shape, long seed) throws Exception {
    Random rnd = new Random(seed);
    Field f;
    List<Object> rows = new ArrayList<>();
    switch (shape) {
      case "shaped" -> {
        f = list("ll", list("item", i32("item")));
        rows = shapedRows(rnd, 80);
      }
      case "list_list_str" -> f = list("ls", list("item", str("item")));
      case "list_list_list" -> f = list("l3", list("item", list("item", i32("item"))));
      case "list_struct_list" -> f = list("lsl", struct("item", i32("a"), list("b", i32("item"))));
      case "list_struct_lists" -> f = list("lsls", struct("item", list("b", i32("item")), list("c", str("item"))));
      default -> f = list("li", i32("item"));
    }
    int maxLen = switch (shape) {
      case "list_list_str" -> 120;
      case "list_list_list" -> 25;
      case "list_struct_list", "list_struct_lists" -> 120;
      default -> 9000;
    };
    if (rows.isEmpty()) {
      for (int i = 0; i < 60; i++) {
        rows.add(NestedData.value(f, rnd, 0.1, maxLen, 0));
      }
    }
    Schema schema = new Schema(List.of(f));
    Path path = dir.resolve(shape + "-" + seed + ".lance");
    write(path, schema, options(v, depth), rows);
    try (LanceFileReader r = LanceFileReader.open(path)) {
      List<String> pages = r.columnSummaries().stream().flatMap(c -> c.pages().stream()).map(Object::toString).toList();
      // the last column is a leaf under two lists: with depth 2 it carries the index (with two
      // such leaves, both do, and the elements are read from both pages' index)
      assertEquals(depth == 2 && !shape.equals("list_int"), pages.get(pages.size() - 1).contains("repetition index depth 2"), pages.toString());
      if (shape.equals("list_struct_lists")) {
        assertEquals(depth == 2, pages.get(0).contains("repetition index depth 2"), pages.toString());
      }
      long chunked = pages.stream().mapToLong(d -> Long.parseLong(d.replaceAll(".* (\\d+) chunks.*", "$1"))).max().getAsLong();
      assertTrue(chunked > r.numRows() / 4, "rows span chunks: " + chunked + " chunks for " + r.numRows() + " rows");
      String name = f.getName();
      int checked = 0;
      for (int i = 0; i < rows.size(); i++) {
        @SuppressWarnings("unchecked")
        List<Object> row = (List<Object>) expected(r, name, i);
        int count = row == null ? 0 : row.size();
        List<int[]> ranges = new ArrayList<>(List.of(new int[] {0, 0}, new int[] {0, count}));
        if (count > 0) {
          ranges.add(new int[] {count - 1, count});
          for (int t = 0; t < 4; t++) {
            int a = rnd.nextInt(count);
            ranges.add(new int[] {a, a + 1});
            int b = rnd.nextInt(count + 1);
            ranges.add(new int[] {Math.min(a, b), Math.max(a, b)});
          }
        }
        for (int[] ab : ranges) {
          try (FieldVector got = r.takeElements(name, i, ab[0], ab[1], allocator)) {
            assertEquals(ab[1] - ab[0], got.getValueCount(), "row " + i + " [" + ab[0] + ", " + ab[1] + ")");
            List<Object> items = new ArrayList<>();
            for (int k = 0; k < got.getValueCount(); k++) {
              items.add(got.getObject(k));
            }
            assertEquals(count == 0 ? List.of() : row.subList(ab[0], ab[1]), items, "row " + i + " [" + ab[0] + ", " + ab[1] + ")");
            checked++;
          }
        }
        if (count == 0) {
          final int row0 = i;
          LanceCodecException e = assertThrows(LanceCodecException.class, () -> r.takeElements(name, row0, 0, 1, allocator).close());
          assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
        }
      }
      assertTrue(checked > 300, checked + " lookups");
    }
  }

  /** The row as the whole-row take returns it. */
  private static Object expected(LanceFileReader r, String column, long row) {
    try (VectorSchemaRoot t = r.take(new long[] {row}, List.of(column), allocator)) {
      return t.getVector(0).getObject(0);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void badArgumentsAreRefusedClearly(int depth) {
    Field f = list("ll", list("item", i32("item")));
    Schema schema = new Schema(List.of(f, i32("id")));
    Path path = dir.resolve("bad-" + depth + ".lance");
    List<Object> rows = new ArrayList<>();
    rows.add(List.of(List.of(1, 2), List.of(3)));
    rows.add(null);
    rows.add(List.of());
    write(path, schema, options(FileVersion.V2_2, depth), rows);
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertBad(r, "ll", 0, 0, 3, "row 0 has 2 elements, asked for [0, 3)");
      assertBad(r, "ll", 0, 2, 3, "row 0 has 2 elements, asked for [2, 3)");
      assertBad(r, "ll", 0, 5, 5, "row 0 has 2 elements, asked for [5, 5)");
      assertBad(r, "ll", 1, 0, 1, "row 1 ");
      assertBad(r, "ll", 2, 0, 1, "row 2 ");
      assertBad(r, "ll", 0, -1, 1, "is not a range");
      assertBad(r, "ll", 0, 2, 1, "is not a range");
      assertBad(r, "ll", 3, 0, 1, "row 3 is outside the file's 3 rows");
      assertBad(r, "ll", -1, 0, 1, "row -1 is outside");
      assertBad(r, "id", 0, 0, 1, "not a list");
      assertBad(r, "nope", 0, 0, 1, "unknown column 'nope'");
      try (FieldVector ok = r.takeElements("ll", 0, 1, 2, allocator)) {
        assertEquals(List.of(3), ok.getObject(0));
      }
    }
  }

  private static void assertBad(LanceFileReader r, String column, long row, int from, int to, String message) {
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> r.takeElements(column, row, from, to, allocator).close());
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  /**
   * One long row: 3000 one-item inner lists, one inner list of 9000 items, 3000 more one-item
   * lists, between short rows. Every item is one level, so element j's levels are known and so
   * are the chunks holding them (from the chunk metadata parsed here): with depth 2 a lookup is
   * one read of exactly the chunks from element from's first level to element to - 1's last;
   * with depth 1 it is one read of all the row's chunks.
   */
  @Test
  void depthTwoReadsOnlyTheChunksOfTheElements() throws Exception {
    Field f = list("ll", list("item", i32("item")));
    Schema schema = new Schema(List.of(f));
    Random rnd = new Random(42);
    List<Object> rows = new ArrayList<>();
    rows.add(List.of(List.of(1, 2), List.of(3)));
    List<Object> big = new ArrayList<>();
    int[] sizes = new int[6001];
    for (int j = 0; j < sizes.length; j++) {
      sizes[j] = j == 3000 ? 9000 : 1;
      List<Object> inner = new ArrayList<>();
      for (int t = 0; t < sizes[j]; t++) {
        inner.add(rnd.nextInt(1 << 20));
      }
      big.add(inner);
    }
    rows.add(big);
    for (int i = 0; i < 10; i++) {
      rows.add(List.of(List.of(1, 2), List.of(3)));
    }
    long[] level = new long[sizes.length + 1]; // first level of element j of the big row
    level[0] = 3;
    for (int j = 0; j < sizes.length; j++) {
      level[j + 1] = level[j] + sizes[j];
    }
    long items = level[sizes.length] + 30;
    for (int depth : new int[] {1, 2}) {
      Path path = dir.resolve("reads-" + depth + ".lance");
      write(path, schema, options(FileVersion.V2_2, depth), rows);
      try (LanceFileReader r = LanceFileReader.open(path)) {
        String d = r.columnSummaries().get(0).pages().get(0).toString();
        assertFalse(d.contains("dictionary"), d);
        assertEquals(depth == 2, d.contains("repetition index depth 2"), d);
        ColumnMetadata.Page page = ReadCountTest.page(r, 0);
        long[][] chunks = ReadCountTest.chunks(ReadCountTest.buffer(path, page, 0), d.contains("large chunks"), items);
        long[] bytes = chunks[0];
        long[] first = chunks[1];
        int rowFirst = chunkOf(first, level[0]);
        int rowLast = chunkOf(first, level[sizes.length] - 1);
        assertTrue(rowLast - rowFirst >= 4, "the big row spans chunks " + rowFirst + ".." + rowLast);
        long wholeRow = sum(bytes, rowFirst, rowLast);
        List<int[]> ranges = new ArrayList<>();
        ranges.add(new int[] {0, 1});
        ranges.add(new int[] {3000, 3001});
        ranges.add(new int[] {2999, 3002});
        ranges.add(new int[] {3001, 3002});
        ranges.add(new int[] {6000, 6001});
        ranges.add(new int[] {0, 6001});
        // an element range ending exactly at a chunk's end reads no further chunk
        for (int k = rowFirst + 1; k <= rowLast; k++) {
          for (int j = 0; j < 3000; j++) {
            if (level[j + 1] == first[k]) {
              ranges.add(new int[] {j, j + 1});
              ranges.add(new int[] {j, j + 2});
            }
          }
        }
        for (int t = 0; t < 40; t++) {
          int a = rnd.nextInt(sizes.length);
          ranges.add(new int[] {a, Math.min(sizes.length, a + 1 + rnd.nextInt(50))});
        }
        for (int[] ab : ranges) {
          int c0 = chunkOf(first, level[ab[0]]);
          int c1 = chunkOf(first, level[ab[1]] - 1);
          r.searchCacheBytes();
          r.readStats().reset();
          try (FieldVector got = r.takeElements("ll", 1, ab[0], ab[1], allocator)) {
            String what = "depth " + depth + " [" + ab[0] + ", " + ab[1] + "): chunks " + c0 + ".." + c1 + " of the row's " + rowFirst + ".." + rowLast;
            assertEquals(1, r.readStats().reads(), what);
            assertEquals(depth == 2 ? sum(bytes, c0, c1) : wholeRow, r.readStats().bytes(), what);
            assertEquals(big.subList(ab[0], ab[1]), got.getObject(0) == null ? null : objects(got), what);
          }
        }
        if (depth == 2) {
          // element 3001 sits after the 9000-item list: only its own chunk, none of the list's
          int k = chunkOf(first, level[3001]);
          assertTrue(k > chunkOf(first, level[3000]), "the long inner list spans chunks");
          r.readStats().reset();
          r.takeElements("ll", 1, 3001, 3002, allocator).close();
          assertEquals(bytes[k], r.readStats().bytes());
          assertTrue(bytes[k] < wholeRow / 4, bytes[k] + " of " + wholeRow);
          // one start fewer in the word of the row's first chunk: lookups reading that chunk fail
          int k0 = rowFirst;
          long at = page.getBufferOffsets(page.getBufferOffsetsCount() - 1) + (3L * k0 + 1) * 8;
          Path bad = dir.resolve("reads-bad.lance");
          byte[] file = java.nio.file.Files.readAllBytes(path);
          long word = io.lancecodec.spi.LittleEndian.getLong(file, (int) at);
          assertTrue(word > 2, "word " + word);
          io.lancecodec.spi.LittleEndian.putLong(file, (int) at, word - 2);
          java.nio.file.Files.write(bad, file);
          try (LanceFileReader br = LanceFileReader.open(bad)) {
            for (int[] ab : new int[][] {{0, 1}, {0, 6001}, {5, 9}}) {
              LanceCodecException e = assertThrows(LanceCodecException.class, () -> br.takeElements("ll", 1, ab[0], ab[1], allocator).close());
              assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
              assertTrue(e.getMessage().contains("repetition index word"), e.getMessage());
            }
          }
        }
      }
    }
  }

  private static List<Object> objects(FieldVector v) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < v.getValueCount(); i++) {
      out.add(v.getObject(i));
    }
    return out;
  }

  private static int chunkOf(long[] first, long level) {
    int k = 0;
    while (first[k + 1] <= level) {
      k++;
    }
    return k;
  }

  private static long sum(long[] bytes, int from, int to) {
    long s = 0;
    for (int k = from; k <= to; k++) {
      s += bytes[k];
    }
    return s;
  }
}
