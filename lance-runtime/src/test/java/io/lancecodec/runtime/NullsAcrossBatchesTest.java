package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A page's null bitmap grows only while nulls come: nulls in an early batch, then batches
 * without any (longer than the bitmap had room for), then nulls again, all in one page, and a
 * second page after it without nulls; every null and every value read back where it was.
 */
class NullsAcrossBatchesTest extends WithAllocator {
  private static final Schema SCHEMA = new Schema(List.of(new Field("i", FieldType.nullable(new ArrowType.Int(32, true)), null)));

  @ParameterizedTest
  @ValueSource(strings = {"2.1", "2.2", "2.3"})
  void nullsKeepTheirPlaces(String version) throws Exception {
    int[] sizes = {10, 40_000, 7, 30_000, 20_000};
    boolean[] withNulls = {true, false, true, false, false};
    Path f = dir.resolve("nulls-" + version + ".lance");
    int total = 0;
    try (LanceFileWriter w = LanceFileWriter.open(f, SCHEMA, WriterOptions.defaults().withVersion(FileVersion.parse(version))
            .withPageBytesPerColumn(200_000));
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      for (int b = 0; b < sizes.length; b++) {
        IntVector v = (IntVector) root.getVector(0);
        v.allocateNew(sizes[b]);
        for (int i = 0; i < sizes[b]; i++) {
          int row = total + i;
          if (withNulls[b] && isNull(row)) {
            v.setNull(i);
          } else {
            v.set(i, row);
          }
        }
        root.setRowCount(sizes[b]);
        w.write(root);
        total += sizes[b];
      }
    }
    try (LanceFileReader r = LanceFileReader.open(f); VectorSchemaRoot back = r.readRange(0, total, List.of("i"), allocator)) {
      IntVector v = (IntVector) back.getVector(0);
      int nulls = 0;
      for (int row = 0; row < total; row++) {
        boolean batchHasNulls = row < 10 || (row >= 40_010 && row < 40_017);
        if (batchHasNulls && isNull(row)) {
          assertTrue(v.isNull(row), "row " + row);
          nulls++;
        } else {
          assertEquals(row, v.get(row), "row " + row);
        }
      }
      assertEquals(nulls, v.getNullCount());
      assertEquals(2, r.columnSummaries().get(0).pages().size(), "the first four batches in one page, the last in another");
    }
  }

  private static boolean isNull(int row) {
    return row % 3 == 1;
  }
}
