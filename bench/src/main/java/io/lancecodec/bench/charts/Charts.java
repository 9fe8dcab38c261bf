package io.lancecodec.bench.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.TickType;
import org.jfree.chart.axis.ValueTick;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;

/**
 * Charts of the benchmark results, as PNG files beside the results: {@link CompareCharts} for the
 * comparison, {@link LeaderboardCharts} for the codec leaderboard. {@code bench/charts.sh FILE...}
 * runs {@link #main} to draw them again from files a run already wrote.
 *
 * <pre>
 * Charts FILE... [--out DIR]    (FILE: compare-*.csv, leaderboard-*.csv or a leaderboard-*.md)
 * </pre>
 */
public final class Charts {
  static {
    // Drawing into an image needs no display, and a benchmark machine has none.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  /** Pixels of every chart: wide enough for ten data sets of eight bars with their names level. */
  public static final int WIDTH = 1400;

  public static final int HEIGHT = 640;

  /** A ratio axis turns logarithmic when its values span more than this factor. */
  static final double LOG_SPAN = 10;

  static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 18);
  static final Font SUBTITLE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

  /** One colour per system in every chart, so a system is recognised from chart to chart. */
  static final Map<String, Color> SYSTEM_COLOURS = Map.of(
      "ours-2.1", new Color(0x9ecae1),
      "ours-2.2", new Color(0x4292c6),
      "ours-2.3", new Color(0x08306b),
      "parquet-default", new Color(0xfdae6b),
      "parquet-tuned", new Color(0xd94801),
      "arrow-ipc", new Color(0x41ab5d),
      "duckdb", new Color(0xc9a100),
      "arraycopy", new Color(0x969696));

  static final Color[] OTHER_COLOURS = {new Color(0x8c6bb1), new Color(0xe7298a), new Color(0x66a61e),
      new Color(0xa6761d), new Color(0x1b9e77), new Color(0x666666)};

  private Charts() {}

