package io.lancecodec.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.lance.util.Range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Blob columns (v1 layout, {@code lance-encoding:blob} on large_binary), 2.1 and 2.2. The
 * reference's file reader returns blob columns only as descriptions (position, size): its
 * content mode fails even on its own files. So our files are checked through the descriptions
 * (nulls where expected, and the file's bytes at each position equal to the value), and the
 * reference's files are read by us in full.
 */
@ExtendWith(NativeLibCleanup.class)
class BlobInteropTest {
  static final Interop.Tally TALLY = new Interop.Tally();
  @TempDir static Path dir;

  static Field blobField() {
    return new Field("b", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null, Map.of("lance-encoding:blob", "true")), null);
  }

  static VectorSchemaRoot generate(int rows, int maxLen, long seed) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(blobField())), Interop.ALLOC);
    LargeVarBinaryVector v = (LargeVarBinaryVector) root.getVector(0);
    Random rnd = new Random(seed);
    for (int i = 0; i < rows; i++) {
      int kind = rnd.nextInt(5);
      if (kind == 0) {
        v.setNull(i);
      } else {
        byte[] b = new byte[kind == 1 ? 0 : kind == 2 ? maxLen : rnd.nextInt(maxLen + 1)];
        rnd.nextBytes(b);
        v.setSafe(i, b);
      }
    }
    v.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  @TestFactory
  Stream<DynamicNode> blobs() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (int rows : new int[] {1, 50, 700}) {
        for (int maxLen : new int[] {16, 300 * 1024}) {
          if (rows * (long) maxLen > 40L << 20) {
            continue;
          }
          String name = version + "/" + rows + "/max" + maxLen;
          tests.add(DynamicTest.dynamicTest("ref->ours " + name, () -> refToOurs(version, rows, maxLen, name)));
          tests.add(DynamicTest.dynamicTest("ours->ref " + name, () -> oursToRef(version, rows, maxLen, name)));
        }
      }
    }
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (int rows : new int[] {1, 60, 700}) {
        for (int maxLen : new int[] {16, 300 * 1024}) {
          if (rows * (long) maxLen > 40L << 20) {
            continue;
          }
          String name = version + "/struct/" + rows + "/max" + maxLen;
          tests.add(DynamicTest.dynamicTest("ref->ours " + name, () -> nestedRefToOurs(version, rows, maxLen, name)));
          tests.add(DynamicTest.dynamicTest("ours->ref " + name, () -> nestedOursToRef(version, rows, maxLen, name)));
          if (maxLen == 16) {
            tests.add(DynamicTest.dynamicTest("same layout " + name, () -> nestedSameLayout(version, rows, maxLen, name)));
          }
        }
      }
      tests.add(DynamicTest.dynamicTest("ref list<blob> refused " + version, () -> listRefused(version)));
    }
    return tests.stream();
  }

  static void refToOurs(String version, int rows, int maxLen, String name) throws Exception {
    Path file = dir.resolve("ref_" + name.replace('/', '_').replace('.', '_') + ".lance");
    long seed = Interop.seedOf("ref->ours blob " + name);
    try (VectorSchemaRoot root = generate(rows, maxLen, seed)) {
      List<String> expected = Interop.canon(root.getVector(0));
      Interop.refWrite(file, root, version, 100);
      Interop.oursReadAndCompare(file, blobField(), expected, seed);
      TALLY.refToOursIdentical.incrementAndGet();
    }
  }

  static void oursToRef(String version, int rows, int maxLen, String name) throws Exception {
    Path file = dir.resolve("ours_" + name.replace('/', '_').replace('.', '_') + ".lance");
    long seed = Interop.seedOf("ours->ref blob " + name);
    try (VectorSchemaRoot root = generate(rows, maxLen, seed)) {
      List<String> expected = Interop.canon(root.getVector(0));
      Interop.oursWrite(file, root, version, 1L << 20, 100);
      Interop.oursReadAndCompare(file, blobField(), expected, seed);
      byte[] bytes = Files.readAllBytes(file);
      Interop.assertSameRows("reference descriptions", expected, refDescriptions(file, bytes, null), null);
      long[] take = Interop.sortedDistinctRows(rows, 30, new Random(seed));
      Interop.assertSameRows("reference descriptions, single-row ranges", Interop.pick(expected, take),
          refDescriptions(file, bytes, Interop.singleRowRanges(take)), take);
      TALLY.oursToRefIdentical.incrementAndGet();
    }
  }

  /** Each row as the reference describes it, resolved against the file: "null" or the value's bytes. */
  static List<String> refDescriptions(Path file, byte[] bytes, List<Range> ranges) throws Exception {
    List<String> out = new ArrayList<>();
    org.lance.file.FileReadOptions options =
        org.lance.file.FileReadOptions.builder().blobReadMode(org.lance.file.BlobReadMode.DESCRIPTOR).build();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), Interop.ALLOC);
         ArrowReader ar = r.readAll(null, ranges, 1024, options)) {
      while (ar.loadNextBatch()) {
        StructVector d = (StructVector) ar.getVectorSchemaRoot().getVector(0);
        UInt8Vector pos = (UInt8Vector) d.getChild("position");
        UInt8Vector size = (UInt8Vector) d.getChild("size");
        for (int i = 0; i < d.getValueCount(); i++) {
          if (d.isNull(i)) {
            out.add("null");
            continue;
          }
          int p = (int) pos.get(i);
          int s = (int) size.get(i);
          StringBuilder sb = new StringBuilder("0x");
          for (int k = p; k < p + s; k++) {
            sb.append(String.format("%02x", bytes[k]));
          }
          out.add(sb.toString());
        }
      }
    }
    return out;
  }

  // ---- blobs under structs: s: struct<id: int32, data: blob, t: struct<b: blob>> ----

  static Field nestedField() {
    Field id = new Field("id", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Field t = new Field("t", FieldType.nullable(ArrowType.Struct.INSTANCE),
        List.of(new Field("b", blobField().getFieldType(), null)));
    return new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE),
        List.of(id, new Field("data", blobField().getFieldType(), null), t));
  }

  static void setBlob(LargeVarBinaryVector v, int i, Random rnd, int maxLen) {
    int kind = rnd.nextInt(5);
    if (kind == 0) {
      v.setNull(i);
    } else {
      byte[] b = new byte[kind == 1 ? 0 : kind == 2 ? maxLen : rnd.nextInt(maxLen + 1)];
      rnd.nextBytes(b);
      v.setSafe(i, b);
    }
  }

  /** Null outer and inner structs, null and empty values, values up to maxLen. */
  static VectorSchemaRoot generateNested(int rows, int maxLen, long seed) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(nestedField())), Interop.ALLOC);
    StructVector s = (StructVector) root.getVector(0);
    IntVector id = (IntVector) s.getChild("id");
    LargeVarBinaryVector data = (LargeVarBinaryVector) s.getChild("data");
    StructVector t = (StructVector) s.getChild("t");
    LargeVarBinaryVector b = (LargeVarBinaryVector) t.getChild("b");
    Random rnd = new Random(seed);
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, i);
      setBlob(data, i, rnd, maxLen);
      setBlob(b, i, rnd, maxLen);
      if (rnd.nextInt(6) == 0) {
        t.setNull(i);
      } else {
        t.setIndexDefined(i);
      }
      if (rnd.nextInt(6) == 0) {
        s.setNull(i);
      } else {
        s.setIndexDefined(i);
      }
    }
    s.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  /**
   * A row as text, structs spelled out field by field; with {@code file}, a struct of
   * (position, size) is a blob description, resolved to the file's bytes there.
   */
  static String nestedCanon(ValueVector v, int i, byte[] file) {
    if (v.isNull(i)) {
      return "null";
    }
    if (v instanceof StructVector st) {
      if (file != null && st.getChild("position") instanceof UInt8Vector pos && st.getChild("size") instanceof UInt8Vector size) {
        int p = (int) pos.get(i);
        int n = (int) size.get(i);
        assertTrue(p >= 0 && n >= 0 && p + n <= file.length, "description (" + p + ", " + n + ") outside the file");
        return "0x" + java.util.HexFormat.of().formatHex(file, p, p + n);
      }
      StringBuilder sb = new StringBuilder("{");
      for (org.apache.arrow.vector.FieldVector c : st.getChildrenFromFields()) {
        sb.append(c.getName()).append('=').append(nestedCanon(c, i, file)).append(' ');
      }
      return sb.append('}').toString();
    }
    if (v instanceof LargeVarBinaryVector b) {
      return "0x" + java.util.HexFormat.of().formatHex(b.get(i));
    }
    return Interop.canon(v, i);
  }

  static List<String> nestedCanon(ValueVector v, byte[] file) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.getValueCount(); i++) {
      out.add(nestedCanon(v, i, file));
    }
    return out;
  }

  /** Our reader: one range, a scan of 100-row batches, an unsorted take with repeats. */
  static void nestedOursRead(Path file, List<String> expected, long seed) {
    int n = expected.size();
    try (io.lancecodec.runtime.LanceFileReader r = io.lancecodec.runtime.LanceFileReader.open(file)) {
      assertEquals(nestedField(), r.schema().getFields().get(0), "schema");
      try (VectorSchemaRoot all = r.readRange(0, n, null, Interop.ALLOC)) {
        Interop.assertSameRows("ours readRange", expected, nestedCanon(all.getVector(0), null), null);
      }
      List<String> scanned = new ArrayList<>();
      java.util.Iterator<VectorSchemaRoot> it = r.scan(null, 100, Interop.ALLOC);
      while (it.hasNext()) {
        try (VectorSchemaRoot b = it.next()) {
          scanned.addAll(nestedCanon(b.getVector(0), null));
        }
      }
      Interop.assertSameRows("ours scan(100)", expected, scanned, null);
      long[] rows = Interop.randomTakeRows(n, 100, new Random(seed));
      try (VectorSchemaRoot t = r.take(rows, List.of("s"), Interop.ALLOC)) {
        Interop.assertSameRows("ours take", Interop.pick(expected, rows), nestedCanon(t.getVector(0), null), rows);
      }
    }
  }

  /** The reference's reader in DESCRIPTOR mode, each description resolved against the file. */
  static List<String> nestedRefDescriptions(Path file, List<Range> ranges) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    List<String> out = new ArrayList<>();
    org.lance.file.FileReadOptions options =
        org.lance.file.FileReadOptions.builder().blobReadMode(org.lance.file.BlobReadMode.DESCRIPTOR).build();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), Interop.ALLOC);
         ArrowReader ar = r.readAll(null, ranges, 1024, options)) {
      while (ar.loadNextBatch()) {
        out.addAll(nestedCanon(ar.getVectorSchemaRoot().getVector(0), bytes));
      }
    }
    return out;
  }

  static void nestedRefToOurs(String version, int rows, int maxLen, String name) throws Exception {
    Path file = dir.resolve("ref_" + name.replace('/', '_').replace('.', '_') + ".lance");
    long seed = Interop.seedOf("ref->ours blob " + name);
    try (VectorSchemaRoot root = generateNested(rows, maxLen, seed)) {
      List<String> expected = nestedCanon(root.getVector(0), null);
      Interop.refWrite(file, root, version, 100);
      // the reference's own view first: its descriptions must resolve to the values
      Interop.assertSameRows("reference descriptions of its file", expected, nestedRefDescriptions(file, null), null);
      nestedOursRead(file, expected, seed);
      TALLY.refToOursIdentical.incrementAndGet();
    }
  }

  static void nestedOursToRef(String version, int rows, int maxLen, String name) throws Exception {
    Path file = dir.resolve("ours_" + name.replace('/', '_').replace('.', '_') + ".lance");
    long seed = Interop.seedOf("ours->ref blob " + name);
    try (VectorSchemaRoot root = generateNested(rows, maxLen, seed)) {
      List<String> expected = nestedCanon(root.getVector(0), null);
      Interop.oursWrite(file, root, version, 1L << 20, 100);
      nestedOursRead(file, expected, seed);
      Interop.assertSameRows("reference descriptions", expected, nestedRefDescriptions(file, null), null);
      long[] take = Interop.sortedDistinctRows(rows, 30, new Random(seed));
      Interop.assertSameRows("reference descriptions, single-row ranges", Interop.pick(expected, take),
          nestedRefDescriptions(file, Interop.singleRowRanges(take)), take);
      TALLY.oursToRefIdentical.incrementAndGet();
    }
  }

  /**
   * The same rows written by both in one batch: every page's layout (BlobLayout layers, the inner
   * mini-block) and buffer sizes are identical, and so are the id column's layers. The description bytes differ only in positions,
   * since each writer places the values elsewhere; the tests above resolve those.
   */
  static void nestedSameLayout(String version, int rows, int maxLen, String name) throws Exception {
    String base = name.replace('/', '_').replace('.', '_');
    Path ref = dir.resolve("layout_ref_" + base + ".lance");
    Path ours = dir.resolve("layout_ours_" + base + ".lance");
    try (VectorSchemaRoot root = generateNested(rows, maxLen, Interop.seedOf("layout " + name))) {
      Interop.refWrite(ref, root, version, rows);
      Interop.oursWrite(ours, root, version, 8L << 20, rows);
    }
    List<io.lancecodec.format.pb.file2.ColumnMetadata> a = columns(Files.readAllBytes(ref));
    List<io.lancecodec.format.pb.file2.ColumnMetadata> b = columns(Files.readAllBytes(ours));
    assertEquals(a.size(), b.size(), name + ": columns");
    int blobPages = 0;
    for (int c = 0; c < a.size(); c++) {
      assertEquals(a.get(c).getPagesCount(), b.get(c).getPagesCount(), name + ": column " + c + " pages");
      for (int p = 0; p < a.get(c).getPagesCount(); p++) {
        var x = a.get(c).getPages(p);
        var y = b.get(c).getPages(p);
        String where = name + ": column " + c + " page " + p;
        assertEquals(x.getLength(), y.getLength(), where + " rows");
        var lx = layout(x);
        var ly = layout(y);
        if (!lx.hasBlobLayout()) {
          // the id column: only its levels are the subject here (the compression the writers
          // pick for a few int32s differs, e.g. constant or flat against bit-packing)
          assertEquals(layers(lx), layers(ly), where + " layers");
          continue;
        }
        assertEquals(lx, ly, where + " layout");
        assertEquals(x.getBufferSizesList(), y.getBufferSizesList(), where + " buffer sizes");
        blobPages += lx.hasBlobLayout() ? 1 : 0;
      }
    }
    assertEquals(2, blobPages, name + ": blob pages");
  }

  static List<io.lancecodec.format.pb.v21.RepDefLayer> layers(io.lancecodec.format.pb.v21.PageLayout l) {
    switch (l.getLayoutCase()) {
      case MINI_BLOCK_LAYOUT:
        return l.getMiniBlockLayout().getLayersList();
      case CONSTANT_LAYOUT:
        return l.getConstantLayout().getLayersList();
      case FULL_ZIP_LAYOUT:
        return l.getFullZipLayout().getLayersList();
      default:
        return l.getBlobLayout().getLayersList();
    }
  }

  static io.lancecodec.format.pb.v21.PageLayout layout(io.lancecodec.format.pb.file2.ColumnMetadata.Page p) throws Exception {
    return com.google.protobuf.Any.parseFrom(p.getEncoding().getDirect().getEncoding())
        .unpack(io.lancecodec.format.pb.v21.PageLayout.class);
  }

  static List<io.lancecodec.format.pb.file2.ColumnMetadata> columns(byte[] file) throws Exception {
    java.nio.ByteBuffer footer = java.nio.ByteBuffer.wrap(file, file.length - 40, 40).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long table = footer.getLong(file.length - 32);
    int numColumns = footer.getInt(file.length - 12);
    java.nio.ByteBuffer t = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    List<io.lancecodec.format.pb.file2.ColumnMetadata> out = new ArrayList<>();
    for (int c = 0; c < numColumns; c++) {
      int pos = (int) t.getLong((int) table + 16 * c);
      int size = (int) t.getLong((int) table + 16 * c + 8);
      out.add(io.lancecodec.format.pb.file2.ColumnMetadata.parseFrom(java.util.Arrays.copyOfRange(file, pos, pos + size)));
    }
    return out;
  }

  /**
   * lance 7.0.0 writes list<blob> with one description per item and no repetition levels (its
   * own reader then aborts the process, so it is not asked to read the file): we refuse to read
   * that column, still read the file's others, and refuse to write the shape.
   */
  static void listRefused(String version) throws Exception {
    Field list = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(new Field("item", blobField().getFieldType(), null)));
    Field k = new Field("k", FieldType.nullable(new ArrowType.Int(32, true)), null);
    Path file = dir.resolve("ref_list_blob_" + version.replace('.', '_') + ".lance");
    int n = 20;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(k, list)), Interop.ALLOC)) {
      IntVector kv = (IntVector) root.getVector(0);
      org.apache.arrow.vector.complex.ListVector l = (org.apache.arrow.vector.complex.ListVector) root.getVector(1);
      LargeVarBinaryVector items = (LargeVarBinaryVector) l.getDataVector();
      Random rnd = new Random(Interop.seedOf("list blob " + version));
      int at = 0;
      for (int r = 0; r < n; r++) {
        kv.setSafe(r, r * 3);
        l.startNewValue(r);
        int len = 1 + rnd.nextInt(3);
        for (int j = 0; j < len; j++) {
          byte[] b = new byte[1 + rnd.nextInt(40)];
          rnd.nextBytes(b);
          items.setSafe(at++, b);
        }
        l.endValue(r, len);
      }
      items.setValueCount(at);
      l.setValueCount(n);
      root.setRowCount(n);
      Interop.refWrite(file, root, version, n);
      try (io.lancecodec.runtime.LanceFileReader r = io.lancecodec.runtime.LanceFileReader.open(file)) {
        try (VectorSchemaRoot got = r.readRange(0, n, List.of("k"), Interop.ALLOC)) {
          assertEquals(Interop.canon(kv), Interop.canon(got.getVector(0)), "the other column");
        }
        io.lancecodec.spi.LanceCodecException e = assertThrows(io.lancecodec.spi.LanceCodecException.class,
            () -> r.readRange(0, n, List.of("l"), Interop.ALLOC).close());
        assertEquals(io.lancecodec.spi.LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("under a list"), e.getMessage());
      }
      Path ours = dir.resolve("ours_list_blob_" + version.replace('.', '_') + ".lance");
      io.lancecodec.spi.LanceCodecException e = assertThrows(io.lancecodec.spi.LanceCodecException.class,
          () -> Interop.oursWrite(ours, root, version, 1L << 20, n));
      assertEquals(io.lancecodec.spi.LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
    }
  }

  @AfterAll
  static void summary() {
    System.out.println(TALLY.summary("BlobInteropTest"));
    assertEquals(0, TALLY.refToOursPending.get());
  }
}
