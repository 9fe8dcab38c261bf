package io.lancecodec.cli;

import io.lancecodec.spi.LanceCodecException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Parquet schema to Arrow schema. Every Parquet shape maps to one Arrow field, and
 * {@link ParquetAppenders} walks both trees the same way, so the rules for lists and maps live
 * here only ({@link #listElement}, {@link #isMap}).
 */
final class ParquetTypes {
  private ParquetTypes() {}

  static Schema schema(MessageType message, String file) {
    List<Field> fields = new ArrayList<>();
    for (Type t : message.getFields()) {
      fields.add(field(t, t.getName(), file));
    }
    return new Schema(fields);
  }

  /**
   * A repeated field outside a LIST group (the oldest nesting form) is a list of non-null
   * elements that is never null itself: an absent repeated field reads as an empty list.
   */
  static Field field(Type t, String path, String file) {
    if (t.isRepetition(Type.Repetition.REPEATED)) {
      Field element = single(t, t.getName(), false, path, file);
      return new Field(t.getName(), FieldType.notNullable(ArrowType.List.INSTANCE), List.of(element));
    }
    return single(t, t.getName(), t.isRepetition(Type.Repetition.OPTIONAL), path, file);
  }

  private static Field single(Type t, String name, boolean nullable, String path, String file) {
    if (t.isPrimitive()) {
      return new Field(name, new FieldType(nullable, arrowType(t.asPrimitiveType(), path, file), null), null);
    }
    GroupType g = t.asGroupType();
    if (g.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      Element e = listElement(g, path, file);
      Field element = e.isRepeatedField()
          ? single(e.type(), e.type().getName(), false, path + ".element", file)
          : field(e.type(), path + ".element", file);
      return new Field(name, new FieldType(nullable, ArrowType.List.INSTANCE, null), List.of(element));
    }
    if (isMap(g)) {
      GroupType kv = mapEntries(g, path, file);
      Type key = kv.getType(0);
      Type value = kv.getType(1);
      List<Field> kids = List.of(
          single(key, "key", false, path + ".key", file),
          renamed(field(value, path + ".value", file), "value"));
      Field entries = new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), kids);
      return new Field(name, new FieldType(nullable, new ArrowType.Map(false), null), List.of(entries));
    }
    if (g.getFieldCount() == 0) {
      throw LanceCodecException.unsupported(file + ": column '" + path + "' is an empty group, which Lance cannot store");
    }
    List<Field> kids = new ArrayList<>();
    for (Type c : g.getFields()) {
      kids.add(field(c, path + "." + c.getName(), file));
    }
    return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), kids);
  }

  private static Field renamed(Field f, String name) {
    return new Field(name, f.getFieldType(), f.getChildren());
  }

  /**
   * The element of a LIST group, by the Parquet spec's backward-compatibility rules: the
   * repeated field is itself the element when it is a primitive, a group of several fields, or
   * a one-field group named {@code array} or {@code <list>_tuple}; otherwise (the standard
   * three-level form) the element is the repeated group's only field.
   */
  record Element(Type type, boolean isRepeatedField) {}

  static Element listElement(GroupType list, String path, String file) {
    if (list.getFieldCount() != 1 || !list.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      throw LanceCodecException.unsupported(file + ": column '" + path
          + "' is a LIST group without exactly one repeated field: " + oneLine(list));
    }
    Type repeated = list.getType(0);
    if (repeated.isPrimitive()) {
      return new Element(repeated, true);
    }
    GroupType g = repeated.asGroupType();
    if (g.getFieldCount() != 1 || g.getName().equals("array") || g.getName().equals(list.getName() + "_tuple")) {
      return new Element(repeated, true);
    }
    return new Element(g.getType(0), false);
  }

  static boolean isMap(GroupType g) {
    LogicalTypeAnnotation a = g.getLogicalTypeAnnotation();
    return a instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
        || a instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation;
  }

  /** The repeated key/value group of a MAP: a required key and a value. */
  static GroupType mapEntries(GroupType map, String path, String file) {
    if (map.getFieldCount() == 1 && !map.getType(0).isPrimitive() && map.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      GroupType kv = map.getType(0).asGroupType();
      if (kv.getFieldCount() == 2 && kv.getType(0).isRepetition(Type.Repetition.REQUIRED)
          && !kv.getType(1).isRepetition(Type.Repetition.REPEATED)) {
        return kv;
      }
    }
    throw LanceCodecException.unsupported(file + ": column '" + path
        + "' is a MAP group not of the form repeated group {required key; value}: " + oneLine(map));
  }

  static ArrowType arrowType(PrimitiveType p, String path, String file) {
    LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
    ArrowType t = switch (p.getPrimitiveTypeName()) {
      case BOOLEAN -> a == null ? ArrowType.Bool.INSTANCE : null;
      case INT32 -> {
        if (a == null) {
          yield new ArrowType.Int(32, true);
        } else if (a instanceof IntLogicalTypeAnnotation i) {
          yield new ArrowType.Int(i.getBitWidth(), i.isSigned());
        } else if (a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          yield new ArrowType.Date(DateUnit.DAY);
        } else if (a instanceof TimeLogicalTypeAnnotation tm && tm.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS) {
          yield new ArrowType.Time(TimeUnit.MILLISECOND, 32);
        }
        yield decimal(a);
      }
      case INT64 -> {
        if (a == null) {
          yield new ArrowType.Int(64, true);
        } else if (a instanceof IntLogicalTypeAnnotation i && i.getBitWidth() == 64) {
          yield new ArrowType.Int(64, i.isSigned());
        } else if (a instanceof TimestampLogicalTypeAnnotation ts) {
          yield new ArrowType.Timestamp(unit(ts.getUnit()), ts.isAdjustedToUTC() ? "UTC" : null);
        } else if (a instanceof TimeLogicalTypeAnnotation tm && tm.getUnit() != LogicalTypeAnnotation.TimeUnit.MILLIS) {
          yield new ArrowType.Time(unit(tm.getUnit()), 64);
        }
        yield decimal(a);
      }
      // The legacy Impala/Hive timestamp: nanoseconds of the day and a Julian day, no zone.
      case INT96 -> a == null ? new ArrowType.Timestamp(TimeUnit.NANOSECOND, null) : null;
      case FLOAT -> a == null ? new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE) : null;
      case DOUBLE -> a == null ? new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE) : null;
      case BINARY -> {
        if (a == null || a instanceof LogicalTypeAnnotation.BsonLogicalTypeAnnotation) {
          yield ArrowType.Binary.INSTANCE;
        } else if (a instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || a instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || a instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
          yield ArrowType.Utf8.INSTANCE;
        }
        yield decimal(a);
      }
      case FIXED_LEN_BYTE_ARRAY -> {
        int len = p.getTypeLength();
        if (a == null || a instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
          yield new ArrowType.FixedSizeBinary(len);
        } else if (a instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation && len == 2) {
          yield new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
        }
        yield decimal(a);
      }
    };
    if (t == null) {
      throw LanceCodecException.unsupported(file + ": column '" + path + "' has Parquet type " + oneLine(p)
          + ", which write does not support");
    }
    return t;
  }

  /** Decimals up to 38 digits are decimal128, up to 76 decimal256; null when not a decimal. */
  private static ArrowType decimal(LogicalTypeAnnotation a) {
    if (a instanceof DecimalLogicalTypeAnnotation d && d.getPrecision() >= 1 && d.getPrecision() <= 76) {
      return new ArrowType.Decimal(d.getPrecision(), d.getScale(), d.getPrecision() <= 38 ? 128 : 256);
    }
    return null;
  }

  private static TimeUnit unit(LogicalTypeAnnotation.TimeUnit u) {
    return switch (u) {
      case MILLIS -> TimeUnit.MILLISECOND;
      case MICROS -> TimeUnit.MICROSECOND;
      case NANOS -> TimeUnit.NANOSECOND;
    };
  }

  private static String oneLine(Type t) {
    return t.toString().strip().replaceAll("\\s+", " ");
  }
}
