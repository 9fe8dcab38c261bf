package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static io.lancecodec.testkit.NestedData.field;
import static io.lancecodec.testkit.NestedData.fsl;
import static io.lancecodec.testkit.NestedData.fslNullItems;
import static io.lancecodec.testkit.NestedData.i32;
import static io.lancecodec.testkit.NestedData.list;
import static io.lancecodec.testkit.NestedData.str;
import static io.lancecodec.testkit.NestedData.struct;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Nested columns through our writer and reader: structs of lists of structs, lists of lists,
 * lists of strings (narrow and wide), large lists, fixed-size lists at the top and inside lists,
 * struct-only nesting; with null structs, null lists, empty lists and null items; row counts
 * around chunk edges; full reads, batched scans and unsorted takes with repeats.
 */
class NestedRoundTripTest extends WithAllocator {
  static Field wide(Field f, String encoding) {
    return new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), null,
        Map.of("lance-encoding:structural-encoding", encoding)), f.getChildren());
  }

  static Map<String, Field> schemas() {
    Map<String, Field> m = new java.util.LinkedHashMap<>();
    m.put("struct_list_struct", struct("s", i32("a"), list("b", struct("item", i32("c"), str("d")))));
    m.put("list_list", list("ll", list("item", i32("item"))));
    m.put("list_string", list("ls", str("item")));
    m.put("list_string_fullzip", list("lz", wide(str("item"), "fullzip")));
    m.put("list_int_fullzip", list("li", wide(i32("item"), "fullzip")));
    m.put("large_list", field("big", true, ArrowType.LargeList.INSTANCE, field("item", true, new ArrowType.Int(64, true))));
    m.put("fsl", fsl("vec", 8));
    m.put("fsl_wide", fsl("emb", 96));
    m.put("list_fsl", list("lf", fsl("item", 4)));
    m.put("struct_struct", struct("o", struct("x", i32("y")), str("z")));
    m.put("fsl_null_items", fslNullItems("nv", 5));
    m.put("fsl_null_items_wide", fslNullItems("nw", 70));
    m.put("fsl_null_items_fullzip", wide(fslNullItems("nz", 3), "fullzip"));
    m.put("list_fsl_null_items", list("lfn", fslNullItems("item", 9)));
    m.put("struct_fsl_null_items", struct("sfn", fslNullItems("v", 17), i32("w")));
    m.put("list_fsl_null_items_wide", list("lfw", fslNullItems("item", 100)));
    m.put("map_string_int", NestedData.map("m", field("key", false, ArrowType.Utf8.INSTANCE), i32("value")));
    m.put("map_in_struct", struct("ms", NestedData.map("m", field("key", false, new ArrowType.Int(32, true)),
        list("value", str("item"))), i32("z")));
    m.put("list_of_map", list("lm", NestedData.map("item", field("key", false, ArrowType.Utf8.INSTANCE), fslNullItems("value", 3))));
    m.put("packed_fixed", NestedData.packed("pf", field("a", false, new ArrowType.Int(32, true)),
        field("b", false, new ArrowType.Int(64, true))));
    m.put("packed_variable", NestedData.packed("pv", field("a", false, new ArrowType.Int(32, true)),
        field("s", false, ArrowType.Utf8.INSTANCE), field("t", false, ArrowType.LargeUtf8.INSTANCE)));
    m.put("list_packed_fixed", list("lp", NestedData.packed("item", field("x", false, new ArrowType.Int(32, true)))));
    m.put("list_packed_variable", list("lpv", NestedData.packed("item", field("s", false, ArrowType.Utf8.INSTANCE),
        field("k", false, new ArrowType.Int(64, true)))));
    m.put("struct_list_list_struct", struct("q", list("r", list("item", struct("item", i32("t"))))));
    return m;
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 7;
    for (FileVersion version : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3}) {
      for (String schema : schemas().keySet()) {
        if ((schema.contains("map") || schema.contains("packed_variable")) && version == FileVersion.V2_1) {
          continue; // maps need 2.2 (mapsNeed22)
        }
        for (int n : new int[] {1, 300, 4097}) {
          for (double nulls : new double[] {0, 0.25}) {
            for (int maxLen : new int[] {0, 3, 40}) {
              out.add(Arguments.of(version, schema, n, nulls, maxLen, seed++));
            }
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} rows={2} nulls={3} maxLen={4} seed={5}")
  @MethodSource("cases")
  void roundTrip(FileVersion version, String name, int n, double nulls, int maxLen, long seed) {
    Field f = schemas().get(name);
    Schema schema = new Schema(List.of(f, i32("id")));
    Random rnd = new Random(seed);
    Path path = dir.resolve(name + "-" + seed + ".lance");
    try (VectorSchemaRoot expected = VectorSchemaRoot.create(schema, allocator)) {
      // two batches so pages concatenate batches with different null/empty patterns
      try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version))) {
        NestedFiles.writeInTwoBatches(w, schema, expected, n, i -> NestedData.value(f, rnd, nulls, maxLen, 0), NestedData::set, allocator);
      }
      expected.setRowCount(n);
      NestedFiles.assertReadsBack(path, schema, expected, n, rnd, allocator);
    }
  }

  /**
   * Arrow lets a null list span child values (its offsets need not repeat): they are hidden and
   * must not be written. The single-list level path lists the visible slots then; with a
   * "no hidden values" shortcut the hidden values would shift into the rows after them.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(value = FileVersion.class, names = {"V2_1", "V2_2"})
  void nullListsSpanningHiddenValuesRoundTrip(FileVersion version) throws Exception {
    Field f = list("l", i32("item"));
    Schema schema = new Schema(List.of(f));
    Path path = dir.resolve("hidden-" + version + ".lance");
    // rows: [1, 2], null over [3, 4, 5], [6], [], null over nothing, [7, 8, 9]
    int[] offsets = {0, 2, 5, 6, 6, 6, 9};
    boolean[] isNull = {false, true, false, false, true, false};
    List<List<Integer>> want = new ArrayList<>();
    want.add(List.of(1, 2));
    want.add(null);
    want.add(List.of(6));
    want.add(List.of());
    want.add(null);
    want.add(List.of(7, 8, 9));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      org.apache.arrow.vector.complex.ListVector lv = (org.apache.arrow.vector.complex.ListVector) root.getVector(0);
      lv.allocateNew();
      org.apache.arrow.vector.IntVector items = (org.apache.arrow.vector.IntVector) lv.getDataVector();
      for (int i = 0; i < 9; i++) {
        items.setSafe(i, i + 1);
      }
      items.setValueCount(9);
      for (int r = 0; r < isNull.length; r++) {
        lv.getOffsetBuffer().setInt(4L * (r + 1), offsets[r + 1]);
        if (!isNull[r]) {
          org.apache.arrow.vector.BitVectorHelper.setBit(lv.getValidityBuffer(), r);
        }
      }
      lv.setLastSet(isNull.length - 1);
      lv.setValueCount(isNull.length);
      root.setRowCount(isNull.length);
      for (int r = 0; r < isNull.length; r++) {
        assertEquals(want.get(r), lv.getObject(r), "input row " + r);
      }
      try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(path);
        VectorSchemaRoot all = r.readRange(0, isNull.length, null, allocator)) {
      for (int row = 0; row < isNull.length; row++) {
        assertEquals(want.get(row), all.getVector(0).getObject(row), "row " + row);
      }
    }
  }

  private static void assertRows(VectorSchemaRoot expected, VectorSchemaRoot actual, long[] rows) {
    int n = rows == null ? expected.getRowCount() : rows.length;
    assertEquals(n, actual.getRowCount());
    for (int c = 0; c < expected.getFieldVectors().size(); c++) {
      for (int i = 0; i < n; i++) {
        int src = rows == null ? i : (int) rows[i];
        assertEquals(expected.getVector(c).getObject(src), actual.getVector(c).getObject(i), "column " + c + " row " + src);
      }
    }
  }

  @Test
  void mapsNeed22() {
    Schema schema = new Schema(List.of(schemas().get("map_string_int")));
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> LanceFileWriter.open(dir.resolve("map21.lance"), schema, WriterOptions.defaults().withVersion(FileVersion.V2_1)));
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
    Field sorted = field("sm", true, new ArrowType.Map(true), schemas().get("map_string_int").getChildren().get(0));
    e = assertThrows(LanceCodecException.class, () -> LanceFileWriter.open(dir.resolve("sorted.lance"),
        new Schema(List.of(sorted)), WriterOptions.defaults().withVersion(FileVersion.V2_2)));
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
  }

  @Test
  void packedStructLimits() {
    Field variable = schemas().get("packed_variable");
    Schema v = new Schema(List.of(variable));
    try (VectorSchemaRoot batch = VectorSchemaRoot.create(v, allocator)) {
      NestedData.set(batch.getVector(0), 0, NestedData.value(variable, new Random(1), 0, 2, 0));
      batch.setRowCount(1);
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> {
        try (LanceFileWriter w = LanceFileWriter.open(dir.resolve("pv21.lance"), v, WriterOptions.defaults().withVersion(FileVersion.V2_1))) {
          w.write(batch);
        }
      });
      assertEquals(LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
    }
    // the reference cannot read a packed struct inside a struct, so it is refused up front
    Schema inStruct = new Schema(List.of(struct("s", NestedData.packed("p", field("a", false, new ArrowType.Int(32, true))))));
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> LanceFileWriter.open(dir.resolve("ps.lance"), inStruct, WriterOptions.defaults()));
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
    // a null child in a valid row has no place in a packed row
    Field fixed = NestedData.packed("pf", field("a", true, new ArrowType.Int(32, true)));
    Schema f = new Schema(List.of(fixed));
    try (VectorSchemaRoot batch = VectorSchemaRoot.create(f, allocator)) {
      java.util.Map<String, Object> row = new java.util.HashMap<>();
      row.put("a", null);
      NestedData.set(batch.getVector(0), 0, row);
      batch.setRowCount(1);
      e = assertThrows(LanceCodecException.class, () -> {
        try (LanceFileWriter w = LanceFileWriter.open(dir.resolve("pn.lance"), f, WriterOptions.defaults())) {
          w.write(batch);
        }
      });
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
    }
  }

  /** Token ids forced to mini-block: one row per chunk (the reference's writer aborts here). */
  @ParameterizedTest(name = "{0} dim={1} nullItems={2}")
  @org.junit.jupiter.params.provider.CsvSource({"V2_1,2048,false", "V2_1,2048,true", "V2_2,2048,true", "V2_2,8192,false", "V2_2,8192,true"})
  void wideFixedSizeListForcedToMiniBlockRoundTrips(FileVersion version, int dim, boolean nullItems) {
    Path path = dir.resolve("tokens-" + version + dim + nullItems + ".lance");
    try (VectorSchemaRoot batch = tokens(dim, nullItems, 5)) {
      try (LanceFileWriter w = LanceFileWriter.open(path, batch.getSchema(), WriterOptions.defaults().withVersion(version))) {
        w.write(batch);
      }
      try (LanceFileReader r = LanceFileReader.open(path)) {
        assertEquals(List.of(5 + " rows"), r.columnSummaries().get(0).pages().stream().map(p -> p.rows() + " rows").toList());
        String page = r.columnSummaries().get(0).pages().get(0).toString();
        assertEquals(true, page.contains("mini-block") && page.contains(", 5 chunks"), page);
        try (VectorSchemaRoot all = r.readRange(0, 5, null, allocator)) {
          assertRows(batch, all, null);
        }
        try (VectorSchemaRoot t = r.take(new long[] {4, 1, 1}, null, allocator)) {
          assertRows(batch, t, new long[] {4, 1, 1});
        }
      }
    }
  }

  @Test
  void fixedSizeListTooWideForA21ChunkIsRefused() {
    try (VectorSchemaRoot batch = tokens(4100, false, 2)) {
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> {
        try (LanceFileWriter w = LanceFileWriter.open(dir.resolve("tokens.lance"), batch.getSchema(), WriterOptions.defaults())) {
          w.write(batch);
        }
      });
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
    }
    assertEquals(0, dir.toFile().list((d, n) -> n.startsWith("tokens.lance")).length);
  }

  /** {@code n} rows of {@code dim} uint64 ids, row 2 null, every 11th item null if asked. */
  private static VectorSchemaRoot tokens(int dim, boolean nullItems, int n) {
    Field tokens = new Field("tokens", new FieldType(true, new ArrowType.FixedSizeList(dim), null,
        Map.of("lance-encoding:structural-encoding", "miniblock")),
        List.of(field("item", true, new ArrowType.Int(64, false))));
    VectorSchemaRoot batch = VectorSchemaRoot.create(new Schema(List.of(tokens)), allocator);
    org.apache.arrow.vector.complex.FixedSizeListVector v = (org.apache.arrow.vector.complex.FixedSizeListVector) batch.getVector(0);
    org.apache.arrow.vector.UInt8Vector items = (org.apache.arrow.vector.UInt8Vector) v.getDataVector();
    for (int i = 0; i < n * dim; i++) {
      if (nullItems && i % 11 == 3) {
        items.setNull(i);
      } else {
        items.setSafe(i, i * 7919L);
      }
    }
    for (int i = 0; i < n; i++) {
      if (i == 2) {
        v.setNull(i);
      } else {
        v.setNotNull(i);
      }
    }
    batch.setRowCount(n);
    return batch;
  }
}
