package io.lancecodec.bench.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.bench.charts.Results.CompareRun;
import io.lancecodec.bench.charts.Results.LeaderboardRun;
import io.lancecodec.bench.charts.Results.Offer;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
  /** Two data sets, the reference, one of ours and Parquet; take ratios span four decades (a log axis). */
  static final String COMPARE_CSV = """
      # lance-codec bench --quick: 2026-12-02T11:26:31Z, Linux amd64, 2 cpus, JDK 17.0.15; loadavg before: 1.59 1.37 1.59 1/116 22696
      # 1 repetition(s) after 1 warm-up, interleaved; medians (min-max); our codecs: bitpack,builtin
      # total 3 s; loadavg after: 1.26 1.50 1.59 4/189 22871
      dataset,system,rows,metric,median,min,max,samples,ref_system,ratio_to_ref
      tokens,ours-2.1,8192,size_bytes,20000,20000,20000,1,ref-2.1,1.00000
      tokens,ours-2.1,8192,scan_MBps,900,900,900,1,ref-2.1,4.5
      tokens,ours-2.1,8192,take1_rows_per_s,500000,500000,500000,1,ref-2.1,170
      tokens,ref-2.1,8192,size_bytes,20000,20000,20000,1,ref-2.1,1.00000
      tokens,ref-2.1,8192,scan_MBps,200,200,200,1,ref-2.1,1.00000
      tokens,ref-2.1,8192,take1_rows_per_s,3000,3000,3000,1,ref-2.1,1.00000
      tokens,parquet-default,8192,size_bytes,19000,19000,19000,1,ref-2.1,0.95
      tokens,parquet-default,8192,scan_MBps,20,20,20,1,ref-2.1,0.1
      tokens,parquet-default,8192,take1_rows_per_s,2000,2000,2000,1,ref-2.1,0.66
      tokens,parquet-default,8192,search_cache_bytes,100,100,100,1,ref-2.1,
      vectors,ours-2.1,256,size_bytes,800000,800000,800000,1,ref-2.1,1.00000
      vectors,ours-2.1,256,scan_MBps,2000,2000,2000,1,ref-2.1,12
      vectors,ours-2.1,256,take1_rows_per_s,400000,400000,400000,1,ref-2.1,85
      vectors,ref-2.1,256,size_bytes,800000,800000,800000,1,ref-2.1,1.00000
      vectors,ref-2.1,256,scan_MBps,160,160,160,1,ref-2.1,1.00000
      vectors,ref-2.1,256,take1_rows_per_s,4700,4700,4700,1,ref-2.1,1.00000
      vectors,parquet-default,256,size_bytes,801000,801000,801000,1,ref-2.1,1.001
      vectors,parquet-default,256,scan_MBps,80,80,80,1,ref-2.1,0.5
      vectors,parquet-default,256,take1_rows_per_s,280,280,280,1,ref-2.1,0.06
      """;

  @Test
  void comparisonCsvIsRead() {
    CompareRun run = Results.compare("compare-x", COMPARE_CSV.lines().toList());
    assertEquals("compare-x", run.name());
    assertEquals("Linux amd64, 2 cpus, JDK 17.0.15", run.machine());
    assertEquals(19, run.measures().size());
    assertEquals(List.of("tokens", "vectors"), run.datasets());
    assertEquals(List.of("ours-2.1", "ref-2.1", "parquet-default"), run.systems());
    Results.Measure take = run.measures().get(2);
    assertEquals("take1_rows_per_s", take.metric());
    assertEquals(500000, take.median());
    assertEquals(170, take.ratio());
    assertEquals("ref-2.1", take.refSystem());
    assertTrue(Double.isNaN(run.measures().get(9).ratio()), "an empty ratio is missing, not 0");
  }

  @Test
  void malformedComparisonCsvIsRefusedWithItsLine() {
    List<String> notCsv = List.of("a,b,c", "1,2,3");
    assertThrows(IllegalArgumentException.class, () -> Results.compare("x", notCsv));
    List<String> short_ = List.of(Results.COMPARE_HEADER, "tokens,ours-2.1,8192,size_bytes,1");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Results.compare("x", short_));
    assertTrue(e.getMessage().startsWith("x:2:"), e.getMessage());
  }

  @Test
  void comparisonChartsAreWrittenAsPngs(@TempDir Path dir) throws IOException {
    Path csv = dir.resolve("compare-2026-12-02T000000Z-quick.csv");
    Files.writeString(csv, COMPARE_CSV);
    List<Path> pngs = Charts.render(csv, dir.resolve("out"));
    // only the metrics the CSV has, in the panels' order
    assertEquals(List.of("size", "scan", "take1"),
        pngs.stream().map(p -> Results.stem(p).substring("compare-2026-12-02T000000Z-quick-".length())).toList());
    for (Path p : pngs) {
      assertPng(p);
    }
    assertEquals("![size](out/compare-2026-12-02T000000Z-quick-size.png)", Charts.markdownLinks(pngs.subList(0, 1), dir));
  }

  @Test
  void leaderboardMarkdownIsRead() {
    List<String> md = List.of(
        "<!-- codec leaderboard 2026-11-29T21:31:00Z: first 1048576 ids of tokens-cl100k-2048.u32 (uint32); 1,048,576 values,"
            + " 4,194,304 raw bytes; best of 5 runs; loadavg 2.42 4.31 4.98 2/167 12691 -->",
        "",
        "| codec (plugin) | file version | field options | offer | encoding | bytes | ratio | bits/value | encode MB/s"
            + " | decode MB/s | bytes read per random value | random value µs | round trip |",
        "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
        "| general (codec-general.jar) | 2.1 | compression=zstd | general-zstd | General{} | 1,713,675 | 2.448 | 13.074 | 148"
            + " | 334 | 1,673 | 12.42 | yes |",
        "| **bitpack (codec-bitpack.jar)** | 2.2 | — | bitpack | InlineBitpacking{} | 2,234,372 | 1.877 | 17.047 | 628"
            + " | 2,621 | 2,182 | 1.65 | yes |",
        "| **bitpack (codec-bitpack.jar)** | 2.1 | any | — | no mini-block offer | — | — | — | — | — | — | — | — |");
    LeaderboardRun run = Results.leaderboardMarkdown("leaderboard-tokens", md);
    assertEquals("first 1048576 ids of tokens-cl100k-2048.u32 (uint32)", run.data());
    assertEquals(List.of(
        new Offer("general", "2.1", "compression=zstd", "general-zstd", 1713675, 2.448, 148, 334, false),
        new Offer("bitpack", "2.2", "", "bitpack", 2234372, 1.877, 628, 2621, true)), run.offers());
  }

  @Test
  void leaderboardCsvIsReadAndDrawn(@TempDir Path dir) throws IOException {
    String csv = "# codec leaderboard 2026-12-02T12:00:00Z: mail-urls; 50,194 values, 2,437,632 raw bytes; best of 2 runs;"
        + " machine: Linux amd64, 2 cpus, JDK 17.0.15; loadavg 1.0\n"
        + Results.LEADERBOARD_HEADER + "\n"
        + Results.csvLine("fsst", "codec-fsst.jar", "2.1", "", "fsst", "Fsst{}", "1251674", "1.947", "199.494", "82", "606",
            "6249", "21.5", "yes", "true") + "\n"
        + Results.csvLine("general", "codec-general.jar", "2.2", "compression=zstd,zstd-level=9", "general-zstd",
            "General{a, \"b\"}", "664900", "3.666", "105.973", "189", "626", "1693", "10.34", "yes", "false") + "\n"
        + Results.csvLine("alp", "codec-alp.jar", "2.2", "any", "", "no mini-block offer", "", "", "", "", "", "", "", "",
            "false") + "\n";
    Path file = dir.resolve("leaderboard-all-mail-urls-2026-12-02T120000Z.csv");
    Files.writeString(file, csv);
    LeaderboardRun run = Results.leaderboard(file);
    assertEquals("mail-urls", run.data());
    assertEquals("Linux amd64, 2 cpus, JDK 17.0.15", run.machine());
    assertEquals(2, run.offers().size(), "the offer that was not made has no point");
    assertEquals("compression=zstd,zstd-level=9", run.offers().get(1).options());
    List<Path> pngs = Charts.render(file, dir);
    assertEquals(2, pngs.size());
    pngs.forEach(ChartsTest::assertPng);
  }

  @Test
  void csvFieldsRoundTrip() {
    String line = Results.csvLine("plain", "a,b", "say \"hi\"", "");
    assertEquals("plain,\"a,b\",\"say \"\"hi\"\"\",", line);
    assertEquals(List.of("plain", "a,b", "say \"hi\"", ""), Results.splitCsv(line));
    assertThrows(IllegalArgumentException.class, () -> Results.splitCsv("\"open"));
  }

  static void assertPng(Path p) {
    try {
      assertTrue(Files.size(p) > 1000, p + " is too small to hold a chart");
      BufferedImage img = ImageIO.read(p.toFile());
      assertNotNull(img, p + " does not decode as an image");
      assertEquals(Charts.WIDTH, img.getWidth());
      assertEquals(Charts.HEIGHT, img.getHeight());
      assertFalse(isBlank(img), p + " is one colour");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static boolean isBlank(BufferedImage img) {
    int first = img.getRGB(0, 0);
    for (int y = 0; y < img.getHeight(); y += 7) {
      for (int x = 0; x < img.getWidth(); x += 7) {
        if (img.getRGB(x, y) != first) {
          return false;
        }
      }
    }
    return true;
  }
}
