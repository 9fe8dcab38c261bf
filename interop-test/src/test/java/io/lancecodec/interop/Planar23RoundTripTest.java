package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.interop.Interop.Dist;
import io.lancecodec.interop.Interop.Nulls;
import io.lancecodec.interop.Interop.TypeCase;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 2.3 files with every codec plugin on the class path: every flat type and every nested shape of
 * the interop tests, with and without the options that steer compression (general compression,
 * byte-stream-split, FSST, RLE thresholds, dictionary values' compression, forced structural
 * encodings, packed structs), with nulls; each file read back by our reader value by value (a
 * range, a scan and an unsorted take), and no page of it holding a 2.1 message (inspect shows
 * only 2.3 trees). The reference does not read 2.3, so ours is the only reader.
 */
class Planar23RoundTripTest {
  @TempDir static Path dir;

  /** The options written into the field's metadata (without the {@code lance-encoding:} prefix). */
  static final Map<String, Map<String, String>> FLAT_OPTIONS = new LinkedHashMap<>();

  static {
    FLAT_OPTIONS.put("default", Map.of());
    FLAT_OPTIONS.put("none", Map.of("compression", "none"));
    FLAT_OPTIONS.put("zstd", Map.of("compression", "zstd"));
    FLAT_OPTIONS.put("lz4", Map.of("compression", "lz4"));
    FLAT_OPTIONS.put("zstd-bss", Map.of("compression", "zstd", "bss", "on"));
    FLAT_OPTIONS.put("lz4-nobss", Map.of("compression", "lz4", "bss", "off", "compression-level", "1"));
    FLAT_OPTIONS.put("fsst", Map.of("compression", "fsst"));
    FLAT_OPTIONS.put("pcodec", Map.of("compression", "pcodec"));
    FLAT_OPTIONS.put("pcodec-sparse", Map.of("compression", "pcodec", "structural-encoding", "sparse"));
    FLAT_OPTIONS.put("rle-0.9", Map.of("rle-threshold", "0.9"));
    FLAT_OPTIONS.put("rle-0", Map.of("rle-threshold", "0"));
    FLAT_OPTIONS.put("dict-zstd", Map.of("dict-values-compression", "zstd", "dict-divisor", "4"));
    FLAT_OPTIONS.put("miniblock", Map.of("structural-encoding", "miniblock"));
    FLAT_OPTIONS.put("fullzip", Map.of("structural-encoding", "fullzip"));
    FLAT_OPTIONS.put("fullzip-zstd", Map.of("structural-encoding", "fullzip", "compression", "zstd"));
    FLAT_OPTIONS.put("sparse", Map.of("structural-encoding", "sparse"));
  }

  static Map<String, String> metadata(Map<String, String> options) {
    Map<String, String> m = new LinkedHashMap<>();
    options.forEach((k, v) -> m.put("lance-encoding:" + k, v));
    return m;
  }

  static Stream<Arguments> flatCases() {
    List<Arguments> out = new ArrayList<>();
    int k = 0;
    for (TypeCase type : Interop.FLAT_TYPES) {
      for (String option : FLAT_OPTIONS.keySet()) {
        for (Nulls nulls : Nulls.values()) {
          Dist dist = Dist.values()[k++ % Dist.values().length];
          out.add(Arguments.of(type, option, nulls, dist, nulls == Nulls.ALL ? 1025 : 4097));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} nulls={2} {3} rows={4}")
  @MethodSource("flatCases")
  void flatTypes(TypeCase type, String option, Nulls nulls, Dist dist, int rows) {
    String name = "2.3/" + type.name() + "/" + option + "/" + nulls + "/" + dist;
    long seed = Interop.seedOf(name);
    Path file = dir.resolve(name.replace('/', '_').replace('.', '_') + ".lance");
    try (VectorSchemaRoot root = Interop.generate(type.type(), true, metadata(FLAT_OPTIONS.get(option)), nulls, dist, rows, seed)) {
      Field field = root.getSchema().getFields().get(0);
      List<String> expected = Interop.canon(root.getVector(0));
      if (option.startsWith("fullzip") && type.name().equals("bool")) {
        // as in 2.2, full-zip rows of booleans exist only as whole-byte fixed-size lists; pages of
        // one value or none at all are constant or value-less pages, which need no rows
        try {
          Interop.oursWrite(file, root, "2.3", 8L << 20, 1000);
        } catch (LanceCodecException e) {
          assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
          assertTrue(dist != Dist.CONSTANT && nulls != Nulls.ALL, e.getMessage());
          return;
        }
        assertTrue(dist == Dist.CONSTANT || nulls == Nulls.ALL, "booleans forced to full-zip were written");
      } else {
        Interop.oursWrite(file, root, "2.3", 8L << 20, 1000);
      }
      Interop.oursReadAndCompare(file, field, expected, seed);
      assertOnly23(file);
    }
  }

  /** The inspect text of every page: 2.3 pages only, and no tree of the 2.1 grammar under them. */
  static String assertOnly23(Path file) {
    try (LanceFileReader r = LanceFileReader.open(file)) {
      assertEquals(io.lancecodec.spi.FileVersion.V2_3, r.version());
      String pages = r.columnSummaries().toString();
      assertTrue(!pages.contains("mini-block") && !pages.contains("full-zip") && !pages.contains("plugin missing"), pages);
      for (String codec : CODECS) {
        if (pages.contains(codec)) {
          SEEN.merge(codec, 1, Integer::sum);
        }
      }
      return pages;
    }
  }

  /** Nodes of 2.3 trees the matrix must reach, as inspect names them. */
  static final List<String> CODECS = List.of("general(zstd", "general(lz4", "byte_stream_split(flat(", "fsst(variable(", "rle(flat(",
      "bitpack(", "bitpack-ool(16", "rle(flat(16), flat(8))", "fixed_size_list(", "item validity", "packed_struct(flat(",
      "variable_packed_struct(", "variable(flat(", "variable(range(", "variable(delta(", "dictionary of", "chunked values",
      "zipped values", "sparse", "pcodec(flat(");

  static final Map<String, Integer> SEEN = new java.util.concurrent.ConcurrentHashMap<>();

  @AfterAll
  static void everyCodecWasReached() {
    System.out.println("2.3 pages by codec: " + new java.util.TreeMap<>(SEEN));
    for (String codec : CODECS) {
      assertTrue(SEEN.getOrDefault(codec, 0) > 0, codec + " never written; seen: " + new java.util.TreeMap<>(SEEN));
    }
  }

  /** Compression options for nested shapes, set on every field (ours reads them from the leaves). */
  static final Map<String, Map<String, String>> NESTED_OPTIONS = new LinkedHashMap<>();

  static {
    NESTED_OPTIONS.put("default", Map.of());
    NESTED_OPTIONS.put("zstd", Map.of("compression", "zstd"));
    NESTED_OPTIONS.put("lz4", Map.of("compression", "lz4", "bss", "on"));
    NESTED_OPTIONS.put("none", Map.of("compression", "none"));
    NESTED_OPTIONS.put("fsst", Map.of("compression", "fsst"));
    NESTED_OPTIONS.put("pcodec", Map.of("compression", "pcodec", "compression-level", "3"));
  }

  static Field withOptions(Field f, Map<String, String> options) {
    Map<String, String> m = new LinkedHashMap<>();
    if (f.getMetadata() != null) {
      m.putAll(f.getMetadata());
    }
    m.putAll(metadata(options));
    List<Field> children = null;
    if (f.getChildren() != null && !f.getChildren().isEmpty()) {
      children = new ArrayList<>();
      for (Field c : f.getChildren()) {
        children.add(withOptions(c, options));
      }
    }
    return new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), f.getDictionary(), m.isEmpty() ? null : m), children);
  }

