package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.Scanner;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 2.3 files whose float columns ask for {@code lance-encoding:compression=pcodec}: f16/f32/f64
 * columns and fixed-size lists of them (768-wide vectors included) round-trip bit for bit (NaN
 * payloads, signed zeros) through a full read, a scan and single-row takes; inspect shows pcodec;
 * wide rows and mostly-null pages stay in dense mini-blocks, repeated values get no dictionary,
 * lists with null items are stored without pcodec; 2.2 files and full zip refuse the option.
 */
class PcodecInteropTest {
  @TempDir static Path dir;

  static final Map<String, String> PCODEC = Map.of("lance-encoding:compression", "pcodec");

  static ArrowType floatType(int bits) {
    return new ArrowType.FloatingPoint(bits == 16 ? FloatingPointPrecision.HALF
        : bits == 32 ? FloatingPointPrecision.SINGLE : FloatingPointPrecision.DOUBLE);
  }

  /** Raw bits of a float of {@code bits} from a double; specials (NaN payloads, -0, inf) mixed in at a few rows. */
  static long raw(int bits, double v, Random rnd) {
    int special = rnd.nextInt(200);
    if (special == 0) {
      return bits == 64 ? 0x7FF8_0000_0000_1234L : bits == 32 ? 0x7FC0_0123L : 0x7E01L;
    }
    if (special == 1) {
      return bits == 64 ? Long.MIN_VALUE : bits == 32 ? 0x8000_0000L : 0x8000L;
    }
    if (special == 2) {
      return bits == 64 ? Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY) : bits == 32 ? 0xFF80_0000L : 0xFC00L;
    }
    if (bits == 64) {
      return Double.doubleToRawLongBits(v);
    }
    int f = Float.floatToRawIntBits((float) v);
    if (bits == 32) {
      return f & 0xFFFF_FFFFL;
    }
    // binary16 by truncation: enough for test data (any bits must round-trip anyway)
    int sign = (f >>> 16) & 0x8000;
    int exp = ((f >>> 23) & 0xFF) - 127 + 15;
    int mant = (f >>> 13) & 0x3FF;
    return exp <= 0 ? sign : exp >= 31 ? sign | 0x7C00 : sign | exp << 10 | mant;
  }

  /** A column of {@code rows} values (dim 0) or lists of {@code dim} items; every {@code nullEvery}-th row null (0: none). */
  static VectorSchemaRoot column(int bits, int dim, int rows, int nullEvery, boolean decimals, long seed, Map<String, String> meta) {
    Random rnd = new Random(seed);
    Field item = new Field("item", FieldType.notNullable(floatType(bits)), null);
    Field f = dim == 0 ? new Field("v", new FieldType(true, floatType(bits), null, meta), null)
        : new Field("v", new FieldType(true, new ArrowType.FixedSizeList(dim), null, meta), List.of(item));
    FieldVector v = f.createVector(Interop.ALLOC);
    int items = rows * Math.max(1, dim);
    BaseFixedWidthVector leaf;
    if (v instanceof FixedSizeListVector fsl) {
      fsl.setInitialCapacity(rows);
      fsl.allocateNew();
      leaf = (BaseFixedWidthVector) fsl.getDataVector();
      leaf.allocateNew(items);
    } else {
      leaf = (BaseFixedWidthVector) v;
      leaf.allocateNew(rows);
    }
    int w = bits / 8;
    ArrowBuf data = leaf.getDataBuffer();
    double walk = 20;
    double[] basis = new double[Math.max(1, dim)];
    for (int j = 0; j < basis.length; j++) {
      basis[j] = rnd.nextGaussian();
    }
    for (int i = 0; i < rows; i++) {
      walk += rnd.nextGaussian() * 0.3;
      for (int j = 0; j < Math.max(1, dim); j++) {
        double x = dim == 0 ? walk : basis[j] + rnd.nextGaussian() * 0.1;
        if (decimals) {
          x = Math.round(x * 100) / 100.0;
        }
        long r = raw(bits, x, rnd);
        long at = (long) (i * Math.max(1, dim) + j) * w;
        if (w == 2) {
          data.setShort(at, (short) r);
        } else if (w == 4) {
          data.setInt(at, (int) r);
        } else {
          data.setLong(at, r);
        }
      }
    }
    for (int k = 0; k < items; k++) {
      org.apache.arrow.vector.BitVectorHelper.setBit(leaf.getValidityBuffer(), k);
    }
    leaf.setValueCount(items);
    if (v instanceof FixedSizeListVector fsl) {
      for (int i = 0; i < rows; i++) {
        if (nullEvery == 0 || i % nullEvery != 1) {
          fsl.setNotNull(i);
        } else {
          fsl.setNull(i);
        }
      }
      fsl.setValueCount(rows);
    } else {
      for (int i = 0; i < rows; i++) {
        if (nullEvery != 0 && i % nullEvery == 1) {
          org.apache.arrow.vector.BitVectorHelper.unsetBit(leaf.getValidityBuffer(), i);
        }
      }
      leaf.setValueCount(rows);
    }
    return new VectorSchemaRoot(List.of(f), List.of(v), rows);
  }

  /** Row {@code i}'s bytes (null for a null row); for lists, the items' bytes. */
  static byte[] rowBytes(FieldVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    BaseFixedWidthVector leaf;
    int dim = 1;
    if (v instanceof FixedSizeListVector fsl) {
      leaf = (BaseFixedWidthVector) fsl.getDataVector();
      dim = fsl.getListSize();
    } else {
      leaf = (BaseFixedWidthVector) v;
    }
    int w = leaf.getTypeWidth();
    byte[] out = new byte[dim * w];
    leaf.getDataBuffer().getBytes((long) i * dim * w, out);
    return out;
  }

  static List<byte[]> rows(FieldVector v) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < v.getValueCount(); i++) {
      out.add(rowBytes(v, i));
    }
    return out;
  }

  static void assertSameRows(String what, List<byte[]> expected, List<byte[]> got, int offset) {
    for (int i = 0; i < got.size(); i++) {
      assertArrayEquals(expected.get(offset + i), got.get(i), what + " row " + (offset + i));
    }
  }

  static void write(Path file, VectorSchemaRoot root, FileVersion version) {
    WriterOptions o = WriterOptions.defaults().withVersion(version);
    try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), o)) {
      w.write(root);
    } catch (LanceCodecException e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Writes 2.3, reads back by range, scan and single-row takes; returns inspect's text of the column. */
  static String roundTrip(String name, VectorSchemaRoot root) {
    Path file = dir.resolve(name + ".lance");
    List<byte[]> expected = rows(root.getVector(0));
    int n = root.getRowCount();
    write(file, root, FileVersion.V2_3);
    try (LanceFileReader r = LanceFileReader.open(file)) {
      try (VectorSchemaRoot all = r.readRange(0, n, null, Interop.ALLOC)) {
        assertEquals(n, all.getRowCount());
        assertSameRows(name + " range", expected, rows(all.getVector(0)), 0);
      }
      int seen = 0;
      try (Scanner s = r.scan(null, 700, Interop.ALLOC)) {
        while (s.hasNext()) {
          try (VectorSchemaRoot b = s.next()) {
            assertSameRows(name + " scan", expected, rows(b.getVector(0)), seen);
            seen += b.getRowCount();
          }
        }
      }
      assertEquals(n, seen);
      Random rnd = new Random(n);
      for (int k = 0; k < 40; k++) {
        int row = k == 0 ? 0 : k == 1 ? n - 1 : rnd.nextInt(n);
        try (VectorSchemaRoot t = r.take(new long[] {row}, List.of("v"), Interop.ALLOC)) {
          assertEquals(1, t.getRowCount());
          assertArrayEquals(expected.get(row), rowBytes(t.getVector(0), 0), name + " take " + row);
        }
      }
      return r.columnSummaries().toString();
    }
  }

  @Test
  void floatColumnsRoundTripThroughPcodec() {
    for (int bits : new int[] {16, 32, 64}) {
      for (boolean decimals : new boolean[] {false, true}) {
        String name = "f" + bits + (decimals ? "-dec" : "-walk");
        try (VectorSchemaRoot root = column(bits, 0, 20_000, 7, decimals, bits, PCODEC)) {
          String pages = roundTrip(name, root);
          assertTrue(pages.contains("pcodec(flat(" + bits + "))"), name + ": " + pages);
          assertFalse(pages.contains("dictionary"), pages);
        }
      }
    }
  }

  @Test
  void vectorsRoundTripThroughPcodecInDenseMiniBlocks() {
    int[][] cases = {{32, 768, 300}, {16, 768, 200}, {64, 3, 5000}, {32, 1, 3000}, {16, 8, 4097}, {64, 2500, 9}};
    for (int[] c : cases) {
      String name = "fsl-f" + c[0] + "x" + c[1];
      try (VectorSchemaRoot root = column(c[0], c[1], c[2], 11, false, c[1], PCODEC)) {
        String pages = roundTrip(name, root);
        assertTrue(pages.contains("pcodec(fixed_size_list(" + c[1] + ", flat(" + c[0] + ")))"), name + ": " + pages);
        // 768 x f32 rows are 3 KiB: without pcodec they would be zipped
        assertFalse(pages.contains("zipped"), pages);
      }
    }
  }

  @Test
  void mostlyNullAndRepetitivePagesStayDensePcodec() {
    try (VectorSchemaRoot root = column(64, 0, 20_000, 0, true, 3, PCODEC)) {
      // 95% null
      FieldVector v = root.getVector(0);
      for (int i = 0; i < 20_000; i++) {
        if (i % 20 != 0) {
          org.apache.arrow.vector.BitVectorHelper.unsetBit(((BaseFixedWidthVector) v).getValidityBuffer(), i);
        }
      }
      String pages = roundTrip("mostly-null", root);
      assertTrue(pages.contains("pcodec(flat(64))") && !pages.contains("sparse"), pages);
    }
    try (VectorSchemaRoot root = column(64, 0, 20_000, 0, true, 4, PCODEC)) {
      // twelve distinct values: 2.3 would take a dictionary without pcodec
      BaseFixedWidthVector v = (BaseFixedWidthVector) root.getVector(0);
      for (int i = 0; i < 20_000; i++) {
        v.getDataBuffer().setDouble(8L * i, (i * 7919 % 12) * 0.25);
      }
      String pages = roundTrip("repetitive", root);
      assertTrue(pages.contains("pcodec(flat(64))") && !pages.contains("dictionary"), pages);
    }
    try (VectorSchemaRoot root = column(64, 0, 20_000, 0, true, 4, Map.of())) {
      BaseFixedWidthVector v = (BaseFixedWidthVector) root.getVector(0);
      for (int i = 0; i < 20_000; i++) {
        v.getDataBuffer().setDouble(8L * i, (i * 7919 % 12) * 0.25);
      }
      String pages = roundTrip("repetitive-default", root);
      assertTrue(pages.contains("dictionary") && !pages.contains("pcodec"), pages);
    }
  }

  @Test
  void listsWithNullItemsAreStoredWithoutPcodec() {
    try (VectorSchemaRoot root = column(32, 4, 2000, 0, false, 5, PCODEC)) {
      FixedSizeListVector fsl = (FixedSizeListVector) root.getVector(0);
      Field item = new Field("item", FieldType.nullable(floatType(32)), null);
      Field f = new Field("v", new FieldType(true, new ArrowType.FixedSizeList(4), null, PCODEC), List.of(item));
      try (FieldVector v = f.createVector(Interop.ALLOC)) {
        FixedSizeListVector out = (FixedSizeListVector) v;
        out.allocateNew();
        org.apache.arrow.vector.Float4Vector items = (org.apache.arrow.vector.Float4Vector) out.getDataVector();
        org.apache.arrow.vector.Float4Vector src = (org.apache.arrow.vector.Float4Vector) fsl.getDataVector();
        items.allocateNew(8000);
        for (int k = 0; k < 8000; k++) {
          if (k % 97 == 5) {
            items.setNull(k);
          } else {
            items.set(k, src.get(k));
          }
        }
        items.setValueCount(8000);
        for (int i = 0; i < 2000; i++) {
          out.setNotNull(i);
        }
        out.setValueCount(2000);
        try (VectorSchemaRoot r = new VectorSchemaRoot(List.of(f), List.of(v), 2000)) {
          Path file = dir.resolve("null-items.lance");
          write(file, r, FileVersion.V2_3);
          try (LanceFileReader reader = LanceFileReader.open(file);
              VectorSchemaRoot back = reader.readRange(0, 2000, null, Interop.ALLOC)) {
            assertFalse(reader.columnSummaries().toString().contains("pcodec"), reader.columnSummaries().toString());
            for (int i = 0; i < 2000; i++) {
              assertEquals(out.getObject(i), ((FixedSizeListVector) back.getVector(0)).getObject(i), "row " + i);
            }
          }
        }
      }
    }
  }

  @Test
  void pcodecOutside23AndWithFullZipIsInvalidArgument() {
    for (FileVersion version : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2}) {
      try (VectorSchemaRoot root = column(32, 0, 100, 0, false, 1, PCODEC)) {
        LanceCodecException e = assertThrows(LanceCodecException.class,
            () -> write(dir.resolve("v" + version + ".lance"), root, version));
        assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("compression=pcodec") && e.getMessage().contains(version.toString()), e.getMessage());
      }
    }
    Map<String, String> meta = new TreeMap<>(PCODEC);
    meta.put("lance-encoding:structural-encoding", "fullzip");
    try (VectorSchemaRoot root = column(32, 768, 10, 0, false, 1, meta)) {
      LanceCodecException e = assertThrows(LanceCodecException.class,
          () -> write(dir.resolve("fullzip.lance"), root, FileVersion.V2_3));
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
      assertTrue(e.getMessage().contains("structural-encoding=fullzip"), e.getMessage());
    }
    Map<String, String> level = new TreeMap<>(PCODEC);
    level.put("lance-encoding:compression-level", "13");
    try (VectorSchemaRoot root = column(32, 0, 1000, 0, false, 1, level)) {
      LanceCodecException e = assertThrows(LanceCodecException.class,
          () -> write(dir.resolve("level.lance"), root, FileVersion.V2_3));
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
      assertTrue(e.getMessage().contains("lance-encoding:compression-level"), e.getMessage());
    }
  }
}
