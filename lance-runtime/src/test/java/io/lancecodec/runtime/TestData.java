package io.lancecodec.runtime;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Seeded random columns of every flat type, filled through Arrow's buffers. */
final class TestData {
  private TestData() {}

  static final Map<String, ArrowType> TYPES =
      Map.ofEntries(
          Map.entry("bool", ArrowType.Bool.INSTANCE),
          Map.entry("int8", new ArrowType.Int(8, true)),
          Map.entry("int16", new ArrowType.Int(16, true)),
          Map.entry("int32", new ArrowType.Int(32, true)),
          Map.entry("int64", new ArrowType.Int(64, true)),
          Map.entry("uint8", new ArrowType.Int(8, false)),
          Map.entry("uint16", new ArrowType.Int(16, false)),
          Map.entry("uint32", new ArrowType.Int(32, false)),
          Map.entry("uint64", new ArrowType.Int(64, false)),
          Map.entry("float16", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)),
          Map.entry("float32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
          Map.entry("float64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
          Map.entry("utf8", ArrowType.Utf8.INSTANCE),
          Map.entry("large_utf8", ArrowType.LargeUtf8.INSTANCE),
          Map.entry("binary", ArrowType.Binary.INSTANCE),
          Map.entry("large_binary", ArrowType.LargeBinary.INSTANCE),
          Map.entry("fsb16", new ArrowType.FixedSizeBinary(16)),
          Map.entry("date32", new ArrowType.Date(DateUnit.DAY)),
          Map.entry("date64", new ArrowType.Date(DateUnit.MILLISECOND)),
          Map.entry("time32ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
          Map.entry("time64us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
          Map.entry("ts_s", new ArrowType.Timestamp(TimeUnit.SECOND, null)),
          Map.entry("ts_ms_utc", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
          Map.entry("ts_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
          Map.entry("ts_ns_tz", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "+05:30")),
          Map.entry("decimal128", new ArrowType.Decimal(10, 2, 128)),
          Map.entry("decimal256", new ArrowType.Decimal(40, 5, 256)),
          Map.entry("fsb512", new ArrowType.FixedSizeBinary(512)));

  /** Value shapes: narrow random, runs (RLE), constant, wide random. */
  enum Shape {
    NARROW,
    RUNS,
    CONSTANT,
    WIDE
  }

  static VectorSchemaRoot root(
      String name, ArrowType type, boolean nullable, double nullFraction, int n, Shape shape, long seed, BufferAllocator al) {
    return root(name, type, null, nullable, nullFraction, n, shape, seed, al);
  }

  /** The same column with {@code metadata} (field options) on its field. */
  static VectorSchemaRoot root(String name, ArrowType type, Map<String, String> metadata, boolean nullable, double nullFraction, int n,
      Shape shape, long seed, BufferAllocator al) {
    Schema schema = new Schema(List.of(new Field(name, new FieldType(nullable, type, null, metadata), null)));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, al);
    fill(root.getVector(0), n, nullable ? nullFraction : 0, shape, new Random(seed));
    root.setRowCount(n);
    return root;
  }

  static void fill(FieldVector v, int n, double nullFraction, Shape shape, Random rnd) {
    v.setInitialCapacity(n);
    v.allocateNew();
    long run = rnd.nextLong();
    for (int i = 0; i < n; i++) {
      if (nullFraction > 0 && rnd.nextDouble() < nullFraction) {
        v.setNull(i);
        continue;
      }
      long x;
      switch (shape) {
        case NARROW:
          x = rnd.nextInt(1000) - 100;
          break;
        case RUNS:
          if (rnd.nextInt(50) == 0) {
            run = rnd.nextLong();
          }
          x = run;
          break;
        case CONSTANT:
          x = 42;
          break;
        default:
          x = rnd.nextLong();
      }
      set(v, i, x, shape == Shape.WIDE);
    }
    v.setValueCount(n);
  }

  private static void set(FieldVector v, int i, long x, boolean longStrings) {
    if (v instanceof BitVector b) {
      b.set(i, (int) (x & 1));
    } else if (v instanceof DecimalVector d) {
      d.setSafe(i, BigDecimal.valueOf(x % 100_000_000L, 2));
    } else if (v instanceof Decimal256Vector d) {
      d.setSafe(i, new BigDecimal(BigInteger.valueOf(x).multiply(BigInteger.valueOf(x)), 5));
    } else if (v instanceof FixedSizeBinaryVector f) {
      byte[] b = new byte[f.getByteWidth()];
      for (int k = 0; k < b.length; k++) {
        b[k] = (byte) (x >>> (8 * (k % 8)) ^ k);
      }
      f.setSafe(i, b);
    } else if (v instanceof BaseFixedWidthVector f) {
      int w = f.getTypeWidth();
      f.getDataBuffer().setBytes((long) i * w, longBytes(x), 0, w);
      f.setIndexDefined(i);
    } else if (v instanceof BaseVariableWidthVector vv) {
      vv.setSafe(i, string(x, longStrings));
    } else if (v instanceof BaseLargeVariableWidthVector vv) {
      vv.setSafe(i, string(x, longStrings));
    } else {
      throw new IllegalArgumentException(v.getClass().toString());
    }
  }

  private static byte[] longBytes(long x) {
    byte[] b = new byte[8];
    for (int k = 0; k < 8; k++) {
      b[k] = (byte) (x >>> (8 * k));
    }
    return b;
  }

  /** Short strings, or (wide shape) strings of 200..600 bytes that push pages to full-zip. */
  private static byte[] string(long x, boolean longStrings) {
    int len = (int) (longStrings ? 200 + Math.floorMod(x, 400) : Math.floorMod(x, 23));
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < len; k++) {
      sb.append((char) ('a' + Math.floorMod(x >> k, 26)));
    }
    if (x % 7 == 0) {
      sb.append("é✓");
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Value i of a vector as a comparable object (arrays compared by content). */
  static Object value(FieldVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    Object o = v.getObject(i);
    if (o instanceof byte[] b) {
      return java.util.HexFormat.of().formatHex(b);
    }
    if (v instanceof org.apache.arrow.vector.Float4Vector f) {
      return Float.floatToRawIntBits(f.get(i));
    }
    if (v instanceof org.apache.arrow.vector.Float8Vector f) {
      return Double.doubleToRawLongBits(f.get(i));
    }
    return o == null ? null : o.toString();
  }

  static List<Object> values(FieldVector v) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < v.getValueCount(); i++) {
      out.add(value(v, i));
    }
    return out;
  }

  /** Where {@code needle} first occurs in {@code hay}, or -1: corrupt-file tests find the bytes to patch. */
  static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
