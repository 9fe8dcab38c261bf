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
import java.util.Random;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the writer keeps when FSST is asked for or hinted away: a forced
 * {@code lance-encoding:compression=fsst} that would lose to plain strings writes plain ones (the
 * runtime keeps the smallest offer; FSST's includes its 2312-byte table), and full-zip strings
 * under a zstd/lz4 hint still get FSST when it is smaller (the reference writes per-value zstd
 * there, larger than plain on short strings).
 */
class FsstChoiceTest {
  @TempDir Path dir;

  private String write(List<String> values, Map<String, String> meta, FileVersion version) {
    Field f = new Field("s", new FieldType(false, ArrowType.Utf8.INSTANCE, null, meta), null);
    Path file = dir.resolve("c" + System.nanoTime() + ".lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), FsstGoldenTest.ALLOC)) {
      VarCharVector v = (VarCharVector) root.getVector(0);
      v.allocateNew();
      for (int i = 0; i < values.size(); i++) {
        v.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
      }
      v.setValueCount(values.size());
      root.setRowCount(values.size());
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(file);
        VectorSchemaRoot back = r.readRange(0, values.size(), null, FsstGoldenTest.ALLOC)) {
      for (int i = 0; i < values.size(); i++) {
        assertEquals(values.get(i), new String(((VarCharVector) back.getVector(0)).get(i), StandardCharsets.UTF_8), "row " + i);
      }
      return r.columnSummaries().get(0).pages().get(0).toString();
    }
  }

  static List<String> realLines(int n, int minLen) {
    List<String> real = TestBlocks.realStrings();
    List<String> out = new ArrayList<>();
    for (int i = 0; out.size() < n; i++) {
      StringBuilder sb = new StringBuilder(real.get(i % real.size()));
      for (int k = 1; sb.length() < minLen; k++) {
        sb.append(' ').append(real.get((i + 7 * k) % real.size()));
      }
      out.add(sb.toString());
    }
    return out;
  }

  @Test
  void forcedFsstThatLosesToPlainWritesPlain() {
    Random rnd = new Random(5);
    List<String> random = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      random.add(Long.toString(rnd.nextLong(), 36));
    }
    Map<String, String> fsst = Map.of("lance-encoding:compression", "fsst");
    for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2)) {
      String d = write(random, fsst, v);
      assertTrue(d.contains("values: variable(flat(32))") && !d.contains("fsst"), d);
      String text = write(realLines(3000, 40), fsst, v);
      assertTrue(text.contains("fsst("), "forced FSST on compressible text: " + text);
    }
  }
}
