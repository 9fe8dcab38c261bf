package io.lancecodec.bench.fsst;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * FSST decoding speed separated from the machine's slow phases. On this shared host a
 * throughput-bound loop (many independent integer operations, high IPC) runs at 0.65-1.0 of its
 * best rate in phases lasting seconds, while a latency-bound loop and a memory copy do not move:
 * the sign of another tenant on the sibling hardware thread. The FSST kernel is throughput-bound
 * too, so a JMH mean depends on how many of its iterations fell in slow phases (0.92 and 1.16 GB/s
 * for the same code on the same day).
 *
 * <p>This probe alternates short slices: a canary (eight independent shift-xor-add chains), 10
 * decodes of every page of a {@link FsstBenchmark} path, the canary again. It prints the median
 * GB/s over all slices, the median over the calm slices (both canaries within 7% of the best
 * canary rate of the run) and the median of each slice's GB/s scaled by best canary / its
 * canary. The first 10 slices are warm-up.
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -Djava.io.tmpdir=target/jvm-tmp -Xms1g -Xmx1g \
 *   -cp "$(cat target/classpath.txt):target/classes" io.lancecodec.bench.fsst.FsstPhaseProbe corpus miniBlock 60
 * </pre>
 *
 * Arguments: the data set ({@link FsstBenchmark#dataset}), the path ({@code miniBlock},
 * {@code miniBlockFresh}, {@code perValue} or {@code perValueSteps}) and the number of slices.
 */
public final class FsstPhaseProbe {
  private static final int WARMUP = 10;
  private static final int DECODES_PER_SLICE = 10;
  private static final int CANARY_STEPS = 3_000_000;
  /** A slice is calm when its canaries ran at least this fraction of the best canary rate. */
  private static final double CALM = 0.93;

  private long a0 = 1, a1 = 2, a2 = 3, a3 = 4, a4 = 5, a5 = 6, a6 = 7, a7 = 8;

  private FsstPhaseProbe() {}

  /** Steps per nanosecond of eight independent chains: bound by issue width, not latency. */
  private double canary() {
    long x0 = a0, x1 = a1, x2 = a2, x3 = a3, x4 = a4, x5 = a5, x6 = a6, x7 = a7;
    long t0 = System.nanoTime();
    for (int i = 0; i < CANARY_STEPS; i++) {
      x0 += x0 << 3 ^ 7;
      x1 += x1 << 5 ^ 11;
      x2 += x2 << 7 ^ 13;
      x3 += x3 << 9 ^ 17;
      x4 += x4 << 3 ^ 19;
      x5 += x5 << 5 ^ 23;
      x6 += x6 << 7 ^ 29;
      x7 += x7 << 9 ^ 31;
    }
    double rate = (double) CANARY_STEPS / (System.nanoTime() - t0);
    a0 = x0; a1 = x1; a2 = x2; a3 = x3; a4 = x4; a5 = x5; a6 = x6; a7 = x7;
    return rate;
  }

  public static void main(String[] args) throws Exception {
    String dataset = args.length > 0 ? args[0] : "corpus";
    String path = args.length > 1 ? args[1] : "miniBlock";
    int slices = args.length > 2 ? Integer.parseInt(args[2]) : 60;
    if (slices <= WARMUP) {
      throw new IllegalArgumentException("slices must be more than " + WARMUP + " (the warm-up), got " + slices);
    }
    FsstBenchmark bench = new FsstBenchmark();
    bench.dataset = dataset;
    bench.setup();
    FsstBenchmark.Bytes bytes = new FsstBenchmark.Bytes();
    FsstBenchmark.Reuse reuse = new FsstBenchmark.Reuse();
    FsstPhaseProbe probe = new FsstPhaseProbe();
    double[] speed = new double[slices];
    double[] canary = new double[slices];
    long sink = 0;
    for (int s = 0; s < slices; s++) {
      double before = probe.canary();
      bytes.bytes = 0;
      long t0 = System.nanoTime();
      for (int i = 0; i < DECODES_PER_SLICE; i++) {
        sink += decode(bench, path, bytes, reuse);
      }
      speed[s] = bytes.bytes / (double) (System.nanoTime() - t0);
      canary[s] = Math.min(before, probe.canary());
    }
    double best = 0;
    for (int s = WARMUP; s < slices; s++) {
      best = Math.max(best, canary[s]);
    }
    List<Double> all = new ArrayList<>();
    List<Double> calm = new ArrayList<>();
    List<Double> scaled = new ArrayList<>();
    for (int s = WARMUP; s < slices; s++) {
      all.add(speed[s]);
      scaled.add(speed[s] * best / canary[s]);
      if (canary[s] >= CALM * best) {
        calm.add(speed[s]);
      }
    }
    System.out.printf(
        "%s %s: median %.3f GB/s over %d slices; calm slices %d, median %.3f GB/s; canary-scaled median %.3f GB/s (%d)%n",
        dataset, path, median(all), all.size(), calm.size(), calm.isEmpty() ? Double.NaN : median(calm), median(scaled), sink & 1);
  }

  private static long decode(FsstBenchmark bench, String path, FsstBenchmark.Bytes bytes, FsstBenchmark.Reuse reuse) {
    switch (path) {
      case "miniBlock":
        return bench.miniBlock(bytes, reuse);
      case "miniBlockFresh":
        return bench.miniBlockFresh(bytes);
      case "perValue":
        return bench.perValue(bytes);
      case "perValueSteps":
        return bench.perValueSteps(bytes, reuse);
      default:
        throw new IllegalArgumentException("path must be miniBlock, miniBlockFresh, perValue or perValueSteps, got " + path);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
