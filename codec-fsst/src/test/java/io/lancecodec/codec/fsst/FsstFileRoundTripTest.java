package io.lancecodec.codec.fsst;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole files written and read by lance-codec: FSST is chosen for real strings and reads back. */
class FsstFileRoundTripTest {
  @TempDir Path dir;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3)) {
      for (ArrowType t : List.of(ArrowType.Utf8.INSTANCE, ArrowType.LargeUtf8.INSTANCE, ArrowType.Binary.INSTANCE)) {
        for (String layout : List.of("miniblock", "fullzip")) {
          for (boolean nullable : List.of(false, true)) {
            out.add(Arguments.of(v, t, layout, nullable));
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2} nullable={3}")
  @MethodSource("cases")
  void roundTrip(FileVersion version, ArrowType type, String layout, boolean nullable) throws Exception {
    List<String> real = TestBlocks.realStrings();
    int n = 6000;
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // distinct values (a row number in each), so that mini-block pages are FSST chunks, not a dictionary
      expected.add(nullable && i % 4 == 1 ? null : real.get((i * 13) % real.size()) + " #" + i);
    }
    Field f = new Field("s", new FieldType(nullable, type, null, Map.of("lance-encoding:structural-encoding", layout)), null);
    Path file = dir.resolve("t.lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), FsstGoldenTest.ALLOC)) {
      VariableWidthFieldVector v = (VariableWidthFieldVector) root.getVector(0);
      v.setInitialCapacity(n);
      root.allocateNew();
      for (int i = 0; i < n; i++) {
        if (expected.get(i) == null) {
          v.setNull(i);
        } else {
          v.setSafe(i, expected.get(i).getBytes(StandardCharsets.UTF_8));
        }
      }
      v.setValueCount(n);
      root.setRowCount(n);
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(file);
        VectorSchemaRoot all = r.readRange(0, n, null, FsstGoldenTest.ALLOC)) {
      List<String> got = FsstGoldenTest.rows(all);
      for (int i = 0; i < n; i++) {
        assertEquals(expected.get(i) == null ? "\\N" : expected.get(i), got.get(i), "row " + i);
      }
      long fileBytes = r.fileSize();
      long plain = 0;
      for (String s : expected) {
        plain += s == null ? 0 : s.length();
      }
      assertTrue(fileBytes < plain * 0.85, "FSST was used: file " + fileBytes + " bytes for " + plain + " string bytes");
    }
  }

  static Stream<Arguments> listCases() {
    List<Arguments> out = new ArrayList<>();
    for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3)) {
      for (ArrowType t : List.of(ArrowType.Utf8.INSTANCE, ArrowType.LargeUtf8.INSTANCE)) {
        out.add(Arguments.of(v, t));
      }
    }
    return out.stream();
  }

  /**
   * Lists of real strings in full-zip rows: a read decodes them in steps of row bytes, each into
   * reused arrays and from there into the Arrow buffers (over a MiB of rows, so several steps),
   * with null lists, empty lists and null items; checked on a full read, a scan in odd batches
   * and a take.
   */
  @ParameterizedTest(name = "lists {0} {1}")
  @MethodSource("listCases")
  void listsOfStrings(FileVersion version, ArrowType type) throws Exception {
    List<String> real = TestBlocks.realStrings();
    java.util.Random rnd = new java.util.Random(version.ordinal() * 10L + type.getTypeID().ordinal());
    int n = 6000;
    Field item = new Field("item", new FieldType(true, type, null, Map.of("lance-encoding:structural-encoding", "fullzip")), null);
    Field f = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    Path file = dir.resolve("lists.lance");
    List<String> expected = new ArrayList<>();
    long plain = 0;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), FsstGoldenTest.ALLOC)) {
      org.apache.arrow.vector.complex.ListVector lv = (org.apache.arrow.vector.complex.ListVector) root.getVector(0);
      VariableWidthFieldVector items = (VariableWidthFieldVector) lv.getDataVector();
      lv.allocateNew();
      int at = 0;
      for (int r = 0; r < n; r++) {
        int k = rnd.nextInt(9);
        if (rnd.nextInt(12) == 0) {
          lv.setNull(r);
          continue;
        }
        lv.startNewValue(r);
        for (int j = 0; j < k; j++) {
          if (rnd.nextInt(10) == 0) {
            items.setNull(at);
          } else {
            byte[] v = real.get(rnd.nextInt(real.size())).getBytes(StandardCharsets.UTF_8);
            items.setSafe(at, v, 0, v.length);
            plain += v.length;
          }
          at++;
        }
        lv.endValue(r, k);
      }
      items.setValueCount(at);
      lv.setValueCount(n);
      root.setRowCount(n);
      for (int r = 0; r < n; r++) {
        expected.add(String.valueOf(lv.getObject(r)));
      }
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(file)) {
      String pages = r.columnSummaries().toString();
      // 2.3 names full-zip values "zipped values"
      assertTrue((pages.contains("full-zip") || pages.contains("zipped values")) && pages.contains("fsst"), pages);
      assertTrue(plain > 1 << 20, "several steps of row bytes: " + plain);
      try (VectorSchemaRoot all = r.readRange(0, n, null, FsstGoldenTest.ALLOC)) {
        for (int i = 0; i < n; i++) {
          assertEquals(expected.get(i), String.valueOf(all.getVector(0).getObject(i)), "row " + i);
        }
      }
      java.util.Iterator<VectorSchemaRoot> it = r.scan(null, 777, FsstGoldenTest.ALLOC);
      int row = 0;
      while (it.hasNext()) {
        try (VectorSchemaRoot b = it.next()) {
          for (int i = 0; i < b.getRowCount(); i++, row++) {
            assertEquals(expected.get(row), String.valueOf(b.getVector(0).getObject(i)), "scan, row " + row);
          }
        }
      }
      assertEquals(n, row);
      long[] rows = rnd.longs(700, 0, n).sorted().distinct().toArray();
      try (VectorSchemaRoot t = r.take(rows, null, FsstGoldenTest.ALLOC)) {
        for (int i = 0; i < rows.length; i++) {
          assertEquals(expected.get((int) rows[i]), String.valueOf(t.getVector(0).getObject(i)), "take, row " + rows[i]);
        }
      }
    }
  }
}
