package io.lancecodec.spark;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A scan of the files under the path: the columns Spark asks for (whole top-level fields, in the
 * files' order), split into input partitions of whole files, or of row ranges cut at page
 * boundaries of the file's biggest column read when the file's bytes of those columns exceed
 * {@code split-bytes}, so one big file is read by many tasks.
 */
final class LanceScan implements ScanBuilder, SupportsPushDownRequiredColumns, Scan, Batch {
  private final StructType fullSchema;
  private final LanceOptions options;
  private StructType readSchema;

  LanceScan(StructType fullSchema, LanceOptions options) {
    this.fullSchema = fullSchema;
    this.options = options;
    this.readSchema = fullSchema;
  }

  @Override
  public void pruneColumns(StructType required) {
    Set<String> names = new HashSet<>(List.of(required.fieldNames()));
    List<StructField> kept = new ArrayList<>();
    for (StructField f : fullSchema.fields()) {
      if (names.contains(f.name())) {
        kept.add(f);
      }
    }
    readSchema = new StructType(kept.toArray(new StructField[0]));
  }

  @Override
  public Scan build() {
    return this;
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  @Override
  public String description() {
    return "lance-codec " + options.path + " columns " + List.of(readSchema.fieldNames());
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  /** The option, else Spark's own split size for file sources (spark.sql.files.maxPartitionBytes). */
  long splitBytes() {
    if (options.splitBytes > 0) {
      return options.splitBytes;
    }
    return org.apache.spark.sql.internal.SQLConf.get().filesMaxPartitionBytes();
  }

  @Override
  public InputPartition[] planInputPartitions() {
    List<String> columns = List.of(readSchema.fieldNames());
    long split = splitBytes();
    List<InputPartition> out = new ArrayList<>();
    Schema first = null;
    for (Path file : LanceFiles.list(options.requirePath())) {
      try (LanceFileReader reader = LanceFileReader.open(file, options.registry())) {
        if (first == null) {
          first = reader.schema();
        } else if (!sameFields(first, reader.schema())) {
          throw LanceCodecException.invalidArgument("file " + file + " has schema " + reader.schema()
              + ", unlike the directory's first file (" + first + ")");
        }
        plan(file, reader, columns, split, out);
      }
    }
    return out.toArray(new InputPartition[0]);
  }

  private static boolean sameFields(Schema a, Schema b) {
    return SparkSchemas.sameShape(a.getFields(), b.getFields());
  }

  /** Appends the file's partitions: whole, or cut at page boundaries of its biggest column read. */
  static void plan(Path file, LanceFileReader reader, List<String> columns, long split, List<InputPartition> out) {
    long rows = reader.numRows();
    if (rows == 0) {
      return;
    }
    List<Field> fields = reader.schema().getFields();
    Set<Integer> selected = new HashSet<>();
    for (int i = 0; i < fields.size(); i++) {
      if (columns.contains(fields.get(i).getName())) {
        selected.add(i);
      }
    }
    long total = 0;
    LanceFileReader.ColumnSummary biggest = null;
    for (LanceFileReader.ColumnSummary c : reader.columnSummaries()) {
      if (selected.contains(c.field())) {
        total += c.bytes();
        if (biggest == null || c.bytes() > biggest.bytes()) {
          biggest = c;
        }
      }
    }
    String name = file.toString();
    if (biggest == null || total <= split) {
      out.add(new LanceInputPartition(name, 0, rows));
      return;
    }
    long targetRows = Math.max(1, (long) (rows * ((double) split / total)));
    long start = 0;
    long boundary = 0;
    for (LanceFileReader.PageSummary page : biggest.pages()) {
      boundary += page.rows();
      if (boundary - start >= targetRows && boundary < rows) {
        out.add(new LanceInputPartition(name, start, boundary));
        start = boundary;
      }
    }
    out.add(new LanceInputPartition(name, start, rows));
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new LanceReaderFactory(readSchema, options);
  }
}
