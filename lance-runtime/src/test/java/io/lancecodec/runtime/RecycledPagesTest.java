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

  /**
   * A recycled array keeps the bytes of the page it last held: a file written into arrays of a
   * file with other values of the same widths is byte for byte the file written into new ones,
   * so no encoder leaves a byte of the array unwritten.
   */
  @ParameterizedTest
  @ValueSource(strings = {"2.1", "2.2", "2.3"})
  void recycledArraysLeaveNoOldBytes(String version) throws Exception {
    Path first = dir.resolve("stale-first-" + version + ".lance");
    Path other = dir.resolve("stale-other-" + version + ".lance");
    Path again = dir.resolve("stale-again-" + version + ".lance");
    writeWidths(first, version, 0);
    writeWidths(other, version, 0xFFFF);
    writeWidths(again, version, 0);
    assertEquals(java.nio.file.Files.size(first), java.nio.file.Files.size(other), "the same widths, so the same page sizes");
    org.junit.jupiter.api.Assertions.assertArrayEquals(java.nio.file.Files.readAllBytes(first), java.nio.file.Files.readAllBytes(again));
  }

  /**
   * 17-bit values in every chunk (XOR with {@code flip} keeps that), one page of one batch: two
   * recycled arrays a file (values and packed page), so the next file takes exactly these.
   */
  private static void writeWidths(Path file, String version, int flip) {
    Schema schema = new Schema(List.of(new Field("u", FieldType.notNullable(new ArrowType.Int(32, false)), null)));
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    try (LanceFileWriter w = LanceFileWriter.open(file, schema, WriterOptions.defaults().withVersion(FileVersion.parse(version)));
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      org.apache.arrow.vector.UInt4Vector v = (org.apache.arrow.vector.UInt4Vector) root.getVector(0);
      // a size of this version's own: its first file is written into new arrays, not the last test's
      int n = 2 * ROWS + 1024 * version.charAt(2);
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, (0x10000 | random.nextInt(0x10000)) ^ flip);
      }
      root.setRowCount(n);
      w.write(root);
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
