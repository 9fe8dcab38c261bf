package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Many threads, one reader: 16 threads take random rows, read random ranges and scan projected
 * columns in random batch sizes on one shared reader whose page cache (dictionaries, constant
 * pages) is small enough to evict on nearly every use. Every answer must equal the
 * single-threaded one, cell for cell. The suite runs {@link #SUITE_OPERATIONS} operations per
 * version; {@code -Dstress.operations=1000000} (see {@code docs/reliability.md}) runs the long form.
 */
class ConcurrentReaderTest extends WithAllocator {
  static final int THREADS = 16;
  static final int ROWS = 6000;
  static final long SUITE_OPERATIONS = 2000;

  @ParameterizedTest
  @EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2", "V2_3"})
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void sixteenThreadsOnOneReaderAgreeWithOne(FileVersion version) throws Exception {
    Path f = dir.resolve("concurrent-" + version + ".lance");
    Schema schema = new Schema(List.of(
        NestedData.i32("id"),
        new Field("city", new FieldType(true, ArrowType.Utf8.INSTANCE, null), null),
        NestedData.str("text"),
        NestedData.list("tags", NestedData.str("item")),
        NestedData.struct("point", NestedData.i32("x"), NestedData.str("label")),
        NestedData.fsl("v", 4)));
    String[] cities = {"Lisbon", "Oslo", "Lima", "Kyoto", "Accra"};
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      Random rnd = new Random(31);
      for (int i = 0; i < ROWS; i++) {
        NestedData.set(root.getVector(0), i, i);
        NestedData.set(root.getVector(1), i, rnd.nextInt(12) == 0 ? null : cities[rnd.nextInt(cities.length)]);
        for (int c = 2; c < 6; c++) {
          NestedData.set(root.getVector(c), i, NestedData.value(schema.getFields().get(c), rnd, 0.15, 4, 0));
        }
      }
      root.setRowCount(ROWS);
      // small pages: many pages per column, so the threads meet on page boundaries and in the cache
      try (LanceFileWriter w = LanceFileWriter.open(f, schema,
          WriterOptions.defaults().withVersion(version).withPageBytesPerColumn(8 << 10))) {
        w.write(root);
      }
    }
    long operations = Long.getLong("stress.operations", SUITE_OPERATIONS);
    try (LanceFileReader shared = LanceFileReader.open(f, CodecRegistry.discover(), new LruPageCache(2048))) {
      String[][] expected = expectedCells(shared);
      List<String> names = schema.getFields().stream().map(Field::getName).toList();
      AtomicLong done = new AtomicLong();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          long seed = 1000 + t;
          futures.add(pool.submit(() -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            while (done.getAndIncrement() < operations) {
              operation(shared, rnd, names, expected);
            }
            return null;
          }));
        }
        for (Future<?> fu : futures) {
          fu.get();
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory left allocated");
    }
  }

  /** Every cell of the file as text, read by one thread: {@code [column][row]}. */
  private static String[][] expectedCells(LanceFileReader r) {
    try (VectorSchemaRoot all = r.readRange(0, r.numRows(), null, allocator)) {
      String[][] cells = new String[all.getFieldVectors().size()][(int) r.numRows()];
      for (int c = 0; c < cells.length; c++) {
        for (int i = 0; i < cells[c].length; i++) {
          cells[c][i] = NestedData.text(all.getVector(c), i);
        }
      }
      return cells;
    }
  }

  /** One random operation on the shared reader, checked against the single-threaded cells. */
  private static void operation(LanceFileReader r, SplittableRandom rnd, List<String> names, String[][] expected) {
    List<String> columns = new ArrayList<>();
    for (String n : names) {
      if (rnd.nextInt(3) != 0) {
        columns.add(n);
      }
    }
    if (columns.isEmpty()) {
      columns.add(names.get(rnd.nextInt(names.size())));
    }
    int rows = (int) r.numRows();
    switch (rnd.nextInt(3)) {
      case 0 -> {
        long[] take = new long[1 + rnd.nextInt(20)];
        for (int i = 0; i < take.length; i++) {
          take[i] = rnd.nextInt(rows);
        }
        if (rnd.nextBoolean()) {
          Arrays.sort(take);
        }
        try (VectorSchemaRoot got = r.take(take, columns, allocator)) {
          check(got, columns, names, expected, i -> (int) take[i], take.length, "take");
        }
      }
      case 1 -> {
        int start = rnd.nextInt(rows);
        int end = Math.min(rows, start + 1 + rnd.nextInt(300));
        try (VectorSchemaRoot got = r.readRange(start, end, columns, allocator)) {
          check(got, columns, names, expected, i -> start + i, end - start, "range " + start);
        }
      }
      default -> {
        int batch = 1 + rnd.nextInt(400);
        int at = 0;
        try (Scanner s = r.scan(columns, batch, allocator)) {
          for (int k = 0; k < 2 && s.hasNext(); k++) {
            try (VectorSchemaRoot got = s.next()) {
              int from = at;
              check(got, columns, names, expected, i -> from + i, Math.min(batch, rows - from), "scan batch " + k);
              at += got.getRowCount();
            }
          }
        }
      }
    }
  }

  private static void check(VectorSchemaRoot got, List<String> columns, List<String> names, String[][] expected,
      java.util.function.IntUnaryOperator row, int count, String what) {
    assertEquals(count, got.getRowCount(), what + ": rows");
    for (int c = 0; c < columns.size(); c++) {
      FieldVector v = got.getVector(c);
      String[] want = expected[names.indexOf(columns.get(c))];
      for (int i = 0; i < count; i++) {
        String cell = NestedData.text(v, i);
        if (!want[row.applyAsInt(i)].equals(cell)) {
          throw new AssertionError(what + ": column " + columns.get(c) + " row " + row.applyAsInt(i) + ": want "
              + want[row.applyAsInt(i)] + " got " + cell);
        }
      }
    }
  }
}
