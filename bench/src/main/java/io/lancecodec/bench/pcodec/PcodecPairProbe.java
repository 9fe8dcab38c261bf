package io.lancecodec.bench.pcodec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Paired timing of {@link PcodecBenchmark}'s methods for hosts whose speed changes in phases
 * lasting seconds (see bench/README.md, "The host's slow phases"): JMH measures one method after
 * the other, so a slow phase can land on pco or on zstd alone and flip their ratio. Here every
 * round runs pco decode, zstd decompress, pco encode and zstd compress once each, back to back,
 * so both codecs see the same phases; the per-round ratio pco/zstd is summarised by its median.
 *
 * <pre>
 * java -Xms1g -Xmx1g -cp "target/classes:$(cat target/pcodec-classpath.txt)" \
 *   io.lancecodec.bench.pcodec.PcodecPairProbe [data sets, comma-separated] [seconds per set] [decode]
 * </pre>
 *
 * With {@code decode} as the third argument, only the two decoders run (shorter rounds).
 */
public final class PcodecPairProbe {
  private static final List<String> ALL = List.of("temps-f64", "gauss-f32", "tokens-i32", "tokens-i64", "timestamps-i64");
  private static final String[] METHODS = {"pcoDecode", "zstdDecompress", "pcoEncode", "zstdCompress"};

  private PcodecPairProbe() {}

  public static void main(String[] args) throws Exception {
    List<String> sets = args.length > 0 ? List.of(args[0].split(",")) : ALL;
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 10;
    System.out.printf(Locale.ROOT, "# %d seconds per data set, loadavg %s%n", (long) seconds,
        new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).trim());
    List<String> table = new ArrayList<>();
    for (String set : sets) {
      PcodecBenchmark b = new PcodecBenchmark();
      b.dataset = set;
      b.setup();
      PcodecBenchmark.Counters c = new PcodecBenchmark.Counters();
      Runnable[] ops = {() -> b.pcoDecode(c), () -> b.zstdDecompress(c), () -> b.pcoEncode(c), () -> b.zstdCompress(c)};
      if (args.length > 2 && args[2].equals("decode")) {
        ops = Arrays.copyOf(ops, 2);
      }
      long warmEnd = System.nanoTime() + (long) (seconds * 0.25e9);
      while (System.nanoTime() < warmEnd) {
        for (Runnable op : ops) {
          op.run();
        }
      }
      List<long[]> rounds = new ArrayList<>();
      long end = System.nanoTime() + (long) (seconds * 1e9);
      while (System.nanoTime() < end) {
        long[] t = new long[ops.length];
        for (int k = 0; k < ops.length; k++) {
          long s = System.nanoTime();
          ops[k].run();
          t[k] = System.nanoTime() - s;
        }
        rounds.add(t);
      }
      b.tearDown();
      int n = rounds.size();
      double numbers = PcodecBenchmark.N;
      double rawBytes = numbers * (set.endsWith("f32") || set.endsWith("i32") ? 4 : 8);
      double[] best = new double[METHODS.length];
      double[] median = new double[METHODS.length];
      for (int k = 0; k < ops.length; k++) {
        long[] col = new long[n];
        for (int r = 0; r < n; r++) {
          col[r] = rounds.get(r)[k];
        }
        Arrays.sort(col);
        best[k] = col[0] / numbers;
        median[k] = col[n / 2] / numbers;
        System.out.printf(Locale.ROOT, "%-15s %-15s best %7.2f  median %7.2f ns/number  (median %,8.0f MB/s, %6.1f M numbers/s)%n",
            set, METHODS[k], best[k], median[k], rawBytes / (median[k] * numbers) * 1e3, 1e3 / median[k]);
      }
      double decodeRatio = pairedRatio(rounds, 1, 0);
      boolean encoded = ops.length > 2;
      table.add(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | **%.2f** | %.2f | %s | %s | %d |", set,
          rawBytes / (median[0] * numbers) * 1e3, rawBytes / (median[1] * numbers) * 1e3, decodeRatio,
          best[1] / best[0], encoded ? String.format(Locale.ROOT, "%.1f", 1e3 / median[2]) : "-",
          encoded ? String.format(Locale.ROOT, "%.1f", 1e3 / median[3]) : "-", n));
    }
    System.out.println();
    System.out.println("| data set | decode MB/s pco (median) | decode MB/s zstd (median) | pco/zstd decode, median of rounds "
        + "| pco/zstd decode, best vs best | encode M numbers/s pco (median) | zstd-3 compress M numbers/s (median) | rounds |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
    table.forEach(System.out::println);
  }

  /** Median over rounds of time[other] / time[pco]: above 1 when pco is faster. */
  private static double pairedRatio(List<long[]> rounds, int other, int pco) {
    double[] r = new double[rounds.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = (double) rounds.get(i)[other] / rounds.get(i)[pco];
    }
    Arrays.sort(r);
    return r[r.length / 2];
  }
}
