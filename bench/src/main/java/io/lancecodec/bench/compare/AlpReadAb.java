package io.lancecodec.bench.compare;

import io.lancecodec.bench.Ab;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.DoubleSupplier;

/**
 * A/B of two builds of our modules in one JVM, alternated slice by slice so that the machine's
 * load hits both alike: each side is bench's class path with its own jars (or class directories)
 * put first, in a class loader of its own, running {@link AlpReadProbe#session}.
 *
 * <pre>
 * AlpReadAb A_ENTRIES B_ENTRIES scan|take1 ENGINE COLUMN ROUNDS [DATA_DIR]
 * </pre>
 *
 * {@code A_ENTRIES}/{@code B_ENTRIES}: colon-separated jars to put first ({@code -} for none).
 * Bench's own class path comes from {@code -Dab.classpath} (default: this JVM's). Options as
 * {@link AlpReadProbe}: {@code -Dprobe.batch}, {@code -Dprobe.slice} (0.2 s here), {@code -Dprobe.clock}, and
 * {@code -Dprobe.warmup} (seconds of each side run before measuring, 3).
 */
public final class AlpReadAb {
  private AlpReadAb() {}

  public static void main(String[] args) throws Exception {
    String base = System.getProperty("ab.classpath", System.getProperty("java.class.path"));
    String op = args[2];
    String engine = args[3];
    String col = args[4];
    int rounds = Integer.parseInt(args[5]);
    String data = args.length > 6 ? args[6] : Compare.defaultDataDir().toString();
    int batch = Integer.getInteger("probe.batch", Engines.BATCH);
    double slice = Double.parseDouble(System.getProperty("probe.slice", "0.2"));
    String clock = System.getProperty("probe.clock", "wall");
    DoubleSupplier[] side = new DoubleSupplier[2];
    ClassLoader[] loaders = Ab.loaders(args[0], args[1], base);
    for (int k = 0; k < 2; k++) {
      ClassLoader cl = loaders[k];
      Class<?> probe = cl.loadClass(AlpReadProbe.class.getName());
      side[k] = (DoubleSupplier) probe.getMethod("session", String.class, String.class, String.class, String.class,
          int.class, double.class, String.class).invoke(null, op, engine, col, data, batch, slice, clock);
    }
    // warm-up: the JIT compiles the read path only after some thousands of calls
    int warm = (int) Math.ceil(Double.parseDouble(System.getProperty("probe.warmup", "3")) / slice);
    double[][] rates = Ab.alternate(side, warm, rounds);
    double[] ratio = Ab.sortedRatios(rates);
    String unit = op.equals("take1") ? "rows/s" : "MB/s";
    for (int k = 0; k < 2; k++) {
      double[] x = rates[k].clone();
      Arrays.sort(x);
      System.out.printf(Locale.ROOT, "%-18s %s %s %s side %s: median %.1f %s (quartiles %.1f-%.1f, best %.1f) over %d rounds (%s clock)%n", col,
          engine, op.equals("take1") ? "take1" : "scan batch " + batch, k == 0 ? "A" : "B", args[k], x[rounds / 2], unit,
          x[rounds / 4], x[3 * rounds / 4], x[rounds - 1], rounds, clock);
    }
    double[] bestOf = new double[2];
    for (int k = 0; k < 2; k++) {
      bestOf[k] = Arrays.stream(rates[k]).max().orElse(0);
    }
    System.out.printf(Locale.ROOT, "%-18s %s B/A per round: median %.2f (quartiles %.2f-%.2f); best B / best A %.2f%n", col, engine,
        ratio[rounds / 2], ratio[rounds / 4], ratio[3 * rounds / 4], bestOf[1] / bestOf[0]);
  }
}
