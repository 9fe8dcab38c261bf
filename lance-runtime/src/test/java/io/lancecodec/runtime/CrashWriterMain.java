package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The writing process {@link CrashSafeWriteTest} kills: writes {@code DIR/NAME} again and again
 * (the same rows each time, {@link #BATCHES} batches of {@link #BATCH_ROWS}), printing
 * {@code started} once and {@code wrote K} after each close. Args: DIR NAME VERSION.
 */
public final class CrashWriterMain {
  static final int BATCHES = 40;
  static final int BATCH_ROWS = 2000;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("i", FieldType.notNullable(new ArrowType.Int(32, true)), null),
      new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));

  private CrashWriterMain() {}

  /** Row r's string. */
  static String text(int r) {
    return "row " + (r % 997) + " of a file that must be whole";
  }

  public static void main(String[] args) throws Exception {
    Path target = Path.of(args[0]).resolve(args[1]);
    FileVersion version = FileVersion.parse(args[2]);
    System.out.println("started");
    System.out.flush();
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc)) {
      for (int k = 1; ; k++) {
        try (LanceFileWriter w = LanceFileWriter.open(target, SCHEMA, WriterOptions.defaults().withVersion(version)
            .withPageBytesPerColumn(64 << 10))) {
          for (int b = 0; b < BATCHES; b++) {
            fill(root, b * BATCH_ROWS);
            w.write(root);
          }
        }
        System.out.println("wrote " + k);
        System.out.flush();
      }
    }
  }

  static void fill(VectorSchemaRoot root, int first) {
    IntVector i = (IntVector) root.getVector(0);
    VarCharVector s = (VarCharVector) root.getVector(1);
    i.allocateNew(BATCH_ROWS);
    s.allocateNew(BATCH_ROWS);
    for (int r = 0; r < BATCH_ROWS; r++) {
      i.set(r, first + r);
      s.setSafe(r, text(first + r).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(BATCH_ROWS);
  }
}
