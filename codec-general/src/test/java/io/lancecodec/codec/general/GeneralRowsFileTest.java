package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whole 2.3 files with wide fixed-size-list columns (full-zip rows): written with a scheme asked
 * for, read back by range and by take, null rows included (their zipped values are empty).
 * Integer tensors get axis delta under General, floats the plain rows framed.
 */
@Timeout(120)
class GeneralRowsFileTest {
  private static final BufferAllocator ALLOC = new RootAllocator();

  @TempDir Path dir;

  @AfterAll
  static void close() {
    ALLOC.close();
  }

  /** {@code FixedSizeList<FixedSizeList<leaf, inner>, outer>}, nullable rows, values of smooth tensors. */
  static VectorSchemaRoot column(ArrowType leaf, int outer, int inner, Map<String, String> meta, int n, long seed) {
    Field item = new Field("item", FieldType.notNullable(leaf), null);
    Field mid = new Field("item", new FieldType(false, new ArrowType.FixedSizeList(inner), null), List.of(item));
    Field f = new Field("c", new FieldType(true, new ArrowType.FixedSizeList(outer), null, meta), List.of(mid));
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), ALLOC);
    FixedSizeListVector top = (FixedSizeListVector) root.getVector(0);
    top.allocateNew();
    FixedSizeListVector middle = (FixedSizeListVector) top.getDataVector();
    BaseFixedWidthVector values = (BaseFixedWidthVector) middle.getDataVector();
    int e = outer * inner;
    Random rnd = new Random(seed);
    for (int r = 0; r < n; r++) {
      boolean isNull = r % 7 == 3;
      if (isNull) {
        top.setNull(r);
      } else {
        top.setNotNull(r);
      }
      for (int o = 0; o < outer; o++) {
        middle.setNotNull(r * outer + o);
      }
      long v = rnd.nextInt(1000);
      for (int i = 0; i < e; i++) {
        v += rnd.nextInt(5) - 2;
        int at = r * e + i;
        while (at >= values.getValueCapacity()) {
          values.reAlloc();
        }
        set(values, at, v);
      }
    }
    values.setValueCount(n * e);
    middle.setValueCount(n * outer);
    top.setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  static void set(BaseFixedWidthVector values, int at, long v) {
    if (values instanceof org.apache.arrow.vector.SmallIntVector s) {
      s.set(at, (short) v);
    } else if (values instanceof org.apache.arrow.vector.IntVector s) {
      s.set(at, (int) v);
    } else if (values instanceof org.apache.arrow.vector.UInt1Vector s) {
      s.set(at, (byte) v);
    } else if (values instanceof org.apache.arrow.vector.BigIntVector s) {
      s.set(at, v);
    } else {
      ((org.apache.arrow.vector.Float4Vector) values).set(at, v / 8f);
    }
  }

  static List<String> values(FieldVector v) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.getValueCount(); i++) {
      Object o = v.getObject(i);
      out.add(o == null ? null : o.toString());
    }
    return out;
  }

  @ParameterizedTest(name = "{0} {1}x{2} {3}")
  @CsvSource({
      "i16, 4, 64, zstd, axis_delta",
      "i32, 8, 32, lz4, general(lz4",
      "u8, 16, 64, zstd, axis_delta",
      "i64, 2, 128, zstd, general(zstd",
      "f32, 4, 64, zstd, general(zstd"})
  void writeAndRead(String type, int outer, int inner, String scheme, String expect) {
    ArrowType leaf = switch (type) {
      case "i16" -> new ArrowType.Int(16, true);
      case "i32" -> new ArrowType.Int(32, true);
      case "u8" -> new ArrowType.Int(8, false);
      case "i64" -> new ArrowType.Int(64, true);
      default -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    };
    int n = 300;
    Path p = dir.resolve(type + scheme + ".lance");
    try (VectorSchemaRoot root = column(leaf, outer, inner, Map.of("lance-encoding:compression", scheme), n, type.hashCode())) {
      try (LanceFileWriter w = LanceFileWriter.open(p, root.getSchema(), WriterOptions.defaults().withVersion(FileVersion.V2_3))) {
        w.write(root);
      }
      List<String> want = values(root.getVector(0));
      try (LanceFileReader r = LanceFileReader.open(p);
          VectorSchemaRoot back = r.readRange(0, n, null, ALLOC);
          VectorSchemaRoot some = r.take(new long[] {299, 3, 11, 4, 0, 3}, null, ALLOC)) {
        String summary = r.columnSummaries().toString();
        assertTrue(summary.contains(expect), summary);
        assertTrue(!type.equals("f32") || !summary.contains("axis_delta"), summary);
        assertEquals(want, values(back.getVector(0)));
        assertEquals(List.of(want.get(299), "null", want.get(11), want.get(4), want.get(0), "null"),
            values(some.getVector(0)).stream().map(String::valueOf).toList());
      }
    }
  }
}
