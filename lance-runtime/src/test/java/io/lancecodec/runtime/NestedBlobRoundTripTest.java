package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Blob columns under structs: {@code s: struct<id, data: blob, t: struct<b: blob>>} with nulls
 * at every level, empty and large values, several pages; full reads, scans, unsorted takes with
 * repeats, the reads a lookup costs, blobs under lists refused, corrupt descriptions.
 */
class NestedBlobRoundTripTest extends WithAllocator {
  static Field blob(String name) {
    return new Field(name, new FieldType(true, ArrowType.LargeBinary.INSTANCE, null, Map.of("lance-encoding:blob", "true")), null);
  }

  static Field struct(String name, Field... children) {
    return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(children));
  }

  static Schema schema() {
    Field id = new Field("id", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field k = new Field("k", FieldType.nullable(new ArrowType.Int(32, true)), null);
    return new Schema(List.of(struct("s", id, blob("data"), struct("t", blob("b"))), k));
  }

  /** A null, empty, maxLen-long or random-length value. */
  static void setBlob(LargeVarBinaryVector v, int i, Random rnd, int maxLen) {
    int kind = rnd.nextInt(6);
    if (kind == 0) {
      v.setNull(i);
    } else {
      byte[] b = new byte[kind == 1 ? 0 : kind == 2 ? maxLen : rnd.nextInt(maxLen + 1)];
      rnd.nextBytes(b);
      v.setSafe(i, b);
    }
  }

  /** Rows with null structs (outer and inner), null and empty values. */
  static VectorSchemaRoot rows(int n, int maxLen, long seed) {
    Random rnd = new Random(seed);
    VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
    StructVector s = (StructVector) root.getVector(0);
    IntVector id = (IntVector) s.getChild("id");
    LargeVarBinaryVector data = (LargeVarBinaryVector) s.getChild("data");
    StructVector t = (StructVector) s.getChild("t");
    LargeVarBinaryVector b = (LargeVarBinaryVector) t.getChild("b");
    IntVector k = (IntVector) root.getVector(1);
    for (int i = 0; i < n; i++) {
      k.setSafe(i, i);
      // values under a null struct are set too: they must not leak through
      id.setSafe(i, i);
      setBlob(data, i, rnd, maxLen);
      setBlob(b, i, rnd, maxLen);
      if (rnd.nextInt(7) == 0) {
        t.setNull(i);
      } else {
        t.setIndexDefined(i);
      }
      if (rnd.nextInt(7) == 0) {
        s.setNull(i);
      } else {
        s.setIndexDefined(i);
      }
    }
    root.setRowCount(n);
    return root;
  }

  /** A row as text: nulls at each level, values in hex. */
  static String canon(FieldVector v, int i) {
    if (v.isNull(i)) {
      return "null";
    }
    if (v instanceof StructVector s) {
      StringBuilder sb = new StringBuilder("{");
      for (FieldVector c : s.getChildrenFromFields()) {
        sb.append(c.getName()).append('=').append(canon(c, i)).append(' ');
      }
      return sb.append('}').toString();
    }
    if (v instanceof LargeVarBinaryVector b) {
      return HexFormat.of().formatHex(b.get(i));
    }
    return String.valueOf(v.getObject(i));
  }

  static List<String> canon(VectorSchemaRoot root) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < root.getRowCount(); i++) {
      out.add(canon(root.getVector(0), i) + " k=" + canon(root.getVector(1), i));
    }
    return out;
  }

  static void write(Path path, VectorSchemaRoot root, FileVersion version, long pageBytes) {
    try (LanceFileWriter w = LanceFileWriter.open(path, root.getSchema(),
        WriterOptions.defaults().withVersion(version).withPageBytesPerColumn(pageBytes))) {
      BlobRoundTripTest.Interop.writeInBatches(root, 97, w);
    }
  }

  @ParameterizedTest(name = "{0} rows={1} maxLen={2}")
  @CsvSource({"V2_1,1,10", "V2_2,1,0", "V2_1,300,2000", "V2_2,300,2000", "V2_1,12,307200", "V2_2,12,307200", "V2_1,1500,40", "V2_2,1500,40"})
  void roundTrip(FileVersion version, int n, int maxLen) {
    Path path = dir.resolve("nested-blob-" + version + n + "-" + maxLen + ".lance");
    long seed = n * 131L + maxLen + version.ordinal();
    try (VectorSchemaRoot expected = rows(n, maxLen, seed)) {
      List<String> want = canon(expected);
      write(path, expected, version, 50_000);
      try (LanceFileReader r = LanceFileReader.open(path)) {
        assertEquals(expected.getSchema(), r.schema());
        String pages = r.columnSummaries().toString();
        assertTrue(pages.contains("blob"), pages);
        try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
          assertEquals(want, canon(all));
        }
        Random rnd = new Random(seed);
        long[] take = rnd.longs(Math.min(3 * n, 60), 0, n).toArray();
        try (VectorSchemaRoot got = r.take(take, List.of("s", "k"), allocator)) {
          List<String> picked = new ArrayList<>();
          for (long row : take) {
            picked.add(want.get((int) row));
          }
          assertEquals(picked, canon(got));
        }
        List<String> scanned = new ArrayList<>();
        Iterator<VectorSchemaRoot> it = r.scan(null, 33, allocator);
        while (it.hasNext()) {
          try (VectorSchemaRoot batch = it.next()) {
            scanned.addAll(canon(batch));
          }
        }
        assertEquals(want, scanned);
      }
    }
  }

  /**
   * A lookup reads the chunk of descriptions holding the row, then the value if it has bytes;
   * the same at the top level and under a struct.
   */
  @ParameterizedTest(name = "{0} underStruct={1}")
  @CsvSource({"V2_1,true", "V2_2,true", "V2_1,false", "V2_2,false"})
  void lookupReadsDescriptionsThenValue(FileVersion version, boolean underStruct) {
    Path path = dir.resolve("nested-blob-reads-" + version + underStruct + ".lance");
    Schema schema = new Schema(List.of(underStruct ? struct("s", blob("data")) : blob("s")));
    int n = 400;
    List<byte[]> values = new ArrayList<>();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      StructVector s = underStruct ? (StructVector) root.getVector(0) : null;
      LargeVarBinaryVector data = (LargeVarBinaryVector) (underStruct ? s.getChild("data") : root.getVector(0));
      Random rnd = new Random(7);
      for (int i = 0; i < n; i++) {
        setBlob(data, i, rnd, 5000);
        values.add(data.isNull(i) ? null : data.get(i));
        if (s != null && i % 11 == 3) {
          s.setNull(i);
          values.set(i, null);
        } else if (s != null) {
          s.setIndexDefined(i);
        }
      }
      root.setRowCount(n);
      write(path, root, version, 1L << 20);
    }
    try (LanceFileReader r = LanceFileReader.open(path)) {
      java.util.Set<Long> seen = new java.util.TreeSet<>();
      r.searchCacheBytes();
      for (int row : new int[] {0, 3, 4, 5, 57, 199, 398}) {
        r.readStats().reset();
        try (VectorSchemaRoot got = r.take(new long[] {row}, List.of("s"), allocator)) {
          byte[] v = values.get(row);
          long expectedReads = 1 + (v != null && v.length > 0 ? 1 : 0);
          assertEquals(expectedReads, r.readStats().reads(), "reads for row " + row);
          seen.add(expectedReads);
          String want = v == null ? "null" : HexFormat.of().formatHex(v);
          FieldVector top = got.getVector(0);
          String have = top instanceof StructVector s && !s.isNull(0) ? canon(s.getChild("data"), 0) : canon(top, 0);
          assertEquals(want, have, "row " + row);
        }
      }
      assertEquals(java.util.Set.of(1L, 2L), seen, "rows with and without bytes both looked up");
    }
  }

  @Test
  void blobUnderListIsRefused() {
    Field list = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(blob("item")));
    Field structList = struct("s", new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(blob("item"))));
    for (Field f : List.of(list, structList)) {
      LanceCodecException e = assertThrows(LanceCodecException.class,
          () -> LanceFileWriter.open(dir.resolve("list-blob.lance"), new Schema(List.of(f)), WriterOptions.defaults()));
      assertEquals(LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
      assertTrue(e.getMessage().contains("under"), e.getMessage());
    }
  }

  /** s.data holds "abcde" at 0 and "xyz"; the first description is (0, 5). */
  private static byte[] smallFile(String name) throws Exception {
    Path path = dir.resolve(name);
    Schema schema = new Schema(List.of(struct("s", blob("data"))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      StructVector s = (StructVector) root.getVector(0);
      LargeVarBinaryVector data = (LargeVarBinaryVector) s.getChild("data");
      data.setSafe(0, "abcde".getBytes());
      data.setSafe(1, "xyz".getBytes());
      s.setIndexDefined(0);
      s.setNull(2);
      data.setNull(2);
      s.setIndexDefined(1);
      root.setRowCount(3);
      write(path, root, FileVersion.V2_1, 1L << 20);
    }
    return Files.readAllBytes(path);
  }

  private static void assertCorrupt(String name, byte[] bytes) throws Exception {
    Path bad = dir.resolve(name);
    Files.write(bad, bytes);
    try (LanceFileReader r = LanceFileReader.open(bad)) {
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> r.readRange(0, 3, null, allocator).close());
      assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    }
  }

  private static int firstDescription(byte[] bytes) {
    int at = TestData.indexOf(bytes, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0});
    assertTrue(at > 0, "description (0, 5) not found");
    return at;
  }

  @Test
  void descriptionPastTheFileIsCorrupt() throws Exception {
    byte[] bytes = smallFile("nb-past.lance");
    bytes[firstDescription(bytes) + 8 + 2] = 0x10; // size 5 becomes 1 MiB + 5, past the file
    assertCorrupt("nb-past-bad.lance", bytes);
  }

  @Test
  void sizeThatOverflowsIsCorrupt() throws Exception {
    byte[] bytes = smallFile("nb-overflow.lance");
    int at = firstDescription(bytes);
    for (int j = 0; j < 8; j++) {
      bytes[at + 8 + j] = (byte) 0xFF; // size 2^64 - 1: position + size wraps around
    }
    bytes[at] = 64;
    assertCorrupt("nb-overflow-bad.lance", bytes);
  }

  @Test
  void nullMarkerWithAnUnknownLevelIsCorrupt() throws Exception {
    byte[] bytes = smallFile("nb-level.lance");
    int at = firstDescription(bytes);
    bytes[at + 2] = 9; // (9 << 16, 0): the page's layers only define levels 1 and 2
    bytes[at + 8] = 0;
    assertCorrupt("nb-level-bad.lance", bytes);
    bytes[at + 2] = 1;
    bytes[at] = 1; // repetition level 1 in a page without lists
    assertCorrupt("nb-rep-bad.lance", bytes);
  }
}
