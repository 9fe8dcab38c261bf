package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Blob columns (v1 layout): values out of line, descriptions in the page, nulls and empty
 * values kept apart, several pages, full reads, scans and unsorted takes; corrupt descriptions
 * fail cleanly.
 */
class BlobRoundTripTest extends WithAllocator {
  static Schema schema() {
    Field blob = new Field("b", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null, Map.of("lance-encoding:blob", "true")), null);
    return new Schema(List.of(blob, new Field("id", FieldType.nullable(new ArrowType.Int(32, true)), null)));
  }

  /** Row i: null, empty or random bytes up to maxLen (a few of them maxLen long). */
  static VectorSchemaRoot rows(int n, int maxLen, long seed) {
    Random rnd = new Random(seed);
    VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
    LargeVarBinaryVector b = (LargeVarBinaryVector) root.getVector(0);
    IntVector id = (IntVector) root.getVector(1);
    for (int i = 0; i < n; i++) {
      int kind = rnd.nextInt(6);
      if (kind == 0) {
        b.setNull(i);
      } else {
        byte[] v = new byte[kind == 1 ? 0 : kind == 2 ? maxLen : rnd.nextInt(maxLen + 1)];
        rnd.nextBytes(v);
        b.setSafe(i, v);
      }
      id.setSafe(i, i);
    }
    root.setRowCount(n);
    return root;
  }

  @ParameterizedTest(name = "{0} rows={1} maxLen={2}")
  @CsvSource({"V2_1,1,10", "V2_1,200,3000", "V2_2,200,3000", "V2_2,7,307200", "V2_1,1000,100"})
  void roundTrip(FileVersion version, int n, int maxLen) {
    Path path = dir.resolve("blob-" + version + n + "-" + maxLen + ".lance");
    try (VectorSchemaRoot expected = rows(n, maxLen, n * 31L + maxLen)) {
      // small pages so a column has several, each with its own values written before it
      try (LanceFileWriter w = LanceFileWriter.open(path, expected.getSchema(),
          WriterOptions.defaults().withVersion(version).withPageBytesPerColumn(50_000))) {
        Interop.writeInBatches(expected, 97, w);
      }
      try (LanceFileReader r = LanceFileReader.open(path)) {
        assertEquals(expected.getSchema(), r.schema());
        assertTrue(r.columnSummaries().get(0).pages().get(0).toString().contains("blob"), r.columnSummaries().toString());
        try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
          assertSame(expected, all, null);
        }
        long[] take = new Random(n).longs(Math.min(n, 40), 0, n).toArray();
        try (VectorSchemaRoot t = r.take(take, List.of("b", "id"), allocator)) {
          assertSame(expected, t, take);
        }
        int at = 0;
        var it = r.scan(List.of("b"), 33, allocator);
        while (it.hasNext()) {
          try (VectorSchemaRoot batch = it.next()) {
            for (int i = 0; i < batch.getRowCount(); i++) {
              assertArrayEquals(((LargeVarBinaryVector) expected.getVector(0)).getObject(at + i),
                  ((LargeVarBinaryVector) batch.getVector(0)).getObject(i), "scan row " + (at + i));
            }
            at += batch.getRowCount();
          }
        }
        assertEquals(n, at);
      }
    }
  }

  private static void assertSame(VectorSchemaRoot expected, VectorSchemaRoot actual, long[] rows) {
    int n = rows == null ? expected.getRowCount() : rows.length;
    assertEquals(n, actual.getRowCount());
    LargeVarBinaryVector e = (LargeVarBinaryVector) expected.getVector(0);
    LargeVarBinaryVector a = (LargeVarBinaryVector) actual.getVector(0);
    for (int i = 0; i < n; i++) {
      int src = rows == null ? i : (int) rows[i];
      assertEquals(e.isNull(src), a.isNull(i), "null at row " + src);
      assertArrayEquals(e.getObject(src), a.getObject(i), "row " + src);
      assertEquals(expected.getVector(1).getObject(src), actual.getVector(1).getObject(i));
    }
  }

  @Test
  void blobNeedsTopLevelLargeBinary() {
    Field utf8 = new Field("b", new FieldType(true, ArrowType.Utf8.INSTANCE, null, Map.of("lance-encoding:blob", "true")), null);
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> LanceFileWriter.open(dir.resolve("x.lance"), new Schema(List.of(utf8)), WriterOptions.defaults()));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
  }

  @Test
  void descriptionPointingOutsideTheFileIsCorrupt() throws Exception {
    Path path = dir.resolve("corrupt-blob.lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(schema().getFields().get(0))), allocator)) {
      LargeVarBinaryVector b = (LargeVarBinaryVector) root.getVector(0);
      b.setSafe(0, new byte[] {1, 2, 3, 4, 5});
      b.setSafe(1, new byte[] {6, 7, 8});
      root.setRowCount(2);
      try (LanceFileWriter w = LanceFileWriter.open(path, root.getSchema(), WriterOptions.defaults())) {
        w.write(root);
      }
    }
    byte[] bytes = Files.readAllBytes(path);
    // the descriptions (position 0, size 5; position 64, size 3) sit in the chunk after its header
    int at = TestData.indexOf(bytes, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0});
    assertTrue(at > 0);
    bytes[at + 8 + 1] = 0x7F; // size 5 becomes 32517, past the end of the file
    Path bad = dir.resolve("corrupt-blob-2.lance");
    Files.write(bad, bytes);
    try (LanceFileReader r = LanceFileReader.open(bad)) {
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> r.readRange(0, 2, null, allocator).close());
      assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    }
  }

  /** Writes a root in slices, like several batches. */
  static final class Interop {
    static void writeInBatches(VectorSchemaRoot root, int rows, LanceFileWriter w) {
      int n = root.getRowCount();
      for (int s = 0; s < n; s += rows) {
        try (VectorSchemaRoot slice = root.slice(s, Math.min(rows, n - s))) {
          w.write(slice);
        }
      }
    }
  }
}
