package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.spi.FileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writers reuse the value arrays of pages they have written (RecycledArrays) for later pages of
 * the same size, across writers and threads: files written in turn and at once, with pages of
 * one batch and of several, all of the same sizes, each read back with its own values.
 */
class RecycledPagesTest extends WithAllocator {
  private static final Schema SCHEMA = new Schema(List.of(
      new Field("i", FieldType.notNullable(new ArrowType.Int(32, true)), null),
      new Field("s", FieldType.notNullable(new ArrowType.Utf8()), null)));

  /** int32 values a batch: 320,000 bytes, above the smallest recycled array. */
  private static final int ROWS = 80_000;

  private static final int BATCHES = 6;

  @ParameterizedTest
  @ValueSource(strings = {"2.1", "2.3"})
  void writersInTurn(String version) throws Exception {
    List<LanceFileWriter> writers = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      files.add(dir.resolve("turn-" + version + "-" + k + ".lance"));
      writers.add(LanceFileWriter.open(files.get(k), SCHEMA, options(version, k)));
    }
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      for (int b = 0; b < BATCHES; b++) {
        for (int k = 0; k < writers.size(); k++) {
          fill(root, k, b);
          writers.get(k).write(root);
        }
      }
    }
    for (LanceFileWriter w : writers) {
      w.close();
    }
    for (int k = 0; k < files.size(); k++) {
      check(files.get(k), k);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.1", "2.3"})
  void writersAtOnce(String version) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int f = 0; f < 3; f++) {
            int k = 10 * thread + f;
            Path file = dir.resolve("once-" + version + "-" + k + ".lance");
            try (LanceFileWriter w = LanceFileWriter.open(file, SCHEMA, options(version, k));
                VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
              for (int b = 0; b < BATCHES; b++) {
                fill(root, k, b);
                w.write(root);
              }
            }
            check(file, k);
          }
          return null;
        }));
      }
      for (Future<?> d : done) {
        d.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Odd files take a page per batch, even ones a page per two batches (copied from chunks). */
  private static WriterOptions options(String version, int k) {
    return WriterOptions.defaults().withVersion(FileVersion.parse(version))
        .withPageBytesPerColumn(k % 2 == 1 ? 100_000 : 500_000);
  }

  private static int value(int k, long row) {
    return (int) (row * 2_654_435_761L + k * 97L);
  }

  private static String text(int k, long row) {
    return k + ":" + row;
  }

  private static void fill(VectorSchemaRoot root, int k, int b) {
    IntVector iv = (IntVector) root.getVector("i");
    VarCharVector sv = (VarCharVector) root.getVector("s");
    iv.allocateNew(ROWS);
    sv.allocateNew(ROWS * 12L, ROWS);
    for (int i = 0; i < ROWS; i++) {
      long row = (long) b * ROWS + i;
      iv.set(i, value(k, row));
      sv.setSafe(i, text(k, row).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(ROWS);
  }

  private static void check(Path file, int k) {
    try (LanceFileReader r = LanceFileReader.open(file);
        VectorSchemaRoot back = r.readRange(0, (long) BATCHES * ROWS, List.of("i", "s"), allocator)) {
      IntVector iv = (IntVector) back.getVector("i");
      VarCharVector sv = (VarCharVector) back.getVector("s");
      for (int row = 0; row < BATCHES * ROWS; row++) {
        if (iv.get(row) != value(k, row)) {
          assertEquals(value(k, row), iv.get(row), file + " row " + row);
        }
        String s = new String(sv.get(row), StandardCharsets.UTF_8);
        if (!s.equals(text(k, row))) {
          assertEquals(text(k, row), s, file + " row " + row);
        }
      }
    }
  }
}
