package io.lancecodec.bench.compare;

import io.lancecodec.runtime.LanceFileReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Steady-state CPU time per small read of one of our files (column {@code v}, as
 * {@link AlpReadProbe} writes them with {@code -Dprobe.keep=true}): 40 blocks of 5,000 one-row
 * takes at seeded random rows, or of 500 full scans in batches of {@code -Dprobe.batch} rows
 * (1,024); the calling thread's CPU time per operation, median and best of blocks 10 to 39 (the
 * first ten let the JIT finish; on a loaded machine CPU time is steadier than wall time). For an
 * A/B, run it twice with the old and then the new jar first on the class path.
 *
 * <pre>
 * SteadyRead FILE take1|scan
 * </pre>
 */
public final class SteadyRead {
  private SteadyRead() {}

  public static void main(String[] args) throws Exception {
    boolean take = args[1].equals("take1");
    int batch = Integer.getInteger("probe.batch", 1024);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    try (BufferAllocator alloc = new RootAllocator(); LanceFileReader r = LanceFileReader.open(Path.of(args[0]))) {
      int rows = (int) r.numRows();
      SplittableRandom rnd = new SplittableRandom(1);
      List<String> cols = List.of(Data.COL);
      int per = take ? 5000 : 500;
      double[] us = new double[40];
      for (int block = 0; block < us.length; block++) {
        long c0 = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < per; i++) {
          if (take) {
            try (var b = r.take(new long[] {rnd.nextInt(rows)}, cols, alloc)) {
              // only the read is timed
            }
          } else {
            var it = r.scan(cols, batch, alloc);
            while (it.hasNext()) {
              it.next().close();
            }
          }
        }
        us[block] = (threads.getCurrentThreadCpuTime() - c0) / 1e3 / per;
      }
      double[] s = Arrays.copyOfRange(us, 10, us.length);
      Arrays.sort(s);
      System.out.printf(Locale.ROOT, "%s %s: CPU us per %s: median %.2f, best %.2f (blocks 10-39)%n",
          Path.of(args[0]).getFileName(), args[1], take ? "take of 1 row" : "scan in batches of " + batch, s[s.length / 2], s[0]);
    }
  }
}
