package io.lancecodec.runtime.arrow;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One Lance column: the path of Arrow fields from a top-level field down to a leaf. Structs and
 * lists have no column of their own; each leaf (a primitive, string or fixed-size list) has one,
 * in pre-order, and carries the validity and offsets of its ancestors as levels.
 */
public record Leaf(int field, List<Field> path, Physical physical) {
  public enum Kind {
    STRUCT,
    LIST,
    LARGE_LIST,
    LEAF
  }

  public static Kind kind(Field f) {
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Struct) {
      // a packed struct is one column: its children are stored together, row by row
      return Physical.isPacked(f) ? Kind.LEAF : Kind.STRUCT;
    }
    // a map is a list of key/value structs on disk, and MapVector is a ListVector
    if (t instanceof ArrowType.List || t instanceof ArrowType.Map) {
      return Kind.LIST;
    }
    if (t instanceof ArrowType.LargeList) {
      return Kind.LARGE_LIST;
    }
    return Kind.LEAF;
  }

  /** A column whose levels come from more than one layer (a struct or list above the leaf). */
  public boolean nested() {
    return path.size() > 1;
  }

  public Field leafField() {
    return path.get(path.size() - 1);
  }

  public static List<Leaf> of(Schema schema) {
    List<Leaf> out = new ArrayList<>();
    for (int i = 0; i < schema.getFields().size(); i++) {
      collect(i, new ArrayList<>(List.of(schema.getFields().get(i))), out);
    }
    return out;
  }

  private static void collect(int field, List<Field> path, List<Leaf> out) {
    Field f = path.get(path.size() - 1);
    if (kind(f) == Kind.LEAF) {
      out.add(new Leaf(field, List.copyOf(path), Physical.of(f)));
      return;
    }
    for (Field c : f.getChildren()) {
      path.add(c);
      collect(field, path, out);
      path.remove(path.size() - 1);
    }
  }

  /** The leaf column's dotted path, e.g. {@code a.item.b}. */
  public String columnName() {
    StringBuilder b = new StringBuilder();
    for (Field f : path()) {
      b.append(b.length() == 0 ? "" : ".").append(f.getName());
    }
    return b.toString();
  }
}
