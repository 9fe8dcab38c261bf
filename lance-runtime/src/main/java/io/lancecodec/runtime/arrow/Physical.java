package io.lancecodec.runtime.arrow;

import io.lancecodec.runtime.plugin.FslShape;
import io.lancecodec.spi.LanceCodecException;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * How an Arrow type is laid out physically, which is all the codecs ever see: booleans are
 * 1-bit values, every other fixed-width type is bytes of a given width, strings and binaries
 * are variable-width with 32- or 64-bit offsets.
 */
public record Physical(Kind kind, int bits, int dimension) {
  /** A scalar layout (not a fixed-size list). */
  Physical(Kind kind, int bits) {
    this(kind, bits, 0);
  }

  /** True for a fixed-size list of fixed-width items, stored as one value of dimension items. */
  public boolean fsl() {
    return dimension > 0;
  }

  /** Bits of one whole value: a fixed-size list's row, or the scalar. */
  public int rowBits() {
    return fsl() ? bits * dimension : bits;
  }

  /** Like {@link #of(ArrowType)}, and a fixed-size list of a fixed-width type as its items. */
  public static Physical of(org.apache.arrow.vector.types.pojo.Field field) {
    if (field.getType() instanceof ArrowType.Struct) {
      checkPackable(field);
      return new Physical(Kind.PACKED, 0);
    }
    if (field.getType() instanceof ArrowType.FixedSizeList) {
      // nested fixed-size lists over a fixed-width leaf are one value of their items' product
      long dim = 1;
      org.apache.arrow.vector.types.pojo.Field f = field;
      int depth = 0;
      while (f.getType() instanceof ArrowType.FixedSizeList l) {
        if (l.getListSize() <= 0 || ++depth > FslShape.MAX_LEVELS) {
          throw LanceCodecException.unsupported("field '" + field.getName() + "': fixed_size_list of size "
              + l.getListSize() + " at depth " + depth + " is not supported");
        }
        dim *= l.getListSize();
        f = f.getChildren().get(0);
      }
      Physical p = f.getChildren().isEmpty() ? of(f.getType()) : null;
      if (p == null || p.kind() == Kind.VARIABLE || dim * p.bits() > FslShape.MAX_ROW_BITS) {
        throw LanceCodecException.unsupported("field '" + field.getName() + "': fixed_size_list of " + f.getType()
            + " is not supported yet (only of fixed-width types, at most " + FslShape.MAX_ROW_BITS + " bits per row)");
      }
      return new Physical(p.kind(), p.bits(), (int) dim);
    }
    return of(field.getType());
  }

  public enum Kind {
    BOOL,
    FIXED,
    VARIABLE,
    /** A packed struct: its children stored row by row as one value (see {@link PackedStruct}). */
    PACKED
  }

  /** True when the field asks for packed struct encoding, as the reference reads the metadata. */
  static boolean isPacked(org.apache.arrow.vector.types.pojo.Field f) {
    if (!(f.getType() instanceof ArrowType.Struct) || f.getMetadata() == null) {
      return false;
    }
    for (String key : new String[] {"lance-encoding:packed", "packed"}) {
      String v = f.getMetadata().get(key);
      if (v != null && v.equalsIgnoreCase("true")) {
        return true;
      }
    }
    return false;
  }

  /** Packed children must be byte-aligned fixed-width or variable-width values, not nested. */
  private static void checkPackable(org.apache.arrow.vector.types.pojo.Field f) {
    if (f.getChildren().isEmpty()) {
      throw LanceCodecException.unsupported("packed struct '" + f.getName() + "' has no children");
    }
    for (org.apache.arrow.vector.types.pojo.Field c : f.getChildren()) {
      Physical p = c.getChildren().isEmpty() ? of(c.getType()) : null;
      if (p == null || p.kind() == Kind.BOOL) {
        throw LanceCodecException.unsupported("packed struct '" + f.getName() + "': child '" + c.getName() + "' of type "
            + c.getType() + " cannot be packed (only byte-aligned fixed-width and variable-width children)");
      }
    }
  }

  /** The physical layouts of a packed struct's children. */
  static Physical[] children(org.apache.arrow.vector.types.pojo.Field f) {
    Physical[] out = new Physical[f.getChildren().size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = of(f.getChildren().get(i).getType());
    }
    return out;
  }

  public static Physical of(ArrowType t) {
    if (t instanceof ArrowType.Bool) {
      return new Physical(Kind.BOOL, 1);
    }
    if (t instanceof ArrowType.Int i) {
      return new Physical(Kind.FIXED, i.getBitWidth());
    }
    if (t instanceof ArrowType.FloatingPoint fp) {
      switch (fp.getPrecision()) {
        case HALF:
          return new Physical(Kind.FIXED, 16);
        case SINGLE:
          return new Physical(Kind.FIXED, 32);
        default:
          return new Physical(Kind.FIXED, 64);
      }
    }
    if (t instanceof ArrowType.Utf8 || t instanceof ArrowType.Binary) {
      return new Physical(Kind.VARIABLE, 32);
    }
    if (t instanceof ArrowType.LargeUtf8 || t instanceof ArrowType.LargeBinary) {
      return new Physical(Kind.VARIABLE, 64);
    }
    if (t instanceof ArrowType.FixedSizeBinary f) {
      return new Physical(Kind.FIXED, f.getByteWidth() * 8);
    }
    if (t instanceof ArrowType.Decimal d) {
      return new Physical(Kind.FIXED, d.getBitWidth());
    }
    if (t instanceof ArrowType.Date d) {
      return new Physical(Kind.FIXED, d.getUnit() == org.apache.arrow.vector.types.DateUnit.DAY ? 32 : 64);
    }
    if (t instanceof ArrowType.Time tm) {
      return new Physical(Kind.FIXED, tm.getBitWidth());
    }
    if (t instanceof ArrowType.Timestamp || t instanceof ArrowType.Duration) {
      return new Physical(Kind.FIXED, 64);
    }
    throw LanceCodecException.unsupported("type " + t + " is not supported");
  }
}
