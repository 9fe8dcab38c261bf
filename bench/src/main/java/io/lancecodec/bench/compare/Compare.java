package io.lancecodec.bench.compare;

import io.lancecodec.bench.charts.Charts;
import io.lancecodec.bench.compare.Engines.Engine;
import io.lancecodec.bench.compare.Engines.Reader;
import io.lancecodec.bench.corpus.Cleanup;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.FileVersion;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The end-to-end comparison behind {@code bin/lance-codec bench}: every system writes and reads
 * every data set in one process, interleaved step by step (each repetition times its writes for
 * every system in turn, then its opens, then each scan and take, the order reversed every
 * repetition), after a warm-up repetition that also verifies every system's output against the
 * source.
 * stdout: a Markdown table; {@code --out DIR}: the same as Markdown and CSV, with PNG charts of the
 * ratios beside them ({@link Charts}); stderr: progress and notes.
 *
 * <pre>
 * Compare [--quick] [--data DIR] [--out DIR] [--reps N] [--demo DIR] [--only REGEX]
 * Compare --codec NAME [--data FILE --column C] [--options K=V,...] [--quick] [--out DIR]   (the codec leaderboard)
 * </pre>
 */
public final class Compare {
  static final int[] TAKE_SIZES = {1, 10, 100};
  /**
   * Scan batch sizes timed besides {@link Engines#BATCH} (the Lance readers only): small batches
   * expose per-batch costs (vector set-up, look-ups, allocation) that large ones hide.
   */
  static final int[] SMALL_BATCHES = {8192, 1024};
  /** Writes per write sample, at least, however long one takes. */
  static final int MIN_WRITES = 3;

  static final String[] METRICS = {"size_bytes", "write_MBps", "scan_MBps", "take1_rows_per_s", "take10_rows_per_s",
      "take100_rows_per_s", "open_ms", "search_cache_bytes", "scan8k_MBps", "scan1k_MBps"};
  /** Whether a larger value of the metric is better (for the ratio's reading only). */
  static final boolean[] HIGHER_BETTER = {false, true, true, true, true, true, false, false, true, true};
  /** Index in {@link #METRICS} of the scan at {@code SMALL_BATCHES[i]}. */
  static final int SMALL_SCAN_METRIC = 8;

  private Compare() {}

  /** Thrown for bad arguments: one line, exit status 2. */
  static final class Usage extends RuntimeException {
    Usage(String m) {
      super(m);
    }
  }

  public static void main(String[] args) {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
    int status;
    try {
      status = run(args, out, System.err);
    } catch (Usage e) {
      System.err.println("lance-codec bench: " + e.getMessage());
      status = 2;
    } catch (Throwable e) {
      System.err.println("lance-codec bench: " + (e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": "
          + e.getMessage()).replaceAll("\\s*\\R\\s*", " "));
      if (Arrays.asList(args).contains("--debug")) {
        e.printStackTrace();
      }
      status = 1;
    }
    out.flush();
    System.exit(status);
  }

