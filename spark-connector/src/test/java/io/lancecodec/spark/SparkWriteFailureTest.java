package io.lancecodec.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.commons.lang3.exception.ExceptionUtils;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs writing into new and existing directories: failing ones leave nothing visible; an append or
 * overwrite is watched between moving its files in and publishing them.
 */
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
    assertEquals(3, before.size(), "two files and the commit log");
    Path logDir = out.resolve(CommitLog.DIR);
    assertEquals(List.of(CommitLog.name(1)), names(logDir));
    List<Path> visible = LanceFiles.list(out.toString());

    assertThrows(Exception.class,
        () -> failingAt(40_000, 39_000).write().format("lance-codec").option("batch-size", "1000").mode("append").save(out.toString()));
    assertEquals(before, names(out));
    assertThrows(Exception.class,
        () -> failingAt(40_000, 39_000).write().format("lance-codec").option("batch-size", "1000").mode("overwrite").save(out.toString()));
    assertEquals(before, names(out));
    assertEquals(List.of(CommitLog.name(1)), names(logDir), "a failed job creates no version");
    assertEquals(visible, LanceFiles.list(out.toString()));
    assertEquals(1000L, spark.read().format("lance-codec").load(out.toString()).count());

    // and the same jobs succeeding: append adds files, overwrite replaces them, one version each
    failingAt(4000, -1).write().format("lance-codec").mode("append").save(out.toString());
    assertEquals(7, names(out).size());
    assertEquals(List.of(CommitLog.name(1), CommitLog.name(2)), names(logDir));
    assertEquals(5000L, spark.read().format("lance-codec").load(out.toString()).count());
    failingAt(3000, -1).write().format("lance-codec").mode("overwrite").save(out.toString());
    assertEquals(5, names(out).size(), "the old files are deleted");
    assertEquals(List.of(CommitLog.name(1), CommitLog.name(2), CommitLog.name(3)), names(logDir));
    assertEquals(4, LanceFiles.list(out.toString()).size());
    Row r = spark.read().format("lance-codec").load(out.toString()).selectExpr("count(*)", "sum(id)").first();
    assertEquals(3000L, r.getLong(0));
    assertEquals(2999L * 3000 / 2, r.getLong(1));
  }

  @Test
  void aFailedJobIntoADirectoryWithoutALogDoesNotStartOne() throws Exception {
    Path out = tmp.resolve("other-tool");
    spark.range(0, 1000, 1, 2).selectExpr("id", "concat('v', id) as s").write().format("lance-codec").mode("append").save(out.toString());
    LanceWrite.deleteTree(out.resolve(CommitLog.DIR));
    List<String> before = names(out);
    assertThrows(Exception.class,
        () -> failingAt(40_000, 39_000).write().format("lance-codec").option("batch-size", "1000").mode("overwrite").save(out.toString()));
    assertEquals(before, names(out));
    assertEquals(1000L, spark.read().format("lance-codec").load(out.toString()).count());
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

  @AfterEach
  void noHook() {
    LanceWrite.beforePublish = null;
  }

  private static void write(long from, long to, String mode, Path out) {
    spark.range(from, to, 1, 2).selectExpr("id", "concat('v', id) as s").write().format("lance-codec").mode(mode).save(out.toString());
  }

  /** The ids a reader of the directory sees: the files planning takes, read with the library. */
  private static List<Long> visibleIds(Path dir) {
    List<Long> out = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator()) {
      for (Path f : LanceFiles.list(dir.toString())) {
        try (LanceFileReader r = LanceFileReader.open(f); VectorSchemaRoot root = r.readRange(0, r.numRows(), List.of("id"), allocator)) {
          BigIntVector ids = (BigIntVector) root.getVector(0);
          for (int k = 0; k < root.getRowCount(); k++) {
            out.add(ids.get(k));
          }
        }
      }
    }
    out.sort(null);
    return out;
  }

  private static List<Long> sparkIds(Path dir) {
    List<Long> out = new ArrayList<>();
    for (Row r : spark.read().format("lance-codec").load(dir.toString()).select("id").collectAsList()) {
      out.add(r.getLong(0));
    }
    out.sort(null);
    return out;
  }

  private static List<Long> ids(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  private static long lanceFilesOnDisk(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".lance")).count();
    }
  }

  @Test
  void anOverwriteSwitchesReadersFromTheOldRowsToTheNewInOneStep() throws Exception {
    Path out = tmp.resolve("t");
    write(0, 1000, "append", out);
    List<List<Long>> seen = new ArrayList<>();
    List<Long> onDisk = new ArrayList<>();
    LanceWrite.beforePublish = () -> {
      seen.add(visibleIds(out));
      try {
        onDisk.add(lanceFilesOnDisk(out));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    write(10_000, 10_500, "overwrite", out);
    assertEquals(List.of(ids(0, 1000)), seen, "with the new files in the directory, readers still see exactly the old rows");
    assertEquals(List.of(4L), onDisk, "the two new files were already there");
    assertEquals(ids(10_000, 10_500), visibleIds(out));
    assertEquals(ids(10_000, 10_500), sparkIds(out));
    assertEquals(2, lanceFilesOnDisk(out), "the replaced files are deleted");
    assertEquals(List.of(1L, 2L), new CommitLog(out).versions());
  }

  @Test
  void anAppendToADirectoryWithoutALogKeepsItsFilesAndStartsOne() throws Exception {
    Path out = tmp.resolve("t");
    write(0, 1000, "append", out);
    // as another tool leaves a directory: Lance files, no log
    LanceWrite.deleteTree(out.resolve(CommitLog.DIR));
    assertEquals(ids(0, 1000), sparkIds(out));
    List<List<Long>> seen = new ArrayList<>();
    LanceWrite.beforePublish = () -> seen.add(visibleIds(out));
    write(1000, 1500, "append", out);
    assertEquals(List.of(ids(0, 1000)), seen);
    CommitLog log = new CommitLog(out);
    assertEquals(List.of(1L, 2L), log.versions(), "version 1 is what listing showed, version 2 adds the job's files");
    assertEquals(2, log.files(1).size());
    assertEquals(4, log.files(2).size());
    assertTrue(log.files(2).containsAll(log.files(1)));
    assertEquals(ids(0, 1500), sparkIds(out));
  }

  @Test
  void aFailingPublishLeavesTheDirectoryAsItWas() throws Exception {
    Path out = tmp.resolve("t");
    write(0, 1000, "append", out);
    List<Path> before;
    try (Stream<Path> s = Files.list(out)) {
      before = s.sorted().toList();
    }
    LanceWrite.beforePublish = () -> {
      throw new IllegalStateException("commit fails on purpose");
    };
    Exception e = assertThrows(Exception.class, () -> write(5000, 6000, "overwrite", out));
    assertTrue(ExceptionUtils.getStackTrace(e).contains("commit fails on purpose"), e.toString());
    try (Stream<Path> s = Files.list(out)) {
      assertEquals(before, s.sorted().toList(), "the moved files are deleted again, no staging is left");
    }
    assertEquals(List.of(1L), new CommitLog(out).versions());
    assertEquals(ids(0, 1000), sparkIds(out));
  }

  @Test
  void aBrokenLogFailsTheReadWithOneClearError() throws Exception {
    Path out = tmp.resolve("t");
    write(0, 100, "append", out);
    Path v1 = new CommitLog(out).file(1);
    List<String> lines = Files.readAllLines(v1);
    Files.write(v1, List.of(lines.get(0), lines.get(1), "../elsewhere.lance"), StandardCharsets.UTF_8);
    Exception e = assertThrows(Exception.class, () -> spark.read().format("lance-codec").load(out.toString()).count());
    assertTrue(ExceptionUtils.getStackTrace(e).contains("commit log file " + v1
        + " is not a valid lance-codec commit: line 3 '../elsewhere.lance' is not a plain file name"), ExceptionUtils.getStackTrace(e));

    Files.write(v1, List.of(lines.get(0), lines.get(1), "part-gone.lance"), StandardCharsets.UTF_8);
    e = assertThrows(Exception.class, () -> spark.read().format("lance-codec").load(out.toString()).count());
    assertTrue(ExceptionUtils.getStackTrace(e).contains("data file " + out.resolve("part-gone.lance") + " is missing: version 1"),
        ExceptionUtils.getStackTrace(e));
    assertFalse(Files.exists(out.resolve("part-gone.lance")));
  }
}
