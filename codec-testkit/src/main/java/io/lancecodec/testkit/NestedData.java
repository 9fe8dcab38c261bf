package io.lancecodec.testkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import org.junit.jupiter.api.Assertions;

/**
 * Seeded nested test data, shared by lance-runtime's and interop-test's tests: schemas of
 * structs, lists, large lists, maps, packed structs and fixed-size lists (of lists and of
 * booleans too) over int32, int64, float32, bool and utf8 leaves; random values with null
 * structs, null lists, empty lists and null items at every level; and a writer of such values
 * into Arrow vectors slot by slot. Values are plain Java: a map per struct, a list per list,
 * arrays per fixed-size list. interop-test pins the bytes of files made from it, so a change to
 * what a seed produces shows there.
 */
public final class NestedData {
  /** The name of a field whose values are never null (children of null lists included). */
  public static final String NEVER_NULL = "never_null";

  /** The name of a leaf field whose values are all null. */
  public static final String NULL_LEAF = "null_leaf";

  private NestedData() {}

  public static Field field(String name, ArrowType type, Field... children) {
    return field(name, true, type, children);
  }

  public static Field field(String name, boolean nullable, ArrowType type, Field... children) {
    return new Field(name, new FieldType(nullable, type, null), children.length == 0 ? null : List.of(children));
  }

  public static Field list(String name, Field item) {
    return field(name, ArrowType.List.INSTANCE, item);
  }

  public static Field struct(String name, Field... children) {
    return field(name, ArrowType.Struct.INSTANCE, children);
  }

  public static Field i32(String name) {
    return field(name, new ArrowType.Int(32, true));
  }

  public static Field str(String name) {
    return field(name, ArrowType.Utf8.INSTANCE);
  }

  public static Field f32(String name) {
    return field(name, new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
  }

  public static Field bool(String name) {
    return field(name, ArrowType.Bool.INSTANCE);
  }

  /** A fixed-size list of float32 items. */
  public static Field fsl(String name, int dim) {
    return fslOf(name, dim, f32("item"));
  }

  public static Field fslOf(String name, int dim, Field item) {
    return field(name, new ArrowType.FixedSizeList(dim), item);
  }

  /** A fixed-size list of int32 items that are null now and then (the item validity bitmap). */
  public static Field fslNullItems(String name, int dim) {
    return fslOf(name, dim, i32("item"));
  }

  /** A map (2.2 only) of non-null keys to {@code value}, stored as a list of entry structs. */
  public static Field map(String name, Field key, Field value) {
    Field entries = new Field("entries", new FieldType(false, ArrowType.Struct.INSTANCE, null), List.of(key, value));
    return field(name, new ArrowType.Map(false), entries);
  }

  public static Field notNull(String name, ArrowType type) {
    return new Field(name, new FieldType(false, type, null), null);
  }

  /** A packed struct ({@code lance-encoding:packed=true}); the reference needs its children non-null. */
  public static Field packed(String name, Field... children) {
    return new Field(name, new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of("lance-encoding:packed", "true")),
        List.of(children));
  }

