package io.lancecodec.interop;

import io.lancecodec.interop.Interop.Dist;
import io.lancecodec.interop.Interop.Nulls;
import io.lancecodec.interop.Interop.TypeCase;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bytes our writer produces, pinned: every flat type in both versions, the nested shapes of
 * {@link NestedInteropTest}, and the option variations users set (general compression, FSST,
 * byte-stream-split, RLE threshold, forced layouts, dictionary knobs, small pages). Refactoring
 * must not change a single byte of any of them; the interop suites prove the files readable, this
 * proves them unchanged. The hashes in {@code write-bytes.sha256} were taken before the plugin
 * boundaries changed; regenerate them only for a deliberate format change, with
 * {@code -Dwrite.bytes.update=true} (the test then rewrites the file in the source tree).
 */
class WriteBytesStabilityTest {
  private static final String RESOURCE = "write-bytes.sha256";

  @TempDir Path dir;

  /** One file to write: its name, a data generator and writer options over the defaults. */
  private record Case(String name, String version, Map<String, String> options, long pageBytes, Generator data) {}

  private interface Generator {
    VectorSchemaRoot make();
  }

  private static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    for (String version : List.of("2.1", "2.2")) {
      for (int t = 0; t < Interop.FLAT_TYPES.size(); t++) {
        TypeCase type = Interop.FLAT_TYPES.get(t);
        for (Nulls nulls : List.of(Nulls.NONE, Nulls.SOME)) {
          for (int d = 0; d < 2; d++) {
            Dist dist = Dist.values()[(t + d * 2 + nulls.ordinal()) % Dist.values().length];
            String name = version + "/" + type.name() + "/" + nulls + "/" + dist;
            long seed = Interop.seedOf(name);
            out.add(new Case(name, version, Map.of(), WriterOptions.DEFAULT_PAGE_BYTES,
                () -> Interop.generate(type.type(), nulls != Nulls.NONE, null, nulls, dist, 3000, seed)));
          }
        }
      }
      for (Map<String, String> opts : optionSets()) {
        for (String typeName : List.of("int32", "int64", "float32", "float64", "utf8", "large_binary", "uint16")) {
          TypeCase type = Interop.FLAT_TYPES.stream().filter(c -> c.name().equals(typeName)).findFirst().orElseThrow();
          for (Dist dist : List.of(Dist.RUNS, Dist.NARROW, Dist.RANDOM)) {
            String name = version + "/" + typeName + "/" + dist + "/" + new TreeMap<>(opts);
            long seed = Interop.seedOf(name);
            out.add(new Case(name, version, opts, WriterOptions.DEFAULT_PAGE_BYTES,
                () -> Interop.generate(type.type(), true, null, Nulls.SOME, dist, 5000, seed,
                    new Interop.VarShape(0, typeName.equals("large_binary") ? 400 : 40))));
          }
        }
      }
      for (NestedInteropTest.Shape shape : NestedInteropTest.shapes()) {
        for (double nulls : new double[] {0, 0.25}) {
          String name = version + "/" + shape.name() + "/nulls" + nulls;
          long seed = Interop.seedOf(name);
          out.add(new Case(name, version, Map.of(), WriterOptions.DEFAULT_PAGE_BYTES,
              () -> NestedInteropTest.generate(shape, nulls, 300, 4, seed)));
        }
      }
      // several pages per column, and a page cut inside a batch
      String name = version + "/multi-page/int64+utf8";
      out.add(new Case(name, version, Map.of(), 16 * 1024,
          () -> Interop.generate(new ArrowType.Int(64, true), true, null, Nulls.SOME, Dist.NARROW, 20_000, Interop.seedOf(name))));
      String name2 = version + "/multi-page/utf8";
      out.add(new Case(name2, version, Map.of(), 16 * 1024,
          () -> Interop.generate(ArrowType.Utf8.INSTANCE, true, null, Nulls.SOME, Dist.RUNS, 20_000, Interop.seedOf(name2))));
      // blob columns: values written outside their pages, descriptions in a packed page
      for (Nulls nulls : List.of(Nulls.NONE, Nulls.SOME)) {
        String name3 = version + "/blob/" + nulls;
        out.add(new Case(name3, version, Map.of(), WriterOptions.DEFAULT_PAGE_BYTES,
            () -> Interop.generate(ArrowType.LargeBinary.INSTANCE, nulls != Nulls.NONE, Map.of("lance-encoding:blob", "true"), nulls,
                Dist.RANDOM, 700, Interop.seedOf(name3), new Interop.VarShape(0, 3000))));
      }
    }
    return out;
  }

  private static List<Map<String, String>> optionSets() {
    String p = "lance-encoding:";
    return List.of(
        Map.of(p + "compression", "zstd"),
        Map.of(p + "compression", "zstd", p + "compression-level", "9"),
        Map.of(p + "compression", "lz4"),
        Map.of(p + "compression", "snappy"),
        Map.of(p + "compression", "fsst"),
        Map.of(p + "compression", "none"),
        Map.of(p + "compression", "zstd", p + "bss", "on"),
        Map.of(p + "compression", "zstd", p + "bss", "off"),
        Map.of(p + "rle-threshold", "0.9"),
        Map.of(p + "rle-threshold", "0"),
        Map.of(p + "structural-encoding", "fullzip"),
        Map.of(p + "structural-encoding", "miniblock"),
        Map.of(p + "dict-divisor", "10", p + "dict-size-ratio", "0.5"),
        Map.of(p + "dict-values-compression", "zstd", p + "dict-values-compression-level", "5"),
        Map.of(p + "dict-values-compression", "none"));
  }

  @Test
  void writtenBytesAreUnchanged() throws Exception {
    Map<String, String> actual = new TreeMap<>();
    for (Case c : cases()) {
      actual.put(c.name(), hashOf(c));
    }
    if (Boolean.getBoolean("write.bytes.update")) {
      StringBuilder sb = new StringBuilder();
      actual.forEach((k, v) -> sb.append(v).append("  ").append(k).append('\n'));
      Files.writeString(Path.of("src/test/resources", RESOURCE), sb.toString(), StandardCharsets.UTF_8);
      return;
    }
    Map<String, String> expected = expected();
    List<String> changed = new ArrayList<>();
    for (Map.Entry<String, String> e : actual.entrySet()) {
      if (!e.getValue().equals(expected.get(e.getKey()))) {
        changed.add(e.getKey() + (expected.containsKey(e.getKey()) ? "" : " (new case)"));
      }
    }
    for (String k : expected.keySet()) {
      if (!actual.containsKey(k)) {
        changed.add(k + " (case gone)");
      }
    }
    assertTrue(changed.isEmpty(), changed.size() + " of " + actual.size() + " files changed: " + changed);
    assertEquals(expected.size(), actual.size());
  }

  /** The file's SHA-256, or "refused KIND" when the writer rejects the case (that is pinned too). */
  private String hashOf(Case c) throws Exception {
    Path file = dir.resolve("f.lance");
    WriterOptions opts = WriterOptions.defaults().withVersion(Interop.version(c.version())).withPageBytesPerColumn(c.pageBytes());
    for (Map.Entry<String, String> e : c.options().entrySet()) {
      opts = opts.withFieldDefault(e.getKey(), e.getValue());
    }
    try (VectorSchemaRoot root = c.data().make()) {
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), opts)) {
        Interop.writeBatches(root, 1000, w::write);
      }
    } catch (LanceCodecException e) {
      return "refused-" + e.kind();
    }
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
    Files.delete(file);
    return HexFormat.of().formatHex(digest);
  }

  private static Map<String, String> expected() throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (InputStream in = WriteBytesStabilityTest.class.getResourceAsStream("/" + RESOURCE)) {
      if (in == null) {
        return out;
      }
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          int sep = line.indexOf("  ");
          out.put(line.substring(sep + 2), line.substring(0, sep));
        }
      }
    }
    return out;
  }
}
