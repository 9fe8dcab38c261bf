package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.interop.Interop.Dist;
import io.lancecodec.interop.Interop.Nulls;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written under LANCE_MINIBLOCK_MAX_VALUES (8, 256 and the spec's largest, 32768) read back
 * by the reference and by us, 2.1 and 2.2: bit-packed, run-length, byte-stream-split under zstd,
 * FSST and plain strings, booleans, with nulls. Small bounds must show as more chunks.
 */
@ExtendWith(NativeLibCleanup.class)
class MiniBlockMaxValuesInteropTest {
  static final int ROWS = 40_000;
  static final Pattern CHUNKS = Pattern.compile("(\\d+) chunks");

  @TempDir static Path dir;

  record Case(String version, String name, ArrowType type, Map<String, String> meta, Dist dist, int max) {
    String label() {
      return version + "/" + name + "/" + max;
    }
  }

  @TestFactory
  Stream<DynamicNode> referenceReadsTunedChunks() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (int max : new int[] {8, 256, 32_768}) {
        List<Case> cases = List.of(
            new Case(version, "int32 narrow", new ArrowType.Int(32, true), Map.of(), Dist.NARROW, max),
            new Case(version, "int64 runs", new ArrowType.Int(64, true), Map.of(), Dist.RUNS, max),
            new Case(version, "float64 bss zstd", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE),
                Map.of("lance-encoding:compression", "zstd", "lance-encoding:bss", "on"), Dist.RANDOM, max),
            new Case(version, "utf8", ArrowType.Utf8.INSTANCE, Map.of(), Dist.RANDOM, max),
            new Case(version, "utf8 fsst", ArrowType.Utf8.INSTANCE, Map.of("lance-encoding:compression", "fsst"), Dist.RANDOM, max),
            new Case(version, "bool", ArrowType.Bool.INSTANCE, Map.of(), Dist.RANDOM, max));
        for (Case c : cases) {
          tests.add(DynamicTest.dynamicTest("ours->ref " + c.label(), () -> oursToRef(c)));
        }
      }
    }
    return tests.stream();
  }

  static void oursToRef(Case c) throws Exception {
    long seed = Interop.seedOf(c.label());
    Path file = dir.resolve(c.label().replaceAll("[^A-Za-z0-9]+", "_") + ".lance");
    List<String> expected;
    Field field;
    WriterOptions options = WriterOptions.defaults().withVersion(Interop.version(c.version()))
        .withEnvironment(Map.of("LANCE_MINIBLOCK_MAX_VALUES", String.valueOf(c.max())));
    try (VectorSchemaRoot root = Interop.generate(c.type(), true, c.meta(), Nulls.SOME, c.dist(), ROWS, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), options)) {
        w.write(root);
      }
    }
    String pages;
    try (LanceFileReader r = LanceFileReader.open(file)) {
      pages = r.columnSummaries().toString();
    }
    Matcher m = CHUNKS.matcher(pages);
    long chunks = 0;
    while (m.find()) {
      chunks += Long.parseLong(m.group(1));
    }
    assertTrue(pages.contains("mini-block"), c.label() + ": " + pages);
    if (c.max() < 32_768) {
      assertTrue(chunks >= (ROWS + c.max() - 1) / c.max(), c.label() + ": " + chunks + " chunks for " + ROWS + " rows: " + pages);
    }
    Interop.oursReadAndCompare(file, field, expected, seed);
    Interop.refReadAndCompare(file, field, expected, seed);
  }
}
