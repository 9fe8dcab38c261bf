package io.lancecodec.bench.compare;

import io.lancecodec.bench.corpus.Cleanup;
import io.lancecodec.spi.FileVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Reads of float64 columns through the file readers, engines alternated in one JVM so that the
 * machine's load hits all of them alike: per round, each engine (in rotated order) runs the
 * operation for {@code -Dprobe.slice=0.3} seconds; the report gives each engine's median over the
 * rounds and its ratio to the first engine, after {@code -Dprobe.warmup} seconds (3) of each. Operations: {@code scan} (every batch of
 * {@code -Dprobe.batch} rows, default 65,536, MB/s of raw values) or {@code take1} (one row at a
 * seeded random position, rows/s). Rates are per second of {@code -Dprobe.clock}: {@code wall}
 * (default), {@code thread} (the calling thread's CPU time: steadier on a loaded machine, for
 * readers that decode on the calling thread, as ours do) or {@code process}. Engines: {@code ours-2.1}, {@code ours-2.2}, {@code ours-2.3},
 * {@code ref-2.1}, {@code ref-2.2}, each file written by that engine.
 *
 * <pre>
 * AlpReadProbe scan|take1 ENGINE[,ENGINE...] ROUNDS COLUMN[,COLUMN...] [DATA_DIR]
 * </pre>
 *
 * Columns: {@code seattle-temp_max}, {@code zip-latitude}, {@code zip-longitude}, {@code sp500-close},
 * {@code hourly-temperature} (vega-datasets CSV columns as float64); {@code NAME*K} repeats the
 * column K times; any other name is a data set of the comparison (mail-lists, token-lines, ...), so
 * that {@code AlpReadAb} A/Bs any scan. Run like {@link ScanProbe}
 * (its class path, {@code --add-opens=java.base/java.nio=ALL-UNNAMED} and a private
 * {@code java.io.tmpdir} that is deleted afterwards); {@code -Dprobe.keep=true} keeps the files written.
 */
public final class AlpReadProbe {
  private AlpReadProbe() {}

