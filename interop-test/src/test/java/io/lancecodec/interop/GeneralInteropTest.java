package io.lancecodec.interop;

import io.lancecodec.interop.Interop.Dist;
import io.lancecodec.interop.Interop.Nulls;
import io.lancecodec.interop.Interop.VarShape;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.WriterOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * General compression (codec-general) in both directions: {@code lance-encoding:compression}
 * = zstd / lz4 on int64, float64, utf8 and large_binary, 2.1 and 2.2, with and without nulls,
 * 0 / 1 / 5000 / 70000 rows; plus full-zip pages of values of 32 KiB and more (compressed per
 * value, by the reference even without a hint). Snappy files written by us must be refused by
 * the reference with an error, never misread.
 */
@ExtendWith(NativeLibCleanup.class)
class GeneralInteropTest {
  static final List<String> SCHEMES = List.of("zstd", "lz4");
  static final int[] ROWS = {0, 1, 5000, 70_000};
  static final List<Interop.TypeCase> TYPES =
      List.of(
          new Interop.TypeCase("int64", new ArrowType.Int(64, true)),
          new Interop.TypeCase("float64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
          new Interop.TypeCase("utf8", ArrowType.Utf8.INSTANCE),
          new Interop.TypeCase("large_binary", ArrowType.LargeBinary.INSTANCE));
  static final List<Interop.TypeCase> WIDE_TYPES =
      List.of(
          new Interop.TypeCase("utf8", ArrowType.Utf8.INSTANCE),
          new Interop.TypeCase("large_binary", ArrowType.LargeBinary.INSTANCE));
  /** Values of 32..40 KiB: over the reference's automatic per-value threshold. */
  static final VarShape WIDE = new VarShape(33_000, 40_000);

  static final Interop.Tally TALLY = new Interop.Tally();
  static final AtomicInteger OURS_WITH_GENERAL = new AtomicInteger();
  static final AtomicInteger REF_WITH_GENERAL = new AtomicInteger();

  @TempDir static Path dir;

  record Case(String version, Interop.TypeCase type, String scheme, Nulls nulls, int rows, Dist dist, VarShape shape) {
    String name() {
      return version + "/" + type + "/" + (scheme == null ? "auto" : scheme) + "/" + nulls + "/" + rows
          + (shape == WIDE ? "/wide" : "");
    }

    Map<String, String> meta() {
      return scheme == null ? Map.of() : Map.of("lance-encoding:compression", scheme);
    }

    /**
     * Cases where our writer must have used general compression somewhere in the file: wide
     * pages with at least two values (one value is a constant page in 2.2), hinted pages of
     * 5000 rows and more.
     */
    boolean expectGeneral(List<String> expected) {
      if (shape == WIDE) {
        return expected.stream().filter(v -> !v.equals("null")).count() >= 2;
      }
      return scheme != null && rows >= 5000;
    }
  }

  @TestFactory
  Stream<DynamicNode> hints() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (Interop.TypeCase type : TYPES) {
        for (String scheme : SCHEMES) {
          for (Nulls nulls : List.of(Nulls.NONE, Nulls.SOME)) {
            for (int rows : ROWS) {
              add(tests, new Case(version, type, scheme, nulls, rows, Dist.SEQUENTIAL, VarShape.DEFAULT));
            }
          }
        }
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicNode> fullZipPerValue() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (Interop.TypeCase type : WIDE_TYPES) {
        for (String scheme : new String[] {null, "zstd", "lz4"}) {
          for (Nulls nulls : List.of(Nulls.NONE, Nulls.SOME)) {
            for (int rows : new int[] {1, 5, 40}) {
              add(tests, new Case(version, type, scheme, nulls, rows, Dist.SEQUENTIAL, WIDE));
            }
          }
        }
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicNode> snappyIsRefusedByTheReference() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      tests.add(DynamicTest.dynamicTest("ours(snappy)->ref " + version, () -> snappyRefused(version)));
    }
    return tests.stream();
  }

  private static void add(List<DynamicNode> tests, Case c) {
    tests.add(DynamicTest.dynamicTest("ours->ref " + c.name(), () -> oursToRef(c)));
    tests.add(DynamicTest.dynamicTest("ref->ours " + c.name(), () -> refToOurs(c)));
  }

  private static VectorSchemaRoot generate(Case c, Map<String, String> meta, long seed) {
    return Interop.generate(c.type().type(), true, meta, c.nulls(), c.dist(), c.rows(), seed, c.shape());
  }

  private static Path file(String direction, String name) {
    return dir.resolve(direction + "_" + name.replace('/', '_').replace('.', '_') + ".lance");
  }

  private static boolean mentionsGeneral(Path file) {
    try (LanceFileReader r = LanceFileReader.open(file)) {
      return r.columnSummaries().toString().contains("general");
    }
  }

  static void oursToRef(Case c) throws Exception {
    String key = "ours->ref " + c.name();
    long seed = Interop.seedOf(key);
    Path file = file("ours", c.name());
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(c, c.meta(), seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.oursWrite(file, root, c.version(), WriterOptions.DEFAULT_PAGE_BYTES, 100_000);
    }
    boolean general = mentionsGeneral(file);
    if (c.expectGeneral(expected)) {
      try (LanceFileReader r = LanceFileReader.open(file)) {
        assertTrue(general, key + ": expected general compression, pages " + r.columnSummaries());
      }
    }
    if (general) {
      OURS_WITH_GENERAL.incrementAndGet();
    }
    Interop.refReadAndCompare(file, field, expected, seed);
    TALLY.oursToRefIdentical.incrementAndGet();
  }

  static void refToOurs(Case c) throws Exception {
    String key = "ref->ours " + c.name();
    long seed = Interop.seedOf(key);
    Path file = file("ref", c.name());
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(c, c.meta(), seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.refWrite(file, root, c.version(), 100_000);
    }
    boolean read = Interop.oursReadOrPending(() -> Interop.oursReadAndCompare(file, field, expected, seed), TALLY, key);
    if (read && mentionsGeneral(file)) {
      REF_WITH_GENERAL.incrementAndGet();
    }
    if (!read) {
      System.out.println("interop general: pending " + key);
    }
  }

  static void snappyRefused(String version) throws Exception {
    Case c = new Case(version, TYPES.get(0), "snappy", Nulls.NONE, 5000, Dist.SEQUENTIAL, VarShape.DEFAULT);
    Path file = file("ours", c.name());
    Field field;
    List<String> expected;
    try (VectorSchemaRoot root = generate(c, c.meta(), 42)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.oursWrite(file, root, version, WriterOptions.DEFAULT_PAGE_BYTES, 100_000);
    }
    assertTrue(mentionsGeneral(file), "snappy page written");
    Interop.oursReadAndCompare(file, field, expected, 42);
    Exception e = assertThrows(Exception.class, () -> Interop.refRead(file, field, null, expected.size()));
    String msg = String.valueOf(e.getMessage());
    assertTrue(msg.toLowerCase(java.util.Locale.ROOT).contains("compression scheme"), "reference error: " + msg);
    assertEquals(5000, expected.size());
  }

  @AfterAll
  static void summary() {
    System.out.println(TALLY.summary("interop general"));
    System.out.println("interop general: " + OURS_WITH_GENERAL.get() + " of our files and " + REF_WITH_GENERAL.get()
        + " reference files used general compression");
    TALLY.pendingMessages.forEach(m -> System.out.println("  pending: " + m));
  }
}
