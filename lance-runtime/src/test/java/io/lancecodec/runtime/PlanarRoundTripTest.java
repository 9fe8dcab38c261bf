package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static io.lancecodec.testkit.NestedData.i32;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * 2.3 files with the planar layout, every flat type and nested shape the 2.1/2.2 matrix has,
 * with the writer's own choice of structure and with sparse structure forced, at null fractions
 * from none to mostly null; full reads, batched scans and unsorted takes with repeats.
 */
class PlanarRoundTripTest extends WithAllocator {
  static Stream<Arguments> nested() {
    List<Arguments> out = new ArrayList<>();
    long seed = 2300;
    for (String schema : NestedRoundTripTest.schemas().keySet()) {
      for (String structure : new String[] {"auto", "sparse"}) {
        for (int n : new int[] {1, 300, 4097}) {
          for (double nulls : new double[] {0, 0.25, 0.9}) {
            out.add(Arguments.of(schema, structure, n, nulls, seed++));
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} rows={2} nulls={3} seed={4}")
  @MethodSource("nested")
  void nestedRoundTrip(String name, String structure, int n, double nulls, long seed) {
    Field f = NestedRoundTripTest.schemas().get(name);
    if (structure.equals("sparse")) {
      f = withMeta(f, Map.of("lance-encoding:structural-encoding", "sparse"));
    }
    Field field = f;
    Schema schema = new Schema(List.of(field, i32("id")));
    Random rnd = new Random(seed);
    Path path = dir.resolve(name + "-" + structure + "-" + seed + ".lance");
    WriterOptions options = WriterOptions.defaults().withVersion(FileVersion.V2_3);
    try (VectorSchemaRoot expected = VectorSchemaRoot.create(schema, allocator)) {
      try (LanceFileWriter w = LanceFileWriter.open(path, schema, options)) {
        NestedFiles.writeInTwoBatches(w, schema, expected, n, i -> NestedData.value(field, rnd, nulls, 12, 0), NestedData::set, allocator);
      }
      expected.setRowCount(n);
      NestedFiles.assertReadsBack(path, schema, expected, n, rnd, allocator);
    }
  }

  static Stream<Arguments> flat() {
    List<Arguments> out = new ArrayList<>();
    long seed = 23000;
    for (String type : TestData.TYPES.keySet().stream().sorted().toList()) {
      for (String structure : new String[] {"auto", "sparse"}) {
        for (int n : new int[] {1, 1025, 4097}) {
          for (double nulls : new double[] {0, 0.3, 0.95, 1}) {
            out.add(Arguments.of(type, structure, n, nulls, TestData.Shape.values()[(int) (seed % 4)], seed++));
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} rows={2} nulls={3} {4} seed={5}")
  @MethodSource("flat")
  void flatRoundTrip(String type, String structure, int n, double nulls, TestData.Shape shape, long seed) {
    Path file = dir.resolve(type + "-" + structure + "-" + seed + ".lance");
    try (VectorSchemaRoot in = TestData.root("c", TestData.TYPES.get(type), nulls > 0, nulls, n, shape, seed, allocator)) {
      WriterOptions options = WriterOptions.defaults().withVersion(FileVersion.V2_3);
      if (structure.equals("sparse")) {
        options = options.withFieldDefault("lance-encoding:structural-encoding", "sparse");
      }
      try (LanceFileWriter w = LanceFileWriter.open(file, in.getSchema(), options)) {
        w.write(in);
      }
      List<Object> expected = TestData.values(in.getVector(0));
      try (LanceFileReader r = LanceFileReader.open(file)) {
        assertEquals(n, r.numRows());
        try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
          assertEquals(expected, TestData.values(all.getVector(0)), "full read");
        }
        List<Object> scanned = new ArrayList<>();
        var it = r.scan(List.of("c"), 777, allocator);
        while (it.hasNext()) {
          try (VectorSchemaRoot b = it.next()) {
            scanned.addAll(TestData.values(b.getVector(0)));
          }
        }
        assertEquals(expected, scanned, "batched scan");
        Random rnd = new Random(seed);
        long[] rows = new long[Math.min(200, 2 * n)];
        for (int i = 0; i < rows.length; i++) {
          rows[i] = rnd.nextInt(n);
        }
        try (VectorSchemaRoot t = r.take(rows, null, allocator)) {
          for (int i = 0; i < rows.length; i++) {
            assertEquals(expected.get((int) rows[i]), TestData.value(t.getVector(0), i), "take row " + rows[i]);
          }
        }
      }
    }
  }

  @org.junit.jupiter.api.Test
  void blobColumnsAreRefusedIn23() {
    Field blob = new Field("b", new org.apache.arrow.vector.types.pojo.FieldType(true, org.apache.arrow.vector.types.pojo.ArrowType.LargeBinary.INSTANCE,
        null, Map.of("lance-encoding:blob", "true")), null);
    Schema schema = new Schema(List.of(blob));
    io.lancecodec.spi.LanceCodecException e = org.junit.jupiter.api.Assertions.assertThrows(io.lancecodec.spi.LanceCodecException.class, () -> {
      try (LanceFileWriter w = LanceFileWriter.open(dir.resolve("blob.lance"), schema, WriterOptions.defaults().withVersion(FileVersion.V2_3));
          VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator)) {
        ((org.apache.arrow.vector.LargeVarBinaryVector) b.getVector(0)).setSafe(0, new byte[] {1, 2, 3});
        b.setRowCount(1);
        w.write(b);
      }
    });
    assertEquals(io.lancecodec.spi.LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("not part of Lance 2.3"), e.getMessage());
  }

  static Field withMeta(Field f, Map<String, String> meta) {
    Map<String, String> m = new java.util.HashMap<>(f.getMetadata());
    m.putAll(meta);
    return new Field(f.getName(), new org.apache.arrow.vector.types.pojo.FieldType(f.isNullable(), f.getType(), f.getFieldType().getDictionary(), m),
        f.getChildren());
  }
}
