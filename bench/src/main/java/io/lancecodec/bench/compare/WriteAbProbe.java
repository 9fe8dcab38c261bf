package io.lancecodec.bench.compare;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Whole-file writes of one data set by several builds of lance-codec (and the reference), one
 * write of each in turn in one JVM, so that a busy machine slows all of them alike: A/B of a
 * change on a shared host where separate JVMs minutes apart differ by more than the change.
 *
 * <pre>
 * WriteAbProbe DATASET 2.1|2.2|2.3 NAME=DIR[,NAME=DIR...][,ref] SECONDS [DATA_DIR]
 * </pre>
 *
 * Each DIR holds lance-codec jars (lance-runtime, the layouts, the codecs, ...), loaded child
 * first in a class loader of their own; modules missing from a DIR come from {@code -Dab.rest=DIR}
 * or else the class path (a jar's plugins are discovered once, from the DIR when it holds it).
 * {@code ref} writes with the reference (2.2 for 2.3). After 3 s of warm-up it writes for SECONDS and prints per build the file size, the median, first quartile
 * and fastest wall time of a write, and the median and least CPU time of the writing thread
 * (work handed to other threads is not in it). {@code -Dkeep=DIR} keeps the last file of each.
 * Run like {@link ScanProbe}.
 */
public final class WriteAbProbe {
  private WriteAbProbe() {}

  /** One build's (or the reference's) whole-file write; returns the file's size. */
  interface W {
    long write(Path f) throws Exception;
  }

  public static void main(String[] a) throws Exception {
    if (a.length < 4) {
      System.err.println("usage: WriteAbProbe DATASET 2.1|2.2|2.3 NAME=DIR[,NAME=DIR...][,ref] SECONDS [DATA_DIR]");
      System.exit(2);
    }
    String ds = a[0];
    String ver = a[1];
    String[] sets = a[2].split(",");
    double secs = Double.parseDouble(a[3]);
    Path dataDir = a.length > 4 ? Path.of(a[4]) : Compare.defaultDataDir();
    ThreadMXBean tm = ManagementFactory.getThreadMXBean();
    Path tmp = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "write-ab-");
    try (BufferAllocator alloc = new RootAllocator()) {
      List<Data> all = Data.load(dataDir, Compare.root().resolve("cli/src/main/resources/demo"), Integer.MAX_VALUE, false, alloc,
          new StringBuilder());
      Data d = all.stream().filter(x -> x.name.equals(ds)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no data set '" + ds + "' in " + dataDir));
      for (Data x : all) {
        if (x != d) {
          x.close();
        }
      }
      int n = sets.length;
      String[] names = new String[n];
      W[] ws = new W[n];
      for (int i = 0; i < n; i++) {
        String[] nv = sets[i].split("=");
        names[i] = nv[0];
        if (nv.length == 1 && nv[0].equals("ref")) {
          String v = ver.equals("2.3") ? "2.2" : ver;
          ws[i] = f -> {
            try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(f.toString(), alloc, null, Optional.of(v), Map.of())) {
              w.write(d.root);
            }
            return Files.size(f);
          };
        } else {
          ws[i] = ours(Path.of(nv[1]), ver, d);
        }
      }
      List<List<Double>> wall = new ArrayList<>();
      List<List<Double>> cpu = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        wall.add(new ArrayList<>());
        cpu.add(new ArrayList<>());
      }
      long[] sizes = new long[n];
      long warm = System.nanoTime() + 3_000_000_000L;
      while (System.nanoTime() < warm) {
        for (int i = 0; i < n; i++) {
          ws[i].write(tmp.resolve("w" + i));
        }
      }
      long end = System.nanoTime() + (long) (secs * 1e9);
      for (int round = 0; System.nanoTime() < end; round++) {
        // the build that goes first rotates, so none always follows the same one
        for (int k = 0; k < n; k++) {
          int i = (k + round) % n;
          long c = tm.getCurrentThreadCpuTime();
          long t = System.nanoTime();
          sizes[i] = ws[i].write(tmp.resolve("w" + i));
          wall.get(i).add((System.nanoTime() - t) / 1e6);
          cpu.get(i).add((tm.getCurrentThreadCpuTime() - c) / 1e6);
        }
      }
      String keep = System.getProperty("keep");
      for (int i = 0; i < n; i++) {
        if (keep != null) {
          Files.copy(tmp.resolve("w" + i), Path.of(keep, ds + "." + names[i] + "-" + ver + ".lance"), StandardCopyOption.REPLACE_EXISTING);
        }
        List<Double> w = wall.get(i);
        List<Double> c = cpu.get(i);
        Collections.sort(w);
        Collections.sort(c);
        System.out.printf(Locale.ROOT, "%-16s %s %-6s size %9d writes %4d wall med %7.2f p25 %7.2f min %7.2f  cpu med %7.2f min %7.2f%n",
            ds, ver, names[i], sizes[i], w.size(), w.get(w.size() / 2), w.get(w.size() / 4), w.get(0), c.get(c.size() / 2), c.get(0));
      }
      d.close();
    } finally {
      io.lancecodec.bench.corpus.Cleanup.deleteTree(tmp);
    }
  }

  /** A write through the lance-codec jars of {@code dir}, loaded in a class loader of their own. */
  static W ours(Path dir, String ver, Data d) throws Exception {
    List<URL> urls = new ArrayList<>();
    Set<String> have = new HashSet<>();
    try (var s = Files.list(dir)) {
      for (Path p : s.sorted().toList()) {
        if (p.toString().endsWith(".jar")) {
          urls.add(p.toUri().toURL());
          have.add(p.getFileName().toString());
        }
      }
    }
    String rest = System.getProperty("ab.rest");
    if (rest != null) {
      try (var s = Files.list(Path.of(rest))) {
        for (Path p : s.sorted().toList()) {
          if (p.toString().endsWith(".jar") && !have.contains(p.getFileName().toString())) {
            urls.add(p.toUri().toURL());
          }
        }
      }
    }
    Set<String> names = new HashSet<>();
    for (URL u : urls) {
      names.add(Path.of(u.toURI()).getFileName().toString());
    }
    ClassLoader cl = new ChildFirst(urls.toArray(new URL[0]), names, WriteAbProbe.class.getClassLoader());
    Class<?> fv = cl.loadClass("io.lancecodec.spi.FileVersion");
    Object version = fv.getField(ver.equals("2.1") ? "V2_1" : ver.equals("2.2") ? "V2_2" : "V2_3").get(null);
    Class<?> wo = cl.loadClass("io.lancecodec.runtime.WriterOptions");
    Class<?> dur = cl.loadClass("io.lancecodec.runtime.WriterOptions$Durability");
    ClassLoader prev = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(cl);
    Object opts = wo.getMethod("defaults").invoke(null);
    Thread.currentThread().setContextClassLoader(prev);
    opts = wo.getMethod("withVersion", fv).invoke(opts, version);
    opts = wo.getMethod("withDurability", dur).invoke(opts, dur.getField("OS_BUFFERED").get(null));
    Class<?> lw = cl.loadClass("io.lancecodec.runtime.LanceFileWriter");
    Method open = lw.getMethod("open", Path.class, Schema.class, wo);
    Method write = lw.getMethod("write", org.apache.arrow.vector.VectorSchemaRoot.class);
    Method close = lw.getMethod("close");
    Object o = opts;
    Schema schema = d.schema();
    return f -> {
      Thread.currentThread().setContextClassLoader(cl);
      try {
        Object w = open.invoke(null, f, schema, o);
        write.invoke(w, d.root);
        close.invoke(w);
      } finally {
        Thread.currentThread().setContextClassLoader(prev);
      }
      return Files.size(f);
    };
  }

  /** Loads lance-codec's own classes (not this bench's) from its jars first, the rest from the parent. */
  private static final class ChildFirst extends URLClassLoader {
    private final Set<String> jarNames;

    ChildFirst(URL[] urls, Set<String> jarNames, ClassLoader parent) {
      super(urls, parent);
      this.jarNames = jarNames;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("io.lancecodec.") || name.startsWith("io.lancecodec.bench.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          try {
            c = findClass(name);
          } catch (ClassNotFoundException e) {
            c = super.loadClass(name, false);
          }
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }

    @Override
    public URL getResource(String name) {
      URL u = findResource(name);
      return u != null ? u : super.getResource(name);
    }

    @Override
    public java.util.Enumeration<URL> getResources(String name) throws java.io.IOException {
      if (!name.startsWith("META-INF/services/io.lancecodec.")) {
        return super.getResources(name);
      }
      // plugins once each: the build's own jars, then the class path's jars of other modules
      List<URL> out = Collections.list(findResources(name));
      for (URL u : Collections.list(getParent().getResources(name))) {
        String path = u.getPath();
        int bang = path.indexOf("!/");
        String jar = bang < 0 ? path : path.substring(path.lastIndexOf('/', bang) + 1, bang);
        if (!jarNames.contains(jar)) {
          out.add(u);
        }
      }
      return Collections.enumeration(out);
    }
  }
}
