package io.lancecodec.bench.charts;

import io.lancecodec.bench.charts.Results.CompareRun;
import io.lancecodec.bench.charts.Results.Measure;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The comparison as grouped bars: one chart per metric, a group per data set, a bar per system,
 * the bar's height its median over the reference's median on the same data set (the CSV's
 * {@code ratio_to_ref}), with a line at 1 (the reference). Bars rise from the bottom of the axis,
 * not from 1: a bar starting at 1 has no height when a system equals the reference, and could not
 * be told from a missing measurement. The references themselves are left out: their bars would
 * all be 1.
 */
public final class CompareCharts {
  private CompareCharts() {}

  /**
   * A chart: the CSV's metric, the PNG's suffix, what is drawn and the goal lines. The batch
   * sizes in the titles are those of {@code Compare}'s metric names.
   */
  record Panel(String metric, String suffix, String title, String axis, double goal, String goalLabel) {}

  static final List<Panel> PANELS = List.of(
      new Panel("size_bytes", "size", "File size against the reference", "size ×ref (below 1 = smaller)", Double.NaN, ""),
      new Panel("write_MBps", "write", "Write speed against the reference", "write ×ref (above 1 = faster)", Double.NaN, ""),
      new Panel("scan_MBps", "scan", "Full scan, batches of 65,536 rows", "scan ×ref (above 1 = faster)", 1.5, "goal 1.5×"),
      new Panel("scan8k_MBps", "scan8k", "Full scan, batches of 8,192 rows", "scan ×ref (above 1 = faster)", 1.5,
          "goal 1.5×"),
      new Panel("scan1k_MBps", "scan1k", "Full scan, batches of 1,024 rows", "scan ×ref (above 1 = faster)", 1.5,
          "goal 1.5×"),
      new Panel("take1_rows_per_s", "take1", "Random take, 1 row per call", "take ×ref, rows/s (above 1 = faster)", 30,
          "issue 4's goal 30×"),
      new Panel("take10_rows_per_s", "take10", "Random take, 10 rows per call", "take ×ref, rows/s (above 1 = faster)",
          Double.NaN, ""),
      new Panel("take100_rows_per_s", "take100", "Random take, 100 rows per call", "take ×ref, rows/s (above 1 = faster)",
          Double.NaN, ""));

  static final Color GOAL = new Color(0xb2182b);

  /** Draws every panel the run has data for into {@code dir} as {@code <run>-<suffix>.png}. */
  public static List<Path> render(CompareRun run, Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Panel p : PANELS) {
      JFreeChart c = chart(run, p);
      if (c != null) {
        out.add(Charts.save(c, dir.resolve(run.name() + "-" + p.suffix() + ".png")));
      }
    }
    return out;
  }

  /** The panel's chart, or null when no system but the references has the metric. */
  static JFreeChart chart(CompareRun run, Panel p) {
    Map<String, Double> ratio = new HashMap<>();
    List<String> systems = new ArrayList<>();
    double lo = 1;
    double hi = 1;
    for (Measure m : run.measures()) {
      if (!m.metric().equals(p.metric()) || m.system().equals(m.refSystem()) || !(m.ratio() > 0)) {
        continue;
      }
      ratio.put(m.dataset() + "\n" + m.system(), m.ratio());
      if (!systems.contains(m.system())) {
        systems.add(m.system());
      }
      lo = Math.min(lo, m.ratio());
      hi = Math.max(hi, m.ratio());
    }
    if (systems.isEmpty()) {
      return null;
    }
    systems.sort((a, b) -> Integer.compare(run.systems().indexOf(a), run.systems().indexOf(b)));
    if (!Double.isNaN(p.goal())) {
      lo = Math.min(lo, p.goal());
      hi = Math.max(hi, p.goal());
    }
    // Every cell is added, empty ones as null, so groups and bars keep the run's order.
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (String s : systems) {
      for (String d : run.datasets()) {
        data.addValue(ratio.get(d + "\n" + s), s, d);
      }
    }
    BarRenderer bars = new BarRenderer();
    bars.setBarPainter(new StandardBarPainter());
    bars.setShadowVisible(false);
    bars.setDrawBarOutline(false);
    bars.setItemMargin(0.04);
    for (int i = 0; i < systems.size(); i++) {
      bars.setSeriesPaint(i, Charts.colour(systems.get(i), i));
    }
    CategoryAxis x = new CategoryAxis("data set");
    x.setCategoryMargin(0.18);
    x.setLowerMargin(0.01);
    x.setUpperMargin(0.01);
    if (run.datasets().size() > 12) {
      x.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
    }
    CategoryPlot plot = new CategoryPlot(data, x, Charts.ratioAxis(p.axis(), lo, hi), bars);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(new Color(0xd0d0d0));
    LegendItemCollection legendItems = bars.getLegendItems();
    plot.addRangeMarker(Charts.line(1.0, Color.BLACK, false));
    legendItems.add(Charts.legendLine("reference = 1", Color.BLACK, false));
    if (!Double.isNaN(p.goal())) {
      plot.addRangeMarker(Charts.line(p.goal(), GOAL, true));
      legendItems.add(Charts.legendLine(p.goalLabel(), GOAL, true));
    }
    plot.setFixedLegendItems(legendItems);
    JFreeChart c = Charts.chart(p.title() + " — " + run.name(), subtitle(run, systems), plot);
    LegendTitle legend = c.getLegend();
    legend.setPosition(RectangleEdge.BOTTOM);
    return c;
  }

  /** The machine, and which reference each system drawn is divided by (as the run's CSV says). */
  static String subtitle(CompareRun run, List<String> drawn) {
    Map<String, List<String>> byRef = new LinkedHashMap<>();
    for (Measure m : run.measures()) {
      List<String> s = byRef.computeIfAbsent(m.refSystem(), k -> new ArrayList<>());
      if (drawn.contains(m.system()) && !s.contains(m.system())) {
        s.add(m.system());
      }
    }
    StringBuilder sb = new StringBuilder(run.machine().isEmpty() ? "" : run.machine() + ". ");
    sb.append("×ref = median / the median of ");
    String sep = "";
    for (Map.Entry<String, List<String>> e : byRef.entrySet()) {
      if (!e.getValue().isEmpty()) {
        sb.append(sep).append(e.getKey()).append(" for ").append(String.join(", ", e.getValue()));
        sep = "; of ";
      }
    }
    return sb.append(", on the same data set").toString();
  }
}
