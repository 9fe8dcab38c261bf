package io.lancecodec.interop;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FSST pages in both directions on real strings (the mail corpus of shared/data/strings): the
 * reference's FSST pages read by lance-codec, and lance-codec's FSST pages (checked to really be
 * FSST: they need the plugin) read by the reference. Mini-block pages hold corpus lines under
 * 256 bytes; full-zip pages hold ~400-byte values made of consecutive lines. For ours->ref cases
 * the same rows are also written by the reference and the two file sizes compared.
 */
@ExtendWith(NativeLibCleanup.class)
class FsstInteropTest {
  static final Path CORPUS = Path.of(System.getProperty("lancecodec.strings", "/work/shared/data/strings"));
  /** High-cardinality columns (mail.urls and mail.from repeat so much that both writers pick a dictionary). */
  static final String[] FILES = {"strings-mail-subjects.txt", "strings-mail-message-ids.txt", "strings-mail-received.txt"};
  static final List<ArrowType> TYPES =
      List.of(ArrowType.Utf8.INSTANCE, ArrowType.LargeUtf8.INSTANCE, ArrowType.Binary.INSTANCE);
  static final int[] MINI_BLOCK_ROWS = {6_000, 60_000};
  static final int[] FULL_ZIP_ROWS = {600, 6_000};

  /** Our file size / the reference's for the same rows, per case (ours->ref direction). */
  static final Map<String, long[]> SIZES = new TreeMap<>();

  static final Interop.Tally TALLY = new Interop.Tally();

  @TempDir static Path dir;

  private static List<String> lines;

  static synchronized List<String> lines() throws IOException {
    if (lines == null) {
      List<String> all = new ArrayList<>();
      for (String f : FILES) {
        all.addAll(Files.readAllLines(CORPUS.resolve(f), StandardCharsets.UTF_8));
      }
      lines = all;
    }
    return lines;
  }

  @TestFactory
  Stream<DynamicNode> fsst() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (ArrowType type : TYPES) {
        for (boolean nullable : List.of(false, true)) {
          for (boolean wide : List.of(false, true)) {
            for (int rows : wide ? FULL_ZIP_ROWS : MINI_BLOCK_ROWS) {
              String name = version + "/" + typeName(type) + "/" + (nullable ? "nullable" : "non-null") + "/"
                  + (wide ? "full-zip" : "mini-block") + "/" + rows;
              tests.add(DynamicTest.dynamicTest("ref->ours " + name, () -> refToOurs(version, type, nullable, wide, rows, name)));
              tests.add(DynamicTest.dynamicTest("ours->ref " + name, () -> oursToRef(version, type, nullable, wide, rows, name)));
            }
          }
        }
      }
    }
    return tests.stream();
  }

  static String typeName(ArrowType t) {
    return t instanceof ArrowType.LargeUtf8 ? "large_utf8" : t instanceof ArrowType.Utf8 ? "utf8" : "binary";
  }

  /** Rows of real strings; every 5th row null (nullable), a deterministic walk through the corpus. */
  static VectorSchemaRoot generate(ArrowType type, boolean nullable, boolean wide, int rows, long seed) throws IOException {
    Assumptions.assumeTrue(Files.isDirectory(CORPUS), "string corpus not found at " + CORPUS);
    List<String> corpus = lines();
    Random rnd = new Random(seed);
    Field field = new Field("c", new FieldType(nullable, type, null, null), null);
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(field)), Interop.ALLOC);
    VariableWidthFieldVector v = (VariableWidthFieldVector) root.getVector(0);
    v.setInitialCapacity(rows);
    root.allocateNew();
    int at = rnd.nextInt(corpus.size());
    for (int i = 0; i < rows; i++) {
      if (nullable && i % 5 == 2) {
        v.setNull(i);
        continue;
      }
      byte[] value;
      if (wide) {
        StringBuilder sb = new StringBuilder();
        while (sb.toString().getBytes(StandardCharsets.UTF_8).length < 380) {
          sb.append(corpus.get(at++ % corpus.size())).append(' ');
        }
        String s = sb.toString();
        while (s.getBytes(StandardCharsets.UTF_8).length > 420) {
          s = s.substring(0, s.length() - 1);
        }
        value = s.getBytes(StandardCharsets.UTF_8);
      } else {
        String s;
        do {
          s = corpus.get(at++ % corpus.size());
        } while (s.getBytes(StandardCharsets.UTF_8).length >= 256);
        value = s.getBytes(StandardCharsets.UTF_8);
      }
      v.setSafe(i, value);
    }
    v.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  static String fileName(String direction, String name) {
    return direction + "_" + name.replace('/', '_').replace('.', '_') + ".lance";
  }

  static void refToOurs(String version, ArrowType type, boolean nullable, boolean wide, int rows, String name) throws Exception {
    String key = "ref->ours " + name;
    long seed = Interop.seedOf(key);
    Path file = dir.resolve(fileName("ref", name));
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(type, nullable, wide, rows, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.refWrite(file, root, version, 100_000);
    }
    Interop.oursReadAndCompare(file, field, expected, seed);
    TALLY.refToOursIdentical.incrementAndGet();
  }

  static void oursToRef(String version, ArrowType type, boolean nullable, boolean wide, int rows, String name) throws Exception {
    String key = "ours->ref " + name;
    long seed = Interop.seedOf(key);
    Path file = dir.resolve(fileName("ours", name));
    Path refFile = dir.resolve(fileName("refsize", name));
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(type, nullable, wide, rows, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.oursWrite(file, root, version, WriterOptions.DEFAULT_PAGE_BYTES, 100_000);
      Interop.refWrite(refFile, root, version, 100_000);
    }
    assertNeedsFsst(file);
    Interop.oursReadAndCompare(file, field, expected, seed);
    Interop.refReadAndCompare(file, field, expected, seed);
    TALLY.oursToRefIdentical.incrementAndGet();
    long ours = Files.size(file);
    long ref = Files.size(refFile);
    synchronized (SIZES) {
      SIZES.put(name, new long[] {ours, ref});
    }
    if (!(type instanceof ArrowType.Binary)) {
      // The reference's FSST output varies by a few percent from run to run; ours must not be worse
      // than it by more than that margin. (The reference never uses FSST on binary columns.)
      assertTrue(ours <= ref * 1.12, key + ": our file has " + ours + " bytes, the reference's " + ref);
    }
  }

  /** Our writer chose FSST: without the fsst plugin the file opens but its values cannot be read. */
  static void assertNeedsFsst(Path file) {
    CodecRegistry withoutFsst = CodecRegistry.discover().without("fsst");
    LanceCodecException e;
    try (LanceFileReader r = LanceFileReader.open(file, withoutFsst)) {
      e = assertThrows(LanceCodecException.class, () -> r.readRange(0, r.numRows(), null, Interop.ALLOC).close(), "expected FSST pages");
    }
    assertEquals(LanceCodecException.Kind.MISSING_PLUGIN, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("Fsst"), e.getMessage());
  }

  @AfterAll
  static void summary() {
    System.out.println(TALLY.summary("interop fsst"));
    synchronized (SIZES) {
      SIZES.forEach((k, v) -> System.out.printf("  fsst size %-45s ours %9d  reference %9d  ratio %.3f%n", k, v[0], v[1], (double) v[0] / v[1]));
    }
  }
}
