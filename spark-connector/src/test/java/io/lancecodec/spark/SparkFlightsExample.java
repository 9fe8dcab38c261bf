package io.lancecodec.spark;

import io.lancecodec.runtime.LanceFileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The example of docs/spark.md (not a test): converts a Parquet file to a directory of Lance files
 * with Spark, scans it back, and times the same query on Spark's own Parquet scan and on our reader
 * in one JVM. Prints each run and the medians.
 *
 * <pre>
 * java [Spark's --add-opens] -cp TEST_CLASSPATH io.lancecodec.spark.SparkFlightsExample PARQUET WORKDIR [RUNS] [COLUMN] [BATCH_SIZE]
 * </pre>
 */
public final class SparkFlightsExample {
  private SparkFlightsExample() {}

  public static void main(String[] args) throws Exception {
    String parquet = args[0];
    Path work = Path.of(args[1]);
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    String column = args.length > 3 ? args[3] : "distance";
    String batchSize = args.length > 4 ? args[4] : String.valueOf(LanceOptions.DEFAULT_BATCH_SIZE);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("lance-codec example")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    System.out.println("schema: " + spark.read().parquet(parquet).schema().simpleString());
    String lance = work.resolve("flights-lance").toString();

    int convertRuns = Boolean.getBoolean("skipConvert") && Files.isDirectory(Path.of(lance)) ? 0 : runs;
    double[] convert = new double[Math.max(1, convertRuns)];
    for (int i = 0; i < convertRuns; i++) {
      SparkFlightsExampleSupport.deleteTree(Path.of(lance));
      long t0 = System.nanoTime();
      spark.read().parquet(parquet).write().format("lance-codec").mode("overwrite").save(lance);
      convert[i] = (System.nanoTime() - t0) / 1e9;
      System.out.printf("spark parquet->lance: %.3f s%n", convert[i]);
    }
    long bytes = 0;
    List<Path> files = LanceFiles.list(lance);
    for (Path f : files) {
      bytes += Files.size(f);
    }
    System.out.println(files.size() + " lance files, " + bytes + " bytes");

    double[] ours = new double[runs];
    long rows = 0;
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      double sum = 0;
      rows = 0;
      try (RootAllocator allocator = new RootAllocator()) {
        for (Path f : files) {
          try (LanceFileReader r = LanceFileReader.open(f)) {
            var scan = r.scan(List.of(column), 65536, allocator);
            while (scan.hasNext()) {
              try (VectorSchemaRoot root = scan.next()) {
                FieldVector v = root.getVector(0);
                for (int k = 0; k < root.getRowCount(); k++) {
                  Object o = v.getObject(k);
                  if (o != null) {
                    sum += ((Number) o).doubleValue();
                  }
                }
                rows += root.getRowCount();
              }
            }
          }
        }
      }
      ours[i] = (System.nanoTime() - t0) / 1e9;
      System.out.printf("our reader, one thread, sum(%s): %.3f s (%d rows, sum %.0f)%n", column, ours[i], rows, sum);
    }
    System.out.printf("median convert %.3f s (%.0f rows/s); our reader sum(%s) %.3f s (%.0f rows/s)%n",
        median(convert), rows / median(convert), column, median(ours), rows / median(ours));

    String[][] queries = {
        {"count(*)", "sum(" + column + ")"},
        {"count(*)", "sum(delay)", "max(origin)", "max(destination)", "max(date)"},
    };
    String more = System.getProperty("queries");
    if (more != null) {
      // e.g. -Dqueries="max(origin);sum(delay)": one aggregate list per ';', expressions split on ','
      queries = Arrays.stream(more.split(";")).map(q -> q.split(",")).toArray(String[][]::new);
    }

    for (String[] query : queries) {
      double[] sparkLance = new double[runs];
      double[] sparkParquet = new double[runs];
      Row lanceRow = null;
      Row parquetRow = null;
      for (int i = 0; i < runs; i++) {
        // alternated, so drift in the machine's load hits both alike
        String only = System.getProperty("only", "");
        long t0 = System.nanoTime();
        lanceRow = only.equals("parquet") ? null : spark.read().format("lance-codec").option("batch-size", batchSize).load(lance).selectExpr(query).first();
        sparkLance[i] = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        parquetRow = only.equals("lance") ? lanceRow : spark.read().parquet(parquet).selectExpr(query).first();
        sparkParquet[i] = (System.nanoTime() - t0) / 1e9;
        System.out.printf("%s: spark lance %.3f s, spark parquet %.3f s%n", String.join(", ", query), sparkLance[i], sparkParquet[i]);
      }
      if (lanceRow == null) {
        lanceRow = parquetRow;
      }
      if (!lanceRow.equals(parquetRow)) {
        throw new IllegalStateException("results differ: lance " + lanceRow + ", parquet " + parquetRow);
      }
      System.out.printf("median %s = %s: spark/lance %.3f s (%.0f rows/s), spark/parquet %.3f s (%.0f rows/s); parquet/lance time ratio %.2f%n",
          String.join(", ", query), lanceRow, median(sparkLance), rows / median(sparkLance), median(sparkParquet),
          rows / median(sparkParquet), median(sparkParquet) / median(sparkLance));
    }
    spark.stop();
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}

final class SparkFlightsExampleSupport {
  private SparkFlightsExampleSupport() {}

  static void deleteTree(Path p) {
    LanceWrite.deleteTree(p);
  }
}
