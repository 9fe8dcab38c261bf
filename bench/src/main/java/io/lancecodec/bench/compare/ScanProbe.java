package io.lancecodec.bench.compare;

import io.lancecodec.bench.corpus.Cleanup;
import io.lancecodec.spi.FileVersion;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Full scans (or, with {@code -Dprobe.op=write}, writes of the whole file) of some of the
 * comparison's data sets by one system, in this JVM, in the order given:
 * run it once per data set (a fresh JVM each) and once with all of them to see whether scanning
 * the others first changes a data set's time (JIT profiles shared across data sets). Also reports
 * process CPU time over wall time, which tells whether a reader decodes on more than one thread.
 * Scans go in batches of 65,536 rows, or {@code -Dprobe.batch=N}. With {@code -Dprobe.op=take}, each
 * timed step is 1,000 takes of {@code -Dprobe.take=K} sorted random rows (default 1), all columns.
 *
 * <pre>
 * ScanProbe DATASET[,DATASET...] ours|ref 2.1|2.2 SECONDS [DATA_DIR]
 * </pre>
 *
 * Run with {@code --add-opens=java.base/java.nio=ALL-UNNAMED} and a {@code java.io.tmpdir} that is
 * deleted afterwards (the reference unpacks its native library there), on the class path of
 * {@code bench/target/classpath.txt} plus {@code bench/target/classes}.
 */
public final class ScanProbe {
  private ScanProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      System.err.println("usage: ScanProbe DATASET[,DATASET...] ours|ref 2.1|2.2 SECONDS [DATA_DIR]");
      System.exit(2);
    }
    String system = args[1];
    String version = args[2];
    if (!(system.equals("ours") || system.equals("ref")) || !(version.equals("2.1") || version.equals("2.2") || version.equals("2.3"))) {
      System.err.println("ScanProbe: system must be ours or ref, version 2.1 or 2.2");
      System.exit(2);
    }
    double seconds = Double.parseDouble(args[3]);
    Path dataDir = args.length > 4 ? Path.of(args[4]) : Compare.defaultDataDir();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Path tmp = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "scan-probe-");
    try (BufferAllocator alloc = new RootAllocator()) {
      List<Data> sets = Data.load(dataDir, Compare.root().resolve("cli/src/main/resources/demo"), Integer.MAX_VALUE, false, alloc,
          new StringBuilder());
      try {
        for (String name : args[0].split(",")) {
          Data d = sets.stream().filter(x -> x.name.equals(name)).findFirst()
              .orElseThrow(() -> new IllegalArgumentException("no data set '" + name + "' in " + dataDir));
          Engines.Engine e = system.equals("ours")
              ? new Engines.Ours(version.equals("2.1") ? FileVersion.V2_1 : version.equals("2.2") ? FileVersion.V2_2 : FileVersion.V2_3, alloc)
              : new Engines.Ref(version, alloc);
          Path file = tmp.resolve(name + "." + e.name());
          long size = e.write(d, file);
          String keep = System.getProperty("probe.keep");
          if (keep != null) {
            // For inspecting what was measured (bin/lance-codec inspect).
            Files.copy(file, Path.of(keep).resolve(file.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
          boolean writes = "write".equals(System.getProperty("probe.op"));
          boolean takes = "take".equals(System.getProperty("probe.op"));
          long[][] takeRows = takes ? takeRows(d.rows, Integer.getInteger("probe.take", 1)) : null;
          int batch = Integer.getInteger("probe.batch", Engines.BATCH);
          try (Engines.Reader r = e.open(d, file)) {
            List<Double> ms = new ArrayList<>();
            // This thread's CPU time per step as well: on a machine shared with other work it
            // moves far less than wall time does.
            List<Double> cpuMs = new ArrayList<>();
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long allocated0 = threads.getCurrentThreadAllocatedBytes();
            long cpu0 = os.getProcessCpuTime();
            long wall0 = System.nanoTime();
            long end = wall0 + (long) (seconds * 1e9);
            while (System.nanoTime() < end) {
              long t = System.nanoTime();
              long c = threads.getCurrentThreadCpuTime();
              if (writes) {
                e.write(d, file);
              } else if (takes) {
                for (long[] rows : takeRows) {
                  r.take(rows, false);
                }
              } else {
                r.scan(false, batch);
              }
              ms.add((System.nanoTime() - t) / 1e6);
              cpuMs.add((threads.getCurrentThreadCpuTime() - c) / 1e6);
            }
            double cpuPerWall = (os.getProcessCpuTime() - cpu0) / (double) (System.nanoTime() - wall0);
            double heapPerStep = (threads.getCurrentThreadAllocatedBytes() - allocated0) / (double) ms.size();
            Collections.sort(ms);
            double best = ms.get(0);
            double median = ms.get(ms.size() / 2);
            Collections.sort(cpuMs);
            double cpuMedian = cpuMs.get(cpuMs.size() / 2);
            System.out.printf(Locale.ROOT, "%-16s %s size %d " + (writes ? "writes" : takes ? "takes-x1000" : "scans") + " %d best %.2f ms (%.0f MB/s) median %.2f ms (%.0f MB/s)"
                    + " thread cpu median %.3f ms heap %.0f B/step process cpu/wall %.2f%n", name, e.name(), size, ms.size(), best, d.rawBytes / 1e3 / best, median,
                d.rawBytes / 1e3 / median, cpuMedian, heapPerStep, cpuPerWall);
          }
          Files.deleteIfExists(file);
        }
      } finally {
        sets.forEach(Data::close);
      }
    } finally {
      Cleanup.deleteTree(tmp);
    }
  }

  private static long[][] takeRows(long rowCount, int k) {
    java.util.Random rnd = new java.util.Random(42);
    long[][] out = new long[1000][];
    for (int i = 0; i < out.length; i++) {
      long[] rows = new long[k];
      for (int j = 0; j < k; j++) {
        rows[j] = (long) (rnd.nextDouble() * rowCount);
      }
      // The reference aborts the JVM on unsorted ranges; duplicates are dropped to keep them strict.
      out[i] = java.util.Arrays.stream(rows).sorted().distinct().toArray();
    }
    return out;
  }
}
