package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import static io.lancecodec.testkit.NestedData.list;
import static io.lancecodec.testkit.NestedData.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Random access on planar pages, counted by {@link ReadStats} after the structure is loaded (the
 * page's search cache): a selection of null rows reads no value byte; zipped values read exactly
 * the selected materialized values (fixed width: one read of their bytes; variable width: their
 * index entries, then their bytes); chunked values read only the chunks that hold the selected
 * leaves; indexed values read each item the selected slots name once.
 */
class PlanarReadCountTest extends WithAllocator {
  private static final WriterOptions V23 = WriterOptions.defaults().withVersion(FileVersion.V2_3);

  /** {@code n} rows of int64, valid (with a random value) where {@code valid} says so. */
  private List<Object> writeLongs(Path path, int n, java.util.function.IntPredicate valid, Map<String, String> meta) {
    Random rnd = new Random(n);
    return writeLongValues(path, n, i -> valid.test(i) ? (Long) (rnd.nextLong() >> rnd.nextInt(60)) : null, meta);
  }

  /** {@code n} rows of int64, {@code value} at each (null for a null row). */
  private List<Object> writeLongValues(Path path, int n, java.util.function.IntFunction<Long> value, Map<String, String> meta) {
    Schema schema = new Schema(List.of(new Field("x", new FieldType(true, new ArrowType.Int(64, true), null, meta), null)));
    List<Object> expected = new ArrayList<>();
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, V23); VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator)) {
      BigIntVector v = (BigIntVector) b.getVector(0);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        Long x = value.apply(i);
        if (x != null) {
          v.set(i, x);
        } else {
          v.setNull(i);
        }
        expected.add(v.getObject(i));
      }
      v.setValueCount(n);
      b.setRowCount(n);
      w.write(b);
    }
    return expected;
  }

  private void assertTake(LanceFileReader r, String column, long[] rows, List<Object> expected, long reads, long bytes) {
    r.searchCacheBytes();
    r.readStats().reset();
    try (VectorSchemaRoot got = r.take(rows, List.of(column), allocator)) {
      String what = column + " take " + java.util.Arrays.toString(rows);
      assertEquals(reads, r.readStats().reads(), what + ": reads");
      if (bytes >= 0) {
        assertEquals(bytes, r.readStats().bytes(), what + ": bytes");
      }
      for (int i = 0; i < rows.length; i++) {
        assertEquals(expected.get((int) rows[i]), got.getVector(0).getObject(i), column + " row " + rows[i]);
      }
    }
  }

  private static String page(LanceFileReader r) {
    return r.columnSummaries().get(0).pages().get(0).toString();
  }

  @Test
  void mostlyNullValuesAreZippedAndNullRowsReadNothing() {
    Path path = dir.resolve("sparse-longs.lance");
    int n = 100_000;
    List<Object> expected = writeLongs(path, n, i -> i % 97 == 0, Map.of());
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertTrue(page(r).contains("sparse") && page(r).contains("zipped values"), page(r));
      // null rows, alone, in a run, and several apart: no value I/O at all
      assertTake(r, "x", new long[] {1}, expected, 0, 0);
      assertTake(r, "x", new long[] {5, 6, 7, 50_000, 99_999}, expected, 0, 0);
      try (VectorSchemaRoot got = r.readRange(1, 96, List.of("x"), allocator)) {
        assertEquals(0, r.readStats().bytes(), "a range of null rows");
      }
      // a valid row: one read of its 8 bytes (its rank among the materialized values locates it)
      assertTake(r, "x", new long[] {97 * 300}, expected, 1, 8);
      // valid rows apart: one read each; adjacent materialized values in a range: one read
      assertTake(r, "x", new long[] {0, 97 * 500, 97 * 1000}, expected, 3, 24);
      r.readStats().reset();
      try (VectorSchemaRoot got = r.readRange(97 * 10, 97 * 20 + 1, List.of("x"), allocator)) {
        assertEquals(1, r.readStats().reads());
        assertEquals(11 * 8, r.readStats().bytes());
      }
    }
  }

  /**
   * Mostly-null values of few distinct values are chunked (every slot, dictionary indices running
   * across the nulls): null rows still read nothing, and a mixed selection reads only the chunks
   * that hold its valid rows.
   */
  @Test
  void mostlyNullChunkedValuesReadOnlyChunksWithValidRows() {
    Path path = dir.resolve("sparse-chunked.lance");
    List<Object> expected = writeLongValues(path, 100_000, i -> i % 97 == 0 ? (Long) (long) (i % 5 - 2) : null, Map.of());
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertTrue(page(r).contains("sparse") && page(r).contains("chunked values") && page(r).contains("dictionary"), page(r));
      assertTake(r, "x", new long[] {1}, expected, 0, 0);
      assertTake(r, "x", new long[] {5, 6, 7, 50_000, 99_999}, expected, 0, 0);
      // the first valid row also loads what the value plane shares (its dictionary)
      try (VectorSchemaRoot got = r.take(new long[] {0}, List.of("x"), allocator)) {
        assertEquals(expected.get(0), got.getVector(0).getObject(0));
      }
      r.readStats().reset();
      try (VectorSchemaRoot got = r.take(new long[] {97 * 300}, List.of("x"), allocator)) {
        assertEquals(1, r.readStats().reads(), "one chunk");
        assertEquals(expected.get(97 * 300), got.getVector(0).getObject(0));
      }
      long oneChunk = r.readStats().bytes();
      // the same valid row among null rows far away: still that one chunk
      r.readStats().reset();
      try (VectorSchemaRoot got = r.take(new long[] {3, 97 * 300, 99_998}, List.of("x"), allocator)) {
        assertEquals(1, r.readStats().reads());
        assertEquals(oneChunk, r.readStats().bytes());
        for (int i = 0; i < 3; i++) {
          assertEquals(expected.get((int) new long[] {3, 97 * 300, 99_998}[i]), got.getVector(0).getObject(i));
        }
      }
    }
  }

  @Test
  void sparseStringsReadTheirIndexEntriesAndBytes() {
    Path path = dir.resolve("sparse-strings.lance");
    int n = 20_000;
    Schema schema = new Schema(List.of(new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
    List<Object> expected = new ArrayList<>();
    Random rnd = new Random(3);
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, V23); VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator)) {
      VarCharVector v = (VarCharVector) b.getVector(0);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        if (i % 50 == 0) {
          // distinct values: no dictionary pays
          v.setSafe(i, ("value " + i + " " + Long.toHexString(rnd.nextLong())).getBytes());
        } else {
          v.setNull(i);
        }
        expected.add(v.getObject(i) == null ? null : v.getObject(i));
      }
      v.setValueCount(n);
      b.setRowCount(n);
      w.write(b);
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertTrue(page(r).contains("sparse") && page(r).contains("zipped values"), page(r));
      assertTake(r, "s", new long[] {3, 777, 19_999}, expected, 0, 0);
      // one valid row: its two index entries, then its length prefix and bytes
      assertTake(r, "s", new long[] {50 * 123}, expected, 2, -1);
    }
  }

  @Test
  void sparseListsWithMostlyEmptyRowsReadNothingForThem() {
    Field f = list("l", str("item"));
    Path path = dir.resolve("sparse-lists.lance");
    int n = 5000;
    Schema schema = new Schema(List.of(f));
    List<Object> expected = new ArrayList<>();
    Random rnd = new Random(9);
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, V23); VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      for (int i = 0; i < n; i++) {
        Object row = i % 40 == 0 ? List.of("a" + rnd.nextInt(1000), "b" + rnd.nextInt(1000)) : i % 2 == 0 ? null : List.of();
        NestedData.set(batch.getVector(0), i, row);
      }
      batch.setRowCount(n);
      for (int i = 0; i < n; i++) {
        expected.add(batch.getVector(0).getObject(i));
      }
      w.write(batch);
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertTrue(page(r).contains("sparse"), page(r));
      // null and empty lists: structure only
      assertTake(r, "l", new long[] {1, 2, 3, 4, 4001}, expected, 0, 0);
      r.readStats().reset();
      try (VectorSchemaRoot got = r.take(new long[] {40}, List.of("l"), allocator)) {
        assertTrue(r.readStats().reads() > 0, "a non-empty list reads its values");
        assertEquals(expected.get(40), got.getVector(0).getObject(0));
      }
    }
  }

  @Test
  void indexedValuesReadEachNamedItemOnce() {
    Path path = dir.resolve("indexed.lance");
    int n = 40_000;
    Map<String, String> sparse = Map.of("lance-encoding:structural-encoding", "sparse");
    Schema schema = new Schema(List.of(new Field("s", new FieldType(true, ArrowType.Utf8.INSTANCE, null, sparse), null)));
    List<Object> expected = new ArrayList<>();
    String[] words = new String[40];
    for (int i = 0; i < words.length; i++) {
      words[i] = "category-" + i + "-" + "x".repeat(20 + i);
    }
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, V23); VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator)) {
      VarCharVector v = (VarCharVector) b.getVector(0);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        if (i % 3 == 0) {
          v.setNull(i);
        } else {
          v.setSafe(i, words[(i * 7) % words.length].getBytes());
        }
        expected.add(v.getObject(i));
      }
      v.setValueCount(n);
      b.setRowCount(n);
      w.write(b);
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertTrue(page(r).contains("indexed values"), page(r));
      assertTake(r, "s", new long[] {0, 3, 30_000}, expected, 0, 0);
      // rows naming one item: its two index entries and its bytes, once
      long one = 1;
      long same = one + 40; // (i * 7) % 40 repeats every 40 rows
      r.searchCacheBytes();
      r.readStats().reset();
      try (VectorSchemaRoot got = r.take(new long[] {one, same, same + 40 * 3}, List.of("s"), allocator)) {
        assertEquals(2, r.readStats().reads());
      }
      // items are numbered as first seen: rows 1 and 2 name items 0 and 1 (adjacent, one read
      // pair), rows 1 and 5 items 0 and 3 (a read pair each)
      r.readStats().reset();
      try (VectorSchemaRoot got = r.take(new long[] {1, 2}, List.of("s"), allocator)) {
        assertEquals(2, r.readStats().reads());
        assertEquals(expected.get(1), got.getVector(0).getObject(0));
        assertEquals(expected.get(2), got.getVector(0).getObject(1));
      }
      r.readStats().reset();
      try (VectorSchemaRoot got = r.take(new long[] {1, 5}, List.of("s"), allocator)) {
        assertEquals(4, r.readStats().reads());
        assertEquals(expected.get(5), got.getVector(0).getObject(1));
      }
    }
  }

  @Test
  void chunkedValuesReadOnlyTheirChunks() throws IOException {
    Path path = dir.resolve("chunked.lance");
    int n = 200_000;
    // a third null: not mostly null, so sparse chunked when forced
    List<Object> expected = writeLongs(path, n, i -> i % 3 != 0, Map.of("lance-encoding:structural-encoding", "sparse"));
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertTrue(page(r).contains("sparse") && page(r).contains("chunked values"), page(r));
      List<ColumnMetadata.Page> pages = r.columns().get(0).meta();
      Random rnd = new Random(4);
      for (int t = 0; t < 10; t++) {
        int p = rnd.nextInt(pages.size());
        ColumnMetadata.Page page = pages.get(p);
        long first = 0;
        for (int q = 0; q < p; q++) {
          first += pages.get(q).getLength();
        }
        long[][] chunks = ReadCountTest.chunks(ReadCountTest.buffer(path, page, 0), true, page.getLength());
        long local = rnd.nextInt((int) page.getLength());
        if (local % 3 == 0) {
          local++;
        }
        int k = 0;
        while (chunks[1][k + 1] <= local) {
          k++;
        }
        assertTake(r, "x", new long[] {first + local}, expected, 1, chunks[0][k]);
      }
    }
  }
}
