package io.lancecodec.cli;

import static io.lancecodec.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole vega-datasets corpus, when this machine has it (skipped otherwise): every CSV file
 * and flights-3m.parquet (3 million rows) converted and compared row by row with the source.
 */
class CorpusTest {
  static final Path VEGA = Path.of("/work/shared/data/vega-datasets");

  @TempDir
  Path dir;

  @Test
  void everyCorpusCsvRoundTrips() throws IOException {
    assumeTrue(Files.isDirectory(VEGA), VEGA + " is not on this machine");
    List<Path> csvs;
    try (Stream<Path> files = Files.list(VEGA)) {
      csvs = files.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
    }
    assertEquals(11, csvs.size(), csvs.toString());
    for (Path csv : csvs) {
      for (String version : List.of("2.1", "2.3")) {
        Path lance = dir.resolve(csv.getFileName() + "-" + version + ".lance");
        MainTest.Result r = run("write", csv.toString(), lance.toString(), "--version", version);
        assertEquals(0, r.status(), csv + ": " + r.err());
        RoundTrip.assertMatchesCsv(lance, csv);
      }
    }
  }

  @Test
  void flights3mRoundTrips() throws IOException {
    Path parquet = VEGA.resolve("flights-3m.parquet");
    assumeTrue(Files.exists(parquet), parquet + " is not on this machine");
    Path lance = dir.resolve("flights-3m.lance");
    MainTest.Result r = run("write", parquet.toString(), lance.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals(3_000_000, RoundTrip.assertMatchesParquet(lance, parquet));
  }
}
