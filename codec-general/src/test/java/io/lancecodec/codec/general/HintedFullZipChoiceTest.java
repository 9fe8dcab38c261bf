package io.lancecodec.codec.general;

import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.codec.fsst.FsstPlugin;
import io.lancecodec.layout.legacy.LegacyLayoutPlugin;
import io.lancecodec.runtime.CodecRegistry;
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
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Full-zip strings under a zstd or lz4 hint: the writer keeps the smallest of per-value zstd
 * (what the reference writes for either hint), FSST and plain. Varied text lines get FSST (the
 * reference's per-value zstd makes such values larger than plain); values that repeat
 * themselves inside get per-value zstd.
 */
class HintedFullZipChoiceTest {
  private static final BufferAllocator ALLOC = new RootAllocator();
  private static final CodecRegistry ALL =
      CodecRegistry.of(List.of(new GeneralPlugin(), new FsstPlugin(), new BitpackPlugin()), List.of(new LegacyLayoutPlugin()));
  private static final String[] WORDS = {
    "from", "by", "with", "ESMTP", "id", "for", "localhost", "mail", "example", "org", "net", "Postfix", "(", ")", "[10.0.",
    "];", "Mon,", "Tue,", "Aug", "2002", "+0100", "(IST)", "jm@jmason.org", "spamassassin", "taint", "listman", "redhat",
    "com", "smtp", "relay", "qmail", "invoked", "uid", "Received:", "lists", "sourceforge", "exim", "4.10", "#1", "SMTP"
  };

  @TempDir Path dir;

  @AfterAll
  static void close() {
    ALLOC.close();
  }

  private String write(List<String> values, String hint, FileVersion version) {
    Field f = new Field("s", new FieldType(false, ArrowType.Utf8.INSTANCE, null, Map.of("lance-encoding:compression", hint)), null);
    Path file = dir.resolve("c" + System.nanoTime() + ".lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), ALLOC)) {
      VarCharVector v = (VarCharVector) root.getVector(0);
      v.allocateNew();
      for (int i = 0; i < values.size(); i++) {
        v.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
      }
      v.setValueCount(values.size());
      root.setRowCount(values.size());
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults().withVersion(version).withRegistry(ALL))) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(file, ALL);
        VectorSchemaRoot back = r.readRange(0, values.size(), null, ALLOC)) {
      for (int i = 0; i < values.size(); i++) {
        assertEquals(values.get(i), new String(((VarCharVector) back.getVector(0)).get(i), StandardCharsets.UTF_8), "row " + i);
      }
      return r.columnSummaries().get(0).pages().get(0).toString();
    }
  }

  @Test
  void variedLinesGetFsst() {
    Random rnd = new Random(6);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      StringBuilder sb = new StringBuilder();
      while (sb.length() < 280) {
        sb.append(WORDS[rnd.nextInt(WORDS.length)]).append(' ');
      }
      lines.add(sb.toString());
    }
    for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2)) {
      for (String hint : List.of("zstd", "lz4")) {
        String d = write(lines, hint, v);
        assertTrue(d.contains("full-zip, values: fsst(variable(flat(32)))"), hint + " " + v + ": " + d);
      }
    }
  }

  @Test
  void selfRepeatingValuesGetPerValueZstd() {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      values.add(("row " + i + " ").repeat(60));
    }
    for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2)) {
      for (String hint : List.of("zstd", "lz4")) {
        String d = write(values, hint, v);
        assertTrue(d.contains("full-zip, values: general("), hint + " " + v + ": " + d);
      }
    }
  }
}
