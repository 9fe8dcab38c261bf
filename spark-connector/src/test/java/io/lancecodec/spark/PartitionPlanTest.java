package io.lancecodec.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader.PageSummary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;
import org.junit.jupiter.api.Test;

/** How a file's rows are cut into input partitions (no Spark needed). */
class PartitionPlanTest {
  private static List<LanceInputPartition> plan(long rows, long bytes, long split, long... pageRows) {
    List<PageSummary> pages = new ArrayList<>();
    for (long r : pageRows) {
      pages.add(new PageSummary(r, 0, "mini-block", ""));
    }
    List<InputPartition> out = new ArrayList<>();
    LanceScan.plan(new LanceScan.FilePlan(Path.of("f.lance"), rows, bytes, pages), split, out);
    List<LanceInputPartition> parts = new ArrayList<>();
    long next = 0;
    for (InputPartition p : out) {
      LanceInputPartition l = (LanceInputPartition) p;
      assertEquals(next, l.start(), "partitions are contiguous");
      assertTrue(l.end() > l.start());
      next = l.end();
      parts.add(l);
    }
    assertEquals(rows, next, "partitions cover the file");
    return parts;
  }

  private static List<Long> cuts(List<LanceInputPartition> parts) {
    return parts.stream().map(LanceInputPartition::end).toList();
  }

  @Test
  void aFileWithinTheSplitIsOnePartition() {
    assertEquals(List.of(1000L), cuts(plan(1000, 500, 500, 600, 400)));
  }

  @Test
  void cutsFallOnPageBoundaries() {
    // 10 pages of 1000 rows, 10 MB; 3 MB splits: about 3000 rows each, cut where a page ends
    assertEquals(List.of(3000L, 6000L, 9000L, 10_000L),
        cuts(plan(10_000, 10_000_000, 3_000_000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000)));
  }

  @Test
  void pagesLongerThanTheSplitAreCutAtChunkMultiples() {
    // two pages of 1M rows, split at a quarter of the file: ~500k rows, rounded down to 4096; the
    // rest of a page within 1.5 shares stays whole (no sliver of 576 rows before the boundary)
    List<Long> cuts = cuts(plan(2_000_000, 4_000_000, 1_000_000, 1_000_000, 1_000_000));
    assertEquals(List.of(499_712L, 1_000_000L, 1_499_136L, 2_000_000L), cuts);
  }
}
