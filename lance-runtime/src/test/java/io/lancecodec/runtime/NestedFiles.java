package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** Writing {@link NestedData}'s values through the runtime and reading them back. */
final class NestedFiles {
  private NestedFiles() {}

  /**
   * Writes rows 0..n-1 through {@code w} in two batches (so pages concatenate batches with
   * different null patterns) and into {@code expected}: column 0 gets {@code values}' value of
   * the row through {@code setter}, column 1 the row number.
   */
  static void writeInTwoBatches(LanceFileWriter w, Schema schema, VectorSchemaRoot expected, int n,
      java.util.function.IntFunction<Object> values, NestedData.Setter setter, BufferAllocator allocator) {
    int half = n / 2;
    for (int[] part : new int[][] {{0, half}, {half, n}}) {
      try (VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
        for (int i = part[0]; i < part[1]; i++) {
          Object v = values.apply(i);
          setter.set(batch.getVector(0), i - part[0], v);
          setter.set(expected.getVector(0), i, v);
          NestedData.set(batch.getVector(1), i - part[0], i);
          NestedData.set(expected.getVector(1), i, i);
        }
        batch.setRowCount(part[1] - part[0]);
        if (part[1] > part[0]) {
          w.write(batch);
        }
      }
    }
  }

  /**
   * The file at {@code path} has {@code schema} and reads back as {@code expected} (the nested
   * column first): a full read, a batched scan of the first column and an unsorted take of up to
   * 50 rows with repeats.
   */
  static void assertReadsBack(java.nio.file.Path path, org.apache.arrow.vector.types.pojo.Schema schema, VectorSchemaRoot expected,
      int n, Random rnd, org.apache.arrow.memory.BufferAllocator allocator) {
    try (LanceFileReader r = LanceFileReader.open(path)) {
      org.junit.jupiter.api.Assertions.assertEquals(schema, r.schema());
      try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
        NestedData.assertRows(expected, all, 0, null);
      }
      java.util.Iterator<VectorSchemaRoot> it = r.scan(List.of(schema.getFields().get(0).getName()), 777, allocator);
      int at = 0;
      while (it.hasNext()) {
        try (VectorSchemaRoot b = it.next()) {
          for (int i = 0; i < b.getRowCount(); i++) {
            org.junit.jupiter.api.Assertions.assertEquals(expected.getVector(0).getObject(at + i), b.getVector(0).getObject(i),
                "scan row " + (at + i));
          }
          at += b.getRowCount();
        }
      }
      org.junit.jupiter.api.Assertions.assertEquals(n, at);
      long[] rows = new long[Math.min(n, 50)];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = rnd.nextInt(n);
      }
      try (VectorSchemaRoot t = r.take(rows, null, allocator)) {
        NestedData.assertRows(expected, t, 0, rows);
      }
    }
  }
}
