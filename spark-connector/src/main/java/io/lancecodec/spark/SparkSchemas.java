package io.lancecodec.spark;

import io.lancecodec.spi.LanceCodecException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * Arrow schemas of Lance files to Spark types and back. Reading maps only what Spark's column
 * vectors can hand over without a copy (plus fixed-size and large lists, which {@link
 * ColumnVectors} serves itself); other types fail naming the column rather than converting
 * value by value.
 */
final class SparkSchemas {
  /** Spark field metadata of a column read from (and to be written as) an Arrow fixed-size list. */
  static final String FIXED_SIZE_LIST_KEY = "lance-codec:fixed-size-list";

  private SparkSchemas() {}

  /**
   * Every field nullable, as Spark's own file sources read: files of one directory written by
   * different jobs may differ in nullability, and the schema comes from one of them.
   */
  static StructType toSpark(Schema schema) {
    List<StructField> fields = new ArrayList<>();
    for (Field f : schema.getFields()) {
      Metadata md = Metadata.empty();
      if (f.getType() instanceof ArrowType.FixedSizeList fsl) {
        md = new MetadataBuilder().putLong(FIXED_SIZE_LIST_KEY, fsl.getListSize()).build();
      }
      fields.add(new StructField(f.getName(), toSpark(f, f.getName()), true, md));
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  /** Whether two files' fields agree in names and types (nullability aside). */
  static boolean sameShape(List<Field> a, List<Field> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Field x = a.get(i);
      Field y = b.get(i);
      if (!x.getName().equals(y.getName()) || !x.getType().equals(y.getType()) || !sameShape(x.getChildren(), y.getChildren())) {
        return false;
      }
    }
    return true;
  }

  static DataType toSpark(Field f, String where) {
    ArrowType t = f.getType();
    if (t instanceof ArrowType.Struct) {
      List<StructField> children = new ArrayList<>();
      for (Field c : f.getChildren()) {
        children.add(new StructField(c.getName(), toSpark(c, where + "." + c.getName()), true, Metadata.empty()));
      }
      return new StructType(children.toArray(new StructField[0]));
    }
    if (t instanceof ArrowType.List || t instanceof ArrowType.LargeList || t instanceof ArrowType.FixedSizeList) {
      Field item = f.getChildren().get(0);
      return new ArrayType(toSpark(item, where + "." + item.getName()), true);
    }
    if (t instanceof ArrowType.Map) {
      Field entries = f.getChildren().get(0);
      Field key = entries.getChildren().get(0);
      Field value = entries.getChildren().get(1);
      return DataTypes.createMapType(toSpark(key, where + ".key"), toSpark(value, where + ".value"), true);
    }
    if (t instanceof ArrowType.Int i && !i.getIsSigned()
        || t instanceof ArrowType.FloatingPoint fp && fp.getPrecision() == FloatingPointPrecision.HALF
        || t instanceof ArrowType.FixedSizeBinary
        || t instanceof ArrowType.Date d && d.getUnit() != DateUnit.DAY
        || t instanceof ArrowType.Timestamp ts && ts.getUnit() != TimeUnit.MICROSECOND
        || t instanceof ArrowType.Time tm && tm.getUnit() != TimeUnit.NANOSECOND
        || t instanceof ArrowType.Duration du && du.getUnit() != TimeUnit.MICROSECOND) {
      throw unsupported(where, t);
    }
    try {
      return ArrowUtils.fromArrowType(t);
    } catch (RuntimeException e) {
      throw unsupported(where, t);
    }
  }

  private static LanceCodecException unsupported(String where, ArrowType t) {
    return LanceCodecException.unsupported("column '" + where + "': Arrow type " + t
        + " has no Spark column vector (Spark reads signed integers, float/double, utf8/binary, decimal128, date32,"
        + " microsecond timestamps and durations, structs, lists and maps)");
  }

  /**
   * The Arrow schema a Spark schema is written as: Spark's own mapping (UTC timestamps), with the
   * columns asked for as fixed-size lists turned into them, and per-column {@code lance-encoding:*}
   * keys put on their fields.
   */
  static Schema toArrow(StructType schema, LanceOptions options) {
    Schema spark = ArrowUtils.toArrowSchema(schema, "UTC", true, false);
    Map<String, Integer> fsl = fixedSizeLists(schema, options);
    for (String c : options.columnOptions.keySet()) {
      if (find(spark.getFields(), c) == null) {
        throw LanceCodecException.invalidArgument("option " + c + "." + options.columnOptions.get(c).keySet().iterator().next()
            + ": no column '" + c + "' in the data written");
      }
    }
    List<Field> out = new ArrayList<>();
    for (Field f : spark.getFields()) {
      Field g = withOptions(f, f.getName(), options.columnOptions);
      Integer dim = fsl.get(f.getName());
      if (dim != null) {
        Field item = g.getChildren().get(0);
        g = new Field(g.getName(), new FieldType(g.isNullable(), new ArrowType.FixedSizeList(dim), null, g.getMetadata()), List.of(item));
      }
      out.add(g);
    }
    return new Schema(out);
  }

  /** Top-level columns to write as fixed-size lists, from the option and from metadata of a column read as one. */
  static Map<String, Integer> fixedSizeLists(StructType schema, LanceOptions options) {
    Map<String, Integer> out = new HashMap<>();
    for (StructField f : schema.fields()) {
      if (f.metadata().contains(FIXED_SIZE_LIST_KEY) && f.dataType() instanceof ArrayType) {
        out.put(f.name(), (int) f.metadata().getLong(FIXED_SIZE_LIST_KEY));
      }
    }
    for (Map.Entry<String, Integer> e : options.fixedSizeLists.entrySet()) {
      StructField f = java.util.Arrays.stream(schema.fields()).filter(x -> x.name().equals(e.getKey())).findFirst().orElse(null);
      if (f == null || !(f.dataType() instanceof ArrayType)) {
        throw LanceCodecException.invalidArgument("option " + LanceOptions.FIXED_SIZE_LIST + ": '" + e.getKey() + "' is not an array column");
      }
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }

  private static Field withOptions(Field f, String path, Map<String, Map<String, String>> options) {
    List<Field> children = new ArrayList<>();
    for (Field c : f.getChildren()) {
      children.add(withOptions(c, path + "." + c.getName(), options));
    }
    Map<String, String> md = options.get(path);
    Map<String, String> metadata = f.getMetadata();
    if (md != null) {
      metadata = new HashMap<>(metadata == null ? Map.of() : metadata);
      metadata.putAll(md);
    }
    return new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), f.getDictionary(), metadata), children);
  }

  private static Field find(List<Field> fields, String path) {
    for (Field f : fields) {
      if (path.equals(f.getName())) {
        return f;
      }
      if (path.startsWith(f.getName() + ".")) {
        Field inner = find(f.getChildren(), path.substring(f.getName().length() + 1));
        if (inner != null) {
          return inner;
        }
      }
    }
    return null;
  }
}
