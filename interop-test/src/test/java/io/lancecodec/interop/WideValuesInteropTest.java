package io.lancecodec.interop;

import io.lancecodec.interop.Interop.Dist;
import io.lancecodec.interop.Interop.Nulls;
import io.lancecodec.interop.Interop.TypeCase;
import io.lancecodec.interop.Interop.VarShape;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.WriterOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values wide enough for the full-zip layout (fixed_size_binary(512), ~400-byte strings and
 * binaries), both directions. Before the reference reads one of our files we check that our
 * writer chose full-zip: the reference aborts the JVM on mini-block pages of wide values.
 */
@ExtendWith(NativeLibCleanup.class)
class WideValuesInteropTest {
  static final List<TypeCase> WIDE_TYPES =
      List.of(
          new TypeCase("fixed_size_binary512", new ArrowType.FixedSizeBinary(512)),
          new TypeCase("utf8_400", ArrowType.Utf8.INSTANCE),
          new TypeCase("large_utf8_400", ArrowType.LargeUtf8.INSTANCE),
          new TypeCase("binary_400", ArrowType.Binary.INSTANCE));
  static final VarShape WIDE = new VarShape(380, 420);
  static final int[] ROWS = {1, 100, 3000};

  /** Cases known to fail because of a lance-codec bug (see FINDINGS.md); skipped. */
  static final Map<String, String> KNOWN_FINDINGS = Map.of();

  static final Interop.Tally TALLY = new Interop.Tally();

  @TempDir static Path dir;

  @TestFactory
  Stream<DynamicNode> wideValues() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (TypeCase type : WIDE_TYPES) {
        for (Nulls nulls : List.of(Nulls.NONE, Nulls.SOME)) {
          for (int ri = 0; ri < ROWS.length; ri++) {
            int rows = ROWS[ri];
            Dist dist = ri % 2 == 0 ? Dist.RANDOM : Dist.SEQUENTIAL;
            String name = version + "/" + type.name() + "/" + nulls + "/" + rows;
            tests.add(DynamicTest.dynamicTest("ref->ours " + name + " (" + dist + ")",
                () -> refToOurs(version, type, nulls, dist, rows, name)));
            tests.add(DynamicTest.dynamicTest("ours->ref " + name + " (" + dist + ")",
                () -> oursToRef(version, type, nulls, dist, rows, name)));
          }
        }
      }
    }
    return tests.stream();
  }

  private static VectorSchemaRoot generate(TypeCase type, Nulls nulls, Dist dist, int rows, long seed) {
    return Interop.generate(type.type(), nulls != Nulls.NONE, null, nulls, dist, rows, seed, WIDE);
  }

  private static String fileName(String direction, String name) {
    return direction + "_" + name.replace('/', '_').replace('.', '_') + ".lance";
  }

  static void refToOurs(String version, TypeCase type, Nulls nulls, Dist dist, int rows, String name) throws Exception {
    String key = "ref->ours " + name;
    Assumptions.assumeTrue(!KNOWN_FINDINGS.containsKey(key), () -> "see FINDINGS.md: " + KNOWN_FINDINGS.get(key));
    long seed = Interop.seedOf(key);
    Path file = dir.resolve(fileName("ref", name));
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(type, nulls, dist, rows, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.refWrite(file, root, version, 100_000);
    }
    Interop.oursReadOrPending(() -> Interop.oursReadAndCompare(file, field, expected, seed), TALLY, key);
  }

  static void oursToRef(String version, TypeCase type, Nulls nulls, Dist dist, int rows, String name) throws Exception {
    String key = "ours->ref " + name;
    Assumptions.assumeTrue(!KNOWN_FINDINGS.containsKey(key), () -> "see FINDINGS.md: " + KNOWN_FINDINGS.get(key));
    long seed = Interop.seedOf(key);
    Path file = dir.resolve(fileName("ours", name));
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(type, nulls, dist, rows, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.oursWrite(file, root, version, WriterOptions.DEFAULT_PAGE_BYTES, 100_000);
    }
    assertFullZipOrConstant(file);
    // Our own reader first (cheap, and a sanity check of the file), then the reference.
    Interop.oursReadAndCompare(file, field, expected, seed);
    Interop.refReadAndCompare(file, field, expected, seed);
    TALLY.oursToRefIdentical.incrementAndGet();
  }

  /**
   * Every page of the file is full-zip, or constant (a single value or all null, which both
   * implementations store as a constant page). Guards the reference against mini-block pages of
   * wide values, on which it aborts the JVM.
   */
  static void assertFullZipOrConstant(Path file) {
    try (LanceFileReader r = LanceFileReader.open(file)) {
      for (LanceFileReader.ColumnSummary column : r.columnSummaries()) {
        for (String page : column.pages().stream().map(Object::toString).toList()) {
          assertTrue(page.contains("full-zip") || page.contains(": constant"),
              "expected a full-zip (or constant) page, the file has: " + page);
        }
      }
    }
  }

  @AfterAll
  static void summary() {
    System.out.println(TALLY.summary("interop wide values"));
    TALLY.pendingMessages.forEach(m -> System.out.println("  pending: " + m));
  }
}