  static Data column(String name, Path vega, BufferAllocator alloc) throws Exception {
    int star = name.indexOf('*');
    if (star > 0) {
      // NAME*K: the column's file with its data lines repeated K times, for scans long enough
      // that per-call costs do not decide them
      int k = Integer.parseInt(name.substring(star + 1));
      String base = name.substring(0, star);
      String file = switch (base) {
        case "seattle-temp_max" -> "seattle-weather.csv";
        case "zip-latitude", "zip-longitude" -> "zipcodes.csv";
        case "sp500-close" -> "sp500-2000.csv";
        case "hourly-temperature" -> "seattle-weather-hourly-normals.csv";
        default -> throw new IllegalArgumentException("column " + base);
      };
      List<String> lines = Files.readAllLines(vega.resolve(file));
      Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "alp-read-col-");
      Path copy = dir.resolve(file);
      List<String> out = new ArrayList<>(lines.subList(0, 1));
      for (int i = 0; i < k; i++) {
        out.addAll(lines.subList(1, lines.size()));
      }
      Files.write(copy, out);
      try {
        Data d = column(base, dir, alloc);
        return d;
      } finally {
        Cleanup.deleteTree(dir);
      }
    }
    return switch (name) {
      case "seattle-temp_max" -> Data.csvColumn(name, vega.resolve("seattle-weather.csv"), "temp_max", Data.Kind.FLOAT64, Integer.MAX_VALUE, alloc);
      case "zip-latitude" -> Data.csvColumn(name, vega.resolve("zipcodes.csv"), "latitude", Data.Kind.FLOAT64, Integer.MAX_VALUE, alloc);
      case "zip-longitude" -> Data.csvColumn(name, vega.resolve("zipcodes.csv"), "longitude", Data.Kind.FLOAT64, Integer.MAX_VALUE, alloc);
      case "sp500-close" -> Data.csvColumn(name, vega.resolve("sp500-2000.csv"), "close", Data.Kind.FLOAT64, Integer.MAX_VALUE, alloc);
      case "hourly-temperature" -> Data.csvColumn(name, vega.resolve("seattle-weather-hourly-normals.csv"), "temperature", Data.Kind.FLOAT64,
          Integer.MAX_VALUE, alloc);
      default -> comparisonSet(name, vega.getParent(), alloc);
    };
  }

  /** Any other name: a data set of the comparison ({@code bin/lance-codec bench}), e.g. mail-lists. */
  private static Data comparisonSet(String name, Path dataDir, BufferAllocator alloc) throws Exception {
    List<Data> sets = Data.load(dataDir, Compare.root().resolve("cli/src/main/resources/demo"), Integer.MAX_VALUE, false, alloc,
        new StringBuilder());
    List<Data> found = Data.keep(sets, name::equals);
    if (found.isEmpty()) {
      throw new IllegalArgumentException("column " + name + ": neither a float64 column here nor a data set in " + dataDir);
    }
    return found.get(0);
  }

  static Engines.Engine engine(String name, BufferAllocator alloc) {
    String v = name.substring(name.indexOf('-') + 1);
    if (name.startsWith("ours-")) {
      return new Engines.Ours(v.equals("2.1") ? FileVersion.V2_1 : v.equals("2.2") ? FileVersion.V2_2 : FileVersion.V2_3, alloc);
    }
    return new Engines.Ref(v, alloc);
  }

  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

  /** Nanoseconds of the named clock: {@code wall}, this thread's CPU time, or the process's. */
  static long clock(String clock) {
    return switch (clock) {
      case "wall" -> System.nanoTime();
      case "thread" -> THREADS.getCurrentThreadCpuTime();
      case "process" -> OS.getProcessCpuTime();
      default -> throw new IllegalArgumentException("probe.clock " + clock);
    };
  }

  /**
   * One engine's reader of one column, for drivers that alternate engines loaded in separate
   * class loaders ({@code AlpReadAb}): each call of the result runs one slice of the operation and
   * returns its rate. The files live until the JVM exits.
   */
  public static java.util.function.DoubleSupplier session(String op, String engineName, String col, String dataDir,
      int batch, double slice, String clock) throws Exception {
    BufferAllocator alloc = new RootAllocator();
    Data d = column(col, Path.of(dataDir).resolve("vega-datasets"), alloc);
    Path tmp = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "alp-read-ab-");
    tmp.toFile().deleteOnExit();
    Path file = tmp.resolve(col + "." + engineName);
    engine(engineName, alloc).write(d, file);
    file.toFile().deleteOnExit();
    Engines.Reader reader = engine(engineName, alloc).open(d, file);
    boolean take = op.equals("take1");
    SplittableRandom rnd = new SplittableRandom(42);
    long[] one = new long[1];
    return () -> {
      try {
        return slice(reader, take, d, rnd, one, batch, slice, clock);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
  }

  /**
   * Runs one-row takes (random rows from {@code rnd}, through {@code one}) or scans for
   * {@code slice} seconds; returns rows/s or MB/s on the given clock.
   */
  private static double slice(Engines.Reader reader, boolean take, Data d, SplittableRandom rnd, long[] one, int batch,
      double slice, String clock) throws Exception {
    long ops = 0;
    long t0 = System.nanoTime();
    long c0 = clock(clock);
    long end = t0 + (long) (slice * 1e9);
    long now;
    do {
      if (take) {
        one[0] = rnd.nextInt(d.rows);
        reader.take(one, false);
      } else {
        reader.scan(false, batch);
      }
      ops++;
      now = System.nanoTime();
    } while (now < end);
    double secs = clock.equals("wall") ? (now - t0) / 1e9 : (clock(clock) - c0) / 1e9;
    return take ? ops / secs : ops * d.rawBytes / 1e6 / secs;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      System.err.println("usage: AlpReadProbe scan|take1 ENGINE[,ENGINE...] ROUNDS COLUMN[,COLUMN...] [DATA_DIR]");
      System.exit(2);
    }
    boolean take = args[0].equals("take1");
    String[] names = args[1].split(",");
    int rounds = Integer.parseInt(args[2]);
    Path data = args.length > 4 ? Path.of(args[4]) : Compare.defaultDataDir();
    int batch = Integer.getInteger("probe.batch", Engines.BATCH);
    double slice = Double.parseDouble(System.getProperty("probe.slice", "0.3"));
    String clock = System.getProperty("probe.clock", "wall");
    Path tmp = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "alp-read-probe-");
    try (BufferAllocator alloc = new RootAllocator()) {
      for (String col : args[3].split(",")) {
        Data d = column(col, data.resolve("vega-datasets"), alloc);
        try {
          int k = names.length;
          Engines.Reader[] readers = new Engines.Reader[k];
          long[] sizes = new long[k];
          for (int i = 0; i < k; i++) {
            Engines.Engine e = engine(names[i], alloc);
            Path file = tmp.resolve(col + "." + names[i]);
            sizes[i] = e.write(d, file);
            readers[i] = e.open(d, file);
          }
          List<List<Double>> rates = new ArrayList<>();
          for (int i = 0; i < k; i++) {
            rates.add(new ArrayList<>());
          }
          SplittableRandom rnd = new SplittableRandom(42);
          long[] one = new long[1];
          // warm-up rounds: the JIT compiles the read path only after some thousands of calls
          int warm = (int) Math.ceil(Double.parseDouble(System.getProperty("probe.warmup", "3")) / slice);
          for (int r = -warm; r < rounds; r++) {
            for (int j = 0; j < k; j++) {
              int i = (j + Math.max(r, 0)) % k;
              double rate = slice(readers[i], take, d, rnd, one, batch, slice, clock);
              if (r >= 0) {
                rates.get(i).add(rate);
              }
            }
          }
          double base = 0;
          for (int i = 0; i < k; i++) {
            List<Double> x = rates.get(i);
            Collections.sort(x);
            double median = x.get(x.size() / 2);
            if (i == 0) {
              base = median;
            }
            System.out.printf(Locale.ROOT, "%-18s %-9s %s rows %d, file %d bytes: median %.1f %s (min %.1f, max %.1f) over %d rounds, %.2fx %s%n",
                col, names[i], (take ? "take1" : "scan batch " + batch) + " (" + clock + " clock)", d.rows, sizes[i], median, take ? "rows/s" : "MB/s",
                x.get(0), x.get(x.size() - 1), x.size(), median / base, names[0]);
          }
          for (Engines.Reader rd : readers) {
            rd.close();
          }
        } finally {
          d.close();
        }
      }
    } finally {
      if (Boolean.getBoolean("probe.keep")) {
        System.out.println("files kept in " + tmp);
      } else {
        Cleanup.deleteTree(tmp);
      }
    }
  }
}
