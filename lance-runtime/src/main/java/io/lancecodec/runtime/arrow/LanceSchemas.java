package io.lancecodec.runtime.arrow;

import com.google.protobuf.ByteString;
import io.lancecodec.format.pb.file.Field;
import io.lancecodec.format.pb.file.Schema;
import io.lancecodec.runtime.plugin.FslShape;
import io.lancecodec.spi.LanceCodecException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Converts between Arrow schemas and the flattened {@code lance.file.Field} list stored in a
 * file, including the logical-type strings ({@code "int32"}, {@code "timestamp:us:UTC"}, ...).
 * Only flat types are accepted for now; nested types fail with UNSUPPORTED naming the field.
 */
public final class LanceSchemas {
  private LanceSchemas() {}

  public static Schema toLance(org.apache.arrow.vector.types.pojo.Schema arrow) {
    Schema.Builder schema = Schema.newBuilder();
    int[] id = {0};
    for (org.apache.arrow.vector.types.pojo.Field f : arrow.getFields()) {
      addField(schema, f, -1, id);
    }
    if (arrow.getCustomMetadata() != null) {
      new TreeMap<>(arrow.getCustomMetadata())
          .forEach((k, v) -> schema.putMetadata(k, ByteString.copyFromUtf8(v)));
    }
    return schema.build();
  }

  /** Struct and list fields are parents of their children; ids are assigned in pre-order. */
  private static void addField(Schema.Builder schema, org.apache.arrow.vector.types.pojo.Field f, int parent, int[] id) {
    if (f.getName().contains(".")) {
      throw LanceCodecException.invalidArgument(
          "field name '" + f.getName() + "' contains '.', which Lance does not allow");
    }
    ArrowType t = f.getType();
    boolean struct = t instanceof ArrowType.Struct;
    boolean list = t instanceof ArrowType.List || t instanceof ArrowType.LargeList || t instanceof ArrowType.Map;
    if (t instanceof ArrowType.Map m && m.getKeysSorted()) {
      // the reference refuses these too ("Unsupported map field with keys_sorted=true")
      throw LanceCodecException.unsupported("field '" + f.getName() + "': maps with sorted keys are not supported");
    }
    if (!struct && !list && !(t instanceof ArrowType.FixedSizeList) && !f.getChildren().isEmpty()) {
      throw LanceCodecException.unsupported("field '" + f.getName() + "': nested type " + t + " is not supported");
    }
    if (struct && f.getChildren().isEmpty()) {
      throw LanceCodecException.unsupported("field '" + f.getName() + "': empty structs are not supported");
    }
    int self = id[0]++;
    Field.Builder b =
        Field.newBuilder()
            .setName(f.getName())
            .setId(self)
            .setParentId(parent)
            .setLogicalType(logicalType(f, f.getName()))
            .setNullable(f.isNullable());
    boolean variable =
        t instanceof ArrowType.Utf8
            || t instanceof ArrowType.LargeUtf8
            || t instanceof ArrowType.Binary
            || t instanceof ArrowType.LargeBinary;
    if (!struct) {
      b.setEncoding(
          variable
              ? io.lancecodec.format.pb.file.Encoding.VAR_BINARY
              : io.lancecodec.format.pb.file.Encoding.PLAIN);
    }
    if (f.getMetadata() != null) {
      new TreeMap<>(f.getMetadata())
          .forEach((k, v) -> b.putMetadata(k, ByteString.copyFromUtf8(v)));
    }
    schema.addFields(b);
    if (struct || list) {
      for (org.apache.arrow.vector.types.pojo.Field c : f.getChildren()) {
        addField(schema, c, self, id);
      }
    }
  }

