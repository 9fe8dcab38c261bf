package io.lancecodec.interop;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real trimmed class paths, the reason codecs are separate jars: a child JVM without one codec
 * jar opens a file written with all of them, describes every column, reads every column that
 * does not need the missing jar (to the same values) and fails on the one that does, naming
 * the artifact. Without any codec jar, the runtime and layout alone still write and read files.
 */
class TrimmedClassPathTest {
  @TempDir static Path dir;
  static Path mixed;
  /** What the child prints with every codec jar, the baseline of each column's values. */
  static String all;

  /** ids: bit-packed; text: FSST; z: zstd over flat values. Which column needs which jar. */
  static final Map<String, String> NEEDS = Map.of("codec-bitpack", "ids", "codec-fsst", "text", "codec-general", "z");

  @BeforeAll
  static void writeMixedFile() {
    mixed = dir.resolve("mixed.lance");
    int n = 4000;
    Random rnd = new Random(7);
    try (BufferAllocator al = new RootAllocator();
        IntVector ids = new IntVector(new Field("ids", FieldType.notNullable(new ArrowType.Int(32, true)), null), al);
        VarCharVector text = new VarCharVector(new Field("text",
            new FieldType(false, ArrowType.Utf8.INSTANCE, null, Map.of("lance-encoding:compression", "fsst")), null), al);
        BigIntVector z = new BigIntVector(new Field("z",
            new FieldType(false, new ArrowType.Int(64, true), null,
                Map.of("lance-encoding:compression", "zstd", "lance-encoding:dict-divisor", "4000")), null), al)) {
      String[] words = {"lance ", "codec ", "column ", "page ", "chunk ", "value ", "the ", "of "};
      for (int i = 0; i < n; i++) {
        ids.setSafe(i, i % 100);
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < 12; k++) {
          sb.append(words[rnd.nextInt(words.length)]);
        }
        text.setSafe(i, sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        // full-width values in a short cycle: no runs, no packing, no dictionary (divisor), but zstd shrinks them
        z.setSafe(i, (i % 37) * 0x9E3779B97F4A7C15L);
      }
      List<FieldVector> vs = List.of(ids, text, z);
      for (FieldVector v : vs) {
        v.setValueCount(n);
      }
      try (VectorSchemaRoot root = new VectorSchemaRoot(vs);
          LanceFileWriter w = LanceFileWriter.open(mixed, root.getSchema(), WriterOptions.defaults())) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(mixed)) {
      String pages = r.columnSummaries().toString();
      assertTrue(pages.contains("values: bitpack(32)") && pages.contains("values: fsst(") && pages.contains("values: general(zstd"), pages);
    }
  }

  private static String run(String... dropped) throws Exception {
    String full = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> kept = Arrays.stream(full.split(File.pathSeparator))
        .filter(p -> !p.contains("lance-core") && Arrays.stream(dropped).noneMatch(p::contains))
        .collect(Collectors.toList());
    assertTrue(kept.size() < full.split(File.pathSeparator).length, "something was removed from " + full);
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", String.join(File.pathSeparator, kept),
        TrimmedClassPathMain.class.getName(),
        dir.resolve("own-" + String.join("-", dropped) + ".lance").toString(), mixed.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM finished");
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  @Test
  void runtimeAndLayoutAloneStillWriteAndRead() throws Exception {
    String out = run("codec-alp", "codec-bitpack", "codec-fsst", "codec-general", "codec-pcodec");
    assertTrue(out.contains("codecs=[builtin]"), out);
    assertTrue(out.contains("own=ok") && out.contains("values: flat(32)"), out);
    assertTrue(out.contains("mixed=opened [ids, text, z]"), out);
    for (String column : List.of("ids", "text", "z")) {
      assertTrue(out.contains("read " + column + "=MISSING_PLUGIN"), out);
    }
  }

  /**
   * The smallest class path that bit-packs: lance-runtime, its layouts and codec-bitpack. Its own
   * file is written with bit-packing; of the mixed file the bit-packed column reads as with every
   * jar, and the FSST and zstd columns each fail with one MISSING_PLUGIN naming the jar to add.
   */
  @Test
  void runtimeWithBitpackOnly() throws Exception {
    if (all == null) {
      all = run("no jar has this name");
    }
    String out = run("codec-alp", "codec-fsst", "codec-general", "codec-pcodec");
    assertTrue(out.contains("codecs=[bitpack, builtin]"), out);
    assertTrue(out.contains("own=ok"), out);
    assertEquals(line(all, "read ids="), line(out, "read ids="), "the bit-packed column reads as with every jar");
    assertTrue(line(out, "read text=").contains("MISSING_PLUGIN") && line(out, "read text=").contains("io.lancecodec:codec-fsst"), out);
    assertTrue(line(out, "read z=").contains("MISSING_PLUGIN") && line(out, "read z=").contains("io.lancecodec:codec-general"), out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"codec-bitpack", "codec-fsst", "codec-general"})
  void withoutOneCodecTheOtherColumnsRead(String jar) throws Exception {
    if (all == null) {
      all = run("no jar has this name");
    }
    String out = run(jar);
    assertTrue(out.contains("mixed=opened [ids, text, z]"), out);
    for (String column : List.of("ids", "text", "z")) {
      assertTrue(out.contains("inspect " + column + "="), out);
      String line = line(out, "read " + column + "=");
      if (column.equals(NEEDS.get(jar))) {
        assertTrue(line.startsWith("read " + column + "=MISSING_PLUGIN") && line.contains("(provided by io.lancecodec:" + jar + ")"),
            line);
        assertTrue(line(out, "inspect " + column + "=").contains("plugin missing"), out);
      } else {
        assertEquals(line(all, "read " + column + "="), line, "the column reads as with every jar");
      }
    }
  }

  private static String line(String out, String prefix) {
    return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("(no line " + prefix + ") in:\n" + out);
  }
}
