package io.lancecodec.codec.general;

import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.layout.legacy.LegacyLayoutPlugin;
import io.lancecodec.layout.planar.PlanarLayoutPlugin;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole files through lance-runtime with each scheme asked for, read back by our reader. */
class GeneralFileRoundTripTest {
  private static final BufferAllocator ALLOC = new RootAllocator();
  private static final CodecRegistry WITH =
      CodecRegistry.of(List.of(new GeneralPlugin(), new BitpackPlugin()), List.of(new LegacyLayoutPlugin(), new PlanarLayoutPlugin()));
  private static final CodecRegistry WITHOUT =
      CodecRegistry.of(List.of(new BitpackPlugin()), List.of(new LegacyLayoutPlugin(), new PlanarLayoutPlugin()));

  @TempDir Path dir;

  @AfterAll
  static void close() {
    ALLOC.close();
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String v : new String[] {"2.1", "2.2", "2.3"}) {
      for (String s : new String[] {"zstd", "lz4", "snappy"}) {
        for (String t : new String[] {"int64", "float64", "utf8"}) {
          out.add(Arguments.of(v, s, t));
        }
      }
    }
    return out.stream();
  }

  static VectorSchemaRoot column(String type, Map<String, String> meta, int n, long seed) {
    ArrowType t =
        switch (type) {
          case "int64" -> new ArrowType.Int(64, true);
          case "float64" -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
          default -> ArrowType.Utf8.INSTANCE;
        };
    Field f = new Field("c", new FieldType(true, t, null, meta), null);
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), ALLOC);
    FieldVector v = root.getVector(0);
    v.setInitialCapacity(n);
    v.allocateNew();
    Random rnd = new Random(seed);
    for (int i = 0; i < n; i++) {
      if (rnd.nextInt(9) == 0) {
        v.setNull(i);
      } else if (v instanceof BigIntVector b) {
        b.set(i, i * 1000L + rnd.nextInt(7));
      } else if (v instanceof Float8Vector d) {
        d.set(i, 20.0 + i * 0.001);
      } else {
        ((VarCharVector) v).setSafe(i, ("item " + i + " of the page").getBytes(StandardCharsets.UTF_8));
      }
    }
    v.setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  static List<Object> values(FieldVector v) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < v.getValueCount(); i++) {
      Object o = v.getObject(i);
      out.add(o == null ? null : o.toString());
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("cases")
  void writeAndRead(String version, String scheme, String type) {
    Path p = dir.resolve(version + scheme + type + ".lance");
    try (VectorSchemaRoot root = column(type, Map.of("lance-encoding:compression", scheme), 9000, type.hashCode())) {
      try (LanceFileWriter w = LanceFileWriter.open(p, root.getSchema(), WriterOptions.defaults().withVersion(FileVersion.parse(version)).withRegistry(WITH))) {
        w.write(root);
      }
      try (LanceFileReader r = LanceFileReader.open(p, WITH);
          VectorSchemaRoot back = r.readRange(0, 9000, null, ALLOC)) {
        assertEquals(values(root.getVector(0)), values(back.getVector(0)));
        // 2.3 has no snappy value: its frames sit under the extension node
        String expected = version.equals("2.3") && scheme.equals("snappy") ? "snappy(extension v1" : "general";
        assertTrue(r.columnSummaries().toString().contains(expected), r.columnSummaries().toString());
      }
      if (scheme.equals("snappy") && !version.equals("2.3")) {
        LanceCodecException e =
            assertThrows(LanceCodecException.class, () -> {
              try (LanceFileReader r = LanceFileReader.open(p, WITHOUT);
                  VectorSchemaRoot back = r.readRange(0, 9000, null, ALLOC)) {
                back.getRowCount();
              }
            });
        assertEquals(LanceCodecException.Kind.MISSING_PLUGIN, e.kind());
        assertTrue(e.getMessage().contains("io.lancecodec:codec-general"), e.getMessage());
      }
    }
  }

  /**
   * 2.3's grammar has no snappy: it is written as the extension codec io.lancecodec.snappy, which
   * inspect shows; a reader without codec-general names the codec id it lacks.
   */
  @Test
  void snappyIn23IsAnExtensionNode() throws java.io.IOException {
    Path p = dir.resolve("snappy23.lance");
    try (VectorSchemaRoot root = column("int64", Map.of("lance-encoding:compression", "snappy"), 9000, 1)) {
      try (LanceFileWriter w = LanceFileWriter.open(p, root.getSchema(), WriterOptions.defaults().withVersion(FileVersion.V2_3).withRegistry(WITH))) {
        w.write(root);
      }
      try (LanceFileReader r = LanceFileReader.open(p, WITH);
          VectorSchemaRoot back = r.readRange(0, 9000, null, ALLOC)) {
        assertTrue(r.columnSummaries().toString().contains("snappy(extension v1"), r.columnSummaries().toString());
        assertEquals(values(root.getVector(0)), values(back.getVector(0)));
      }
      try (LanceFileReader r = LanceFileReader.open(p, WITHOUT)) {
        assertTrue(r.columnSummaries().toString().contains("extension(io.lancecodec.snappy v1, plugin missing"), r.columnSummaries().toString());
        LanceCodecException e = assertThrows(LanceCodecException.class, () -> r.readRange(0, 9000, null, ALLOC).close());
        assertEquals(LanceCodecException.Kind.MISSING_PLUGIN, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("needs codec io.lancecodec.snappy (not on the class path)"), e.getMessage());
      }
    }
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"2.2", "2.3"})
  void hugeValuesAreCompressedPerValue(String version) {
    Path p = dir.resolve("huge" + version + ".lance");
    Field f = new Field("c", new FieldType(true, ArrowType.LargeUtf8.INSTANCE, null, Map.of()), null);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), ALLOC)) {
      org.apache.arrow.vector.LargeVarCharVector v = (org.apache.arrow.vector.LargeVarCharVector) root.getVector(0);
      v.allocateNew();
      for (int i = 0; i < 5; i++) {
        if (i == 2) {
          v.setNull(i);
        } else {
          v.setSafe(i, ("big value " + i + " ").repeat(4000).getBytes(StandardCharsets.UTF_8));
        }
      }
      v.setValueCount(5);
      root.setRowCount(5);
      try (LanceFileWriter w = LanceFileWriter.open(p, root.getSchema(), WriterOptions.defaults().withVersion(FileVersion.parse(version)).withRegistry(WITH))) {
        w.write(root);
      }
      try (LanceFileReader r = LanceFileReader.open(p, WITH);
          VectorSchemaRoot back = r.take(new long[] {4, 2, 0}, null, ALLOC)) {
        assertTrue(r.columnSummaries().toString().contains(version.equals("2.3") ? "zipped values: general" : "full-zip, values: general"),
            r.columnSummaries().toString());
        assertEquals(List.of(values(root.getVector(0)).get(4), "null", values(root.getVector(0)).get(0)),
            values(back.getVector(0)).stream().map(String::valueOf).toList());
      }
    }
  }
}
