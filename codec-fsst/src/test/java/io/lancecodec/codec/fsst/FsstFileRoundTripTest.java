package io.lancecodec.codec.fsst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** Whole files written and read by lance-codec: FSST is chosen for real strings and reads back. */
class FsstFileRoundTripTest {
  @TempDir Path dir;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2)) {
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
      expected.add(nullable && i % 4 == 1 ? null : real.get((i * 13) % real.size()));
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
}