  static boolean forcesFullZip(Field f) {
    if (f.getMetadata() != null && "fullzip".equals(f.getMetadata().get("lance-encoding:structural-encoding"))) {
      return true;
    }
    return f.getChildren() != null && f.getChildren().stream().anyMatch(Planar23RoundTripTest::forcesFullZip);
  }

  static Stream<Arguments> nestedCases() {
    List<Arguments> out = new ArrayList<>();
    for (NestedInteropTest.Shape shape : NestedInteropTest.shapes()) {
      if (shape.name().startsWith("struct_packed")) {
        continue; // a packed struct inside a struct: the writer refuses it in every version (NestedInteropTest)
      }
      for (String option : NESTED_OPTIONS.keySet()) {
        for (double nulls : new double[] {0, 0.25}) {
          if (NestedInteropTest.BOOL_ROWS_NEED_NO_NULLS.contains(shape.name()) && nulls > 0) {
            continue;
          }
          for (int rows : new int[] {300, 3000}) {
            out.add(Arguments.of(shape.name(), option, nulls, rows));
          }
        }
      }
    }
    return out.stream();
  }

  /** Nested shapes that trip the first cut of layout-planar, not a codec; each names its failure. */
  static final Map<String, String> PLANAR_FINDINGS = Map.of();

  @ParameterizedTest(name = "{0} {1} nulls={2} rows={3}")
  @MethodSource("nestedCases")
  void nestedShapes(String shapeName, String option, double nulls, int rows) {
    NestedInteropTest.Shape base = NestedInteropTest.shapes().stream().filter(s -> s.name().equals(shapeName)).findFirst().orElseThrow();
    NestedInteropTest.Shape shape = new NestedInteropTest.Shape(base.name(), withOptions(base.field(), NESTED_OPTIONS.get(option)), base.strLen());
    String name = "2.3/" + shapeName + "/" + option + "/" + nulls + "/" + rows;
    org.junit.jupiter.api.Assumptions.assumeFalse(PLANAR_FINDINGS.containsKey(name), () -> PLANAR_FINDINGS.get(name));
    long seed = Interop.seedOf(name);
    Path file = dir.resolve(name.replace('/', '_').replace('.', '_') + ".lance");
    try (VectorSchemaRoot root = NestedInteropTest.generate(shape, nulls, rows, 40, seed)) {
      List<String> expected = Interop.canon(root.getVector(0));
      if (option.equals("pcodec") && forcesFullZip(base.field())) {
        // the shape forces full zip on a field, which pcodec's chunks cannot be
        LanceCodecException e = org.junit.jupiter.api.Assertions.assertThrows(LanceCodecException.class,
            () -> Interop.oursWrite(file, root, "2.3", 8L << 20, 1000));
        assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("structural-encoding=fullzip"), e.getMessage());
        return;
      }
      Interop.oursWrite(file, root, "2.3", 8L << 20, 1000);
      Interop.oursReadAndCompare(file, shape.field(), expected, seed);
      assertOnly23(file);
    }
  }

}
