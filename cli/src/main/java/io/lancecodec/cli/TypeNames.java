package io.lancecodec.cli;

import java.util.stream.Collectors;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** Short Arrow type names (the names of the contract's table) for inspect and the demo. */
final class TypeNames {
  private TypeNames() {}

  static String of(Field f) {
    ArrowType t = f.getType();
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList || t instanceof ArrowType.FixedSizeList
        || t instanceof ArrowType.Map) {
      String child = f.getChildren().isEmpty() ? "?" : of(f.getChildren().get(0));
      if (t instanceof ArrowType.FixedSizeList l) {
        return "fixed_size_list<" + child + ">[" + l.getListSize() + "]";
      }
      if (t instanceof ArrowType.Map) {
        Field entries = f.getChildren().isEmpty() ? null : f.getChildren().get(0);
        if (entries != null && entries.getChildren().size() == 2) {
          return "map<" + of(entries.getChildren().get(0)) + ", " + of(entries.getChildren().get(1)) + ">";
        }
        return "map";
      }
      return (t instanceof ArrowType.LargeList ? "large_list<" : "list<") + child + ">";
    }
    if (t instanceof ArrowType.Struct) {
      return "struct<" + f.getChildren().stream().map(c -> c.getName() + ": " + of(c)).collect(Collectors.joining(", ")) + ">";
    }
    return of(t);
  }

  static String of(ArrowType t) {
    if (t instanceof ArrowType.Int i) {
      return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
    }
    if (t instanceof ArrowType.FloatingPoint fp) {
      return fp.getPrecision() == FloatingPointPrecision.HALF ? "float16"
          : fp.getPrecision() == FloatingPointPrecision.SINGLE ? "float32" : "float64";
    }
    if (t instanceof ArrowType.Bool) {
      return "bool";
    }
    if (t instanceof ArrowType.Utf8) {
      return "utf8";
    }
    if (t instanceof ArrowType.LargeUtf8) {
      return "large_utf8";
    }
    if (t instanceof ArrowType.Binary) {
      return "binary";
    }
    if (t instanceof ArrowType.LargeBinary) {
      return "large_binary";
    }
    if (t instanceof ArrowType.FixedSizeBinary b) {
      return "fixed_size_binary[" + b.getByteWidth() + "]";
    }
    if (t instanceof ArrowType.Date d) {
      return d.getUnit() == DateUnit.DAY ? "date32" : "date64";
    }
    if (t instanceof ArrowType.Time tm) {
      return "time" + tm.getBitWidth() + "[" + unit(tm.getUnit()) + "]";
    }
    if (t instanceof ArrowType.Timestamp ts) {
      return "timestamp[" + unit(ts.getUnit()) + (ts.getTimezone() == null ? "" : ", " + ts.getTimezone()) + "]";
    }
    if (t instanceof ArrowType.Duration d) {
      return "duration[" + unit(d.getUnit()) + "]";
    }
    if (t instanceof ArrowType.Decimal d) {
      return "decimal" + d.getBitWidth() + "(" + d.getPrecision() + ", " + d.getScale() + ")";
    }
    if (t instanceof ArrowType.Null) {
      return "null";
    }
    return t.toString();
  }

  private static String unit(TimeUnit u) {
    return switch (u) {
      case SECOND -> "s";
      case MILLISECOND -> "ms";
      case MICROSECOND -> "us";
      case NANOSECOND -> "ns";
    };
  }
}
