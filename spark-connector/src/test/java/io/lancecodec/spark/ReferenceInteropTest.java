package io.lancecodec.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files Spark wrote through the connector, in the versions the reference reads (2.1, 2.2), read by
 * the reference in a child JVM: the same rows as our reader returns.
 */
class ReferenceInteropTest extends SparkTestBase {
  @TempDir Path tmp;

  @Test
  void theReferenceReadsWhatSparkWrote() throws Exception {
    List<String> files = new ArrayList<>();
    for (String version : List.of("2.1", "2.2")) {
      Path flat = tmp.resolve("flat-" + version);
      spark.createDataFrame(SparkRoundTripTest.flatRows(3000, 11), SparkRoundTripTest.FLAT).repartition(2)
          .write().format("lance-codec").option("version", version).mode("append").save(flat.toString());
      Path nested = tmp.resolve("nested-" + version);
      spark.createDataFrame(SparkRoundTripTest.nestedRows(1500, 12), SparkRoundTripTest.NESTED).coalesce(1)
          .write().format("lance-codec").option("version", version).mode("append").save(nested.toString());
      Path vectors = tmp.resolve("vectors-" + version);
      spark.range(0, 2000, 1, 1).selectExpr("id", "transform(sequence(0, 7), j -> cast(sin(id * 8 + j) as float)) as vec")
          .write().format("lance-codec").option("version", version).option("fixed-size-list", "vec:8").mode("append").save(vectors.toString());
      for (Path dir : List.of(flat, nested, vectors)) {
        try (Stream<Path> s = Files.list(dir)) {
          s.filter(p -> p.toString().endsWith(".lance")).sorted().forEach(p -> files.add(p.toString()));
        }
      }
    }

    assertEquals(8, files.size(), "2 flat + 1 nested + 1 vector file per version");
    List<String> ours = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator()) {
      for (String f : files) {
        try (LanceFileReader r = LanceFileReader.open(Path.of(f));
            VectorSchemaRoot root = r.readRange(0, r.numRows(), null, allocator)) {
          ours.add("# " + r.numRows() + " rows " + r.schema().getFields());
          for (int i = 0; i < root.getRowCount(); i++) {
            ours.add(ReferenceReadMain.line(root, i));
          }
        }
      }
    }

    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        // the reference unpacks its native library into the temporary directory: keep it in the build's
        "-Djava.io.tmpdir=" + tmp,
        "-Xmx512m",
        "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")).replace(":", File.pathSeparator),
        ReferenceReadMain.class.getName()));
    cmd.addAll(files);
    Path output = tmp.resolve("reference.out");
    Process p = new ProcessBuilder(cmd).redirectOutput(output.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the reference's JVM finished");
    assertEquals(0, p.exitValue(), "the reference's JVM exit status");
    List<String> reference = Files.readAllLines(output);
    assertEquals(ours.size(), reference.size(), "lines");
    for (int i = 0; i < ours.size(); i++) {
      assertEquals(ours.get(i), reference.get(i), "line " + i);
    }
  }
}
