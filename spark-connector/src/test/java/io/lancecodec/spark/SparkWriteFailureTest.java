package io.lancecodec.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkWriteFailureTest extends SparkTestBase {
  @TempDir Path tmp;

  /** Rows 0..n-1 in 4 tasks; the task holding row {@code failAt} throws after writing part of its rows. */
  private static Dataset<Row> failingAt(long n, long failAt) {
    spark.udf().register("failAt", (UDF1<Long, Long>) id -> {
      if (id == failAt) {
        throw new IllegalStateException("task fails on purpose at row " + id);
      }
      return id;
    }, DataTypes.LongType);
    return spark.range(0, n, 1, 4).selectExpr("failAt(id) as id", "concat('v', id) as s");
  }

  private static List<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aFailedJobIntoANewDirectoryLeavesNothing() throws Exception {
    Path out = tmp.resolve("new");
    Exception e = assertThrows(Exception.class,
        () -> failingAt(40_000, 39_000).write().format("lance-codec").option("batch-size", "1000").mode("append").save(out.toString()));
    assertTrue(String.valueOf(e.getMessage()).contains("fails on purpose") || String.valueOf(e.getCause()).contains("fails on purpose"), e.toString());
    assertFalse(Files.exists(out));
    assertEquals(List.of(), names(tmp), "no staging directory is left beside the target");
  }

  @Test
  void aFailedAppendOrOverwriteKeepsTheDirectoryAsItWas() throws Exception {
    Path out = tmp.resolve("existing");
    spark.range(0, 1000, 1, 2).selectExpr("id", "concat('v', id) as s").write().format("lance-codec").mode("append").save(out.toString());
    List<String> before = names(out);
    assertEquals(2, before.size());

    assertThrows(Exception.class,
        () -> failingAt(40_000, 39_000).write().format("lance-codec").option("batch-size", "1000").mode("append").save(out.toString()));
    assertEquals(before, names(out));
    assertThrows(Exception.class,
        () -> failingAt(40_000, 39_000).write().format("lance-codec").option("batch-size", "1000").mode("overwrite").save(out.toString()));
    assertEquals(before, names(out));
    assertEquals(1000L, spark.read().format("lance-codec").load(out.toString()).count());

    // and the same jobs succeeding: append adds files, overwrite replaces them
    failingAt(4000, -1).write().format("lance-codec").mode("append").save(out.toString());
    assertEquals(6, names(out).size());
    assertEquals(5000L, spark.read().format("lance-codec").load(out.toString()).count());
    failingAt(3000, -1).write().format("lance-codec").mode("overwrite").save(out.toString());
    assertEquals(4, names(out).size());
    Row r = spark.read().format("lance-codec").load(out.toString()).selectExpr("count(*)", "sum(id)").first();
    assertEquals(3000L, r.getLong(0));
    assertEquals(2999L * 3000 / 2, r.getLong(1));
  }

  @Test
  void aMissingCodecGivesTheLibrarysError() throws Exception {
    Path out = tmp.resolve("zstd");
    spark.range(0, 5000, 1, 1).selectExpr("id", "sha2(cast(id as string), 256) as s").write().format("lance-codec")
        .option("lance-encoding:compression", "zstd").mode("append").save(out.toString());
    try (io.lancecodec.runtime.LanceFileReader r = io.lancecodec.runtime.LanceFileReader.open(
        Files.list(out).filter(p -> p.toString().endsWith(".lance")).findFirst().orElseThrow())) {
      assertTrue(r.columnSummaries().toString().contains("zstd"), r.columnSummaries().toString());
    }
    // codec-general's jar "missing": planning opens the files without it; the task's read names the jar
    Exception e = assertThrows(Exception.class,
        () -> spark.read().format("lance-codec").option("without-plugins", "general").load(out.toString()).selectExpr("sum(length(s))").collect());
    String all = org.apache.commons.lang3.exception.ExceptionUtils.getStackTrace(e);
    assertTrue(all.contains("file needs encoding General (provided by io.lancecodec:codec-general), not on the class path"), all);
    // the writer refuses up front, on the driver
    Exception w = assertThrows(Exception.class,
        () -> spark.range(0, 10).write().format("lance-codec").option("without-plugins", "general")
            .option("lance-encoding:compression", "zstd").mode("append").save(tmp.resolve("w").toString()));
    assertTrue(org.apache.commons.lang3.exception.ExceptionUtils.getStackTrace(w).contains("zstd"), w.toString());
    assertFalse(Files.exists(tmp.resolve("w")));
  }
}