  /**
   * {@code structural-encoding=fullzip} on a field. The reference (through its Java writer) takes
   * it from the top-level field, ours from the leaf field, so nested shapes set both.
   */
  public static Field fullZip(Field f) {
    return new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), null,
        Map.of("lance-encoding:structural-encoding", "fullzip")), f.getChildren());
  }

  /**
   * A random value of {@code f}: null with probability {@code nulls} where nullable, lists of up
   * to {@code maxLen} items, strings of {@code strLen} characters and more (wide strings take the
   * full-zip layout).
   */
  public static Object value(Field f, Random rnd, double nulls, int maxLen, int strLen) {
    if (f.isNullable() && rnd.nextDouble() < nulls) {
      return null;
    }
    ArrowType t = f.getType();
    if (nestedFsl(f)) {
      return nestedValue(f, rnd, nulls);
    }
    if (t instanceof ArrowType.Struct) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (Field c : f.getChildren()) {
        m.put(c.getName(), value(c, rnd, nulls, maxLen, strLen));
      }
      return m;
    }
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList || t instanceof ArrowType.Map) {
      int n = rnd.nextInt(maxLen + 1);
      List<Object> l = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        l.add(value(f.getChildren().get(0), rnd, nulls, maxLen, strLen));
      }
      return l;
    }
    if (t instanceof ArrowType.FixedSizeList fl && f.getChildren().get(0).getType() instanceof ArrowType.Int it && it.getBitWidth() == 64) {
      Long[] v = new Long[fl.getListSize()];
      for (int i = 0; i < v.length; i++) {
        v[i] = rnd.nextDouble() < nulls ? null : (long) rnd.nextInt(50_000);
      }
      return v;
    }
    if (t instanceof ArrowType.FixedSizeList fl && f.getChildren().get(0).getType() instanceof ArrowType.Int) {
      Integer[] v = new Integer[fl.getListSize()];
      for (int i = 0; i < v.length; i++) {
        v[i] = rnd.nextDouble() < Math.max(nulls, 0.1) ? null : rnd.nextInt();
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
    if (t instanceof ArrowType.Utf8) {
      return "s" + rnd.nextInt(100) + "x".repeat(strLen);
    }
    if (t instanceof ArrowType.Int i && i.getBitWidth() == 64) {
      return rnd.nextLong();
    }
    return rnd.nextInt(50);
  }

  /** Fixed-size lists of fixed-size lists or of booleans: built and filled level by level. */
  public static boolean nestedFsl(Field f) {
    return f.getType() instanceof ArrowType.FixedSizeList
        && (f.getChildren().get(0).getType() instanceof ArrowType.FixedSizeList
            || f.getChildren().get(0).getType() instanceof ArrowType.Bool);
  }

  /** A value of a nested fixed-size list: Object[] per list, Integer, Float or Boolean leaves, nulls at every level. */
  public static Object nestedValue(Field f, Random rnd, double nulls) {
    ArrowType t = f.getType();
    if (t instanceof ArrowType.FixedSizeList fl) {
      Field item = f.getChildren().get(0);
      Object[] v = new Object[fl.getListSize()];
      for (int i = 0; i < v.length; i++) {
        v[i] = rnd.nextDouble() < nulls && !item.getName().equals(NEVER_NULL) ? null : nestedValue(item, rnd, nulls);
      }
      return v;
    }
    if (f.getName().equals(NULL_LEAF)) {
      return null;
    }
    if (t instanceof ArrowType.Bool) {
      return rnd.nextBoolean();
    }
    if (t instanceof ArrowType.FloatingPoint) {
      return rnd.nextInt(1000) / 8f;
    }
    return rnd.nextInt();
  }

  /** Writes a value into a slot of a vector (slots must be written in order). */
  @FunctionalInterface
  public interface Setter {
    void set(FieldVector v, int i, Object value);
  }

  /**
   * Writes {@code value} into slot {@code i} of {@code v} when {@code v} is a struct or a (large)
   * list, its children through {@code children}; false for any other vector. Children of a null
   * packed struct get zero values: the reference's writer aborts on null children there.
   */
  @SuppressWarnings("unchecked")
  public static boolean setContainer(FieldVector v, int i, Object value, Setter children) {
    if (v instanceof StructVector sv) {
      Map<String, Object> m = (Map<String, Object>) value;
      if (m == null) {
        sv.setNull(i);
      } else {
        sv.setIndexDefined(i);
      }
      boolean packed = "true".equals(sv.getField().getMetadata().get("lance-encoding:packed"));
      for (FieldVector c : sv.getChildrenFromFields()) {
        Object cv = m != null ? m.get(c.getName()) : !packed ? null
            : c instanceof VarCharVector || c instanceof org.apache.arrow.vector.LargeVarCharVector ? ""
            : c instanceof BigIntVector ? (Object) 0L : (Object) 0;
        children.set(c, i, cv);
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

  /** Writes {@code value} (as {@link #value} makes them) into slot {@code i} of {@code v}, slots in order. */
  public static void set(FieldVector v, int i, Object value) {
    if (setContainer(v, i, value, NestedData::set)) {
      return;
    }
    if (v instanceof FixedSizeListVector && nestedFsl(v.getField())) {
      setNested(v, i, value);
    } else if (v instanceof FixedSizeListVector fv
        && fv.getDataVector() instanceof org.apache.arrow.vector.BaseFixedWidthVector items
        && items instanceof org.apache.arrow.vector.BaseIntVector ints) {
      // int64 (Long[]) and int32 (Integer[]) items
      Number[] a = (Number[]) value;
      int dim = fv.getListSize();
      for (int k = 0; k < dim; k++) {
        if (a == null || a[k] == null) {
          items.setNull(i * dim + k);
        } else {
          ints.setWithPossibleTruncate(i * dim + k, a[k].longValue());
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
    } else if (v instanceof org.apache.arrow.vector.BitVector) {
      setNested(v, i, value);
    } else if (v instanceof org.apache.arrow.vector.FixedSizeBinaryVector fb) {
      if (value == null) {
        fb.setNull(i);
      } else {
        fb.setSafe(i, (byte[]) value);
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

  /** A nested fixed-size list's value, level by level; items of a null list get placeholders. */
  public static void setNested(FieldVector v, int i, Object value) {
    if (v instanceof FixedSizeListVector fv) {
      Object[] a = (Object[]) value;
      int dim = fv.getListSize();
      for (int k = 0; k < dim; k++) {
        FieldVector child = fv.getDataVector();
        Object placeholder = child.getField().getName().equals(NEVER_NULL) ? nestedValue(child.getField(), new Random(k), 0) : null;
        setNested(child, i * dim + k, a == null ? placeholder : a[k]);
      }
      if (a == null) {
        fv.setNull(i);
      } else {
        fv.setNotNull(i);
      }
    } else if (v instanceof org.apache.arrow.vector.BitVector b) {
      if (value == null) {
        b.setNull(i);
      } else {
        b.setSafe(i, (Boolean) value ? 1 : 0);
      }
    } else if (v instanceof Float4Vector f) {
      if (value == null) {
        f.setNull(i);
      } else {
        f.setSafe(i, (Float) value);
      }
    } else {
      IntVector iv = (IntVector) v;
      if (value == null) {
        iv.setNull(i);
      } else {
        iv.setSafe(i, (Integer) value);
      }
    }
  }

  /**
   * Rows of {@code actual} equal {@code expected}'s, column by column: rows {@code from..} for a
   * range, or {@code rows[i]} for a take.
   */
  public static void assertRows(VectorSchemaRoot expected, VectorSchemaRoot actual, int from, long[] rows) {
    int n = rows == null ? actual.getRowCount() : rows.length;
    Assertions.assertEquals(n, actual.getRowCount());
    for (int c = 0; c < expected.getFieldVectors().size(); c++) {
      for (int i = 0; i < n; i++) {
        int src = rows == null ? from + i : (int) rows[i];
        Assertions.assertEquals(text(expected.getVector(c), src), text(actual.getVector(c), i), "column " + c + " row " + src);
      }
    }
  }

  /** Slot {@code i} as text; a bare byte array (fixed-size binary) by its content, not its identity. */
  public static String text(FieldVector v, int i) {
    Object o = v.getObject(i);
    return o instanceof byte[] b ? java.util.Arrays.toString(b) : String.valueOf(o);
  }
}
