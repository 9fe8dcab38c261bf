package io.lancecodec.bench.charts;

import io.lancecodec.bench.charts.Results.LeaderboardRun;
import io.lancecodec.bench.charts.Results.Offer;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The codec leaderboard as scatter plots: compression ratio against decode speed, and against
 * encode speed. One series per offer (plugin and field options), one point per file version; the
 * codec the run was asked about is drawn larger. Up and to the right is better.
 */
public final class LeaderboardCharts {
  private LeaderboardCharts() {}

  public static List<Path> render(LeaderboardRun run, Path dir) throws IOException {
    if (run.offers().isEmpty()) {
      throw new IllegalArgumentException(run.name() + ": no scored offers to draw");
    }
    return List.of(
        Charts.save(chart(run, "decode", Offer::decodeMBps), dir.resolve(run.name() + "-decode.png")),
        Charts.save(chart(run, "encode", Offer::encodeMBps), dir.resolve(run.name() + "-encode.png")));
  }

  /** The offer's name in the legend: codec and field options; * marks the codec asked for. */
  static String offerName(Offer o) {
    return o.offer() + (o.options().isEmpty() ? "" : " (" + o.options() + ")") + (o.selected() ? " *" : "");
  }

  static JFreeChart chart(LeaderboardRun run, String what, ToDoubleFunction<Offer> speed) {
    // One series per offer and file version: the versions' points often coincide, so they differ in
    // shape (filled for the first version, outlined for the next) and share the offer's colour.
    Map<String, XYSeries> series = new LinkedHashMap<>();
    List<String> offers = new ArrayList<>();
    List<String> versions = new ArrayList<>();
    Map<String, Boolean> selected = new LinkedHashMap<>();
    double lo = Double.MAX_VALUE;
    double hi = 0;
    double top = 0;
    for (Offer o : run.offers()) {
      double x = speed.applyAsDouble(o);
      if (!(x > 0) || !(o.ratio() > 0)) {
        continue;
      }
      String name = offerName(o);
      if (!offers.contains(name)) {
        offers.add(name);
      }
      if (!versions.contains(o.fileVersion())) {
        versions.add(o.fileVersion());
      }
      selected.put(name, o.selected());
      series.computeIfAbsent(name + "\n" + o.fileVersion(), k -> new XYSeries(name + ", " + o.fileVersion()))
          .add(x, o.ratio());
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
      top = Math.max(top, o.ratio());
    }
    if (series.isEmpty()) {
      throw new IllegalArgumentException(run.name() + ": no offer has both a ratio and a " + what + " speed");
    }
    XYSeriesCollection data = new XYSeriesCollection();
    XYLineAndShapeRenderer points = new XYLineAndShapeRenderer(false, true);
    points.setUseOutlinePaint(false);
    int i = 0;
    for (Map.Entry<String, XYSeries> e : series.entrySet()) {
      data.addSeries(e.getValue());
      String name = e.getKey().substring(0, e.getKey().indexOf('\n'));
      int v = versions.indexOf(e.getKey().substring(e.getKey().indexOf('\n') + 1));
      double r = selected.get(name) ? 7 : 5.5;
      r += 2 * v; // a later version's outline is drawn around the earlier one's dot
      points.setSeriesShape(i, v % 2 == 0 ? new Ellipse2D.Double(-r, -r, 2 * r, 2 * r)
          : new Rectangle2D.Double(-r, -r, 2 * r, 2 * r));
      points.setSeriesShapesFilled(i, v == 0);
      points.setSeriesStroke(i, new BasicStroke(2f));
      points.setSeriesPaint(i, Charts.colour("", offers.indexOf(name)));
      i++;
    }
    ValueAxis x = Charts.ratioAxis(what + " MB/s (raw bytes per second)", lo, hi);
    NumberAxis y = new NumberAxis("compression ratio (raw bytes / compressed bytes)");
    y.setRange(0, top * 1.12);
    XYPlot plot = new XYPlot(data, x, y, points);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xd0d0d0));
    plot.setRangeGridlinePaint(new Color(0xd0d0d0));
    plot.setDomainGridlineStroke(new BasicStroke(1f));
    plot.setRangeGridlineStroke(new BasicStroke(1f));
    String title = "Codec leaderboard, ratio against " + what + " speed — " + run.name();
    String sub = (run.data().isEmpty() ? "" : run.data() + ". ")
        + (run.machine().isEmpty() ? "" : run.machine() + ". ")
        + "Mini-block compressors through the SPI; * = the codec asked for; up and to the right is better";
    JFreeChart c = Charts.chart(title, sub, plot);
    LegendTitle legend = c.getLegend();
    legend.setPosition(RectangleEdge.BOTTOM);
    return c;
  }
}
