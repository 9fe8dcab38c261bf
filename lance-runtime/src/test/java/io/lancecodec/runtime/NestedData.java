package io.lancecodec.runtime;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Seeded nested test data: schemas of structs, lists, large lists and fixed-size lists over
 * int32, int64, float32 and utf8 leaves, and random values with null structs, null lists, empty
 * lists and null items at every level, written into Arrow vectors slot by slot.
 */
final class NestedData {
  private NestedData() {}

  static Field field(String name, boolean nullable, ArrowType type, Field... children) {
    return new Field(name, new FieldType(nullable, type, null), children.length == 0 ? null : List.of(children));
  }

  static Field list(String name, Field item) {
    return field(name, true, ArrowType.List.INSTANCE, item);
  }

  static Field struct(String name, Field... children) {
    return field(name, true, ArrowType.Struct.INSTANCE, children);
  }

  static Field i32(String name) {
    return field(name, true, new ArrowType.Int(32, true));
  }

  static Field str(String name) {
    return field(name, true, ArrowType.Utf8.INSTANCE);
  }

  static Field fsl(String name, int dim) {
    return field(name, true, new ArrowType.FixedSizeList(dim), field("item", true, new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
  }

  /** A map (2.2 only) of non-null keys to {@code value}, stored as a list of entry structs. */
  static Field map(String name, Field key, Field value) {
    Field entries = field("entries", false, ArrowType.Struct.INSTANCE, key, value);
    return field(name, true, new ArrowType.Map(false), entries);
  }

  /** A packed struct ({@code lance-encoding:packed=true}) of non-null children. */
  static Field packed(String name, Field... children) {
    return new Field(name, new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("lance-encoding:packed", "true")),
        List.of(children));
  }

  /** A fixed-size list of int32 items that are null as often as other values. */
  static Field fslNullItems(String name, int dim) {
    return field(name, true, new ArrowType.FixedSizeList(dim), i32("item"));
  }

  /** A random value for a field: null, a list, a map of struct children or a leaf value. */
  static Object value(Field f, Random rnd, double nulls, int maxLen) {
    if (f.isNullable() && rnd.nextDouble() < nulls) {
      return null;
    }
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Struct) {
      java.util.LinkedHashMap<String, Object> m = new java.util.LinkedHashMap<>();
      for (Field c : f.getChildren()) {
        m.put(c.getName(), value(c, rnd, nulls, maxLen));
      }
      return m;
    }
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList || t instanceof ArrowType.Map) {
      int n = rnd.nextInt(maxLen + 1);
      List<Object> l = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        l.add(value(f.getChildren().get(0), rnd, nulls, maxLen));
      }
      return l;
    }
    if (t instanceof ArrowType.FixedSizeList fl && f.getChildren().get(0).getType() instanceof ArrowType.Int) {
      Integer[] v = new Integer[fl.getListSize()];
      for (int i = 0; i < v.length; i++) {
        v[i] = rnd.nextDouble() < nulls ? null : rnd.nextInt();
      }
      return v;
    }
    if (t instanceof ArrowType.FixedSizeList fl) {
      float[] v = new float[fl.getListSize()];
      for (int i = 0; i < v.length; i++) {
        v[i] = rnd.nextInt(1000) / 8f;
      }
      return v;
    }
    if (t instanceof ArrowType.LargeUtf8) {
      return "L".repeat(rnd.nextInt(4)) + rnd.nextInt(1000);
    }
    if (t instanceof ArrowType.Utf8 && !f.isNullable()) {
      // map keys: distinct enough to look like keys, never null
      return "k" + rnd.nextInt(1000);
    }
    if (t instanceof ArrowType.Utf8) {
      return "s" + rnd.nextInt(rnd.nextBoolean() ? 10 : 100000);
    }
    if (t instanceof ArrowType.Int i && i.getBitWidth() == 64) {
      return rnd.nextLong();
    }
    return rnd.nextInt(50);
  }

  /** Writes a value into a slot of a vector (slots must be written in order). */
  @FunctionalInterface
  interface Setter {
    void set(FieldVector v, int i, Object value);
  }

  /**
   * Writes {@code value} into slot {@code i} of {@code v} when {@code v} is a struct or a (large) list,
   * its children through {@code children}; false for any other vector.
   */
  @SuppressWarnings("unchecked")
  static boolean setContainer(FieldVector v, int i, Object value, Setter children) {
    if (v instanceof StructVector sv) {
      Map<String, Object> m = (Map<String, Object>) value;
      if (m == null) {
        sv.setNull(i);
      } else {
        sv.setIndexDefined(i);
      }
      for (FieldVector c : sv.getChildrenFromFields()) {
        children.set(c, i, m == null ? null : m.get(c.getName()));
      }
      return true;
    }
    if (v instanceof ListVector lv) {
      List<Object> l = (List<Object>) value;
      if (l == null) {
        lv.setNull(i);
        return true;
      }
      int start = lv.startNewValue(i);
      for (int k = 0; k < l.size(); k++) {
        children.set(lv.getDataVector(), start + k, l.get(k));
      }
      lv.endValue(i, l.size());
      return true;
    }
    if (v instanceof LargeListVector lv) {
      List<Object> l = (List<Object>) value;
      if (l == null) {
        lv.setNull(i);
        return true;
      }
      long start = lv.startNewValue(i);
      for (int k = 0; k < l.size(); k++) {
        children.set(lv.getDataVector(), (int) (start + k), l.get(k));
      }
      lv.endValue(i, l.size());
      return true;
    }
    return false;
  }

  /**
   * Writes rows 0..n-1 through {@code w} in two batches (so pages concatenate batches with
   * different null patterns) and into {@code expected}: column 0 gets {@code values}' value of
   * the row through {@code setter}, column 1 the row number.
   */
  static void writeInTwoBatches(LanceFileWriter w, Schema schema, VectorSchemaRoot expected, int n,
      java.util.function.IntFunction<Object> values, Setter setter, BufferAllocator allocator) {
    int half = n / 2;
    for (int[] part : new int[][] {{0, half}, {half, n}}) {
      try (VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
        for (int i = part[0]; i < part[1]; i++) {
          Object v = values.apply(i);
          setter.set(batch.getVector(0), i - part[0], v);
          setter.set(expected.getVector(0), i, v);
          set(batch.getVector(1), i - part[0], i);
          set(expected.getVector(1), i, i);
        }
        batch.setRowCount(part[1] - part[0]);
        if (part[1] > part[0]) {
          w.write(batch);
        }
      }
    }
  }

  /** Writes {@code value} into slot {@code i} of {@code v} (slots must be written in order). */
  @SuppressWarnings("unchecked")
  static void set(FieldVector v, int i, Object value) {
    if (setContainer(v, i, value, NestedData::set)) {
      return;
    } else if (v instanceof FixedSizeListVector fv && fv.getDataVector() instanceof IntVector items) {
      Integer[] a = (Integer[]) value;
      int dim = fv.getListSize();
      for (int k = 0; k < dim; k++) {
        if (a == null || a[k] == null) {
          // items of a null list keep a value of their own, as Arrow allows
          if (a == null && (k & 1) == 0) {
            items.setSafe(i * dim + k, k);
          } else {
            items.setNull(i * dim + k);
          }
        } else {
          items.setSafe(i * dim + k, a[k]);
        }
      }
      if (a == null) {
        fv.setNull(i);
      } else {
        fv.setNotNull(i);
      }
    } else if (v instanceof FixedSizeListVector fv) {
      float[] a = (float[]) value;
      Float4Vector items = (Float4Vector) fv.getDataVector();
      int dim = fv.getListSize();
      for (int k = 0; k < dim; k++) {
        items.setSafe(i * dim + k, a == null ? 0f : a[k]);
      }
      if (a == null) {
        fv.setNull(i);
      } else {
        fv.setNotNull(i);
      }
    } else if (v instanceof IntVector iv) {
      if (value == null) {
        iv.setNull(i);
      } else {
        iv.setSafe(i, (Integer) value);
      }
    } else if (v instanceof BigIntVector bv) {
      if (value == null) {
        bv.setNull(i);
      } else {
        bv.setSafe(i, (Long) value);
      }
    } else if (v instanceof org.apache.arrow.vector.LargeVarCharVector lv) {
      if (value == null) {
        lv.setNull(i);
      } else {
        lv.setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
      }
    } else if (v instanceof VarCharVector sv) {
      if (value == null) {
        sv.setNull(i);
      } else {
        sv.setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
      }
    } else {
      throw new IllegalArgumentException(v.getClass().toString());
    }
  }

  /**
   * The file at {@code path} has {@code schema} and reads back as {@code expected} (the nested
   * column first): a full read, a batched scan of the first column and an unsorted take of up to
   * 50 rows with repeats.
   */
  static void assertReadsBack(java.nio.file.Path path, org.apache.arrow.vector.types.pojo.Schema schema, VectorSchemaRoot expected,
      int n, Random rnd, org.apache.arrow.memory.BufferAllocator allocator) {
    try (LanceFileReader r = LanceFileReader.open(path)) {
      org.junit.jupiter.api.Assertions.assertEquals(schema, r.schema());
      try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
        assertRows(expected, all, 0, null);
      }
      java.util.Iterator<VectorSchemaRoot> it = r.scan(List.of(schema.getFields().get(0).getName()), 777, allocator);
      int at = 0;
      while (it.hasNext()) {
        try (VectorSchemaRoot b = it.next()) {
          for (int i = 0; i < b.getRowCount(); i++) {
            org.junit.jupiter.api.Assertions.assertEquals(expected.getVector(0).getObject(at + i), b.getVector(0).getObject(i),
                "scan row " + (at + i));
          }
          at += b.getRowCount();
        }
      }
      org.junit.jupiter.api.Assertions.assertEquals(n, at);
      long[] rows = new long[Math.min(n, 50)];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = rnd.nextInt(n);
      }
      try (VectorSchemaRoot t = r.take(rows, null, allocator)) {
        assertRows(expected, t, 0, rows);
      }
    }
  }

  /**
   * Rows of {@code actual} equal {@code expected}'s, column by column: rows {@code from..} for a
   * range, or {@code rows[i]} for a take.
   */
  static void assertRows(VectorSchemaRoot expected, VectorSchemaRoot actual, int from, long[] rows) {
    int n = rows == null ? actual.getRowCount() : rows.length;
    org.junit.jupiter.api.Assertions.assertEquals(n, actual.getRowCount());
    for (int c = 0; c < expected.getFieldVectors().size(); c++) {
      for (int i = 0; i < n; i++) {
        int src = rows == null ? from + i : (int) rows[i];
        org.junit.jupiter.api.Assertions.assertEquals(text(expected.getVector(c), src), text(actual.getVector(c), i),
            "column " + c + " row " + src);
      }
    }
  }

  /** Slot {@code i} as text; a bare byte array (fixed-size binary) by its content, not its identity. */
  static String text(FieldVector v, int i) {
    Object o = v.getObject(i);
    return o instanceof byte[] b ? java.util.Arrays.toString(b) : String.valueOf(o);
  }
}
