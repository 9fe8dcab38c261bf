package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Hostile input: truncated files, flipped bytes everywhere in the metadata and sampled in the
 * data, absurd sizes. Every outcome must be a clean read or a {@link LanceCodecException} within a
 * time bound; any other throwable (index errors, OOM, negative sizes) is a defect.
 */
class CorruptFileTest extends WithAllocator {
  static byte[] validFile(FileVersion version) throws Exception {
    Path f = dir.resolve("valid-" + version + ".lance");
    Schema schema =
        new Schema(
            List.of(
                new Field("i", new FieldType(true, new ArrowType.Int(32, true), null), null),
                new Field("s", new FieldType(true, ArrowType.Utf8.INSTANCE, null), null),
                new Field("w", new FieldType(false, new ArrowType.FixedSizeBinary(300), null), null)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      Random rnd = new Random(7);
      TestData.fill(root.getVector(0), 3000, 0.2, TestData.Shape.NARROW, rnd);
      TestData.fill(root.getVector(1), 3000, 0.2, TestData.Shape.NARROW, rnd);
      TestData.fill(root.getVector(2), 3000, 0, TestData.Shape.WIDE, rnd);
      root.setRowCount(3000);
      try (LanceFileWriter w = LanceFileWriter.open(f, schema, WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    return Files.readAllBytes(f);
  }

  /** A file of nested columns: struct of list of struct, list of lists, wide strings in lists, vectors. */
  static byte[] validNestedFile(FileVersion version) throws Exception {
    Path f = dir.resolve("nested-" + version + ".lance");
    Field wideStrings = new Field("item", new FieldType(true, ArrowType.Utf8.INSTANCE, null,
        java.util.Map.of("lance-encoding:structural-encoding", "fullzip")), null);
    Schema schema =
        new Schema(
            List.of(
                NestedData.struct("s", NestedData.i32("a"), NestedData.list("b", NestedData.struct("item", NestedData.i32("c"), NestedData.str("d")))),
                NestedData.list("ll", NestedData.list("item", NestedData.i32("item"))),
                NestedData.list("lw", wideStrings),
                NestedData.fsl("v", 16)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      Random rnd = new Random(9);
      for (int i = 0; i < 1500; i++) {
        for (int c = 0; c < 4; c++) {
          NestedData.set(root.getVector(c), i, NestedData.value(schema.getFields().get(c), rnd, 0.2, 4, 0));
        }
      }
      root.setRowCount(1500);
      try (LanceFileWriter w = LanceFileWriter.open(f, schema, WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    return Files.readAllBytes(f);
  }

  /**
   * A file of the later column types: fixed-size lists with null items (mini-block and
   * full-zip, and in a list), packed structs, a blob column, and in 2.2 a map and a packed struct
   * with a string child.
   */
  static byte[] validLaterTypesFile(FileVersion version) throws Exception {
    Path f = dir.resolve("later-" + version + ".lance");
    List<Field> fields = new ArrayList<>(List.of(
        NestedData.fslNullItems("fn", 6),
        NestedData.fslNullItems("fw", 80),
        NestedData.list("lf", NestedData.fslNullItems("item", 3)),
        NestedData.packed("p", NestedData.field("a", false, new ArrowType.Int(32, true)), NestedData.field("b", false, new ArrowType.Int(64, true)))));
    if (version != FileVersion.V2_3) {
      // 2.3 has no blob layout (the planar layout refuses blob columns)
      fields.add(new Field("blob", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null, java.util.Map.of("lance-encoding:blob", "true")), null));
    }
    if (version.atLeast(FileVersion.V2_2)) {
      fields.add(NestedData.map("m", NestedData.field("key", false, ArrowType.Utf8.INSTANCE), NestedData.i32("value")));
      fields.add(NestedData.packed("pv", NestedData.field("s", false, ArrowType.Utf8.INSTANCE), NestedData.field("k", false, new ArrowType.Int(32, true))));
    }
    Schema schema = new Schema(fields);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      Random rnd = new Random(11);
      for (int i = 0; i < 600; i++) {
        for (int c = 0; c < fields.size(); c++) {
          if (fields.get(c).getName().equals("blob")) {
            org.apache.arrow.vector.LargeVarBinaryVector b = (org.apache.arrow.vector.LargeVarBinaryVector) root.getVector(c);
            if (i % 5 == 0) {
              b.setNull(i);
            } else {
              byte[] v = new byte[rnd.nextInt(40)];
              rnd.nextBytes(v);
              b.setSafe(i, v);
            }
          } else {
            NestedData.set(root.getVector(c), i, NestedData.value(fields.get(c), rnd, 0.2, 4, 0));
          }
        }
      }
      root.setRowCount(600);
      try (LanceFileWriter w = LanceFileWriter.open(f, schema, WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    return Files.readAllBytes(f);
  }

  @ParameterizedTest
  @MethodSource("versions")
  void laterTypesCorruptionFailsCleanly(FileVersion version) throws Exception {
    corruptionFailsCleanly(validLaterTypesFile(version), "later");
  }

  @ParameterizedTest
  @MethodSource("versions")
  void nestedFileCorruptionFailsCleanly(FileVersion version) throws Exception {
    corruptionFailsCleanly(validNestedFile(version), "nested");
  }

  /**
   * 2.3 fixed-size lists whose leaf is bit-packed: token-like rows zipped one size each, narrow
   * rows in chunks of whole rows, rows with null items (validity beside the leaf chunk), a nested
   * list; every truncation fails, flipped bytes fail only as a LanceCodecException.
   */
  @Test
  void leafCompressedFixedSizeListCorruptionFailsCleanly() throws Exception {
    Field[] items = {
      new Field("item", FieldType.notNullable(new ArrowType.Int(32, false)), null),
      new Field("item", FieldType.notNullable(new ArrowType.Int(16, false)), null),
      new Field("item", FieldType.nullable(new ArrowType.Int(64, true)), null),
    };
    List<Field> fields = List.of(
        new Field("tokens", FieldType.nullable(new ArrowType.FixedSizeList(1024)), List.of(items[0])),
        new Field("narrow", FieldType.nullable(new ArrowType.FixedSizeList(12)), List.of(items[1])),
        new Field("nullitems", FieldType.nullable(new ArrowType.FixedSizeList(40)), List.of(items[2])),
        new Field("nested", FieldType.nullable(new ArrowType.FixedSizeList(3)),
            List.of(new Field("item", FieldType.notNullable(new ArrowType.FixedSizeList(5)), List.of(items[1])))));
    Path f = dir.resolve("fsl-leaf.lance");
    int rows = 400;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator)) {
      Random rnd = new Random(15);
      for (org.apache.arrow.vector.FieldVector v : root.getFieldVectors()) {
        List<org.apache.arrow.vector.FieldVector> chain = new ArrayList<>();
        org.apache.arrow.vector.FieldVector cur = v;
        long count = rows;
        while (cur instanceof org.apache.arrow.vector.complex.FixedSizeListVector l) {
          chain.add(l);
          l.setInitialCapacity((int) count);
          count *= l.getListSize();
          cur = (org.apache.arrow.vector.FieldVector) l.getDataVector();
        }
        ((org.apache.arrow.vector.complex.FixedSizeListVector) v).allocateNew();
        org.apache.arrow.vector.BaseFixedWidthVector leaf = (org.apache.arrow.vector.BaseFixedWidthVector) cur;
        long parents = rows;
        for (org.apache.arrow.vector.FieldVector l : chain) {
          for (int i = 0; i < parents; i++) {
            ((org.apache.arrow.vector.complex.FixedSizeListVector) l).setNotNull(i);
          }
          parents *= ((org.apache.arrow.vector.complex.FixedSizeListVector) l).getListSize();
        }
        for (int k = 0; k < count; k++) {
          long x = rnd.nextInt(1 << 17);
          switch (leaf.getTypeWidth()) {
            case 2 -> leaf.getDataBuffer().setShort(2L * k, (short) (x & 0x3FF));
            case 4 -> leaf.getDataBuffer().setInt(4L * k, (int) x);
            default -> leaf.getDataBuffer().setLong(8L * k, x);
          }
          boolean valid = !leaf.getField().isNullable() || rnd.nextInt(6) != 0;
          org.apache.arrow.vector.BitVectorHelper.setValidityBit(leaf.getValidityBuffer(), k, valid ? 1 : 0);
        }
        ((org.apache.arrow.vector.complex.FixedSizeListVector) v).setNull(7);
        v.setValueCount(rows);
      }
      root.setRowCount(rows);
      try (LanceFileWriter w = LanceFileWriter.open(f, root.getSchema(), WriterOptions.defaults().withVersion(FileVersion.V2_3))) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(f)) {
      String pages = r.columnSummaries().toString();
      assertTrue(pages.contains("zipped values: fixed_size_list(1024, bitpack(32))") && pages.contains("fixed_size_list(12, bitpack(16))")
          && pages.contains("fixed_size_list(40, item validity, bitpack(64))")
          && pages.contains("fixed_size_list(3, fixed_size_list(5, bitpack(16)))"), pages);
    }
    corruptionFailsCleanly(Files.readAllBytes(f), "fsl-leaf");
  }

  /**
   * Full-zip lists of strings large enough (about 900 KB of rows, a tenth of them repetition
   * index) that a read splits them into steps through the repetition index, which flipped bytes
   * then hit often: out-of-order or out-of-range entries must fail as CORRUPT.
   */
  @ParameterizedTest
  @MethodSource("versions")
  void largeFullZipListCorruptionFailsCleanly(FileVersion version) throws Exception {
    Path f = dir.resolve("lists-" + version + ".lance");
    Field item = new Field("item", new FieldType(true, ArrowType.Utf8.INSTANCE, null,
        java.util.Map.of("lance-encoding:structural-encoding", "fullzip", "lance-encoding:compression", "none")), null);
    Schema schema = new Schema(List.of(NestedData.list("l", item)));
    int n = 20_000;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      org.apache.arrow.vector.complex.ListVector lv = (org.apache.arrow.vector.complex.ListVector) root.getVector(0);
      org.apache.arrow.vector.VarCharVector items = (org.apache.arrow.vector.VarCharVector) lv.getDataVector();
      lv.allocateNew();
      Random rnd = new Random(17);
      int at = 0;
      for (int r = 0; r < n; r++) {
        if (rnd.nextInt(15) == 0) {
          lv.setNull(r);
          continue;
        }
        int k = rnd.nextInt(4);
        lv.startNewValue(r);
        for (int j = 0; j < k; j++) {
          if (rnd.nextInt(9) == 0) {
            items.setNull(at);
          } else {
            byte[] v = new byte[5 + rnd.nextInt(30)];
            for (int c = 0; c < v.length; c++) {
              v[c] = (byte) ('a' + rnd.nextInt(26));
            }
            items.setSafe(at, v);
          }
          at++;
        }
        lv.endValue(r, k);
      }
      items.setValueCount(at);
      lv.setValueCount(n);
      root.setRowCount(n);
      try (LanceFileWriter w = LanceFileWriter.open(f, schema, WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    byte[] valid = Files.readAllBytes(f);
    try (LanceFileReader r = LanceFileReader.open(f)) {
      String pages = r.columnSummaries().toString();
      assertTrue(pages.contains(version == FileVersion.V2_3 ? "zipped values" : "full-zip"), pages);
    }
    assertTrue(valid.length > 600_000, "large enough for several steps: " + valid.length);
    corruptionFailsCleanly(valid, "lists");
    // The repetition index: n + 1 little-endian u32 row starts from 0, found by their shape.
    ByteBuffer bb = ByteBuffer.wrap(valid).order(ByteOrder.LITTLE_ENDIAN);
    int index = -1;
    for (int p = 0; p + 4 * (n + 1) <= valid.length && index < 0; p += 4) {
      if (bb.getInt(p) != 0) {
        continue;
      }
      boolean rising = true;
      for (int i = 1; i <= n && rising; i++) {
        rising = bb.getInt(p + 4 * i) > bb.getInt(p + 4 * (i - 1)) || bb.getInt(p + 4 * i) == bb.getInt(p + 4 * (i - 1));
      }
      index = rising && bb.getInt(p + 4 * n) > 600_000 ? p : -1;
    }
    assertTrue(index >= 0, "repetition index found");
    // a row in the middle that starts before the row before it, or past the page's rows
    for (int[] patch : new int[][] {{n / 2, bb.getInt(index + 4 * (n / 2 - 1)) - 1}, {n / 3, Integer.MAX_VALUE}}) {
      byte[] bad = valid.clone();
      ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(index + 4 * patch[0], patch[1]);
      LanceCodecException e = tryRead(bad, "lists-index.lance");
      assertTrue(e != null && e.kind() == LanceCodecException.Kind.CORRUPT, "row " + patch[0] + " start " + patch[1] + ": " + e);
    }
  }

  /** Truncations must fail; flipped bytes may read, but only ever fail as a LanceCodecException. */
  private static void corruptionFailsCleanly(byte[] valid, String tag) throws Exception {
    if (tryRead(valid, "nested-ok.lance") != null) {
      fail("the valid " + tag + " file does not read");
    }
    for (int len = 0; len < valid.length; len += Math.max(1, valid.length / 200)) {
      byte[] cut = Arrays.copyOf(valid, len);
      LanceCodecException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
          Duration.ofSeconds(5), () -> tryRead(cut, "nested-cut.lance"));
      if (e == null) {
        fail(tag + " file truncated to " + len + " of " + valid.length + " bytes but read without error");
      }
    }
    Random rnd = new Random(13);
    for (int k = 0; k < 600; k++) {
      byte[] bad = valid.clone();
      int pos = rnd.nextInt(valid.length - 40);
      bad[pos] ^= (byte) (1 + rnd.nextInt(255));
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5), () -> tryRead(bad, "nested-flip.lance"));
    }
  }

  /** Opens and fully reads a file; returns null on success or the LanceCodecException. */
  static LanceCodecException tryRead(byte[] bytes, String name) throws Exception {
    Path f = dir.resolve(name);
    Files.write(f, bytes);
    try (LanceFileReader r = LanceFileReader.open(f)) {
      try (VectorSchemaRoot all = r.readRange(0, r.numRows(), null, allocator)) {
        all.getRowCount();
      }
      if (r.numRows() > 0) {
        try (VectorSchemaRoot t = r.take(new long[] {r.numRows() - 1, 0, r.numRows() / 2}, null, allocator)) {
          t.getRowCount();
        }
      }
      return null;
    } catch (LanceCodecException e) {
      assertTrue(!e.getMessage().isBlank() && !e.getMessage().contains("\n"), "one-line message: " + e.getMessage());
      return e;
    } catch (Throwable t) {
      throw new AssertionError(name + ": not a LanceCodecException: " + t, t);
    } finally {
      Files.delete(f);
    }
  }

  static Stream<Arguments> versions() {
    return Stream.of(Arguments.of(FileVersion.V2_1), Arguments.of(FileVersion.V2_2), Arguments.of(FileVersion.V2_3));
  }

  @ParameterizedTest
  @MethodSource("versions")
  void everyTruncationFailsCleanly(FileVersion version) throws Exception {
    byte[] valid = validFile(version);
    List<Integer> lengths = new ArrayList<>();
    for (int len = 0; len < valid.length; len += Math.max(1, valid.length / 300)) {
      lengths.add(len);
    }
    for (int len = Math.max(0, valid.length - 600); len < valid.length; len++) {
      lengths.add(len);
    }
    for (int len : lengths) {
      byte[] cut = Arrays.copyOf(valid, len);
      LanceCodecException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
          Duration.ofSeconds(5), () -> tryRead(cut, "cut.lance"));
      if (e == null) {
        fail("truncated to " + len + " of " + valid.length + " bytes but read without error");
      }
    }
  }

  @ParameterizedTest
  @MethodSource("versions")
  void flippedMetadataBytesNeverCrash(FileVersion version) throws Exception {
    byte[] valid = validFile(version);
    ByteBuffer footer = ByteBuffer.wrap(valid, valid.length - 40, 40).order(ByteOrder.LITTLE_ENDIAN);
    long gbo = footer.getLong(valid.length - 40 + 16);
    long gb0 = ByteBuffer.wrap(valid).order(ByteOrder.LITTLE_ENDIAN).getLong((int) gbo);
    int errors = 0;
    int clean = 0;
    for (int pos = (int) gb0; pos < valid.length; pos++) {
      for (int mask : new int[] {0x01, 0x80, 0xFF}) {
        byte[] bad = valid.clone();
        bad[pos] ^= (byte) mask;
        LanceCodecException e = tryRead(bad, "flip.lance");
        if (e == null) {
          clean++;
        } else {
          errors++;
        }
      }
    }
    assertTrue(errors > 0, "flips in metadata were detected at least sometimes");
    System.out.println(version + ": metadata flips -> " + errors + " clean errors, " + clean + " harmless reads");
  }

  @ParameterizedTest
  @MethodSource("versions")
  void flippedDataBytesNeverCrash(FileVersion version) throws Exception {
    byte[] valid = validFile(version);
    Random rnd = new Random(11);
    for (int k = 0; k < 400; k++) {
      byte[] bad = valid.clone();
      int pos = rnd.nextInt(valid.length - 40);
      bad[pos] ^= (byte) (1 + rnd.nextInt(255));
      tryRead(bad, "data-flip.lance");
    }
  }

  @Test
  void notLanceFiles() throws Exception {
    assertEquals(LanceCodecException.Kind.CORRUPT, tryRead(new byte[0], "empty.lance").kind());
    assertEquals(LanceCodecException.Kind.CORRUPT, tryRead("hello, world".getBytes(), "text.lance").kind());
    byte[] noise = new byte[4096];
    new Random(3).nextBytes(noise);
    assertEquals(LanceCodecException.Kind.CORRUPT, tryRead(noise, "noise.lance").kind());
    LanceCodecException missing =
        assertThrows(LanceCodecException.class, () -> LanceFileReader.open(dir.resolve("does-not-exist.lance")));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, missing.kind());
  }

  @Test
  void absurdDeclaredSizes() throws Exception {
    byte[] valid = validFile(FileVersion.V2_1);
    ByteBuffer b = ByteBuffer.wrap(valid).order(ByteOrder.LITTLE_ENDIAN);
    int footer = valid.length - 40;
    for (int field : new int[] {0, 8, 16}) {
      for (long v : new long[] {Long.MAX_VALUE, -1L, 1L << 40, valid.length}) {
        byte[] bad = valid.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putLong(footer + field, v);
        assertEquals(LanceCodecException.Kind.CORRUPT, tryRead(bad, "absurd.lance").kind());
      }
    }
    for (int field : new int[] {24, 28}) {
      byte[] bad = valid.clone();
      ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(footer + field, Integer.MAX_VALUE);
      assertEquals(LanceCodecException.Kind.CORRUPT, tryRead(bad, "absurd.lance").kind());
    }
    byte[] future = valid.clone();
    ByteBuffer.wrap(future).order(ByteOrder.LITTLE_ENDIAN).putShort(footer + 32, (short) 9);
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, tryRead(future, "future.lance").kind());
    b.rewind();
  }
}
