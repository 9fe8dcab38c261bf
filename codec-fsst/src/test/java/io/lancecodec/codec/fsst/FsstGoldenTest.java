package io.lancecodec.codec.fsst;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files written by the reference (see resources/golden/README.md) decode to exactly the strings
 * that were written: full scans, batched scans and random takes, through the real reader.
 */
class FsstGoldenTest {
  static final List<String> NAMES =
      List.of(
          "message-ids-v2_1-utf8-miniblock",
          "message-ids-v2_2-large_utf8-nullable-miniblock",
          "received-v2_1-utf8-fullzip",
          "received-v2_2-utf8-nullable-fullzip",
          "from-v2_1-utf8-forced-small-miniblock");

  static final BufferAllocator ALLOC = new RootAllocator();

  @TempDir static Path dir;

  @AfterAll
  static void close() {
    ALLOC.close();
  }

  static List<String> names() {
    return NAMES;
  }

  static Path copy(String name) throws IOException {
    Path file = dir.resolve(name + ".lance");
    try (InputStream in = TestBlocks.resource("golden/" + name + ".lance")) {
      Files.write(file, in.readAllBytes());
    }
    return file;
  }

  static List<String> rows(VectorSchemaRoot root) {
    VariableWidthFieldVector v = (VariableWidthFieldVector) root.getVector(0);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < root.getRowCount(); i++) {
      out.add(v.isNull(i) ? "\\N" : new String(v.get(i), StandardCharsets.UTF_8));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void decodesReferenceFile(String name) throws IOException {
    List<String> expected = TestBlocks.expectedLines(name);
    try (LanceFileReader r = LanceFileReader.open(copy(name))) {
      assertEquals(expected.size(), r.numRows());
      try (VectorSchemaRoot all = r.readRange(0, r.numRows(), null, ALLOC)) {
        assertEquals(expected, rows(all));
      }
      List<String> scanned = new ArrayList<>();
      Iterator<VectorSchemaRoot> it = r.scan(null, 97, ALLOC);
      while (it.hasNext()) {
        try (VectorSchemaRoot b = it.next()) {
          scanned.addAll(rows(b));
        }
      }
      assertEquals(expected, scanned);
      long[] take = new long[200];
      java.util.Random rnd = new java.util.Random(name.hashCode());
      for (int i = 0; i < take.length; i++) {
        take[i] = rnd.nextInt(expected.size());
      }
      take[0] = expected.size() - 1;
      try (VectorSchemaRoot t = r.take(take, null, ALLOC)) {
        List<String> got = rows(t);
        for (int i = 0; i < take.length; i++) {
          assertEquals(expected.get((int) take[i]), got.get(i), "take row " + take[i]);
        }
      }
    }
  }

  /** Without this plugin the files cannot be read: their pages really are FSST pages. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void needsTheFsstPlugin(String name) throws IOException {
    CodecRegistry withoutFsst = TestBlocks.REGISTRY.without("fsst");
    Path file = copy(name);
    LanceCodecException e;
    try (LanceFileReader r = LanceFileReader.open(file, withoutFsst);
        org.apache.arrow.memory.BufferAllocator al = new org.apache.arrow.memory.RootAllocator()) {
      // the file still opens and describes itself; its FSST column fails when read
      assertTrue(r.columnSummaries().toString().contains("fsst(plugin missing"), r.columnSummaries().toString());
      e = assertThrows(LanceCodecException.class, () -> r.readRange(0, r.numRows(), null, al).close());
    }
    assertEquals(LanceCodecException.Kind.MISSING_PLUGIN, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("needs encoding Fsst"), e.getMessage());
  }
}
