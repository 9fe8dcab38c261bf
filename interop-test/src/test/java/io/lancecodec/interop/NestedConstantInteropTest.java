package io.lancecodec.interop;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.format.pb.v21.PageLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nested leaves whose valid values are all one value (list of int32 all 7, of strings all "x",
 * of booleans all true, of 40-byte binaries, struct of a constant int32, lists of lists, large
 * lists), with null and empty lists,
 * null structs and null items. In 2.2 the reference writes a constant page (the value inline or
 * in a value buffer, then raw u16 rep and def levels): ours must be byte-identical. Both
 * directions are read back, 2.1 (no constant pages there) included.
 */
@ExtendWith(NativeLibCleanup.class)
class NestedConstantInteropTest {
  @TempDir static Path dir;

  record Shape(String name, Field field) {}

  static List<Shape> shapes() {
    Field boolItem = new Field("item", new FieldType(true, ArrowType.Bool.INSTANCE, null), null);
    return List.of(
        new Shape("list_i32", NestedData.list("li", NestedData.i32("item"))),
        new Shape("list_utf8", NestedData.list("ls", NestedData.str("item"))),
        new Shape("list_bool", NestedData.list("lb", boolItem)),
        new Shape("list_i32_items_not_null", NestedData.list("ln",
            new Field("item", new FieldType(false, new ArrowType.Int(32, true), null), null))),
        new Shape("struct_i32", NestedData.struct("s", NestedData.i32("a"))),
        new Shape("struct_list_utf8", NestedData.struct("sl",
            NestedData.list("l", NestedData.str("item")), NestedData.i32("b"))),
        // a 40-byte value: in a value buffer rather than inline
        new Shape("list_fsb40", NestedData.list("lx", NestedData.field("item", new ArrowType.FixedSizeBinary(40)))),
        new Shape("large_list_utf8", NestedData.field("big", ArrowType.LargeList.INSTANCE, NestedData.str("item"))),
        new Shape("list_list_i32", NestedData.list("ll", NestedData.list("item", NestedData.i32("item")))));
  }

  @TestFactory
  Stream<DynamicNode> constantLeaves() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (Shape shape : shapes()) {
        for (double nulls : new double[] {0, 0.3}) {
          for (int rows : new int[] {1, 300, 3000}) {
            String name = version + "/" + shape.name() + "/nulls" + nulls + "/" + rows;
            tests.add(DynamicTest.dynamicTest(name, () -> check(version, shape, nulls, rows, name)));
          }
        }
      }
    }
    return tests.stream();
  }

  private static void check(String version, Shape shape, double nulls, int rows, String name) throws Exception {
    String base = name.replace('/', '_').replace('.', '_');
    Path ref = dir.resolve("ref_" + base + ".lance");
    Path ours = dir.resolve("ours_" + base + ".lance");
    long seed = Interop.seedOf(name);
    List<String> expected;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(shape.field())), Interop.ALLOC)) {
      Random rnd = new Random(seed);
      for (int i = 0; i < rows; i++) {
        NestedData.set(root.getVector(0), i, value(shape.field(), rnd, nulls, i == 0));
      }
      root.setRowCount(rows);
      expected = Interop.canon(root.getVector(0));
      Interop.refWrite(ref, root, version, 1000);
      Interop.oursWrite(ours, root, version, 8L << 20, 1000);
    }
    if (version.equals("2.2")) {
      samePages(ref, ours, name);
    }
    Interop.oursReadAndCompare(ref, shape.field(), expected, seed);
    Interop.oursReadAndCompare(ours, shape.field(), expected, seed);
    Interop.refReadAndCompare(ours, shape.field(), expected, seed);
  }

  /** Every page of every column: the reference's is a constant page and ours has the same layout and buffer bytes. */
  private static void samePages(Path ref, Path ours, String name) throws Exception {
    byte[] a = Files.readAllBytes(ref);
    byte[] b = Files.readAllBytes(ours);
    List<ColumnMetadata> x = NestedFslBytesInteropTest.columns(a);
    List<ColumnMetadata> y = NestedFslBytesInteropTest.columns(b);
    assertEquals(x.size(), y.size(), name + ": columns");
    for (int c = 0; c < x.size(); c++) {
      assertEquals(x.get(c).getPagesCount(), y.get(c).getPagesCount(), name + ": pages of column " + c);
      for (int p = 0; p < x.get(c).getPagesCount(); p++) {
        ColumnMetadata.Page pa = x.get(c).getPages(p);
        ColumnMetadata.Page pb = y.get(c).getPages(p);
        String where = name + ": column " + c + " page " + p;
        PageLayout la = NestedFslBytesInteropTest.layout(pa);
        assertTrue(la.hasConstantLayout(), where + ": the reference wrote " + la.getLayoutCase());
        assertEquals(la, NestedFslBytesInteropTest.layout(pb), where + " layout");
        assertEquals(pa.getLength(), pb.getLength(), where + " rows");
        assertEquals(pa.getBufferSizesList(), pb.getBufferSizesList(), where + " buffer sizes");
        for (int i = 0; i < pa.getBufferOffsetsCount(); i++) {
          assertArrayEquals(NestedFslBytesInteropTest.slice(a, pa.getBufferOffsets(i), pa.getBufferSizes(i)),
              NestedFslBytesInteropTest.slice(b, pb.getBufferOffsets(i), pb.getBufferSizes(i)), where + " buffer " + i);
        }
      }
    }
  }

  /**
   * A row: lists of 0..3 items, nulls with probability {@code nulls} at every nullable level,
   * leaves the one constant of their type; the first row has a valid leaf, so no page is without
   * any value (that is the value-less constant page, a different case).
   */
  static Object value(Field f, Random rnd, double nulls, boolean first) {
    if (f.isNullable() && !first && rnd.nextDouble() < nulls) {
      return null;
    }
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Struct) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (Field c : f.getChildren()) {
        m.put(c.getName(), value(c, rnd, nulls, first));
      }
      return m;
    }
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList) {
      List<Object> l = new ArrayList<>();
      for (int i = first ? 1 : rnd.nextInt(4); i > 0; i--) {
        l.add(value(f.getChildren().get(0), rnd, nulls, first));
      }
      return l;
    }
    if (t instanceof ArrowType.Bool) {
      return true;
    }
    if (t instanceof ArrowType.Utf8) {
      return "x";
    }
    if (t instanceof ArrowType.FixedSizeBinary b) {
      byte[] x = new byte[b.getByteWidth()];
      java.util.Arrays.fill(x, (byte) 0x5a);
      return x;
    }
    return 7;
  }
}
