package io.lancecodec.spark;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

/**
 * A scan of the files under the path: the columns Spark asks for (whole top-level fields, in the
 * files' order), split into input partitions of whole files, or of row ranges cut at page
 * boundaries of the file's biggest column read when the file's bytes of those columns exceed
 * the split size, so one big file is read by many tasks.
 */
final class LanceScan implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsReportStatistics, Scan, Batch {
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
    files = null;
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

  /** What planning needs of one file, read from its metadata on the driver. */
  record FilePlan(Path file, long rows, long bytes, List<LanceFileReader.PageSummary> biggestPages) {}

  /**
   * The option, else what Spark's own file sources take: at most spark.sql.files.maxPartitionBytes,
   * and less for small inputs so that every core gets work (the bytes read over
   * spark.sql.files.minPartitionNum, default the default parallelism, but not below
   * spark.sql.files.openCostInBytes).
   */
  long splitBytes(long totalBytes) {
    if (options.splitBytes > 0) {
      return options.splitBytes;
    }
    SQLConf conf = SQLConf.get();
    long minPartitions = 1;
    if (conf.filesMinPartitionNum().isDefined()) {
      minPartitions = ((Number) conf.filesMinPartitionNum().get()).longValue();
    } else {
      SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
      if (session != null) {
        minPartitions = session.sparkContext().defaultParallelism();
      }
    }
    return Math.min(conf.filesMaxPartitionBytes(), Math.max(conf.filesOpenCostInBytes(), totalBytes / Math.max(1, minPartitions)));
  }

  private List<FilePlan> files;

  /** The files with their metadata, read once per scan (statistics and planning both need them). */
  private List<FilePlan> files() {
    if (files != null) {
      return files;
    }
    List<String> columns = List.of(readSchema.fieldNames());
    List<FilePlan> out = new ArrayList<>();
    Schema first = null;
    for (Path file : LanceFiles.list(options.requirePath())) {
      try (LanceFileReader reader = LanceFileReader.open(file, options.registry())) {
        if (first == null) {
          first = reader.schema();
        } else if (!sameFields(first, reader.schema())) {
          throw LanceCodecException.invalidArgument("file " + file + " has schema " + reader.schema()
              + ", unlike the directory's first file (" + first + ")");
        }
        out.add(describe(file, reader, columns));
      }
    }
    files = out;
    return out;
  }

  /** Rows and on-disk bytes of the columns read, for the optimizer (e.g. to broadcast a small side of a join). */
  @Override
  public Statistics estimateStatistics() {
    long rows = 0;
    long bytes = 0;
    for (FilePlan f : files()) {
      rows += f.rows();
      bytes += f.bytes();
    }
    long r = rows;
    long b = bytes;
    return new Statistics() {
      @Override
      public OptionalLong sizeInBytes() {
        return OptionalLong.of(b);
      }

      @Override
      public OptionalLong numRows() {
        return OptionalLong.of(r);
      }
    };
  }

  @Override
  public InputPartition[] planInputPartitions() {
    long total = 0;
    for (FilePlan f : files()) {
      total += f.bytes();
    }
    long split = splitBytes(total);
    List<InputPartition> out = new ArrayList<>();
    for (FilePlan f : files()) {
      plan(f, split, out);
    }
    return out.toArray(new InputPartition[0]);
  }

  private static boolean sameFields(Schema a, Schema b) {
    return SparkSchemas.sameShape(a.getFields(), b.getFields());
  }

  /** The file's rows, its bytes of the columns read, and the pages of the biggest of them. */
  static FilePlan describe(Path file, LanceFileReader reader, List<String> columns) {
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
    return new FilePlan(file, reader.numRows(), total, biggest == null ? List.of() : biggest.pages());
  }

  /** Rows a cut inside a page is rounded to: whole mini-block chunks of the common sizes. */
  static final long CUT_ROWS = 4096;

  /**
   * Appends the file's partitions: the whole file when its bytes read are within the split;
   * else ranges of about the split's share of rows, cut at page boundaries of its biggest column
   * read, and inside pages longer than that share at multiples of {@link #CUT_ROWS} (the reader
   * decodes only the chunks a range covers, so such a cut costs one chunk decoded twice).
   */
  static void plan(FilePlan f, long split, List<InputPartition> out) {
    long rows = f.rows();
    if (rows == 0) {
      return;
    }
    String name = f.file().toString();
    if (f.biggestPages().isEmpty() || f.bytes() <= split) {
      out.add(new LanceInputPartition(name, 0, rows));
      return;
    }
    long targetRows = Math.max(1, (long) (rows * ((double) split / f.bytes())));
    long start = 0;
    long boundary = 0;
    for (LanceFileReader.PageSummary page : f.biggestPages()) {
      long pageEnd = boundary + page.rows();
      // inside a page longer than the target: cut at chunk-sized multiples
      while (pageEnd - start > targetRows * 3 / 2) {
        long cut = Math.max(start + 1, ((start + targetRows) / CUT_ROWS) * CUT_ROWS);
        if (cut <= start || cut >= pageEnd) {
          break;
        }
        out.add(new LanceInputPartition(name, start, cut));
        start = cut;
      }
      boundary = pageEnd;
      if (boundary - start >= targetRows && boundary < rows) {
        out.add(new LanceInputPartition(name, start, boundary));
        start = boundary;
      }
    }
    if (start < rows) {
      out.add(new LanceInputPartition(name, start, rows));
    }
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new LanceReaderFactory(readSchema, options);
  }
}
