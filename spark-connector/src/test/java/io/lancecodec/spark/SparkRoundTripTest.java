package io.lancecodec.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.spi.FileVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SparkRoundTripTest extends SparkTestBase {
  @TempDir Path tmp;

  static final StructType FLAT = new StructType(new StructField[] {
      new StructField("id", DataTypes.LongType, false, Metadata.empty()),
      new StructField("i", DataTypes.IntegerType, true, Metadata.empty()),
      new StructField("d", DataTypes.DoubleType, true, Metadata.empty()),
      new StructField("s", DataTypes.StringType, true, Metadata.empty()),
      new StructField("b", DataTypes.BooleanType, true, Metadata.empty()),
      new StructField("day", DataTypes.DateType, true, Metadata.empty()),
  });

  static List<Row> flatRows(int n, long seed) {
    Random r = new Random(seed);
    String[] words = {"alpha", "beta", "gamma", "delta", "", "épsilon", "zeta-long-string-value"};
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      rows.add(RowFactory.create(
          (long) k,
          r.nextInt(10) == 0 ? null : r.nextInt(1000) - 500,
          r.nextInt(10) == 0 ? null : Math.round(r.nextGaussian() * 10000) / 100.0,
          r.nextInt(10) == 0 ? null : words[r.nextInt(words.length)] + r.nextInt(50),
          r.nextInt(10) == 0 ? null : r.nextBoolean(),
          r.nextInt(10) == 0 ? null : java.sql.Date.valueOf(java.time.LocalDate.ofEpochDay(18000 + r.nextInt(3000)))));
    }
    return rows;
  }

  static List<Row> sorted(List<Row> rows) {
    List<Row> out = new ArrayList<>(rows);
    out.sort(Comparator.comparingLong(x -> x.getLong(0)));
    return out;
  }

  static List<Path> lanceFiles(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".lance")).sorted().toList();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.1", "2.2", "2.3"})
  void flatColumnsRoundTripThroughSparkAndOurReader(String version) throws Exception {
    List<Row> rows = flatRows(3000, 21);
    Path out = tmp.resolve("flat");
    spark.createDataFrame(rows, FLAT).repartition(3).write().format("lance-codec")
        .option("version", version).mode("append").save(out.toString());

    List<Path> files = lanceFiles(out);
    assertEquals(3, files.size(), "one file per task");
    try (Stream<Path> s = Files.list(out)) {
      assertEquals(4, s.count(), "the files and the commit log: no staging directory or partial file is left");
    }
    assertEquals(files, LanceFiles.list(out.toString()), "version 1 of the log lists the three files");
    long total = 0;
    long idSum = 0;
    try (RootAllocator allocator = new RootAllocator()) {
      for (Path f : files) {
        try (LanceFileReader r = LanceFileReader.open(f); VectorSchemaRoot root = r.readRange(0, r.numRows(), List.of("id"), allocator)) {
          assertEquals(FileVersion.parse(version), r.version());
          total += r.numRows();
          BigIntVector ids = (BigIntVector) root.getVector(0);
          for (int k = 0; k < root.getRowCount(); k++) {
            idSum += ids.get(k);
          }
        }
      }
    }
    assertEquals(3000, total);
    assertEquals(2999L * 3000 / 2, idSum);

    Dataset<Row> back = spark.read().format("lance-codec").load(out.toString());
    assertEquals(FLAT.asNullable(), back.schema());
    assertEquals(sorted(rows), sorted(back.collectAsList()));
  }

  static final StructType NESTED = new StructType(new StructField[] {
      new StructField("id", DataTypes.LongType, false, Metadata.empty()),
      new StructField("point", new StructType(new StructField[] {
          new StructField("x", DataTypes.DoubleType, true, Metadata.empty()),
          new StructField("label", DataTypes.StringType, true, Metadata.empty())}), true, Metadata.empty()),
      new StructField("tags", DataTypes.createArrayType(DataTypes.StringType, true), true, Metadata.empty()),
      new StructField("scores", DataTypes.createArrayType(DataTypes.IntegerType, true), true, Metadata.empty()),
      new StructField("events", DataTypes.createArrayType(new StructType(new StructField[] {
          new StructField("t", DataTypes.LongType, true, Metadata.empty()),
          new StructField("kind", DataTypes.StringType, true, Metadata.empty())}), true), true, Metadata.empty()),
  });

  static List<Row> nestedRows(int n, long seed) {
    Random r = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      Row point = r.nextInt(8) == 0 ? null : RowFactory.create(r.nextInt(6) == 0 ? null : r.nextDouble(), r.nextInt(6) == 0 ? null : "p" + r.nextInt(100));
      List<String> tags = null;
      if (r.nextInt(8) != 0) {
        tags = new ArrayList<>();
        for (int j = r.nextInt(4); j > 0; j--) {
          tags.add(r.nextInt(7) == 0 ? null : "t" + r.nextInt(20));
        }
      }
      List<Integer> scores = null;
      if (r.nextInt(8) != 0) {
        scores = new ArrayList<>();
        for (int j = r.nextInt(5); j > 0; j--) {
          scores.add(r.nextInt(9) == 0 ? null : r.nextInt(100));
        }
      }
      List<Row> events = null;
      if (r.nextInt(8) != 0) {
        events = new ArrayList<>();
        for (int j = r.nextInt(3); j > 0; j--) {
          events.add(r.nextInt(9) == 0 ? null : RowFactory.create((long) r.nextInt(1 << 20), r.nextInt(5) == 0 ? null : "k" + r.nextInt(3)));
        }
      }
      rows.add(RowFactory.create((long) k, point, tags == null ? null : scala(tags), scores == null ? null : scala(scores),
          events == null ? null : scala(events)));
    }
    return rows;
  }

  static <T> scala.collection.immutable.Seq<T> scala(List<T> list) {
    return scala.jdk.javaapi.CollectionConverters.asScala(list).toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.1", "2.2"})
  void nestedColumnsRoundTrip(String version) throws Exception {
    List<Row> rows = nestedRows(2000, 7);
    Path out = tmp.resolve("nested");
    spark.createDataFrame(rows, NESTED).repartition(2).write().format("lance-codec")
        .option("version", version).mode("overwrite").save(out.toString());
    assertEquals(2, lanceFiles(out).size());
    Dataset<Row> back = spark.read().format("lance-codec").load(out.toString());
    assertEquals(NESTED.asNullable(), back.schema());
    assertEquals(sorted(rows), sorted(back.collectAsList()));
    // a nested field through Spark's projection over the columnar batch
    Row want = spark.createDataFrame(rows, NESTED).selectExpr("sum(size(tags))", "sum(point.x)", "count(get(events, 0).kind)").first();
    Row got = back.selectExpr("sum(size(tags))", "sum(point.x)", "count(get(events, 0).kind)").first();
    assertEquals(want.getLong(0), got.getLong(0));
    assertEquals(want.getDouble(1), got.getDouble(1), 1e-9); // summed in another order
    assertEquals(want.getLong(2), got.getLong(2));
  }

  static final StructType CORPUS = new StructType(new StructField[] {
      new StructField("id", DataTypes.LongType, false, Metadata.empty()),
      new StructField("token", DataTypes.LongType, true, Metadata.empty()),
      new StructField("tokens", DataTypes.createArrayType(DataTypes.LongType, true), true, Metadata.empty()),
      new StructField("subject", DataTypes.StringType, true, Metadata.empty()),
      new StructField("subjects", DataTypes.createArrayType(DataTypes.StringType, true), true, Metadata.empty()),
      new StructField("latitude", DataTypes.DoubleType, true, Metadata.empty()),
      new StructField("longitude", DataTypes.FloatType, true, Metadata.empty()),
  });

  /**
   * Rows of the corpus samples codec-testkit carries (real cl100k token ids, mail subjects,
   * airport coordinates; see its corpus README): one row per airport, with a token, a run of
   * tokens, a subject and a seeded list of 0-7 subjects, as the comparison's tokens, token-lines,
   * mail-subjects and mail-lists data sets are built.
   */
  static List<Row> corpusRows() throws Exception {
    String dir = "/io/lancecodec/testkit/corpus/";
    byte[] raw;
    try (var in = SparkRoundTripTest.class.getResourceAsStream(dir + "tokens-cl100k-4096.u32")) {
      raw = in.readAllBytes();
    }
    java.nio.ByteBuffer tokens = java.nio.ByteBuffer.wrap(raw).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    List<String> subjects;
    List<String> coords;
    try (var in = SparkRoundTripTest.class.getResourceAsStream(dir + "mail-subjects-500.txt")) {
      subjects = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
    }
    try (var in = SparkRoundTripTest.class.getResourceAsStream(dir + "airports-latlon.csv")) {
      coords = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().skip(1).toList();
    }
    int numTokens = raw.length / 4;
    Random r = new Random(17);
    List<Row> rows = new ArrayList<>();
    int t = 0;
    for (int k = 0; k < coords.size(); k++) {
      String[] ll = coords.get(k).split(",");
      List<Long> run = new ArrayList<>();
      for (int j = r.nextInt(12); j > 0; j--, t = (t + 1) % numTokens) {
        run.add(tokens.getInt(4 * t) & 0xFFFFFFFFL);
      }
      List<String> group = new ArrayList<>();
      for (int j = r.nextInt(8); j > 0; j--) {
        group.add(subjects.get(r.nextInt(subjects.size())));
      }
      rows.add(RowFactory.create((long) k, tokens.getInt(4 * (k % numTokens)) & 0xFFFFFFFFL, scala(run),
          subjects.get(k % subjects.size()), k % 97 == 0 ? null : scala(group),
          Double.parseDouble(ll[0]), Float.parseFloat(ll[1])));
    }
    return rows;
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.1", "2.2", "2.3"})
  void corpusSamplesRoundTrip(String version) throws Exception {
    List<Row> rows = corpusRows();
    Path out = tmp.resolve("corpus");
    spark.createDataFrame(rows, CORPUS).repartition(2).write().format("lance-codec")
        .option("version", version).mode("append").save(out.toString());
    assertEquals(2, lanceFiles(out).size());
    Dataset<Row> back = spark.read().format("lance-codec").load(out.toString());
    assertEquals(CORPUS.asNullable(), back.schema());
    assertEquals(sorted(rows), sorted(back.collectAsList()));
  }

  @Test
  void vectorColumnIsWrittenAsFixedSizeListAndReadBack() throws Exception {
    StructType schema = new StructType(new StructField[] {
        new StructField("id", DataTypes.LongType, false, Metadata.empty()),
        new StructField("vec", DataTypes.createArrayType(DataTypes.FloatType, false), true, Metadata.empty())});
    Random r = new Random(3);
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < 1500; k++) {
      List<Float> v = new ArrayList<>();
      for (int j = 0; j < 16; j++) {
        v.add(r.nextFloat());
      }
      // nulls only in the first 700 rows: one task copies (with nulls), the other moves the items over
      rows.add(RowFactory.create((long) k, k < 700 && k % 13 == 0 ? null : scala(v)));
    }
    Path out = tmp.resolve("vectors");
    spark.createDataFrame(rows, schema).coalesce(1).sortWithinPartitions("id").repartitionByRange(2, new org.apache.spark.sql.Column("id"))
        .write().format("lance-codec").option("fixed-size-list", "vec:16").option("batch-size", "500")
        .mode("overwrite").save(out.toString());
    List<Path> files = lanceFiles(out);
    assertEquals(2, files.size());
    try (LanceFileReader reader = LanceFileReader.open(files.get(0))) {
      ArrowType t = reader.schema().findField("vec").getType();
      assertInstanceOf(ArrowType.FixedSizeList.class, t);
      assertEquals(16, ((ArrowType.FixedSizeList) t).getListSize());
    }
    Dataset<Row> back = spark.read().format("lance-codec").load(out.toString());
    assertTrue(back.schema().apply("vec").metadata().contains(SparkSchemas.FIXED_SIZE_LIST_KEY));
    assertEquals(sorted(rows), sorted(back.collectAsList()));
    // read back and written again: the metadata keeps the column a fixed-size list
    Path again = tmp.resolve("again");
    back.write().format("lance-codec").mode("overwrite").save(again.toString());
    try (LanceFileReader reader = LanceFileReader.open(lanceFiles(again).get(0))) {
      assertInstanceOf(ArrowType.FixedSizeList.class, reader.schema().findField("vec").getType());
    }
    assertEquals(sorted(rows), sorted(spark.read().format("lance-codec").load(again.toString()).collectAsList()));
  }

  @Test
  void otherTypesAndMapsRoundTrip() throws Exception {
    StructType schema = new StructType(new StructField[] {
        new StructField("id", DataTypes.LongType, true, Metadata.empty()),
        new StructField("b8", DataTypes.ByteType, true, Metadata.empty()),
        new StructField("i16", DataTypes.ShortType, true, Metadata.empty()),
        new StructField("f", DataTypes.FloatType, true, Metadata.empty()),
        new StructField("dec", DataTypes.createDecimalType(12, 3), true, Metadata.empty()),
        new StructField("ts", DataTypes.TimestampType, true, Metadata.empty()),
        new StructField("ntz", DataTypes.TimestampNTZType, true, Metadata.empty()),
        new StructField("bin", DataTypes.BinaryType, true, Metadata.empty()),
        new StructField("m", DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType, true), true, Metadata.empty()),
    });
    Random r = new Random(17);
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < 1200; k++) {
      boolean nulls = k % 11 == 0;
      java.util.Map<String, Integer> m = new java.util.TreeMap<>();
      for (int j = r.nextInt(3); j > 0; j--) {
        m.put("k" + r.nextInt(10), r.nextInt(5) == 0 ? null : r.nextInt(1000));
      }
      byte[] bin = new byte[r.nextInt(6)];
      r.nextBytes(bin);
      rows.add(RowFactory.create((long) k,
          nulls ? null : (byte) r.nextInt(256),
          nulls ? null : (short) r.nextInt(65536),
          nulls ? null : r.nextFloat() * 100,
          nulls ? null : java.math.BigDecimal.valueOf(r.nextInt(100_000_000), 3),
          nulls ? null : java.sql.Timestamp.from(java.time.Instant.ofEpochSecond(1_600_000_000L + r.nextInt(100_000_000), r.nextInt(1000) * 1000)),
          nulls ? null : java.time.LocalDateTime.ofEpochSecond(1_600_000_000L + r.nextInt(100_000_000), r.nextInt(1000) * 1000, java.time.ZoneOffset.UTC),
          nulls ? null : bin,
          nulls ? null : scala.jdk.javaapi.CollectionConverters.asScala(m)));
    }
    Path out = tmp.resolve("types");
    spark.createDataFrame(rows, schema).repartition(2).write().format("lance-codec").option("version", "2.2")
        .mode("overwrite").save(out.toString());
    Dataset<Row> back = spark.read().format("lance-codec").load(out.toString());
    assertEquals(schema, back.schema());
    // compared by Spark (binary by content); maps as their sorted entries, since set operations refuse maps
    String[] cols = {"id", "b8", "i16", "f", "dec", "ts", "ntz", "bin", "array_sort(map_entries(m)) as m"};
    Dataset<Row> want = spark.createDataFrame(rows, schema).selectExpr(cols);
    Dataset<Row> got = back.selectExpr(cols);
    assertEquals(1200L, got.count());
    assertEquals(0L, want.exceptAll(got).count());
    assertEquals(0L, got.exceptAll(want).count());
  }

  @Test
  void readsOnlyTheColumnsAsked() throws Exception {
    Path out = tmp.resolve("pruned");
    spark.createDataFrame(flatRows(500, 5), FLAT).coalesce(1).write().format("lance-codec").mode("overwrite").save(out.toString());
    Dataset<Row> df = spark.read().format("lance-codec").load(out.toString()).select("s", "id");
    String plan = df.queryExecution().executedPlan().toString();
    assertTrue(plan.contains("columns [id, s]"), plan);
    assertEquals(500, df.collectAsList().size());

    LanceScan scan = (LanceScan) new LanceTable(FLAT, new LanceOptions(Map.of("path", out.toString())))
        .newScanBuilder(org.apache.spark.sql.util.CaseInsensitiveStringMap.empty());
    scan.pruneColumns(new StructType().add("d", DataTypes.DoubleType));
    assertEquals(List.of("d"), Arrays.asList(scan.build().readSchema().fieldNames()));
    // statistics of the columns read, for the optimizer
    assertEquals(500L, scan.estimateStatistics().numRows().getAsLong());
    long dBytes;
    try (LanceFileReader r = LanceFileReader.open(lanceFiles(out).get(0))) {
      dBytes = r.columnSummaries().stream().filter(c -> c.name().equals("d")).mapToLong(LanceFileReader.ColumnSummary::bytes).sum();
    }
    assertEquals(dBytes, scan.estimateStatistics().sizeInBytes().getAsLong());
    assertEquals(500L, spark.read().format("lance-codec").load(out.toString()).count());
  }

  @Test
  void aFileOfManyPagesIsReadByManyTasks() throws Exception {
    Path out = tmp.resolve("big");
    long n = 200_000;
    spark.range(0, n, 1, 1).selectExpr("id", "cast(id * 7 % 1000 as double) as v", "concat('row-', id) as s")
        .write().format("lance-codec").option("page-bytes", "65536").mode("overwrite").save(out.toString());
    List<Path> files = lanceFiles(out);
    assertEquals(1, files.size());
    int pages;
    try (LanceFileReader reader = LanceFileReader.open(files.get(0))) {
      pages = reader.columnSummaries().get(0).pages().size();
    }
    assertTrue(pages > 10, pages + " pages");

    Dataset<Row> df = spark.read().format("lance-codec").option("split-bytes", "200000").load(out.toString());
    int partitions = df.rdd().getNumPartitions();
    assertTrue(partitions > 4, partitions + " partitions");
    Row agg = df.selectExpr("count(*)", "sum(id)", "sum(v)", "count(distinct s)").first();
    assertEquals(n, agg.getLong(0));
    assertEquals(n * (n - 1) / 2, agg.getLong(1));
    double sumV = 0;
    for (long k = 0; k < n; k++) {
      sumV += k * 7 % 1000;
    }
    assertEquals(sumV, agg.getDouble(2), 0);
    assertEquals(n, agg.getLong(3));
    // by default the split follows Spark's file sources: this file is below
    // spark.sql.files.openCostInBytes (4 MiB), so it is one task; a smaller floor spreads it over the cores
    assertEquals(1, spark.read().format("lance-codec").load(out.toString()).rdd().getNumPartitions());
    spark.conf().set("spark.sql.files.openCostInBytes", "65536");
    try {
      assertEquals(2, spark.read().format("lance-codec").load(out.toString()).rdd().getNumPartitions());
    } finally {
      spark.conf().unset("spark.sql.files.openCostInBytes");
    }
  }

  @Test
  void perColumnEncodingOptionsReachTheFile() throws Exception {
    Path out = tmp.resolve("options");
    spark.createDataFrame(flatRows(2000, 9), FLAT).coalesce(1).write().format("lance-codec")
        .option("version", "2.2")
        .option("lance-encoding:compression", "zstd")
        .option("s.lance-encoding:structural-encoding", "fullzip")
        .mode("overwrite").save(out.toString());
    try (LanceFileReader reader = LanceFileReader.open(lanceFiles(out).get(0))) {
      String s = reader.columnSummaries().stream().filter(c -> c.name().equals("s")).findFirst().orElseThrow().pages().toString();
      String d = reader.columnSummaries().stream().filter(c -> c.name().equals("d")).findFirst().orElseThrow().pages().toString();
      assertTrue(s.contains("full-zip"), s);
      assertFalse(d.contains("full-zip"), d);
      assertTrue(d.contains("zstd"), d);
    }
  }
}
