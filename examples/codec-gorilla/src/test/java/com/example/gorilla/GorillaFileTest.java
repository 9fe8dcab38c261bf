package com.example.gorilla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The codec in real files: written, read back, shown by inspect, and missed cleanly when absent. */
class GorillaFileTest {
  @TempDir Path dir;

  /** A slowly drifting sensor reading with repeats, nulls now and then. */
  static VectorSchemaRoot readings(BufferAllocator alloc, int n, Map<String, String> meta) {
    Field f = new Field("reading", new FieldType(true, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), null, meta), null);
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), alloc);
    Float8Vector v = (Float8Vector) root.getVector(0);
    v.allocateNew(n);
    Random rnd = new Random(3);
    double x = 20.0;
    for (int i = 0; i < n; i++) {
      if (rnd.nextInt(50) == 0) {
        v.setNull(i);
        continue;
      }
      if (rnd.nextInt(3) == 0) {
        x += rnd.nextInt(5) - 2;
      }
      v.set(i, x);
    }
    v.setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  @Test
  void writesReadsAndInspects() throws Exception {
    Path p = dir.resolve("gorilla.lance");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = readings(alloc, 20_000, Map.of("lance-encoding:compression", "gorilla"))) {
      try (LanceFileWriter w = LanceFileWriter.open(p, root.getSchema(), WriterOptions.defaults().withVersion(FileVersion.V2_3))) {
        w.write(root);
      }
      try (LanceFileReader r = LanceFileReader.open(p);
          VectorSchemaRoot back = r.readRange(0, 20_000, null, alloc)) {
        assertEquals(root.contentToTSVString(), back.contentToTSVString());
        assertTrue(r.columnSummaries().toString().contains("gorilla(64)"), r.columnSummaries().toString());
      }
      // without the plugin: the file opens, inspect names the codec, reading its values fails once
      try (LanceFileReader r = LanceFileReader.open(p, CodecRegistry.discover().without("gorilla"))) {
        assertTrue(r.columnSummaries().toString().contains("extension(com.example.gorilla v1, plugin missing"),
            r.columnSummaries().toString());
        LanceCodecException e = assertThrows(LanceCodecException.class, () -> r.readRange(0, 20_000, null, alloc).close());
        assertEquals(LanceCodecException.Kind.MISSING_PLUGIN, e.kind());
        assertTrue(e.getMessage().contains("needs codec com.example.gorilla (not on the class path)"), e.getMessage());
      }
    }
  }

  /** Extension nodes exist in 2.3 only: asking for gorilla in a 2.2 file is refused when the writer opens. */
  @Test
  void onlyIn23() {
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = readings(alloc, 100, Map.of("lance-encoding:compression", "gorilla"))) {
      LanceCodecException e = assertThrows(LanceCodecException.class,
          () -> LanceFileWriter.open(dir.resolve("v22.lance"), root.getSchema(), WriterOptions.defaults().withVersion(FileVersion.V2_2)).close());
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
      assertTrue(e.getMessage().contains("gorilla"), e.getMessage());
    }
  }
}