  public static void main(String[] args) throws IOException {
    Path out = null;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--out") && i + 1 < args.length) {
        out = Path.of(args[++i]);
      } else if (args[i].startsWith("-")) {
        usage("unknown option " + args[i]);
      } else {
        files.add(Path.of(args[i]));
      }
    }
    if (files.isEmpty()) {
      usage("no results file given");
    }
    int status = 0;
    for (Path f : files) {
      Path dir = out != null ? out : f.toAbsolutePath().getParent();
      try {
        List<Path> pngs = render(f, dir);
        System.err.println("# " + f + ": " + pngs.size() + " charts in " + dir);
        System.out.println(markdownLinks(pngs, dir));
      } catch (IOException | RuntimeException e) {
        System.err.println("charts: " + f + ": " + e.getMessage());
        status = 1;
      }
    }
    System.exit(status);
  }

  private static void usage(String why) {
    System.err.println("charts: " + why + " (usage: charts FILE... [--out DIR]; FILE = compare-*.csv, leaderboard-*.csv"
        + " or leaderboard-*.md)");
    System.exit(2);
  }

  /** Draws the charts of one results file into {@code dir}; returns the PNGs written. */
  public static List<Path> render(Path file, Path dir) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("no such file");
    }
    Files.createDirectories(dir);
    String n = file.getFileName().toString();
    if (n.endsWith(".md")) {
      return LeaderboardCharts.render(Results.leaderboard(file), dir);
    }
    List<String> lines = Files.readAllLines(file);
    if (Results.isCompareCsv(lines)) {
      return CompareCharts.render(Results.compare(Results.stem(file), lines), dir);
    }
    if (Results.isLeaderboardCsv(lines)) {
      return LeaderboardCharts.render(Results.leaderboardCsv(Results.stem(file), lines), dir);
    }
    throw new IllegalArgumentException("neither a comparison nor a leaderboard CSV");
  }

  /** Markdown that shows the PNGs, with paths relative to {@code mdDir} (where the report lives). */
  public static String markdownLinks(List<Path> pngs, Path mdDir) {
    return pngs.stream().map(p -> {
      String rel = mdDir.toAbsolutePath().relativize(p.toAbsolutePath()).toString().replace('\\', '/');
      String stem = Results.stem(p);
      return "![" + stem.substring(stem.lastIndexOf('-') + 1) + "](" + rel + ")";
    }).collect(Collectors.joining("\n\n"));
  }

  // ---------------------------------------------------------------- shared looks

  static Paint colour(String system, int index) {
    Color c = SYSTEM_COLOURS.get(system);
    return c != null ? c : OTHER_COLOURS[index % OTHER_COLOURS.length];
  }

  /**
   * A ratio axis over {@code lo..hi} (both > 0), logarithmic when they span more than
   * {@link #LOG_SPAN}: take ratios of vectors reach thousands while sizes stay near 1.
   */
  static ValueAxis ratioAxis(String label, double lo, double hi) {
    if (hi / lo > LOG_SPAN) {
      LogAxis a = new RoundLogAxis(label + " (log scale)");
      // a quarter of a decade of room around the points, so none ends on the frame
      a.setRange(lo / Math.pow(10, 0.25), hi * Math.pow(10, 0.25));
      a.setMinorTickMarksVisible(true);
      return a;
    }
    NumberAxis a = new NumberAxis(label);
    double pad = (hi - lo) * 0.08;
    a.setRange(Math.max(0, lo - pad), hi + pad);
    return a;
  }

  /**
   * A log axis labelled at round numbers (1, 2, 5 times a power of ten; only the powers when
   * the range spans many decades) instead of LogAxis's even steps of the exponent, which land on
   * numbers like 158.489. The other digits get unlabelled minor ticks.
   */
  static final class RoundLogAxis extends LogAxis {
    private static final long serialVersionUID = 1L;

    RoundLogAxis(String label) {
      super(label);
    }

    @Override
    protected List<ValueTick> refreshTicksVertical(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
      return roundTicks(edge == RectangleEdge.RIGHT ? TextAnchor.CENTER_LEFT : TextAnchor.CENTER_RIGHT);
    }

    @Override
    protected List<ValueTick> refreshTicksHorizontal(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
      return roundTicks(edge == RectangleEdge.TOP ? TextAnchor.BOTTOM_CENTER : TextAnchor.TOP_CENTER);
    }

    private List<ValueTick> roundTicks(TextAnchor anchor) {
      double lo = getLowerBound();
      double hi = getUpperBound();
      int first = (int) Math.floor(Math.log10(lo));
      int last = (int) Math.ceil(Math.log10(hi));
      int decades = last - first;
      java.util.Set<Integer> labelled = decades > 5 ? java.util.Set.of(1) : decades > 3 ? java.util.Set.of(1, 3)
          : java.util.Set.of(1, 2, 5);
      DecimalFormat f = new DecimalFormat("#,##0.######");
      List<ValueTick> ticks = new ArrayList<>();
      for (int k = first; k <= last; k++) {
        for (int m = 1; m <= 9; m++) {
          double v = m * Math.pow(10, k);
          if (v < lo || v > hi) {
            continue;
          }
          boolean major = labelled.contains(m);
          ticks.add(new NumberTick(major ? TickType.MAJOR : TickType.MINOR, v, major ? f.format(v) : "", anchor,
              anchor, 0.0));
        }
      }
      return ticks;
    }
  }

  /**
   * A horizontal line at {@code value}. It is named in the legend ({@link #legendLine}) rather
   * than beside the line, where labels of lines close together (1 and 1.5 on a log axis) overlap
   * each other and the bars.
   */
  static ValueMarker line(double value, Color colour, boolean dashed) {
    ValueMarker m = new ValueMarker(value);
    m.setPaint(colour);
    m.setStroke(stroke(dashed));
    return m;
  }

  static LegendItem legendLine(String label, Color colour, boolean dashed) {
    return new LegendItem(label, null, null, null, new Line2D.Double(-12, 0, 12, 0), stroke(dashed), colour);
  }

  private static BasicStroke stroke(boolean dashed) {
    return dashed ? new BasicStroke(1.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f)
        : new BasicStroke(1.8f);
  }

  static JFreeChart chart(String title, String subtitle, Plot plot) {
    JFreeChart c = new JFreeChart(title, TITLE_FONT, plot, true);
    c.addSubtitle(new TextTitle(subtitle, SUBTITLE_FONT));
    c.setBackgroundPaint(Color.WHITE);
    return c;
  }

  static Path save(JFreeChart chart, Path file) throws IOException {
    ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    return file;
  }
}
