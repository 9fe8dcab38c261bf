package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.spi.FileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static io.lancecodec.testkit.NestedData.field;
import static io.lancecodec.testkit.NestedData.i32;
import static io.lancecodec.testkit.NestedData.list;
import static io.lancecodec.testkit.NestedData.str;
import static io.lancecodec.testkit.NestedData.struct;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nested columns whose valid leaf values are all one value, with null and empty lists, null
 * structs and null items: in 2.2 every leaf page is a constant page (value inline, or in a value
 * buffer when wider than 32 bytes or variable-width, plus raw u16 levels), in 2.1 never; full
 * reads, scans, unsorted takes and ranges give back the rows.
 */
class NestedConstantRoundTripTest extends WithAllocator {
  static Map<String, Field> schemas() {
    Map<String, Field> m = new LinkedHashMap<>();
    m.put("list_i32", list("li", i32("item")));
    m.put("list_utf8", list("ls", str("item")));
    m.put("list_bool", list("lb", field("item", true, ArrowType.Bool.INSTANCE)));
    m.put("list_fsb40", list("lx", field("item", true, new ArrowType.FixedSizeBinary(40))));
    m.put("list_i64_not_null_items", list("ln", field("item", false, new ArrowType.Int(64, true))));
    m.put("struct_i32", struct("s", i32("a")));
    m.put("struct_list_utf8", struct("sl", list("l", str("item")), i32("b")));
    m.put("list_list_i32", list("ll", list("item", i32("item"))));
    m.put("large_list_utf8", field("big", true, ArrowType.LargeList.INSTANCE, str("item")));
    return m;
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 101;
    for (FileVersion version : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2}) {
      for (String schema : schemas().keySet()) {
        for (int n : new int[] {1, 300, 4097}) {
          for (double nulls : new double[] {0, 0.3}) {
            out.add(Arguments.of(version, schema, n, nulls, seed++));
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} rows={2} nulls={3} seed={4}")
  @MethodSource("cases")
  void roundTrip(FileVersion version, String name, int n, double nulls, long seed) throws Exception {
    Field f = schemas().get(name);
    Schema schema = new Schema(List.of(f, i32("id")));
    Random rnd = new Random(seed);
    Path path = dir.resolve(name + "-" + seed + ".lance");
    try (VectorSchemaRoot expected = VectorSchemaRoot.create(schema, allocator)) {
      try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version))) {
        NestedFiles.writeInTwoBatches(w, schema, expected, n, i -> value(f, rnd, nulls, i == 0),
            NestedConstantRoundTripTest::set, allocator);
      }
      expected.setRowCount(n);
      try (LanceFileReader r = LanceFileReader.open(path)) {
        List<LanceFileReader.ColumnSummary> columns = r.columnSummaries();
        for (LanceFileReader.ColumnSummary column : columns.subList(0, columns.size() - 1)) { // the last is "id"
          for (String page : column.pages().stream().map(Object::toString).toList()) {
            // a page may still have no valid value at all (then it is the value-less constant page)
            boolean constant = page.contains(": constant");
            boolean withValue = constant && !page.contains("all null");
            assertTrue(version == FileVersion.V2_2 ? constant : !withValue, name + ": " + page);
          }
        }
        try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
          NestedData.assertRows(expected, all, 0, null);
        }
        long[] rows = new long[Math.min(n, 60)];
        for (int i = 0; i < rows.length; i++) {
          rows[i] = rnd.nextInt(n);
        }
        try (VectorSchemaRoot t = r.take(rows, null, allocator)) {
          NestedData.assertRows(expected, t, 0, rows);
        }
        int from = rnd.nextInt(n);
        int to = from + 1 + rnd.nextInt(n - from);
        try (VectorSchemaRoot range = r.readRange(from, to, null, allocator)) {
          NestedData.assertRows(expected, range, from, null);
        }
      }
    }
  }

  /**
   * A row: lists of 0..4 items, nulls with probability {@code nulls} at every nullable level,
   * leaves the one constant of their type; the first row holds a valid leaf, so no page is
   * value-less.
   */
  static Object value(Field f, Random rnd, double nulls, boolean firstRow) {
    if (f.isNullable() && !firstRow && rnd.nextDouble() < nulls) {
      return null;
    }
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Struct) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (Field c : f.getChildren()) {
        m.put(c.getName(), value(c, rnd, nulls, firstRow));
      }
      return m;
    }
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList) {
      List<Object> l = new ArrayList<>();
      for (int i = firstRow ? 1 : rnd.nextInt(5); i > 0; i--) {
        l.add(value(f.getChildren().get(0), rnd, nulls, firstRow));
      }
      return l;
    }
    if (t instanceof ArrowType.Bool) {
      return true;
    }
    if (t instanceof ArrowType.FixedSizeBinary b) {
      byte[] x = new byte[b.getByteWidth()];
      java.util.Arrays.fill(x, (byte) 0x5a);
      return x;
    }
    if (t instanceof ArrowType.Utf8) {
      return "x";
    }
    if (t instanceof ArrowType.Int i && i.getBitWidth() == 64) {
      return -3L;
    }
    return 7;
  }

  static void set(FieldVector v, int i, Object value) {
    if (NestedData.setContainer(v, i, value, NestedConstantRoundTripTest::set)) {
      return;
    }
    if (value == null) {
      if (v instanceof VarCharVector s) {
        s.setNull(i);
      } else {
        ((org.apache.arrow.vector.BaseFixedWidthVector) v).setNull(i);
      }
    } else if (v instanceof BitVector b) {
      b.setSafe(i, (Boolean) value ? 1 : 0);
    } else if (v instanceof FixedSizeBinaryVector fb) {
      fb.setSafe(i, (byte[]) value);
    } else if (v instanceof VarCharVector s) {
      s.setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
    } else if (v instanceof BigIntVector b) {
      b.setSafe(i, (Long) value);
    } else {
      ((IntVector) v).setSafe(i, (Integer) value);
    }
  }
}
