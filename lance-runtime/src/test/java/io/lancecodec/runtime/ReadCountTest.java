package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import static io.lancecodec.testkit.NestedData.field;
import static io.lancecodec.testkit.NestedData.i32;
import static io.lancecodec.testkit.NestedData.list;
import static io.lancecodec.testkit.NestedData.str;
import static io.lancecodec.testkit.NestedData.struct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reader's I/O for random access, counted by {@link ReadStats} and checked against what the
 * file's own metadata says a lookup must touch (parsed here from the page buffers, not through
 * the decoders): full-zip rows cost one read into the repetition index and one for the value at
 * any nesting depth; mini-block rows read exactly the chunks that hold them, adjacent chunks in
 * one request; constant pages read nothing; dictionaries are read once, then cached.
 */
class ReadCountTest extends WithAllocator {
  static Field with(Field f, String key, String value) {
    return new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), null, Map.of("lance-encoding:" + key, value)), f.getChildren());
  }

  /** Writes {@code n} seeded random rows of {@code fields}; returns the rows as objects per column. */
  static List<List<Object>> write(Path path, FileVersion version, int n, double nulls, int maxLen, long seed, Field... fields) {
    Schema schema = new Schema(List.of(fields));
    Random rnd = new Random(seed);
    List<List<Object>> expected = new ArrayList<>();
    for (Field ignored : fields) {
      expected.add(new ArrayList<>());
    }
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version));
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      for (int i = 0; i < n; i++) {
        for (int c = 0; c < fields.length; c++) {
          NestedData.set(batch.getVector(c), i, NestedData.value(fields[c], rnd, nulls, maxLen, 0));
        }
      }
      batch.setRowCount(n);
      for (int c = 0; c < fields.length; c++) {
        for (int i = 0; i < n; i++) {
          expected.get(c).add(batch.getVector(c).getObject(i));
        }
      }
      w.write(batch);
    }
    return expected;
  }

  /** The single page of the column holding leaf {@code leaf}. */
  static ColumnMetadata.Page page(LanceFileReader r, int leaf) {
    List<ColumnMetadata.Page> pages = r.columns().get(leaf).meta();
    assertEquals(1, pages.size(), "test files have one page per column");
    return pages.get(0);
  }

  static byte[] buffer(Path path, ColumnMetadata.Page p, int b) throws IOException {
    try (FileChannel ch = FileChannel.open(path)) {
      ByteBuffer out = ByteBuffer.allocate((int) p.getBufferSizes(b));
      while (out.hasRemaining()) {
        ch.read(out, p.getBufferOffsets(b) + out.position());
      }
      return out.array();
    }
  }

  private static void assertTake(LanceFileReader r, String column, long[] rows, List<Object> expected, long reads, long bytes) {
    // the initialization phase first: every column's search cache loaded, then only the lookup counts
    r.searchCacheBytes();
    r.readStats().reset();
    try (VectorSchemaRoot got = r.take(rows, List.of(column), allocator)) {
      assertEquals(reads, r.readStats().reads(), column + " take " + java.util.Arrays.toString(rows) + ": reads");
      if (bytes >= 0) {
        assertEquals(bytes, r.readStats().bytes(), column + " take " + java.util.Arrays.toString(rows) + ": bytes");
      }
      for (int i = 0; i < rows.length; i++) {
        assertEquals(expected.get((int) rows[i]), got.getVector(0).getObject(i), column + " row " + rows[i]);
      }
    }
  }

  /** Full-zip: rows of 0 to 4 levels of nesting, each costs one index read and one value read. */
  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void fullZipPointLookupsTakeTwoReadsAtAnyDepth(FileVersion version) throws IOException {
    Field[] fields = {
      with(str("flat"), "structural-encoding", "fullzip"),
      list("l1", with(str("item"), "structural-encoding", "fullzip")),
      list("l2", list("item", with(str("item"), "structural-encoding", "fullzip"))),
      struct("s3", list("b", struct("item", list("c", with(str("item"), "structural-encoding", "fullzip"))))),
      list("l4", list("item", list("item", list("item", with(str("item"), "structural-encoding", "fullzip"))))),
    };
    Path path = dir.resolve("fullzip-" + version + ".lance");
    int n = 3000;
    List<List<Object>> expected = write(path, version, n, 0.1, 3, 11, fields);
    Random rnd = new Random(5);
    try (LanceFileReader r = LanceFileReader.open(path)) {
      for (int c = 0; c < fields.length; c++) {
        ColumnMetadata.Page page = page(r, c);
        assertTrue(r.columnSummaries().get(c).pages().get(0).toString().contains("full-zip"), r.columnSummaries().get(c).pages().get(0).toString());
        byte[] index = buffer(path, page, 1);
        int w = index.length / (n + 1);
        for (int t = 0; t < 20; t++) {
          long row = rnd.nextInt(n);
          long start = LittleEndian.getUnsigned(index, (int) row * w, w);
          long end = LittleEndian.getUnsigned(index, (int) (row + 1) * w, w);
          assertTake(r, fields[c].getName(), new long[] {row}, expected.get(c), 2, 2L * w + (end - start));
        }
        // a range costs the same two reads: its first and last index entries, then its bytes
        long a = rnd.nextInt(n - 100);
        long b = a + 1 + rnd.nextInt(99);
        long start = LittleEndian.getUnsigned(index, (int) a * w, w);
        long end = LittleEndian.getUnsigned(index, (int) b * w, w);
        r.readStats().reset();
        try (VectorSchemaRoot got = r.readRange(a, b, List.of(fields[c].getName()), allocator)) {
          assertEquals(2, r.readStats().reads());
          assertEquals((b - a + 1) * w + (end - start), r.readStats().bytes());
          for (int i = 0; i < b - a; i++) {
            assertEquals(expected.get(c).get((int) (a + i)), got.getVector(0).getObject(i));
          }
        }
        // separate rows: two reads each
        long[] rows = {10, 500, 2000};
        assertTake(r, fields[c].getName(), rows, expected.get(c), 2L * rows.length, -1);
      }
    }
  }

  /** Fixed-width full-zip values without nulls need no index: one read of exactly the row. */
  @Test
  void fixedWidthFullZipWithoutNullsIsOneRead() {
    Field vec = new Field("vec", new FieldType(false, new ArrowType.FixedSizeList(96), null),
        List.of(field("item", false, new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.SINGLE))));
    Path path = dir.resolve("vectors.lance");
    List<List<Object>> expected = write(path, FileVersion.V2_1, 2000, 0, 0, 3, vec);
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertTrue(r.columnSummaries().get(0).pages().get(0).toString().contains("full-zip"), r.columnSummaries().get(0).pages().get(0).toString());
      assertTake(r, "vec", new long[] {1234}, expected.get(0), 1, 96 * 4);
      assertTake(r, "vec", new long[] {3, 1999}, expected.get(0), 2, 2 * 96 * 4);
    }
  }

  /** Chunk sizes and value counts from a page's metadata words. */
  static long[][] chunks(byte[] meta, boolean large, long items) {
    int wb = large ? 4 : 2;
    int k = meta.length / wb;
    long[] bytes = new long[k];
    long[] first = new long[k + 1];
    for (int i = 0; i < k; i++) {
      long word = LittleEndian.getUnsigned(meta, i * wb, wb);
      bytes[i] = ((word >>> 4) + 1) * 8;
      first[i + 1] = i == k - 1 ? items : first[i] + (1L << (word & 0xF));
    }
    return new long[][] {bytes, first};
  }

  /** Reads and bytes of a mini-block take touching {@code touched} chunks: one read per run of adjacent chunks. */
  static long[] expectedIo(TreeSet<Integer> touched, long[] bytes) {
    long reads = 0;
    long total = 0;
    int prev = -2;
    for (int k : touched) {
      reads += k == prev + 1 ? 0 : 1;
      total += bytes[k];
      prev = k;
    }
    return new long[] {reads, total};
  }

  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void miniBlockLookupsReadOnlyTheirChunks(FileVersion version) throws IOException {
    Field f = new Field("x", new FieldType(true, new ArrowType.Int(64, true), null), null);
    Path path = dir.resolve("mini-" + version + ".lance");
    int n = 100_000;
    // values of varying magnitude so bit-packed chunks differ in size
    Schema schema = new Schema(List.of(f));
    List<Object> expected = new ArrayList<>();
    Random rnd = new Random(17);
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version));
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      org.apache.arrow.vector.BigIntVector v = (org.apache.arrow.vector.BigIntVector) batch.getVector(0);
      for (int i = 0; i < n; i++) {
        if (rnd.nextInt(50) == 0) {
          v.setNull(i);
        } else {
          v.setSafe(i, rnd.nextLong() >>> (1 + (i / 3000) % 60));
        }
      }
      batch.setRowCount(n);
      for (int i = 0; i < n; i++) {
        expected.add(v.getObject(i));
      }
      w.write(batch);
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      ColumnMetadata.Page page = page(r, 0);
      long[][] ch = chunks(buffer(path, page, 0), version == FileVersion.V2_2, n);
      long[] bytes = ch[0];
      long[] first = ch[1];
      assertTrue(bytes.length > 20, bytes.length + " chunks");
      assertTrue(java.util.Arrays.stream(bytes).distinct().count() > 5, "chunks of different sizes");
      for (int t = 0; t < 30; t++) {
        int sizeOfTake = 1 + rnd.nextInt(6);
        long[] rows = new long[sizeOfTake];
        TreeSet<Integer> touched = new TreeSet<>();
        for (int i = 0; i < rows.length; i++) {
          rows[i] = rnd.nextInt(n);
          int k = java.util.Arrays.binarySearch(first, rows[i]);
          touched.add(k >= 0 ? k : -k - 2);
        }
        long[] io = expectedIo(touched, bytes);
        assertTake(r, "x", rows, expected, io[0], io[1]);
      }
      // a range over several chunks is one read of exactly those chunks
      long a = first[3] + 5;
      long b = first[7] + 1;
      r.readStats().reset();
      r.readRange(a, b, null, allocator).close();
      assertEquals(1, r.readStats().reads());
      assertEquals(bytes[3] + bytes[4] + bytes[5] + bytes[6] + bytes[7], r.readStats().bytes());
    }
  }

  /** Lists in mini-blocks: the repetition index (held in memory) names the chunks; one read. */
  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void miniBlockListLookupsReadTheChunksOfTheRow(FileVersion version) throws IOException {
    Field f = list("l", i32("item"));
    Path path = dir.resolve("minilist-" + version + ".lance");
    int n = 20_000;
    List<List<Object>> expected = write(path, version, n, 0.1, 30, 23, f);
    try (LanceFileReader r = LanceFileReader.open(path)) {
      ColumnMetadata.Page page = page(r, 0);
      long[] bytes = chunks(buffer(path, page, 0), version == FileVersion.V2_2, Long.MAX_VALUE)[0];
      byte[] index = buffer(path, page, page.getBufferSizesCount() - 1);
      int stride = index.length / 8 / bytes.length;
      // row r ends in the first chunk where the rows ended so far pass r; it starts where row
      // r - 1 ended, or in the next chunk when that chunk ended exactly at the row's end
      long[] endedBy = new long[bytes.length + 1];
      boolean[] endsClean = new boolean[bytes.length];
      for (int k = 0; k < bytes.length; k++) {
        endedBy[k + 1] = endedBy[k] + LittleEndian.getLong(index, k * stride * 8);
        endsClean[k] = LittleEndian.getLong(index, (k * stride + stride - 1) * 8) == 0;
      }
      Random rnd = new Random(3);
      for (int t = 0; t < 40; t++) {
        long row = t == 0 ? 0 : t == 1 ? n - 1 : rnd.nextInt(n);
        int e = endChunk(endedBy, row);
        int s = row == 0 ? 0 : endChunk(endedBy, row - 1);
        if (row > 0 && endsClean[s] && endedBy[s + 1] == row) {
          s++;
        }
        long want = 0;
        for (int k = s; k <= e; k++) {
          want += bytes[k];
        }
        assertTake(r, "l", new long[] {row}, expected.get(0), 1, want);
      }
    }
  }

  private static int endChunk(long[] endedBy, long row) {
    int k = 0;
    while (endedBy[k + 1] <= row) {
      k++;
    }
    return k;
  }

  /** A dictionary page reads its dictionary on first use only; without cache budget, every time. */
  @Test
  void dictionaryIsReadOnceThenCached() throws IOException {
    Field f = str("city");
    Path path = dir.resolve("dict.lance");
    int n = 50_000;
    Schema schema = new Schema(List.of(f));
    List<Object> expected = new ArrayList<>();
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults());
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      Random rnd = new Random(1);
      for (int i = 0; i < n; i++) {
        NestedData.set(batch.getVector(0), i, "city-" + rnd.nextInt(300));
      }
      batch.setRowCount(n);
      for (int i = 0; i < n; i++) {
        expected.add(batch.getVector(0).getObject(i));
      }
      w.write(batch);
    }
    for (long budget : new long[] {LruPageCache.DEFAULT_BUDGET, 0}) {
      LruPageCache cache = new LruPageCache(budget);
      try (LanceFileReader r = LanceFileReader.open(path, CodecRegistry.discover(), cache)) {
        assertTrue(r.columnSummaries().get(0).pages().get(0).toString().contains("dictionary"), r.columnSummaries().get(0).pages().get(0).toString());
        ColumnMetadata.Page page = page(r, 0);
        long[][] ch = chunks(buffer(path, page, 0), false, n);
        long dict = page.getBufferSizes(2);
        for (int t = 0; t < 3; t++) {
          long row = 7 + 9000L * t;
          int k = java.util.Arrays.binarySearch(ch[1], row);
          k = k >= 0 ? k : -k - 2;
          boolean dictRead = budget == 0 || t == 0;
          assertTake(r, "city", new long[] {row}, expected, dictRead ? 2 : 1, ch[0][k] + (dictRead ? dict : 0));
        }
        assertEquals(budget == 0 ? 0 : 1, cache.entries());
      }
    }
  }

  /** Constant and all-null pages answer from their layout: no reads. */
  @Test
  void constantPagesReadNothing() {
    Field same = i32("same");
    Field none = i32("none");
    Schema schema = new Schema(List.of(same, none));
    Path path = dir.resolve("constant.lance");
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(FileVersion.V2_2));
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      for (int i = 0; i < 10_000; i++) {
        NestedData.set(batch.getVector(0), i, 42);
        NestedData.set(batch.getVector(1), i, null);
      }
      batch.setRowCount(10_000);
      w.write(batch);
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      assertTrue(r.columnSummaries().get(0).pages().get(0).toString().contains("constant"), r.columnSummaries().get(0).pages().get(0).toString());
      assertTrue(r.columnSummaries().get(1).pages().get(0).toString().contains("constant (all null)"), r.columnSummaries().get(1).pages().get(0).toString());
      r.readStats().reset();
      try (VectorSchemaRoot got = r.take(new long[] {5, 9999, 0}, null, allocator)) {
        assertEquals(0, r.readStats().reads());
        assertEquals(42, got.getVector(0).getObject(1));
        assertEquals(null, got.getVector(1).getObject(1));
      }
    }
  }
}
