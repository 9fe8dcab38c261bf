package io.lancecodec.bench.alp;

import io.lancecodec.bench.Ab;
import io.lancecodec.codec.alp.AlpEncoder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

/**
 * A/B of two codec-alp builds' {@code encodePage} (or, with {@code -Dab.op=decode}, {@link
 * AlpBenchmark#alpDecode}'s decode of the encoded page) in one JVM, for when JMH on a shared machine is
 * too noisy to separate them: each build is loaded with bench's class path behind it in a class
 * loader of its own, both encode the same {@link AlpBenchmark} data set (1,048,576 values), and
 * slices of {@code -Dab.slice} seconds (0.3) of thread CPU time alternate, the order flipped every
 * round, after {@code -Dab.warmup} seconds (3) of each. Prints M values/s per side (median and
 * best of the rounds) and the median per-round ratio B/A.
 *
 * <pre>
 * java [-Dab.op=decode] -cp "$(cat target/classpath.txt):target/classes" io.lancecodec.bench.alp.AlpEncodeAb \
 *   OLD_codec-alp.jar NEW_codec-alp.jar coords,earthquakes f64,f32 [ROUNDS=15]
 * </pre>
 */
public final class AlpEncodeAb {
  private AlpEncodeAb() {}

  public static void main(String[] args) throws Exception {
    String base = System.getProperty("ab.classpath", System.getProperty("java.class.path"));
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 15;
    double slice = Double.parseDouble(System.getProperty("ab.slice", "0.3"));
    double warmup = Double.parseDouble(System.getProperty("ab.warmup", "3"));
    ClassLoader[] loaders = Ab.loaders(args[0], args[1], base);
    for (String data : args[2].split(",")) {
      for (String type : args[3].split(",")) {
        DoubleSupplier[] side = new DoubleSupplier[2];
        for (int k = 0; k < 2; k++) {
          side[k] = (DoubleSupplier) loaders[k].loadClass(AlpEncodeAb.class.getName())
              .getMethod(System.getProperty("ab.op", "encode").equals("decode") ? "decodeSession" : "session",
                  String.class, String.class, double.class)
              .invoke(null, data, type, slice);
        }
        int warm = (int) Math.ceil(warmup / slice);
        double[][] rates = Ab.alternate(side, warm, rounds);
        double[] ratio = Ab.sortedRatios(rates);
        double[] a = rates[0].clone();
        double[] b = rates[1].clone();
        Arrays.sort(a);
        Arrays.sort(b);
        System.out.printf(Locale.ROOT, "%-12s %s A median %6.1f best %6.1f | B median %6.1f best %6.1f M values/s"
                + " | B/A median %.2f (quartiles %.2f-%.2f), %d rounds%n",
            data, type, a[rounds / 2] / 1e6, a[rounds - 1] / 1e6, b[rounds / 2] / 1e6, b[rounds - 1] / 1e6,
            ratio[rounds / 2], ratio[rounds / 4], ratio[3 * rounds / 4], rounds);
      }
    }
  }

  /** Encodes one data set for {@code slice} seconds of this thread's CPU time per call; returns values/s. */
  public static DoubleSupplier session(String data, String type, double slice) throws Exception {
    List<String> text = AlpBenchmark.load(data);
    int n = AlpBenchmark.N;
    boolean f64 = type.equals("f64");
    double[] d = f64 ? new double[n] : null;
    float[] f = f64 ? null : new float[n];
    for (int i = 0; i < n; i++) {
      if (f64) {
        d[i] = Double.parseDouble(text.get(i % text.size()));
      } else {
        f[i] = Float.parseFloat(text.get(i % text.size()));
      }
    }
    AlpEncoder enc = new AlpEncoder();
    return slices(slice, n, () -> (f64 ? enc.encodePage(d, 0, n) : enc.encodePage(f, 0, n)) == null ? 0 : 1);
  }

  /** Decodes the data set's encoded page as {@link AlpBenchmark#alpDecode} does, for {@code slice} seconds a call. */
  public static DoubleSupplier decodeSession(String data, String type, double slice) throws Exception {
    AlpBenchmark b = new AlpBenchmark();
    b.data = data;
    b.type = type;
    b.setup();
    AlpBenchmark.Bytes counter = new AlpBenchmark.Bytes();
    return slices(slice, AlpBenchmark.N, () -> b.alpDecode(counter).hashCode());
  }

  /**
   * Calls {@code call} (which handles {@code values} values and returns something to keep) until
   * {@code slice} seconds of this thread's CPU time have passed, per call of the supplier; returns
   * values/s.
   */
  private static DoubleSupplier slices(double slice, int values, IntSupplier call) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long budget = (long) (slice * 1e9);
    return () -> {
      long t0 = mx.getCurrentThreadCpuTime();
      long t = t0;
      long done = 0;
      int sink = 0;
      while (t - t0 < budget) {
        sink += call.getAsInt();
        done += values;
        t = mx.getCurrentThreadCpuTime();
      }
      return sink == Integer.MIN_VALUE ? 0 : done / ((t - t0) / 1e9);
    };
  }
}
