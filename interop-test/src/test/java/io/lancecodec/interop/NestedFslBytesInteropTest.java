package io.lancecodec.interop;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.format.pb.file2.ColumnMetadata;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Golden check for fixed-size lists of fixed-size lists and of booleans: the same batch written
 * by the reference and by us gives identical pages (each page's encoding and buffer bytes), in
 * 2.1 and 2.2, mini-block and full-zip, with and without nulls at every level. Only a byte
 * comparison catches a buffer order or bit layout that both our reader and writer get wrong.
 */
class NestedFslBytesInteropTest {
  @TempDir static Path dir;

  record Case(String name, Field field, int rows, double nulls, int maxLen) {
    Case(String name, Field field, int rows, double nulls) {
      this(name, field, rows, nulls, 0);
    }
  }

  static List<Case> cases() {
    Field fslFsl = NestedData.fslOf("ff", 3, NestedData.fslOf("item", 2, NestedData.i32("item")));
    Field wide = NestedData.fslOf("fw", 64, NestedData.fslOf("item", 16,
        NestedData.field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));
    Field bool = NestedData.fslOf("fb", 4, NestedData.bool("item"));
    Field boolWide = NestedData.fslOf("fbw", 4096, NestedData.bool("item"));
    Field bool3 = NestedData.fslOf("f3", 2, NestedData.fslOf("item", 3, NestedData.fslOf("item", 5,
        NestedData.bool("item"))));
    List<Case> out = new ArrayList<>();
    for (double nulls : new double[] {0, 0.2}) {
      out.add(new Case("fsl_fsl", fslFsl, 1000, nulls));
      out.add(new Case("fsl_bool", bool, 5000, nulls));
      out.add(new Case("fsl_bool_wide", boolWide, 21, nulls));
      out.add(new Case("fsl3_bool", bool3, 700, nulls));
    }
    // with nulls only: the reference's writer panics on this shape without any null
    out.add(new Case("fsl_fsl_wide", wide, 9, 0.2));
    // forced full-zip rows of booleans, which the reference writes only without nulls in the lists
    out.add(new Case("fsl_bool8_fullzip", NestedData.fullZip(NestedData.fslOf("b8", 8, NestedData.bool("item"))), 1000, 0));
    out.add(new Case("fsl_bool16_fullzip", NestedData.fullZip(NestedData.fslOf("b16", 16, NestedData.bool("item"))), 300, 0));
    out.add(new Case("fsl_bool_wide_fullzip", NestedData.fullZip(boolWide), 21, 0));
    out.add(new Case("struct_fsl_bool_fullzip", NestedData.fullZip(NestedData.struct("sb",
        NestedData.fullZip(NestedData.fslOf("v", 24, NestedData.bool("item"))),
        NestedData.fullZip(NestedData.i32("w")))), 500, 0));
    Field listItem = NestedData.fullZip(new Field("item", new FieldType(false, new ArrowType.FixedSizeList(8), null),
        List.of(NestedData.bool(NestedData.NEVER_NULL))));
    for (double nulls : new double[] {0, 0.2}) {
      // null and empty lists: control words and a repetition index
      out.add(new Case("list_fsl_bool_fullzip", NestedData.fullZip(NestedData.list("lb", listItem)), 700, nulls, 4));
    }
    return out;
  }

  @TestFactory
  Stream<DynamicNode> samePages() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (Case c : cases()) {
        String name = version + "/" + c.name() + "/nulls" + c.nulls();
        tests.add(DynamicTest.dynamicTest(name, () -> compare(version, c, name)));
      }
    }
    return tests.stream();
  }

  private static void compare(String version, Case c, String name) throws Exception {
    String base = name.replace('/', '_').replace('.', '_');
    Path ref = dir.resolve("ref_" + base + ".lance");
    Path ours = dir.resolve("ours_" + base + ".lance");
    Schema schema = new Schema(List.of(c.field()));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, Interop.ALLOC)) {
      Random rnd = new Random(Interop.seedOf(name));
      for (int i = 0; i < c.rows(); i++) {
        NestedData.set(root.getVector(0), i, NestedData.value(c.field(), rnd, c.nulls(), c.maxLen(), 0));
      }
      root.setRowCount(c.rows());
      Interop.refWrite(ref, root, version, c.rows());
      Interop.oursWrite(ours, root, version, 8L << 20, c.rows());
    }
    List<ColumnMetadata> a = columns(Files.readAllBytes(ref));
    List<ColumnMetadata> b = columns(Files.readAllBytes(ours));
    byte[] refBytes = Files.readAllBytes(ref);
    byte[] ourBytes = Files.readAllBytes(ours);
    assertEquals(a.size(), b.size(), name + ": columns");
    for (int col = 0; col < a.size(); col++) {
      assertEquals(a.get(col).getPagesCount(), b.get(col).getPagesCount(), name + ": pages");
      for (int p = 0; p < a.get(col).getPagesCount(); p++) {
        ColumnMetadata.Page x = a.get(col).getPages(p);
        ColumnMetadata.Page y = b.get(col).getPages(p);
        String where = name + ": column " + col + " page " + p;
        assertEquals(x.getLength(), y.getLength(), where + " rows");
        io.lancecodec.format.pb.v21.PageLayout lx = layout(x);
        io.lancecodec.format.pb.v21.PageLayout ly = layout(y);
        if (c.name().endsWith("fullzip")) {
          org.junit.jupiter.api.Assertions.assertTrue(lx.hasFullZipLayout(), where + ": the reference wrote " + lx.getLayoutCase());
        }
        if (lx.hasMiniBlockLayout() && lx.getMiniBlockLayout().hasDefCompression() && version.equals("2.2")) {
          // In 2.2 the def levels' compression is picked differently (the reference takes RLE
          // where we bit-pack; not specific to these lists), so the chunks differ by their def
          // bytes: only everything else in the layout is compared.
          assertEquals(lx.getMiniBlockLayout().toBuilder().clearDefCompression().build(),
              ly.getMiniBlockLayout().toBuilder().clearDefCompression().build(), where + " layout");
          continue;
        }
        assertEquals(lx, ly, where + " layout");
        assertEquals(x.getBufferSizesList(), y.getBufferSizesList(), where + " buffer sizes (chunk words "
            + java.util.HexFormat.of().formatHex(slice(refBytes, x.getBufferOffsets(0), x.getBufferSizes(0))) + " vs "
            + java.util.HexFormat.of().formatHex(slice(ourBytes, y.getBufferOffsets(0), y.getBufferSizes(0))) + ")");
        for (int i = 0; i < x.getBufferOffsetsCount(); i++) {
          assertArrayEquals(slice(refBytes, x.getBufferOffsets(i), x.getBufferSizes(i)),
              slice(ourBytes, y.getBufferOffsets(i), y.getBufferSizes(i)), where + " buffer " + i);
        }
      }
    }
  }

  static io.lancecodec.format.pb.v21.PageLayout layout(ColumnMetadata.Page p) throws Exception {
    return com.google.protobuf.Any.parseFrom(p.getEncoding().getDirect().getEncoding())
        .unpack(io.lancecodec.format.pb.v21.PageLayout.class);
  }

  static byte[] slice(byte[] file, long offset, long size) {
    return java.util.Arrays.copyOfRange(file, (int) offset, (int) (offset + size));
  }

  /** The column metadata of a Lance v2 file, through its 40-byte footer and offset table. */
  static List<ColumnMetadata> columns(byte[] file) throws Exception {
    ByteBuffer footer = ByteBuffer.wrap(file, file.length - 40, 40).order(ByteOrder.LITTLE_ENDIAN);
    footer.getLong();
    long offsetsStart = footer.getLong();
    footer.getLong();
    footer.getInt();
    int numColumns = footer.getInt();
    ByteBuffer table = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    List<ColumnMetadata> out = new ArrayList<>();
    for (int c = 0; c < numColumns; c++) {
      long pos = table.getLong((int) offsetsStart + 16 * c);
      long size = table.getLong((int) offsetsStart + 16 * c + 8);
      out.add(ColumnMetadata.parseFrom(slice(file, pos, size)));
    }
    return out;
  }
}
