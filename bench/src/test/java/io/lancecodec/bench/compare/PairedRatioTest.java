package io.lancecodec.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.bench.compare.Engines.Engine;
import io.lancecodec.bench.compare.Engines.Reader;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PairedRatioTest {
  private static Compare.Row row(String system, double... writes) {
    Compare.Row r = new Compare.Row("d", system, "ref", 1, "scalar", 1);
    for (double w : writes) {
      r.add(1, w);
    }
    return r;
  }

  /**
   * Repetition by repetition: ours against the reference timed beside it in each repetition (3,
   * 2 and 2.5x here, median 2.5), not the ratio of the two medians (12 / 6).
   */
  @Test
  void ratiosArePairedByRepetition() {
    Compare.Row ours = row("ours", 3, 12, 50);
    Compare.Row ref = row("ref", 1, 6, 20);
    assertEquals(2.5, Compare.pairedRatio(ours, ref, 1), 1e-12);
    assertEquals(2.0, ours.median(1) / ref.median(1), 1e-12);
  }

  /** A repetition missing on one side leaves no pairs: then the medians' ratio. */
  @Test
  void unequalSampleCountsFallBackToTheMedians() {
    Compare.Row ours = row("ours", 3, 9);
    Compare.Row ref = row("ref", 1, 2, 4);
    assertEquals(6.0 / 2, Compare.pairedRatio(ours, ref, 1), 1e-12);
  }

  @Test
  void evenCountsTakeTheMeanOfTheMiddleTwo() {
    assertEquals(2.5, Compare.medianOf(new double[] {4, 1, 3, 2}), 1e-12);
    assertEquals(3.0, Compare.medianOf(new double[] {5, 3, 1}), 1e-12);
  }

  private record Named(String name, String refName) implements Engine {
    @Override
    public long write(Data d, Path file) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Reader open(Data d, Path file) {
      throw new UnsupportedOperationException();
    }
  }

  /** Each system is followed by its reference unless the reference is placed already. */
  @Test
  void eachSystemSitsBesideItsReference() {
    List<Engine> engines = List.of(new Named("ours-2.1", "ref-2.1"), new Named("ours-2.2", "ref-2.2"),
        new Named("ours-2.3", "ref-2.2"), new Named("ref-2.1", "ref-2.1"), new Named("ref-2.2", "ref-2.2"),
        new Named("parquet", "ref-2.1"));
    String order = Compare.pairedOrder(engines).stream().map(Engine::name).collect(Collectors.joining(","));
    assertEquals("ours-2.1,ref-2.1,ours-2.2,ref-2.2,ours-2.3,parquet", order);
  }
}
