package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages whose levels are far over 32 KiB but are stored chunk by chunk: with codec-general on the
 * class path their levels are not framed in zstd unasked, since each chunk's frame would be a
 * decoding call of its own on 4,096 levels (lists of about 28 token ids scanned a quarter slower
 * for 1.4% of their bytes).
 */
class ChunkedLevelsFileTest {
  private static final BufferAllocator ALLOC = new RootAllocator();

  @TempDir Path dir;

  @AfterAll
  static void close() {
    ALLOC.close();
  }

  @Test
  void longListsKeepTheirRepetitionLevelsUnframed() throws Exception {
    Field item = new Field("item", FieldType.notNullable(new ArrowType.Int(32, true)), null);
    Field f = new Field("v", FieldType.notNullable(new ArrowType.List()), List.of(item));
    Schema schema = new Schema(List.of(f));
    for (FileVersion version : List.of(FileVersion.V2_2, FileVersion.V2_3)) {
      Path file = dir.resolve("lists-" + version + ".lance");
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, ALLOC)) {
        ListVector lists = (ListVector) root.getVector(0);
        lists.allocateNew();
        IntVector items = (IntVector) lists.getDataVector();
        Random rnd = new Random(28);
        int rows = 10_000;
        int at = 0;
        for (int r = 0; r < rows; r++) {
          lists.startNewValue(r);
          int len = 20 + rnd.nextInt(17);
          for (int i = 0; i < len; i++) {
            items.setSafe(at++, rnd.nextInt(100_000));
          }
          lists.endValue(r, len);
        }
        items.setValueCount(at);
        lists.setValueCount(rows);
        root.setRowCount(rows);
        try (LanceFileWriter w = LanceFileWriter.open(file, schema, WriterOptions.defaults().withVersion(version))) {
          w.write(root);
        }
        try (LanceFileReader r = LanceFileReader.open(file); VectorSchemaRoot back = r.readRange(0, rows, null, ALLOC)) {
          for (int i = 0; i < rows; i++) {
            assertEquals(lists.getObject(i), back.getVector(0).getObject(i), "row " + i);
          }
          String page = r.columnSummaries().get(0).pages().get(0).toString();
          assertTrue(page.contains("rep: bitpack"), page);
          assertFalse(page.contains("general"), page);
        }
      }
    }
  }
}
