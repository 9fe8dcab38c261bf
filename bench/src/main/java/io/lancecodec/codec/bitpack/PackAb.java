package io.lancecodec.codec.bitpack;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * {@link PackProbe}'s arms for two codec-bitpack builds (or two arms of one build) alternated in
 * one JVM, for a shared machine whose load swings between sequential JMH trials: each side is
 * loaded with bench's class path (without codec-bitpack) behind its jar in a class loader of its
 * own, and rounds of 20 operations per side, timed in thread CPU time, alternate, the order
 * flipped every round, after half as many rounds of warm-up. Prints each side's median and best
 * ms per 1,048,576 values and the median (p25, p75) of the per-round ratio A/B, the speed-up of B.
 *
 * <pre>
 * java -Xms1g -Xmx1g -cp "bench/target/classes:CLASSPATH_WITHOUT_CODEC_BITPACK" \
 *   io.lancecodec.codec.bitpack.PackAb OLD.jar NEW.jar 3,8,17,25 1048576,16384 30 full,kernelReused
 * </pre>
 *
 * An arm written {@code a/b} compares arm a of jar A with arm b of jar B (one jar twice: two arms).
 */
public final class PackAb {
  private PackAb() {}

  public static void main(String[] args) throws Exception {
    String base = System.getProperty("java.class.path");
    ClassLoader[] loaders = io.lancecodec.bench.Ab.loaders(args[0], args[1], base);
    int rounds = Integer.parseInt(args[4]);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (String w : args[2].split(",")) {
      for (String page : args[3].split(",")) {
        for (String arm : args[5].split(",")) {
          String[] arms = arm.contains("/") ? arm.split("/") : new String[] {arm, arm};
          Object[] probe = new Object[2];
          Method[] run = new Method[2];
          for (int k = 0; k < 2; k++) {
            Class<?> c = loaders[k].loadClass(PackProbe.class.getName());
            probe[k] = c.getConstructor().newInstance();
            c.getField("w").setInt(probe[k], Integer.parseInt(w));
            c.getField("page").setInt(probe[k], Integer.parseInt(page));
            c.getMethod("setup").invoke(probe[k]);
            run[k] = c.getMethod(arms[k]);
          }
          double[][] ms = new double[2][rounds];
          double[] ratio = new double[rounds];
          for (int r = -rounds / 2; r < rounds; r++) {
            for (int j = 0; j < 2; j++) {
              int k = (j + Math.max(r, 0)) % 2;
              long t0 = cpu.getCurrentThreadCpuTime();
              for (int i = 0; i < 20; i++) {
                run[k].invoke(probe[k]);
              }
              long t1 = cpu.getCurrentThreadCpuTime();
              if (r >= 0) {
                ms[k][r] = (t1 - t0) / 20.0 / 1e6;
              }
            }
            if (r >= 0) {
              ratio[r] = ms[0][r] / ms[1][r];
            }
          }
          Arrays.sort(ms[0]);
          Arrays.sort(ms[1]);
          Arrays.sort(ratio);
          System.out.printf("w=%s page=%s %-25s A %.3f ms (best %.3f)  B %.3f ms (best %.3f)  A/B median %.3f [p25 %.3f, p75 %.3f]%n",
              w, page, arm, ms[0][rounds / 2], ms[0][0], ms[1][rounds / 2], ms[1][0], ratio[rounds / 2], ratio[rounds / 4],
              ratio[3 * rounds / 4]);
        }
      }
    }
  }
}
