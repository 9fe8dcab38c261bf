package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad arguments at the public API: every one is a single INVALID_ARGUMENT
 * {@link LanceCodecException} naming what was wrong, never a NullPointerException, an index error
 * or a partial result (an Arrow type no Lance file can hold is UNSUPPORTED, as in a file).
 */
class ApiArgumentsTest extends WithAllocator {
  static Path file;

  @BeforeAll
  static void write() throws Exception {
    file = dir.resolve("args.lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(CrashWriterMain.SCHEMA, allocator);
        LanceFileWriter w = LanceFileWriter.open(file, CrashWriterMain.SCHEMA, WriterOptions.defaults())) {
      CrashWriterMain.fill(root, 0);
      w.write(root);
    }
  }

  static LanceCodecException invalid(Executable e, String mentions) {
    Throwable t = assertThrows(Throwable.class, e);
    assertTrue(t instanceof LanceCodecException, "not a LanceCodecException: " + t);
    LanceCodecException l = (LanceCodecException) t;
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, l.kind(), l.getMessage());
    assertTrue(l.getMessage().contains(mentions), "'" + l.getMessage() + "' does not mention '" + mentions + "'");
    return l;
  }

  @Test
  void readerArguments() {
    try (LanceFileReader r = LanceFileReader.open(file)) {
      long n = r.numRows();
      invalid(() -> r.take(null, null, allocator), "rows");
      invalid(() -> r.take(new long[] {0, -1}, null, allocator), "-1");
      invalid(() -> r.take(new long[] {n}, null, allocator), String.valueOf(n));
      invalid(() -> r.readRange(-1, 5, null, allocator), "-1");
      invalid(() -> r.readRange(5, 3, null, allocator), "5");
      invalid(() -> r.readRange(0, n + 1, null, allocator), String.valueOf(n + 1));
      invalid(() -> r.readRange(0, 5, List.of("nope"), allocator), "nope");
      invalid(() -> r.readRange(0, 5, List.of("i", "i"), allocator), "'i'");
      invalid(() -> r.take(new long[] {1}, List.of("s", "s"), allocator), "'s'");
      invalid(() -> r.scan(null, 0, allocator), "batch");
      invalid(() -> r.scan(List.of("i"), -3, allocator), "batch");
      invalid(() -> r.readRange(0, 5, null, null), "allocator");
    }
    invalid(() -> LanceFileReader.open(null), "path");
    invalid(() -> LanceFileReader.open(dir.resolve("missing.lance")), "missing.lance");
  }

  @Test
  void writerArguments() throws Exception {
    Path f = dir.resolve("w.lance");
    invalid(() -> LanceFileWriter.open(null, CrashWriterMain.SCHEMA, WriterOptions.defaults()), "path");
    invalid(() -> LanceFileWriter.open(f, null, WriterOptions.defaults()), "schema");
    invalid(() -> LanceFileWriter.open(f, CrashWriterMain.SCHEMA, null), "options");
    Schema duplicate = new Schema(List.of(
        new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null),
        new Field("a", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
    invalid(() -> LanceFileWriter.open(f, duplicate, WriterOptions.defaults()), "'a'");
    Schema union = new Schema(List.of(new Field("u", FieldType.nullable(new ArrowType.Union(UnionMode.Sparse, new int[] {0})),
        List.of(new Field("x", FieldType.nullable(new ArrowType.Int(32, true)), null)))));
    // a type no Lance file holds is UNSUPPORTED, as a file declaring it would be, and names the field
    LanceCodecException u = assertThrows(LanceCodecException.class, () -> LanceFileWriter.open(f, union, WriterOptions.defaults()));
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, u.kind(), u.getMessage());
    assertTrue(u.getMessage().contains("'u'") && !u.getMessage().contains("\n"), u.getMessage());
    try (LanceFileWriter w = LanceFileWriter.open(f, CrashWriterMain.SCHEMA, WriterOptions.defaults());
        VectorSchemaRoot other = VectorSchemaRoot.create(duplicate, allocator)) {
      invalid(() -> w.write(other), "schema");
      invalid(() -> w.write(null), "batch");
    }
    LanceFileWriter closed = LanceFileWriter.open(f, CrashWriterMain.SCHEMA, WriterOptions.defaults());
    closed.close();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(CrashWriterMain.SCHEMA, allocator)) {
      CrashWriterMain.fill(root, 0);
      invalid(() -> closed.write(root), "closed");
    }
    assertTrue(Files.exists(f));
    invalid(() -> WriterOptions.defaults().withPageBytesPerColumn(0), "page");
    invalid(() -> WriterOptions.defaults().withFieldDefault("lance-encoding:compression", "nonsense"), "nonsense");
  }
}
