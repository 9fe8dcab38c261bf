package io.lancecodec.bench.alp;

import io.lancecodec.bench.bitpack.FusedDecodeAb;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * {@link AlpBenchmark}'s {@code alpComposed} (unpack into scratch, then a FOR/Delta + scale pass)
 * and {@code alpDecode} (codec-alp's hand-written {@code FusedDecode}) alternated in one JVM, per
 * data set and type: rounds of two ~100 ms slices, the order flipped every round, and the median
 * per-round ratio fused / composed. Run with the same
 * {@code -XX:CompileCommand=dontinline,io.lancecodec.codec.alp.BitPacking::unpack*} as the
 * benchmark's forks.
 *
 * <pre>
 * java -XX:CompileCommand=quiet -XX:CompileCommand=dontinline,io.lancecodec.codec.alp.BitPacking::unpack* \
 *   -cp "$(cat target/classpath.txt):target/classes" io.lancecodec.bench.alp.AlpFusedAb weather,coords f64,f32 [ROUNDS=21]
 * </pre>
 */
public final class AlpFusedAb {
  private AlpFusedAb() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 21;
    System.out.printf("%-12s %4s %14s %14s %8s %s%n", "data", "type", "composed/s", "fused/s", "ratio", "(ratio p25-p75)");
    for (String data : args[0].split(",")) {
      for (String type : args[1].split(",")) {
        AlpBenchmark b = new AlpBenchmark();
        b.data = data;
        b.type = type;
        try {
          b.setup();
        } catch (RuntimeException e) {
          System.out.printf("%-12s %4s skipped: %s%n", data, type, e.getMessage());
          continue;
        }
        AlpBenchmark.Bytes counter = new AlpBenchmark.Bytes();
        LongSupplier composed = () -> b.alpComposed(counter).hashCode();
        LongSupplier fused = () -> b.alpDecode(counter).hashCode();
        for (int i = 0; i < 300; i++) {
          composed.getAsLong();
          fused.getAsLong();
        }
        double[] a = new double[rounds];
        double[] f = new double[rounds];
        double[] r = new double[rounds];
        for (int k = 0; k < rounds; k++) {
          if (k % 2 == 0) {
            a[k] = FusedDecodeAb.rate(composed);
            f[k] = FusedDecodeAb.rate(fused);
          } else {
            f[k] = FusedDecodeAb.rate(fused);
            a[k] = FusedDecodeAb.rate(composed);
          }
          r[k] = f[k] / a[k];
        }
        double[] rs = r.clone();
        Arrays.sort(rs);
        System.out.printf("%-12s %4s %14.0f %14.0f %8.2f (%.2f-%.2f)%n", data, type, FusedDecodeAb.median(a),
            FusedDecodeAb.median(f), FusedDecodeAb.median(r), rs[rounds / 4], rs[3 * rounds / 4]);
      }
    }
  }
}