  /**
   * What a column's leaf values are as numbers: the innermost primitive under fixed-size lists,
   * integers and floats of 8 to 64 bits; dates, times, timestamps and durations count as the
   * signed integers they are stored as. Everything else is OTHER.
   */
  public static io.lancecodec.spi.FieldOptions.NumberKind numberKind(org.apache.arrow.vector.types.pojo.Field f) {
    while (f.getType() instanceof ArrowType.FixedSizeList && f.getChildren().size() == 1) {
      f = f.getChildren().get(0);
    }
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Int i) {
      return i.getIsSigned() ? io.lancecodec.spi.FieldOptions.NumberKind.SIGNED_INTEGER
          : io.lancecodec.spi.FieldOptions.NumberKind.UNSIGNED_INTEGER;
    }
    if (t instanceof ArrowType.FloatingPoint) {
      return io.lancecodec.spi.FieldOptions.NumberKind.FLOAT;
    }
    if (t instanceof ArrowType.Date || t instanceof ArrowType.Time || t instanceof ArrowType.Timestamp
        || t instanceof ArrowType.Duration) {
      return io.lancecodec.spi.FieldOptions.NumberKind.SIGNED_INTEGER;
    }
    return io.lancecodec.spi.FieldOptions.NumberKind.OTHER;
  }

  /** The logical type of a field, nested ones included ("list.struct", "fixed_size_list:float:8"). */
  static String logicalType(org.apache.arrow.vector.types.pojo.Field f, String name) {
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Struct) {
      return "struct";
    }
    if (t instanceof ArrowType.Map) {
      return "map";
    }
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList) {
      String base = t instanceof ArrowType.List ? "list" : "large_list";
      return f.getChildren().get(0).getType() instanceof ArrowType.Struct ? base + ".struct" : base;
    }
    if (t instanceof ArrowType.FixedSizeList l) {
      return "fixed_size_list:" + logicalType(f.getChildren().get(0), name) + ":" + l.getListSize();
    }
    return logicalType(t, name);
  }

  public static org.apache.arrow.vector.types.pojo.Schema toArrow(Schema lance) {
    List<Field> all = lance.getFieldsList();
    if (all.size() > 100_000) {
      throw LanceCodecException.corrupt("schema has " + all.size() + " fields");
    }
    Map<Integer, List<Field>> children = new LinkedHashMap<>();
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (Field f : all) {
      if (f.getParentId() != -1 && !seen.contains(f.getParentId())) {
        throw LanceCodecException.corrupt("field '" + f.getName() + "' has parent " + f.getParentId() + ", which does not precede it");
      }
      if (!seen.add(f.getId())) {
        throw LanceCodecException.corrupt("field id " + f.getId() + " appears twice");
      }
      children.computeIfAbsent(f.getParentId(), k -> new ArrayList<>()).add(f);
    }
    List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>();
    for (Field f : children.getOrDefault(-1, List.of())) {
      fields.add(toArrowField(f, children, 0));
    }
    Map<String, String> meta = new LinkedHashMap<>();
    new TreeMap<>(lance.getMetadataMap())
        .forEach((k, v) -> meta.put(k, v.toString(StandardCharsets.UTF_8)));
    return new org.apache.arrow.vector.types.pojo.Schema(fields, meta.isEmpty() ? null : meta);
  }

  private static org.apache.arrow.vector.types.pojo.Field toArrowField(Field f, Map<Integer, List<Field>> children, int depth) {
    if (depth > 100) {
      throw LanceCodecException.corrupt("schema nests deeper than 100 levels");
    }
    Map<String, String> meta = new LinkedHashMap<>();
    new TreeMap<>(f.getMetadataMap())
        .forEach((k, v) -> meta.put(k, v.toString(StandardCharsets.UTF_8)));
    FieldType ft;
    List<org.apache.arrow.vector.types.pojo.Field> kids = new ArrayList<>();
    String lt = f.getLogicalType();
    List<Field> mine = children.getOrDefault(f.getId(), List.of());
    if (lt.equals("struct") || lt.equals("list") || lt.equals("list.struct") || lt.equals("large_list") || lt.equals("large_list.struct")
        || lt.equals("map")) {
      boolean struct = lt.equals("struct");
      if (struct ? mine.isEmpty() : mine.size() != 1) {
        throw LanceCodecException.corrupt("field '" + f.getName() + "' (" + lt + ") has " + mine.size() + " children");
      }
      if (lt.equals("map") && !(mine.get(0).getLogicalType().equals("struct") && !mine.get(0).getNullable()
          && children.getOrDefault(mine.get(0).getId(), List.of()).size() == 2)) {
        throw LanceCodecException.corrupt("map field '" + f.getName() + "' does not hold non-null key/value structs");
      }
      for (Field c : mine) {
        kids.add(toArrowField(c, children, depth + 1));
      }
      ArrowType t = struct ? ArrowType.Struct.INSTANCE
          : lt.equals("map") ? new ArrowType.Map(false)
          : lt.startsWith("large") ? ArrowType.LargeList.INSTANCE : ArrowType.List.INSTANCE;
      ft = new FieldType(f.getNullable(), t, null, meta.isEmpty() ? null : meta);
    } else {
      if (!mine.isEmpty()) {
        throw LanceCodecException.corrupt("field '" + f.getName() + "' (" + lt + ") has children");
      }
      if (lt.startsWith("fixed_size_list:")) {
        org.apache.arrow.vector.types.pojo.Field item = fixedSizeListItem(lt, f.getName(), 0);
        kids.add(item.getChildren().get(0));
        ft = new FieldType(f.getNullable(), item.getType(), null, meta.isEmpty() ? null : meta);
      } else {
        ft = new FieldType(f.getNullable(), arrowType(lt, f.getName()), null, meta.isEmpty() ? null : meta);
      }
    }
    return new org.apache.arrow.vector.types.pojo.Field(f.getName(), ft, kids.isEmpty() ? null : kids);
  }

  /**
   * A nullable "item" field of the fixed-size list {@code lt} ("fixed_size_list:ELEM:N", ELEM
   * itself possibly a fixed-size list: "fixed_size_list:fixed_size_list:int32:2:3").
   */
  private static org.apache.arrow.vector.types.pojo.Field fixedSizeListItem(String lt, String field, int depth) {
    int colon = lt.lastIndexOf(':');
    int n;
    try {
      n = Integer.parseInt(lt.substring(colon + 1));
    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
      n = -1;
    }
    if (n <= 0 || colon <= "fixed_size_list:".length() || depth >= FslShape.MAX_LEVELS) {
      throw LanceCodecException.corrupt("field '" + field + "': malformed logical type '" + lt + "'");
    }
    String elem = lt.substring("fixed_size_list:".length(), colon);
    org.apache.arrow.vector.types.pojo.Field child = elem.startsWith("fixed_size_list:")
        ? fixedSizeListItem(elem, field, depth + 1)
        : new org.apache.arrow.vector.types.pojo.Field("item", FieldType.nullable(arrowType(elem, field)), null);
    return new org.apache.arrow.vector.types.pojo.Field("item", FieldType.nullable(new ArrowType.FixedSizeList(n)), List.of(child));
  }

  static String logicalType(ArrowType t, String field) {
    if (t instanceof ArrowType.Bool) {
      return "bool";
    }
    if (t instanceof ArrowType.Int i) {
      return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
    }
    if (t instanceof ArrowType.FloatingPoint fp) {
      switch (fp.getPrecision()) {
        case HALF:
          return "halffloat";
        case SINGLE:
          return "float";
        default:
          return "double";
      }
    }
    if (t instanceof ArrowType.Utf8) {
      return "string";
    }
    if (t instanceof ArrowType.LargeUtf8) {
      return "large_string";
    }
    if (t instanceof ArrowType.Binary) {
      return "binary";
    }
    if (t instanceof ArrowType.LargeBinary) {
      return "large_binary";
    }
    if (t instanceof ArrowType.FixedSizeBinary fsb) {
      return "fixed_size_binary:" + fsb.getByteWidth();
    }
    if (t instanceof ArrowType.Decimal d) {
      return "decimal:" + d.getBitWidth() + ":" + d.getPrecision() + ":" + d.getScale();
    }
    if (t instanceof ArrowType.Date d) {
      return d.getUnit() == DateUnit.DAY ? "date32:day" : "date64:ms";
    }
    if (t instanceof ArrowType.Time tm) {
      return (tm.getBitWidth() == 32 ? "time32:" : "time64:") + unit(tm.getUnit());
    }
    if (t instanceof ArrowType.Timestamp ts) {
      String tz = ts.getTimezone();
      return "timestamp:" + unit(ts.getUnit()) + ":" + (tz == null ? "-" : tz);
    }
    if (t instanceof ArrowType.Duration du) {
      return "duration:" + unit(du.getUnit());
    }
    throw LanceCodecException.unsupported("field '" + field + "': type " + t + " is not supported");
  }

  private static String unit(TimeUnit u) {
    switch (u) {
      case SECOND:
        return "s";
      case MILLISECOND:
        return "ms";
      case MICROSECOND:
        return "us";
      default:
        return "ns";
    }
  }

  private static TimeUnit unit(String s, String lt) {
    switch (s) {
      case "s":
        return TimeUnit.SECOND;
      case "ms":
        return TimeUnit.MILLISECOND;
      case "us":
        return TimeUnit.MICROSECOND;
      case "ns":
        return TimeUnit.NANOSECOND;
      default:
        throw LanceCodecException.corrupt("logical type '" + lt + "' has an unknown time unit");
    }
  }

  static ArrowType arrowType(String lt, String field) {
    switch (lt) {
      case "bool":
        return ArrowType.Bool.INSTANCE;
      case "int8":
        return new ArrowType.Int(8, true);
      case "int16":
        return new ArrowType.Int(16, true);
      case "int32":
        return new ArrowType.Int(32, true);
      case "int64":
        return new ArrowType.Int(64, true);
      case "uint8":
        return new ArrowType.Int(8, false);
      case "uint16":
        return new ArrowType.Int(16, false);
      case "uint32":
        return new ArrowType.Int(32, false);
      case "uint64":
        return new ArrowType.Int(64, false);
      case "halffloat":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
      case "float":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case "double":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case "string":
        return ArrowType.Utf8.INSTANCE;
      case "large_string":
        return ArrowType.LargeUtf8.INSTANCE;
      case "binary":
        return ArrowType.Binary.INSTANCE;
      case "large_binary":
        return ArrowType.LargeBinary.INSTANCE;
      case "date32:day":
        return new ArrowType.Date(DateUnit.DAY);
      case "date64:ms":
        return new ArrowType.Date(DateUnit.MILLISECOND);
      default:
        break;
    }
    String[] p = lt.split(":", -1);
    try {
      switch (p[0]) {
        case "fixed_size_binary":
          if (p.length == 2) {
            int w = Integer.parseInt(p[1]);
            if (w > 0) {
              return new ArrowType.FixedSizeBinary(w);
            }
          }
          break;
        case "decimal":
          if (p.length == 4 && (p[1].equals("128") || p[1].equals("256"))) {
            return new ArrowType.Decimal(
                Integer.parseInt(p[2]), Integer.parseInt(p[3]), Integer.parseInt(p[1]));
          }
          break;
        case "time32":
        case "time64":
          if (p.length == 2) {
            return new ArrowType.Time(unit(p[1], lt), p[0].equals("time32") ? 32 : 64);
          }
          break;
        case "timestamp":
          if (p.length >= 3) {
            String tz = lt.substring(p[0].length() + p[1].length() + 2);
            return new ArrowType.Timestamp(unit(p[1], lt), tz.equals("-") ? null : tz);
          }
          break;
        case "duration":
          if (p.length == 2) {
            return new ArrowType.Duration(unit(p[1], lt));
          }
          break;
        default:
          throw LanceCodecException.unsupported(
              "field '" + field + "': logical type '" + lt + "' is not supported yet");
      }
    } catch (NumberFormatException e) {
      // fall through to the CORRUPT below
    }
    throw LanceCodecException.corrupt("field '" + field + "': malformed logical type '" + lt + "'");
  }
}
