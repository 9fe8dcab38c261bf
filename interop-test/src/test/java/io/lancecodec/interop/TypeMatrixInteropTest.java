package io.lancecodec.interop;

import io.lancecodec.interop.Interop.Dist;
import io.lancecodec.interop.Interop.Nulls;
import io.lancecodec.interop.Interop.TypeCase;
import io.lancecodec.runtime.WriterOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static io.lancecodec.interop.Interop.ALLOC;

/**
 * Every flat type x file version x nullability x row count, in both directions:
 * reference writes -> lance-codec reads (range, scan, unsorted take) and lance-codec writes ->
 * reference reads (full read, sorted single-row ranges). Values are compared row by row on their
 * raw bytes. Files the reference encodes with codecs lance-codec does not have yet must fail on
 * our side with MISSING_PLUGIN/UNSUPPORTED; they are counted as pending.
 */
@ExtendWith(NativeLibCleanup.class)
class TypeMatrixInteropTest {
  static final List<String> VERSIONS = List.of("2.1", "2.2");
  static final int[] ROWS = {0, 1, 1023, 1024, 1025, 4097};
  static final int BIG_ROWS = 300_000;
  static final Set<String> BIG_TYPES = Set.of("int32", "utf8", "float64", "bool");

  /**
   * Cases known to fail because of a bug in lance-codec, keyed by case name; each is described
   * in FINDINGS.md. They are skipped (the dynamic-test equivalent of @Disabled).
   */
  static final Map<String, String> KNOWN_FINDINGS = Map.of();

  static final Interop.Tally TALLY = new Interop.Tally();

  @TempDir static Path dir;

  @TestFactory
  Stream<DynamicNode> typeMatrix() {
    List<DynamicNode> versions = new ArrayList<>();
    for (String version : VERSIONS) {
      List<DynamicNode> types = new ArrayList<>();
      for (int t = 0; t < Interop.FLAT_TYPES.size(); t++) {
        TypeCase type = Interop.FLAT_TYPES.get(t);
        List<DynamicNode> cases = new ArrayList<>();
        for (Nulls nulls : Nulls.values()) {
          List<Integer> rowCounts = new ArrayList<>();
          for (int r : ROWS) {
            rowCounts.add(r);
          }
          if (BIG_TYPES.contains(type.name())) {
            rowCounts.add(BIG_ROWS);
          }
          for (int ri = 0; ri < rowCounts.size(); ri++) {
            int rows = rowCounts.get(ri);
            Dist dist = Dist.values()[(ri + t + nulls.ordinal()) % Dist.values().length];
            String name = version + "/" + type.name() + "/" + nulls + "/" + rows;
            cases.add(DynamicTest.dynamicTest("ref->ours " + name + " (" + dist + ")",
                () -> refToOurs(version, type, nulls, dist, rows, name)));
            cases.add(DynamicTest.dynamicTest("ours->ref " + name + " (" + dist + ")",
                () -> oursToRef(version, type, nulls, dist, rows, name)));
          }
        }
        types.add(DynamicContainer.dynamicContainer(version + " " + type.name(), cases));
      }
      versions.add(DynamicContainer.dynamicContainer("v" + version, types));
    }
    return versions.stream();
  }

  private static void skipKnown(String key) {
    String finding = KNOWN_FINDINGS.get(key);
    Assumptions.assumeTrue(finding == null, () -> "see FINDINGS.md: " + finding);
  }

  private static String fileName(String direction, String name) {
    return direction + "_" + name.replace('/', '_').replace('.', '_') + ".lance";
  }

  static void refToOurs(String version, TypeCase type, Nulls nulls, Dist dist, int rows, String name) throws Exception {
    String key = "ref->ours " + name;
    skipKnown(key);
    long seed = Interop.seedOf(key);
    Path file = dir.resolve(fileName("ref", name));
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = Interop.generate(type.type(), nulls != Nulls.NONE, null, nulls, dist, rows, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.refWrite(file, root, version, 100_000);
    }
    Interop.oursReadOrPending(() -> Interop.oursReadAndCompare(file, field, expected, seed), TALLY, key);
  }

  static void oursToRef(String version, TypeCase type, Nulls nulls, Dist dist, int rows, String name) throws Exception {
    String key = "ours->ref " + name;
    skipKnown(key);
    long seed = Interop.seedOf(key);
    Path file = dir.resolve(fileName("ours", name));
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = Interop.generate(type.type(), nulls != Nulls.NONE, null, nulls, dist, rows, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      // Big cases: several write() calls and small pages, so the reference meets multi-page columns.
      long pageBytes = rows >= BIG_ROWS ? 256 * 1024 : WriterOptions.DEFAULT_PAGE_BYTES;
      Interop.oursWrite(file, root, version, pageBytes, 100_000);
    }
    Interop.refReadAndCompare(file, field, expected, seed);
    TALLY.oursToRefIdentical.incrementAndGet();
  }

  @AfterAll
  static void summary() {
    System.out.println(TALLY.summary("interop"));
    TALLY.pendingByCause().forEach((cause, count) -> System.out.println("interop: pending " + count + " x " + cause));
    if (Boolean.getBoolean("interop.verbose")) {
      TALLY.pendingMessages.forEach(m -> System.out.println("  " + m));
    }
    ALLOC.getAllocatedMemory(); // keep the shared allocator referenced; it lives for the JVM
  }
}
