package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Full-zip rows of lists of strings, whose items a read gathers in per-thread arrays before
 * decompressing them: offsets grow when null and empty items (a control word each) outnumber the
 * first estimate, and values that come back uncompressed never share the arrays the thread's
 * next read reuses: both lists of a struct are read before either is copied into Arrow.
 */
class FullZipGatherTest extends WithAllocator {
  // compressed values (fsst, zstd) are gathered the same way: codec-fsst and codec-general run
  // their own full-zip list files, this module has only the uncompressed forms
  @ParameterizedTest(name = "{0} compression={1} nullItems={2} longStrings={3}")
  @CsvSource({
    "V2_1, none, 0.9, true", "V2_1, none, 0.2, true", "V2_2, none, 0.9, true", "V2_2, none, 0.0, true",
    "V2_1, none, 0.97, false", "V2_2, none, 0.97, false", "V2_3, none, 0.2, true", "V2_3, none, 0.0, true"
  })
  void listsOfStrings(FileVersion version, String compression, double nullItems, boolean longStrings) {
    // a dictionary (which short strings with many null items would get) would not be full-zip
    Map<String, String> meta = Map.of("lance-encoding:structural-encoding", "fullzip", "lance-encoding:compression", compression,
        "lance-encoding:dict-size-ratio", "0.01");
    // the leaf field carries the options
    Field item = new Field("item", new FieldType(true, ArrowType.Utf8.INSTANCE, null, meta), null);
    Field list1 = new Field("l1", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    Field list2 = new Field("l2", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
    Schema schema = new Schema(List.of(new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(list1, list2))));
    Random rnd = new Random(31 + (long) (nullItems * 10) + compression.hashCode());
    int n = 3000;
    List<String> expected = new ArrayList<>();
    Path path = dir.resolve("gather-" + version + "-" + compression + "-" + nullItems + "-" + longStrings + ".lance");
    try (VectorSchemaRoot b = VectorSchemaRoot.create(schema, allocator);
        LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults().withVersion(version))) {
      StructVector sv = (StructVector) b.getVector(0);
      sv.allocateNew();
      for (int r = 0; r < n; r++) {
        sv.setIndexDefined(r);
      }
      for (int c = 0; c < 2; c++) {
        fillList((ListVector) sv.getChildByOrdinal(c), n, nullItems, longStrings, rnd);
      }
      sv.setValueCount(n);
      b.setRowCount(n);
      for (int r = 0; r < n; r++) {
        expected.add(String.valueOf(sv.getObject(r)));
      }
      w.write(b);
    }
    check(path, expected, n, rnd);
  }

  /** Lists of 0-11 items, a tenth of them null; without long strings, null items are most of the row bytes. */
  private static void fillList(ListVector lv, int n, double nullItems, boolean longStrings, Random rnd) {
    VarCharVector items = (VarCharVector) lv.getDataVector();
    lv.allocateNew();
    int at = 0;
    for (int r = 0; r < n; r++) {
      int k = rnd.nextInt(10) == 0 ? -1 : rnd.nextInt(12);
      if (k < 0) {
        lv.setNull(r);
        continue;
      }
      lv.startNewValue(r);
      for (int j = 0; j < k; j++) {
        if (rnd.nextDouble() < nullItems) {
          items.setNull(at);
        } else {
          StringBuilder sb = new StringBuilder(longStrings ? "v" + r + "." + j + ":" : "");
          int len = !longStrings ? 6 + rnd.nextInt(5) : rnd.nextInt(6) == 0 ? 300 + rnd.nextInt(300) : rnd.nextInt(40);
          for (int c = 0; c < len; c++) {
            // short strings from the whole alphabet: too many distinct ones for a dictionary
            sb.append((char) ('a' + rnd.nextInt(longStrings ? 6 : 26)));
          }
          items.setSafe(at, sb.toString().getBytes(StandardCharsets.UTF_8));
        }
        at++;
      }
      lv.endValue(r, k);
    }
    items.setValueCount(at);
    lv.setValueCount(n);
  }

  private void check(Path path, List<String> expected, int n, Random rnd) {
    try (LanceFileReader r = LanceFileReader.open(path)) {
      String pages = r.columnSummaries().toString();
      // 2.3 names full-zip values "zipped values"
      assertTrue(pages.contains("full-zip") || pages.contains("zipped values"), pages);
      // Two reads on this thread, the first still open while the second reuses the gathering arrays.
      try (VectorSchemaRoot first = r.readRange(0, n / 2, null, allocator);
          VectorSchemaRoot second = r.readRange(n / 3, n, null, allocator)) {
        for (int i = 0; i < n / 2; i++) {
          assertEquals(expected.get(i), String.valueOf(first.getVector(0).getObject(i)), "first read, row " + i);
        }
        for (int i = n / 3; i < n; i++) {
          assertEquals(expected.get(i), String.valueOf(second.getVector(0).getObject(i - n / 3)), "second read, row " + i);
        }
      }
      long[] rows = rnd.longs(500, 0, n).sorted().distinct().toArray();
      try (VectorSchemaRoot t = r.take(rows, null, allocator)) {
        for (int i = 0; i < rows.length; i++) {
          assertEquals(expected.get((int) rows[i]), String.valueOf(t.getVector(0).getObject(i)), "take, row " + rows[i]);
        }
      }
    }
  }
}