  static int run(String[] argv, PrintStream out, PrintStream err) throws Exception {
    Map<String, String> o = parse(argv);
    if (o.containsKey("--codec")) {
      return Leaderboard.run(o, out, err);
    }
    if (o.containsKey("--column") || o.containsKey("--options")) {
      throw new Usage((o.containsKey("--column") ? "--column" : "--options") + " needs --codec (the leaderboard)");
    }
    boolean quick = o.containsKey("--quick");
    int reps = o.containsKey("--reps") ? Integer.parseInt(o.get("--reps")) : quick ? 1 : 5;
    Path dataDir = userPath(o.getOrDefault("--data", defaultDataDir().toString()));
    Path demoDir = userPath(o.getOrDefault("--demo", root().resolve("cli/src/main/resources/demo").toString()));
    if (o.containsKey("--data") && !Files.isDirectory(dataDir)) {
      throw new Usage("--data " + dataDir + ": not a directory");
    }
    Path outDir = o.containsKey("--out") ? userPath(o.get("--out")) : null;
    if (outDir != null) {
      Files.createDirectories(outDir);
    }
    long minNanos = quick ? 5_000_000L : 150_000_000L;

    StatusLine status = new StatusLine(err, Boolean.getBoolean("lance.codec.stderr.tty"));
    err = status.stream();
    String header = header(quick, reps);
    err.println(header.replaceAll("(?m)^", "# "));
    StringBuilder notes = new StringBuilder();
    List<Row> results = new ArrayList<>();
    Path tmp = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "lance-codec-compare-");
    long t0 = System.nanoTime();
    try (BufferAllocator alloc = new RootAllocator()) {
      List<Data> sets = Data.load(dataDir, demoDir, quick ? 8192 : Integer.MAX_VALUE, quick, alloc, notes);
      if (o.containsKey("--only")) {
        // one data set's rows again, in minutes, when a full run left them in doubt
        java.util.regex.Pattern only = java.util.regex.Pattern.compile(o.get("--only"));
        String names = sets.stream().map(d -> d.name).collect(java.util.stream.Collectors.joining(", "));
        List<Data> kept = Data.keep(sets, n -> only.matcher(n).matches());
        if (kept.isEmpty()) {
          throw new Usage("--only " + o.get("--only") + " matches none of the data sets: " + names);
        }
        sets = kept;
        notes.append("Only the data sets matching --only ").append(o.get("--only")).append(".\n");
      }
      try {
        List<Engine> engines = List.of(
            new Engines.Ours(FileVersion.V2_1, alloc),
            new Engines.Ours(FileVersion.V2_2, alloc),
            new Engines.Ours(FileVersion.V2_3, alloc),
            new Engines.Ref("2.1", alloc),
            new Engines.Ref("2.2", alloc),
            new Engines.Parquet(false),
            new Engines.Parquet(true),
            new Engines.ArrowIpc(alloc),
            quick ? new DuckDb(alloc, 1L << 20, 1L << 20, 64L << 20)
                : new DuckDb(alloc, DuckDb.FULL_MIN_RAW, DuckDb.FULL_MIN_GROWTH, DuckDb.FULL_MAX_RAW),
            new Engines.Arraycopy());
        for (int i = 0; i < sets.size(); i++) {
          Data d = sets.get(i);
          err.printf(Locale.ROOT, "# %s: %s, %,d raw Arrow bytes%n", d.name, d.source, d.rawBytes);
          String where = String.format(Locale.ROOT, "[data set %d/%d] %s", i + 1, sets.size(), d.name);
          results.addAll(measure(d, engines, reps, minNanos, tmp, err, notes, step -> status.show(where + ": " + step)));
        }
      } finally {
        status.done();
        sets.forEach(Data::close);
      }
    } finally {
      Cleanup.deleteTree(tmp);
    }
    String footer = String.format(Locale.ROOT, "total %.0f s; loadavg after: %s", (System.nanoTime() - t0) / 1e9, loadavg());
    String random = RandomAccessTable.markdown(results, reps);
    String md = markdown(results, header, notes.toString(), footer) + "\n" + random;
    out.print(md);
    out.flush();
    if (outDir != null) {
      String stamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString().replace(":", "");
      String suffix = stamp + (quick ? "-quick" : "") + (o.containsKey("--only") ? "-only" : "");
      Path csv = outDir.resolve("compare-" + suffix + ".csv");
      Files.writeString(csv, csv(results, header + "\n" + footer));
      Files.writeString(outDir.resolve("compare-" + suffix + ".md"), md + chartSection(csv, outDir, err));
      Files.writeString(outDir.resolve("random-access-" + suffix + ".csv"), RandomAccessTable.csv(results, header + "\n" + footer));
      Files.writeString(outDir.resolve("random-access-" + suffix + ".md"),
          header.lines().map(l -> "<!-- " + l + " -->").collect(Collectors.joining("\n")) + "\n\n" + random
              + "\n<!-- " + footer + " -->\n");
      err.println("# wrote " + csv + ", random-access-" + suffix + ".csv and the .md files beside them");
    }
    return 0;
  }

  /**
   * Draws the charts of the CSV just written beside it and returns the report's section that
   * shows them. The charts are drawn from the file, as {@code bench/charts.sh} draws them later,
   * so both give the same pictures. A chart that cannot be drawn costs the charts, not the run.
   */
  static String chartSection(Path csv, Path outDir, PrintStream err) {
    try {
      List<Path> pngs = Charts.render(csv, outDir);
      err.println("# charts: " + pngs.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", ")));
      return "\n## Charts\n\nRatios to the reference per data set and system (`bench/charts.sh " + csv.getFileName()
          + "` draws them again).\n\n" + Charts.markdownLinks(pngs, outDir) + "\n";
    } catch (Exception | LinkageError e) {
      err.println("# charts not drawn: " + e);
      return "";
    }
  }

  static Map<String, String> parse(String[] argv) {
    Map<String, String> o = new LinkedHashMap<>();
    List<String> flags = List.of("--quick", "--debug");
    List<String> valued = List.of("--data", "--out", "--reps", "--demo", "--codec", "--column", "--options", "--only");
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      String name = a;
      String value = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      }
      if (flags.contains(name) && value == null) {
        o.put(name, "");
      } else if (valued.contains(name)) {
        if (value == null) {
          if (i + 1 >= argv.length) {
            throw new Usage("option " + name + " needs a value");
          }
          value = argv[++i];
        }
        o.put(name, value);
      } else {
        throw new Usage("unknown argument '" + a + "' (usage: bench [--quick] [--data DIR] [--out DIR] [--reps N] [--only REGEX]"
            + " | bench --codec NAME [--data FILE --column C] [--options K=V,...] [--out DIR])");
      }
    }
    if (o.containsKey("--reps")) {
      try {
        if (Integer.parseInt(o.get("--reps")) < 1) {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        throw new Usage("--reps must be a positive integer, got '" + o.get("--reps") + "'");
      }
    }
    return o;
  }

  /** The repository root: -Dlance.codec.root, else the working directory's parent when run from bench/. */
  static Path root() {
    String r = System.getProperty("lance.codec.root");
    if (r != null) {
      return Path.of(r);
    }
    Path cwd = Path.of("").toAbsolutePath();
    return Files.isDirectory(cwd.resolve("bench")) ? cwd : cwd.getParent();
  }

  /** A path from the command line: relative to the caller's directory (-Dlance.codec.cwd, set by compare.sh). */
  static Path userPath(String p) {
    String cwd = System.getProperty("lance.codec.cwd");
    return cwd == null ? Path.of(p) : Path.of(cwd).resolve(p);
  }

  static Path defaultDataDir() {
    return root().resolveSibling("shared").resolve("data");
  }

  static String loadavg() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).strip();
    } catch (IOException e) {
      return "?";
    }
  }

  static String header(boolean quick, int reps) {
    String codecs = CodecRegistry.discover().plugins().stream().filter(p -> p.kind().equals("codec")).map(CodecRegistry.PluginInfo::name).collect(Collectors.joining(","));
    return String.format(Locale.ROOT,
        "lance-codec bench%s: %s, %s %s, %d cpus, JDK %s; loadavg before: %s%n"
            + "%d repetition(s) after 1 warm-up, interleaved step by step; medians (min-max); our codecs: %s; DuckDB %s",
        quick ? " --quick" : "", Instant.now().truncatedTo(ChronoUnit.SECONDS), System.getProperty("os.name"),
        System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
        loadavg(), reps, codecs, DuckDb.version());
  }

  // ---------------------------------------------------------------- measuring

  /** One system on one data set: samples per metric. */
  static final class Row {
    final String dataset;
    final String system;
    final String refSystem;
    final long rows;
    /** The paper's random-access category of the data set (scalar, string, list, vector). */
    final String category;
    /** Raw Arrow bytes of the data set: the "data size" the search cache is a fraction of. */
    final long rawBytes;
    final List<List<Double>> samples = new ArrayList<>();

    Row(String dataset, String system, String refSystem, long rows, String category, long rawBytes) {
      this.dataset = dataset;
      this.system = system;
      this.refSystem = refSystem;
      this.rows = rows;
      this.category = category;
      this.rawBytes = rawBytes;
      for (int i = 0; i < METRICS.length; i++) {
        samples.add(new ArrayList<>());
      }
    }

    void add(int metric, double v) {
      samples.get(metric).add(v);
    }

    double median(int metric) {
      List<Double> s = samples.get(metric);
      if (s.isEmpty()) {
        return Double.NaN;
      }
      return medianOf(s.stream().mapToDouble(Double::doubleValue).toArray());
    }

    double min(int metric) {
      return samples.get(metric).stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    double max(int metric) {
      return samples.get(metric).stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
  }

  static List<Row> measure(Data d, List<Engine> engines, int reps, long minNanos, Path tmp, PrintStream err,
      StringBuilder notes, java.util.function.Consumer<String> status) throws Exception {
    Map<Engine, Row> rows = new LinkedHashMap<>();
    Map<Engine, String> broken = new LinkedHashMap<>();
    for (Engine e : engines) {
      rows.put(e, new Row(d.name, e.name(), e.refName(), d.rows, d.kind.category(), d.rawBytes));
    }
    // Random rows, ascending and distinct within a batch: the same batches for every system.
    Map<Integer, long[][]> batches = new LinkedHashMap<>();
    SplittableRandom rnd = new SplittableRandom(42);
    for (int k : TAKE_SIZES) {
      long[][] b = new long[512][];
      for (int i = 0; i < b.length; i++) {
        b[i] = rnd.longs(Math.min(k, d.rows) * 2L, 0, d.rows).distinct().limit(Math.min(k, d.rows)).sorted().toArray();
      }
      batches.put(k, b);
    }
    long fullHash = d.hashAll();
    for (int rep = 0; rep <= reps; rep++) {
      boolean warm = rep == 0;
      // Step by step, every system in turn, the order reversed every repetition: a system and
      // its reference (neighbours in the list) are timed a fraction of a second apart. On a
      // shared virtual machine whose speed drifted by 2-4x over minutes, timing each system's
      // whole round in one go left the two seconds apart and the ratio to the phase they fell in.
      List<Engine> order = pairedOrder(engines);
      if (rep % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      Rep r = new Rep(d, order, broken, notes, err, status, warm ? "warm-up" : "repetition " + rep + "/" + reps);
      try {
        // writes: repeated like the other timings, so a small file's write is not one cold call.
        // The warm-up repetition writes for 20x as long: in a fresh JVM the first data set's
        // writes ran while the JIT was still compiling the write path (tokens, 2.1: 22 ms a
        // write in the first 0.3 s, 6.9 ms after 3 s), which the reference, native code, never
        // pays; one 50 ms warm-up left ours-2.1 at 0.28x the reference on tokens and ours-2.2
        // at 1.02x on the same bytes.
        // A sample is the whole timing window (it was a third): ten writes of token ids made a
        // mean that one garbage collection in the window moved by a tenth, while the
        // reference's writes allocate nothing on the heap, so the column swung by system.
        long writeNanos = warm ? 20 * (minNanos / 3) : minNanos;
        int maxWrites = warm ? 20_000 : 1000;
        r.step("write", (e, sample, reader) -> {
          Path file = tmp.resolve(d.name + "." + e.name());
          r.files.put(e, file);
          int writes = 0;
          long size;
          long t = System.nanoTime();
          do {
            size = e.write(d, file);
            writes++;
            // at least three writes a sample: a 30 MB file (vectors) took longer than the window,
            // so its samples were single writes that swung with the page cache by 2x
          } while ((System.nanoTime() - t < writeNanos || writes < MIN_WRITES) && writes < maxWrites);
          sample[0] = size;
          sample[1] = d.rawBytes / 1e6 / ((System.nanoTime() - t) / 1e9 / writes);
        });
        // open (cold: a fresh reader each time; the OS page cache is warm), then the reader the
        // later steps share
        r.step("open", (e, sample, reader) -> {
          int opens = 0;
          long openNanos = 0;
          do {
            long t = System.nanoTime();
            try (Reader x = e.open(d, r.files.get(e))) {
              openNanos += System.nanoTime() - t;
            }
            opens++;
          } while (openNanos < minNanos / 3 && opens < 1000);
          sample[6] = openNanos / 1e6 / opens;
          Reader x = e.open(d, r.files.get(e));
          r.readers.put(e, x);
          sample[7] = x.searchCacheBytes() < 0 ? Double.NaN : x.searchCacheBytes();
          if (warm) {
            check(e, "scan", x.scan(true), fullHash);
            for (int k : TAKE_SIZES) {
              for (int i = 0; i < 3; i++) {
                long[] b = batches.get(k)[i];
                check(e, "take of " + k, x.take(b, true), d.hashRows(b));
              }
            }
            for (int bi = 0; e.batchSized() && bi < SMALL_BATCHES.length; bi++) {
              check(e, "scan in batches of " + SMALL_BATCHES[bi], x.scan(true, SMALL_BATCHES[bi]), fullHash);
            }
          }
        });
        r.step("scan", (e, sample, reader) -> {
          int scans = 0;
          long t = System.nanoTime();
          do {
            reader.scan(false);
            scans++;
          } while (System.nanoTime() - t < minNanos);
          sample[2] = d.rawBytes / 1e6 / ((System.nanoTime() - t) / 1e9 / scans);
        });
        for (int bi = 0; bi < SMALL_BATCHES.length; bi++) {
          int batch = SMALL_BATCHES[bi];
          int metric = SMALL_SCAN_METRIC + bi;
          r.step("scan in batches of " + batch, (e, sample, reader) -> {
            if (!e.batchSized()) {
              return;
            }
            int scans = 0;
            long t = System.nanoTime();
            do {
              reader.scan(false, batch);
              scans++;
            } while (System.nanoTime() - t < minNanos);
            sample[metric] = d.rawBytes / 1e6 / ((System.nanoTime() - t) / 1e9 / scans);
          });
        }
        for (int ki = 0; ki < TAKE_SIZES.length; ki++) {
          long[][] b = batches.get(TAKE_SIZES[ki]);
          int metric = 3 + ki;
          int shift = rep * 37;
          r.step("take of " + TAKE_SIZES[ki], (e, sample, reader) -> {
            long n = 0;
            int i = 0;
            long t = System.nanoTime();
            do {
              long[] batch = b[(i + shift) % b.length];
              reader.take(batch, false);
              n += batch.length;
              i++;
            } while (System.nanoTime() - t < minNanos && i < 100_000);
            sample[metric] = n / ((System.nanoTime() - t) / 1e9);
          });
        }
        if (!warm) {
          for (Engine e : order) {
            if (!broken.containsKey(e)) {
              r.record(e, rows.get(e));
            }
          }
        }
      } finally {
        r.close();
      }
      err.printf(Locale.ROOT, "#   %s done (loadavg %s)%n", warm ? "warm-up and verification" : "repetition " + rep,
          loadavg());
    }
    List<Row> out = new ArrayList<>();
    for (Engine e : engines) {
      if (!broken.containsKey(e)) {
        out.add(rows.get(e));
      }
    }
    return out;
  }

  /** The systems with each one's reference right behind it (where the reference is not placed already). */
  static List<Engine> pairedOrder(List<Engine> engines) {
    List<Engine> order = new ArrayList<>();
    for (Engine e : engines) {
      if (!order.contains(e)) {
        order.add(e);
      }
      for (Engine ref : engines) {
        if (ref.name().equals(e.refName()) && !order.contains(ref)) {
          order.add(ref);
        }
      }
    }
    return order;
  }

  /** One step of a repetition for one system: fills its metrics in {@code sample}. */
  @FunctionalInterface
  interface Step {
    void run(Engine e, double[] sample, Reader reader) throws Exception;
  }

  /**
   * One repetition over one data set: each system's file and reader, kept from step to step, and
   * its samples, recorded together at the end so that every metric's n-th sample of two systems
   * comes from the same repetition (the paired ratios of {@link #ratio}). A system that fails
   * a step is noted, closed and left out of the rest.
   */
  static final class Rep implements AutoCloseable {
    final Data d;
    final List<Engine> order;
    final Map<Engine, String> broken;
    final StringBuilder notes;
    final PrintStream err;
    final java.util.function.Consumer<String> status;
    final String what;
    final Map<Engine, Path> files = new LinkedHashMap<>();
    final Map<Engine, Reader> readers = new LinkedHashMap<>();
    final Map<Engine, double[]> samples = new LinkedHashMap<>();

    Rep(Data d, List<Engine> order, Map<Engine, String> broken, StringBuilder notes, PrintStream err,
        java.util.function.Consumer<String> status, String what) {
      this.d = d;
      this.order = order;
      this.broken = broken;
      this.notes = notes;
      this.err = err;
      this.status = status;
      this.what = what;
      for (Engine e : order) {
        double[] s = new double[METRICS.length];
        Arrays.fill(s, Double.NaN);
        samples.put(e, s);
      }
    }

    void step(String name, Step step) {
      for (int i = 0; i < order.size(); i++) {
        Engine e = order.get(i);
        if (broken.containsKey(e)) {
          continue;
        }
        status.accept(String.format(Locale.ROOT, "%s, %s, system %d/%d, %s", what, name, i + 1, order.size(), e.name()));
        try {
          step.run(e, samples.get(e), readers.get(e));
        } catch (Exception | LinkageError ex) {
          String why = ex.getClass().getSimpleName() + ": " + String.valueOf(ex.getMessage()).replaceAll("\\s*\\R\\s*", " ");
          broken.put(e, why);
          notes.append(d.name).append(" / ").append(e.name()).append(": not measured (").append(why).append(")\n");
          err.println("#   " + e.name() + ": FAILED: " + why);
          closeQuietly(e);
        }
      }
    }

    void record(Engine e, Row row) {
      double[] s = samples.get(e);
      for (int m = 0; m < s.length; m++) {
        boolean fileMetric = m == 0 || m == 1 || m == 6;
        if (Double.isNaN(s[m]) && m != 7 || fileMetric && !e.hasFile() || m == 0 && s[m] < 0) {
          continue; // DuckDB has no size for strings (DuckDb.hasStrings); arraycopy has no file
        }
        row.add(m, s[m]);
      }
    }

    private void closeQuietly(Engine e) {
      Reader x = readers.remove(e);
      if (x != null) {
        try {
          x.close();
        } catch (Exception ignored) {
          // the system already failed; its first error is the one reported
        }
      }
    }

    @Override
    public void close() throws IOException {
      for (Engine e : new ArrayList<>(readers.keySet())) {
        closeQuietly(e);
      }
      for (Path f : files.values()) {
        Files.deleteIfExists(f);
      }
    }
  }

  static void check(Engine e, String what, long got, long expected) {
    if (got != expected) {
      throw new IllegalStateException(e.name() + " " + what + ": values differ from the source data");
    }
  }

  // ---------------------------------------------------------------- output

  static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "—";
    }
    double a = Math.abs(v);
    if (a >= 100_000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    if (a >= 1) {
      return String.format(Locale.ROOT, "%.2f", v);
    }
    return String.format(Locale.ROOT, "%.3f", v);
  }

  static String withSpread(Row r, int m) {
    double med = r.median(m);
    if (Double.isNaN(med)) {
      return "—";
    }
    if (r.samples.get(m).size() < 2 || m == 0 || m == 7) {
      return fmt(med);
    }
    return fmt(med) + " (" + fmt(r.min(m)) + "–" + fmt(r.max(m)) + ")";
  }

  static Row ref(List<Row> all, Row r) {
    for (Row x : all) {
      if (x.dataset.equals(r.dataset) && x.system.equals(r.refSystem)) {
        return x;
      }
    }
    return null;
  }

  static double ratio(List<Row> all, Row r, int m) {
    Row ref = ref(all, r);
    return ref == null ? Double.NaN : pairedRatio(r, ref, m);
  }

  /**
   * {@code a} over {@code b} on metric {@code m}: the median of the ratios repetition by
   * repetition when both have a sample from every repetition (timed side by side, see
   * {@link #measure}), else the ratio of the medians.
   */
  static double pairedRatio(Row a, Row b, int m) {
    List<Double> x = a.samples.get(m);
    List<Double> y = b.samples.get(m);
    if (x.size() != y.size() || x.isEmpty()) {
      return a.median(m) / b.median(m);
    }
    double[] q = new double[x.size()];
    for (int i = 0; i < q.length; i++) {
      q[i] = x.get(i) / y.get(i);
    }
    return medianOf(q);
  }

  /** The median of {@code v} (sorted in place), the mean of the middle two for an even count. */
  static double medianOf(double[] v) {
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  static String markdown(List<Row> rows, String header, String notes, String footer) {
    StringBuilder sb = new StringBuilder();
    sb.append(header.lines().map(l -> "<!-- " + l + " -->").collect(Collectors.joining("\n"))).append("\n\n");
    sb.append("| data set | system | size B | size ×ref | B/value | write MB/s | write ×ref | scan MB/s | scan ×ref"
        + " | scan 8k MB/s | scan 8k ×ref | scan 1k MB/s | scan 1k ×ref | take 1 rows/s | take 1 ×ref | take 10 rows/s | take 10 ×ref | take 100 rows/s | take 100 ×ref"
        + " | open ms | open ×ref | search cache B | cache B/row | cache % of file |\n");
    sb.append("|---|---|" + "---:|".repeat(22) + "\n");
    for (Row r : rows) {
      sb.append("| ").append(r.dataset).append(" | ").append(r.system);
      sb.append(" | ").append(withSpread(r, 0)).append(" | ").append(fmt(ratio(rows, r, 0)));
      sb.append(" | ").append(fmt(r.median(0) / r.rows));
      for (int m : new int[] {1, 2, SMALL_SCAN_METRIC, SMALL_SCAN_METRIC + 1, 3, 4, 5, 6}) {
        sb.append(" | ").append(withSpread(r, m)).append(" | ").append(fmt(ratio(rows, r, m)));
      }
      double cache = r.median(7);
      sb.append(" | ").append(withSpread(r, 7));
      sb.append(" | ").append(fmt(cache / r.rows));
      sb.append(" | ").append(Double.isNaN(r.median(0)) || Double.isNaN(cache) ? "—"
          : String.format(Locale.ROOT, "%.3f%%", 100 * cache / r.median(0))).append(" |\n");
    }
    sb.append("\n×ref = the median over repetitions of the ratio to the reference, each timed right beside it, on the same data set (ours-2.2 and ours-2.3 against ref-2.2, every other"
        + " system against ref-2.1); MB/s are raw Arrow bytes (values, plus 4-byte offsets for strings) per second;"
        + " scan = batches of " + Engines.BATCH + " rows, scan 8k / 1k = batches of 8,192 / 1,024 rows (the Lance readers only);"
        + " write = the mean of as many writes as fit in the timing window (at least three), one sample per repetition."
        + " Search cache: ours = LanceFileReader.searchCacheBytes(); Parquet = 20 B per page of offset index;"
        + " Arrow IPC = 24 B per record batch; the reference does not report it (—)."
        + " DuckDB: one thread; its size is the growth of a fresh database file per copy of the column between k and 2k"
        + " copies (k·raw bytes ≥ 16 MiB, k raised until the growth is ≥ 4 MiB or 4k copies would pass 1 GiB; 1, 1 and 64 MiB"
        + " with --quick, which leaves the sizes coarse; its file grows in 256 KiB blocks; none for strings, whose copies"
        + " DuckDB's dictionaries store as references),"
        + " not the size of the one-copy file it writes; write = a fresh database file, CREATE TABLE AS from the column"
        + " as an Arrow stream, CHECKPOINT; scan = SELECT v FROM t, take = SELECT v FROM t WHERE rowid IN (…) ORDER BY rowid,"
        + " both through its Arrow export (arrowExportStream, " + Engines.BATCH + " rows a batch).\n");
    if (!notes.isEmpty()) {
      sb.append('\n').append(notes.lines().map(l -> "- " + l).collect(Collectors.joining("\n"))).append('\n');
    }
    sb.append("\n<!-- ").append(footer).append(" -->\n");
    return sb.toString();
  }

  static String csv(List<Row> rows, String comment) {
    StringBuilder sb = new StringBuilder();
    comment.lines().forEach(l -> sb.append("# ").append(l).append('\n'));
    sb.append("dataset,system,rows,metric,median,min,max,samples,ref_system,ratio_to_ref\n");
    for (Row r : rows) {
      for (int m = 0; m < METRICS.length; m++) {
        if (r.samples.get(m).isEmpty() || Double.isNaN(r.median(m))) {
          continue;
        }
        sb.append(String.join(",", r.dataset, r.system, Long.toString(r.rows), METRICS[m], num(r.median(m)),
            num(r.min(m)), num(r.max(m)), Integer.toString(r.samples.get(m).size()), r.refSystem,
            num(ratio(rows, r, m)))).append('\n');
      }
    }
    return sb.toString();
  }

  static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v);
  }
}
