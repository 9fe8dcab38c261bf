package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sparse takes from large bit-packed mini-block pages: one row per call, and sorted random rows
 * a few per chunk. These take the random-access path that decodes only the wanted values of a
 * chunk (a whole chunk is decoded only when many of its values are wanted), so every row read is
 * compared with the source, with and without nulls, at every integer width.
 */
class PointTakeTest extends WithAllocator {
  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 7000;
    for (FileVersion version : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2}) {
      for (String type : new String[] {"int8", "uint16", "int32", "uint32", "int64", "uint64"}) {
        for (String nulls : new String[] {"none", "some"}) {
          out.add(Arguments.of(version, type, nulls, seed++));
        }
      }
    }
    return out.stream();
  }

  /** Values below 2^11 (the writer bit-packs them), 30% nulls when nullable. */
  static VectorSchemaRoot narrow(org.apache.arrow.vector.types.pojo.ArrowType type, boolean nullable, int n, long seed) {
    var field = new org.apache.arrow.vector.types.pojo.Field("c",
        new org.apache.arrow.vector.types.pojo.FieldType(nullable, type, null), null);
    VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(List.of(field)), allocator);
    FieldVector v = root.getVector(0);
    v.setInitialCapacity(n);
    v.allocateNew();
    SplittableRandom rnd = new SplittableRandom(seed);
    int limit = ((org.apache.arrow.vector.types.pojo.ArrowType.Int) type).getBitWidth() == 8 ? 100 : 2000;
    for (int i = 0; i < n; i++) {
      if (nullable && rnd.nextInt(10) < 3) {
        v.setNull(i);
      } else {
        ((org.apache.arrow.vector.BaseIntVector) v).setWithPossibleTruncate(i, rnd.nextInt(limit));
      }
    }
    v.setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  @ParameterizedTest(name = "{0} {1} nulls={2} seed={3}")
  @MethodSource("cases")
  void sparseTakesReadTheSourceRows(FileVersion version, String type, String nulls, long seed) {
    int n = 20_000;
    Path file = dir.resolve(version + "-" + type + "-" + nulls + ".lance");
    boolean nullable = nulls.equals("some");
    try (VectorSchemaRoot in = narrow(TestData.TYPES.get(type), nullable, n, seed)) {
      try (LanceFileWriter w = LanceFileWriter.open(file, in.getSchema(), WriterOptions.defaults().withVersion(version))) {
        w.write(in);
      }
      List<Object> expected = TestData.values(in.getVector(0));
      try (LanceFileReader r = LanceFileReader.open(file)) {
        String layout = r.columnSummaries().get(0).pages().toString();
        assertTrue(layout.contains("bitpack"), "the page is bit-packed, else this test checks nothing new: " + layout);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 300; i++) {
          long row = rnd.nextInt(n);
          try (VectorSchemaRoot t = r.take(new long[] {row}, null, allocator)) {
            assertEquals(expected.get((int) row), TestData.value(t.getVector(0), 0), "row " + row + ", seed " + seed);
          }
        }
        // a few rows per 1024-value chunk, some adjacent (merged into one range), plus both ends
        long[] rows = rnd.longs(400, 0, n).distinct().sorted().toArray();
        List<Long> withNeighbours = new ArrayList<>(List.of(0L, (long) n - 1));
        for (long row : rows) {
          withNeighbours.add(row);
          if (row % 5 == 0 && row + 1 < n) {
            withNeighbours.add(row + 1);
          }
        }
        long[] sorted = withNeighbours.stream().mapToLong(Long::longValue).distinct().sorted().toArray();
        try (VectorSchemaRoot t = r.take(sorted, null, allocator)) {
          FieldVector v = t.getVector(0);
          for (int i = 0; i < sorted.length; i++) {
            assertEquals(expected.get((int) sorted[i]), TestData.value(v, i), "row " + sorted[i] + ", seed " + seed);
          }
        }
      }
    }
  }
}
