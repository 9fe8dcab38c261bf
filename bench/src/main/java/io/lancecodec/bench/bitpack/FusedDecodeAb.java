package io.lancecodec.bench.bitpack;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * {@link FusedDecodeBenchmark}'s arms alternated in one JVM, for a machine whose load swings in
 * phases of seconds (sequential JMH trials of the two arms then land in different phases): per
 * shape, after a warm-up of both, {@code rounds} pairs of short slices (composition, then fused,
 * the order flipped every round), each slice's rate in values per second, and the median of the
 * per-round ratios fused / composition beside both arms' medians.
 *
 * <pre>
 * java -cp "$(cat target/classpath.txt):target/classes" io.lancecodec.bench.bitpack.FusedDecodeAb \
 *   delta,dict 1,4,8 1024,16384 [ROUNDS=31] [ARM=fusedProto] [BITS=32]
 * </pre>
 *
 * ARM names the fused arm: {@code fusedProto} (the hand-written prototype) or {@code fused} (the
 * codec's own fused decode, when it has one).
 */
public final class FusedDecodeAb {
  private FusedDecodeAb() {}

  public static void main(String[] args) {
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 31;
    String arm = args.length > 4 ? args[4] : "fusedProto";
    int bits = args.length > 5 ? Integer.parseInt(args[5]) : 32;
    System.out.printf("%-6s %5s %6s %14s %14s %8s %s%n", "kind" + (bits == 64 ? "64" : ""), "width", "page", "composition/s", arm + "/s", "ratio", "(ratio p25-p75)");
    for (String kind : args[0].split(",")) {
      for (String w : args[1].split(",")) {
        for (String p : args[2].split(",")) {
          FusedDecodeBenchmark b = new FusedDecodeBenchmark();
          b.kind = kind;
          b.width = Integer.parseInt(w);
          b.page = Integer.parseInt(p);
          b.bits = bits;
          try {
            b.setup();
          } catch (RuntimeException e) {
            System.out.printf("%-6s %5s %6s skipped: %s%n", kind, w, p, e.getMessage());
            continue;
          }
          LongSupplier comp = b::composition;
          LongSupplier fused = arm.equals("fused") ? b::fused : b::fusedProto;
          for (int i = 0; i < 400; i++) {
            comp.getAsLong();
            fused.getAsLong();
          }
          double[] a = new double[rounds];
          double[] f = new double[rounds];
          double[] r = new double[rounds];
          for (int k = 0; k < rounds; k++) {
            if (k % 2 == 0) {
              a[k] = rate(comp);
              f[k] = rate(fused);
            } else {
              f[k] = rate(fused);
              a[k] = rate(comp);
            }
            r[k] = f[k] / a[k];
          }
          double[] rs = r.clone();
          Arrays.sort(rs);
          System.out.printf("%-6s %5s %6s %14.0f %14.0f %8.2f (%.2f-%.2f)%n", kind, w, p, median(a), median(f), median(r),
              rs[rounds / 4], rs[3 * rounds / 4]);
        }
      }
    }
  }

  /** Values per second over a slice of about 100 ms, each call of {@code op} decoding {@link FusedDecodeBenchmark#N} values. */
  public static double rate(LongSupplier op) {
    long sink = 0;
    int ops = 0;
    long t0 = System.nanoTime();
    long t;
    do {
      sink += op.getAsLong();
      ops++;
      t = System.nanoTime();
    } while (t - t0 < 100_000_000L);
    if (sink == 42) {
      System.out.print("");
    }
    return (double) ops * FusedDecodeBenchmark.N / ((t - t0) / 1e9);
  }

  public static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
