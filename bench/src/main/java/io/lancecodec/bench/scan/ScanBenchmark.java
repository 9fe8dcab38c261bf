package io.lancecodec.bench.scan;

import io.lancecodec.bench.corpus.Cleanup;
import io.lancecodec.bench.corpus.Corpus;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Full scan of one column, lance-codec against the reference ({@code org.lance:lance-core}, Rust
 * through JNI), on real data from {@code /work/shared/data} (override with {@code -Dbench.data=DIR}).
 *
 * <p>Per trial (fork × benchmark × dataset) the same Arrow data is written once by the reference
 * (format 2.1) and once by lance-codec (2.1) into a temp directory under {@code java.io.tmpdir};
 * both readers are opened once, and every benchmark invocation is one full scan in batches of
 * 65,536 rows. The primary score is scans/s; the {@code values} and {@code bytes} secondary
 * scores are values/s and raw-Arrow-bytes/s (the same normalisation for every benchmark, so they
 * compare directly). See bench/README.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      // Relative to the working directory: run.sh runs from bench/. The reference unpacks a
      // ~173 MB native library here on every fork.
      "-Djava.io.tmpdir=target/jvm-tmp",
      "-Xms1g",
      "-Xmx1g"
    })
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
public class ScanBenchmark {
  static final int BATCH = 65_536;
  static final int TOKEN_ROWS = 1 << 20;
  static final String COL = "v";

  /**
   * {@code tokens}: first 1,048,576 cl100k ids as a flat non-nullable UInt32 column.
   * {@code subjects}: strings-mail-subjects.txt as is (6,046 rows).
   * {@code mail-all}: all five strings-mail-*.txt files concatenated in name order.
   */
  @Param({"tokens", "subjects", "mail-all"})
  public String dataset;

  private BufferAllocator alloc;
  private Path dir;
  private Path ourFile;
  private Path refFile;
  private LanceFileReader ours;
  private org.lance.file.LanceFileReader ref;
  private int rows;
  private long rawBytes;
  private byte[] raw;
  private byte[] rawCopy;
  private List<String> cols;

  /** Per-thread counters, reported by JMH as rates: values/s and bytes/s. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Counters {
    /** Decoded values (rows of the one column). */
    public long values;
    /** Raw Arrow bytes of the decoded values (value buffer + offsets for strings). */
    public long bytes;

    @Setup(Level.Iteration)
    public void reset() {
      values = 0;
      bytes = 0;
    }
  }

  @Setup(Level.Trial)
  public void setup(BenchmarkParams params) throws Exception {
    String bench = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
    alloc = new RootAllocator();
    cols = List.of(COL);
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    dir = Files.createTempDirectory(tmp, "scanbench-");
    ourFile = dir.resolve("ours.lance");
    refFile = dir.resolve("ref.lance");

    try (VectorSchemaRoot root = load(dataset, alloc)) {
      rows = root.getRowCount();
      raw = rawValueBytes(root.getVector(0));
      rawBytes = raw.length;
      rawCopy = new byte[raw.length];
      long expected = checksum(root);

      try (org.lance.file.LanceFileWriter w =
          org.lance.file.LanceFileWriter.open(refFile.toString(), alloc, null, Optional.of("2.1"), Map.of())) {
        w.write(root);
      }
      try (LanceFileWriter w =
          LanceFileWriter.open(ourFile, root.getSchema(), WriterOptions.defaults().withVersion(FileVersion.V2_1))) {
        w.write(root);
      }
      ours = LanceFileReader.open(ourFile);
      ref = org.lance.file.LanceFileReader.open(refFile.toString(), alloc);

      System.out.printf("%n[setup] bench=%s dataset=%s rows=%d rawArrowBytes=%d%n", bench, dataset, rows, rawBytes);
      System.out.printf("[setup] file sizes: ours=%d B (%.3f B/value)  ref=%d B (%.3f B/value)%n",
          Files.size(ourFile), (double) Files.size(ourFile) / rows,
          Files.size(refFile), (double) Files.size(refFile) / rows);
      System.out.printf("[setup] our layout of our file: %s%n", ours.columnSummaries().get(0).pages());

      // Correctness of what each benchmark measures, checked once per trial.
      check("oursScanOurFile", checksum(oursScan(ours)), expected);
      check("refScanRefFile", checksum(refScan(ref)), expected);
      check("refScanOurFile", checksumRef(ourFile), expected);
      String oursOnRef;
      LanceFileReader probe = null;
      try {
        probe = LanceFileReader.open(refFile);
        System.out.printf("[setup] reference file as our reader sees it: %s%n", probe.columnSummaries().get(0).pages());
        long got = checksum(oursScan(probe));
        oursOnRef = got == expected ? null : "decoded values differ (checksum " + got + " != " + expected + ")";
      } catch (RuntimeException e) {
        oursOnRef = e.toString();
      } finally {
        if (probe != null) {
          probe.close();
        }
      }
      if (oursOnRef == null) {
        System.out.println("[setup] oursScanRefFile: our reader reads the reference's file: OK");
      } else {
        System.out.println("[setup] oursScanRefFile: NOT MEASURED, our reader cannot read the reference's file: "
            + oursOnRef + " -> compare oursScanOurFile with refScanRefFile instead");
        if (bench.equals("oursScanRefFile")) {
          throw new SkipBenchmark("oursScanRefFile skipped for dataset=" + dataset
              + ": our reader cannot read the reference's file (" + oursOnRef + ")");
        }
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    Cleanup.closeThenDelete(dir, ours, ref, alloc);
  }

  // ---------------------------------------------------------------- benchmarks

  /** lance-codec reads the file lance-codec wrote. */
  @Benchmark
  public void oursScanOurFile(Counters c, Blackhole bh) {
    scanOurs(ours, c, bh);
  }

  /** lance-codec reads the file the reference wrote (skipped when it cannot). */
  @Benchmark
  public void oursScanRefFile(Counters c, Blackhole bh, RefFileForOurs st) {
    scanOurs(st.reader, c, bh);
  }

  /** The reference reads the file it wrote: {@code readAll([col], null, 65536)}. */
  @Benchmark
  public void refScanRefFile(Counters c, Blackhole bh) throws Exception {
    scanRef(ref, c, bh);
  }

  /** The reference reads the file lance-codec wrote. */
  @Benchmark
  public void refScanOurFile(Counters c, Blackhole bh, OurFileForRef st) throws Exception {
    scanRef(st.reader, c, bh);
  }

  /** Upper bound: one System.arraycopy of the column's raw Arrow value bytes into a reused array. */
  @Benchmark
  public void arraycopyBaseline(Counters c, Blackhole bh) {
    System.arraycopy(raw, 0, rawCopy, 0, raw.length);
    bh.consume(rawCopy);
    c.values += rows;
    c.bytes += rawBytes;
  }

  // Extra readers, opened only by the benchmark that needs them.

  @State(Scope.Benchmark)
  public static class RefFileForOurs {
    LanceFileReader reader;

    @Setup(Level.Trial)
    public void open(ScanBenchmark b) {
      reader = LanceFileReader.open(b.refFile);
    }

    @TearDown(Level.Trial)
    public void close() {
      if (reader != null) {
        reader.close();
      }
    }
  }

  @State(Scope.Benchmark)
  public static class OurFileForRef {
    org.lance.file.LanceFileReader reader;

    @Setup(Level.Trial)
    public void open(ScanBenchmark b) throws IOException {
      reader = org.lance.file.LanceFileReader.open(b.ourFile.toString(), b.alloc);
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
      if (reader != null) {
        reader.close();
      }
    }
  }

  private void scanOurs(LanceFileReader r, Counters c, Blackhole bh) {
    long n = 0;
    Iterator<VectorSchemaRoot> it = r.scan(cols, BATCH, alloc);
    while (it.hasNext()) {
      try (VectorSchemaRoot b = it.next()) {
        n += b.getRowCount();
        bh.consume(b.getVector(0).getDataBuffer().memoryAddress());
      }
    }
    done(n, c);
  }

  private void scanRef(org.lance.file.LanceFileReader r, Counters c, Blackhole bh) throws IOException {
    long n = 0;
    try (ArrowReader ar = r.readAll(cols, null, BATCH)) {
      while (ar.loadNextBatch()) {
        VectorSchemaRoot b = ar.getVectorSchemaRoot();
        n += b.getRowCount();
        bh.consume(b.getVector(0).getDataBuffer().memoryAddress());
      }
    }
    done(n, c);
  }

  private void done(long n, Counters c) {
    if (n != rows) {
      throw new IllegalStateException("scan returned " + n + " rows, expected " + rows);
    }
    c.values += n;
    c.bytes += rawBytes;
  }

  // ---------------------------------------------------------------- data

  static final class SkipBenchmark extends RuntimeException {
    SkipBenchmark(String msg) {
      super(msg, null, false, false);
    }
  }

  static Path dataDir() {
    return Path.of(System.getProperty("bench.data", "/work/shared/data"));
  }

  static VectorSchemaRoot load(String dataset, BufferAllocator alloc) throws IOException {
    switch (dataset) {
      case "tokens":
        return tokens(alloc);
      case "subjects":
        return strings(List.of(dataDir().resolve("strings/strings-mail-subjects.txt")), alloc);
      case "mail-all": {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dataDir().resolve("strings"))) {
          s.filter(p -> p.getFileName().toString().matches("strings-mail-.*\\.txt")).sorted().forEach(files::add);
        }
        if (files.size() != 5) {
          System.out.println("[setup] WARNING: expected 5 strings-mail-*.txt files, found " + files);
        }
        return strings(files, alloc);
      }
      default:
        throw new IllegalArgumentException("unknown dataset " + dataset);
    }
  }

  static VectorSchemaRoot tokens(BufferAllocator alloc) throws IOException {
    Path f = dataDir().resolve("tokens/tokens-cl100k-2048.u32");
    int[] ids = new int[TOKEN_ROWS];
    if (Files.isReadable(f) && Files.size(f) >= 4L * TOKEN_ROWS) {
      ByteBuffer buf = ByteBuffer.allocate(4 * TOKEN_ROWS).order(ByteOrder.LITTLE_ENDIAN);
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
        while (buf.hasRemaining() && ch.read(buf) >= 0) {
          // fill
        }
      }
      buf.flip().asIntBuffer().get(ids);
      System.out.println("[setup] tokens: first " + TOKEN_ROWS + " ids of " + f);
    } else {
      System.out.println("[setup] WARNING: " + f + " is missing or short; using a SYNTHETIC Zipf-like"
          + " stand-in (seed 42, ids < 100,258, 17 bits). Numbers are not comparable with real-data runs.");
      // Zipf(s~1.1) over a 100,258-id vocabulary, ranks scattered over the id space, plus a
      // periodic end-of-text id: roughly the bit width and skew of cl100k ids of mail text.
      SplittableRandom rnd = new SplittableRandom(42);
      int vocab = 100_258;
      double[] cdf = new double[vocab];
      double sum = 0;
      for (int k = 0; k < vocab; k++) {
        sum += 1.0 / Math.pow(k + 1, 1.1);
        cdf[k] = sum;
      }
      for (int i = 0; i < ids.length; i++) {
        if (rnd.nextInt(2000) == 0) {
          ids[i] = 100_257;
          continue;
        }
        double u = rnd.nextDouble() * sum;
        int lo = java.util.Arrays.binarySearch(cdf, u);
        int rank = lo >= 0 ? lo : -lo - 1;
        ids[i] = (int) ((rank * 2_654_435_761L) % 100_257);
      }
    }
    return Corpus.uint32Column(COL, ids, alloc);
  }

  static VectorSchemaRoot strings(List<Path> files, BufferAllocator alloc) throws IOException {
    List<byte[]> lines = new ArrayList<>();
    long total = 0;
    for (Path f : files) {
      for (String s : Files.readAllLines(f, StandardCharsets.UTF_8)) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        lines.add(b);
        total += b.length;
      }
    }
    System.out.println("[setup] strings: " + lines.size() + " lines, " + total + " bytes from " + files);
    return Corpus.utf8Column(COL, lines, alloc);
  }

  /** The Arrow bytes a scan must produce: the value buffer, plus the offsets for strings. */
  static byte[] rawValueBytes(FieldVector v) {
    int n = v.getValueCount();
    if (v instanceof VarCharVector s) {
      int dataLen = s.getOffsetBuffer().getInt(4L * n);
      byte[] out = new byte[4 * (n + 1) + dataLen];
      s.getOffsetBuffer().getBytes(0, out, 0, 4 * (n + 1));
      s.getDataBuffer().getBytes(0, out, 4 * (n + 1), dataLen);
      return out;
    }
    byte[] out = new byte[n * 4];
    v.getDataBuffer().getBytes(0, out, 0, out.length);
    return out;
  }

  // ---------------------------------------------------------------- verification

  private List<VectorSchemaRoot> oursScan(LanceFileReader r) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    r.scan(cols, BATCH, alloc).forEachRemaining(out::add);
    return out;
  }

  private List<VectorSchemaRoot> refScan(org.lance.file.LanceFileReader r) throws IOException {
    List<VectorSchemaRoot> out = new ArrayList<>();
    try (ArrowReader ar = r.readAll(cols, null, BATCH)) {
      while (ar.loadNextBatch()) {
        VectorSchemaRoot b = ar.getVectorSchemaRoot();
        out.add(copy(b));
      }
    }
    return out;
  }

  private long checksumRef(Path file) throws Exception {
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), alloc)) {
      return checksum(refScan(r));
    }
  }

  private VectorSchemaRoot copy(VectorSchemaRoot b) {
    VectorSchemaRoot c = VectorSchemaRoot.create(b.getSchema(), alloc);
    c.allocateNew();
    for (int i = 0; i < b.getRowCount(); i++) {
      c.getVector(0).copyFromSafe(i, i, b.getVector(0));
    }
    c.getVector(0).setValueCount(b.getRowCount());
    c.setRowCount(b.getRowCount());
    return c;
  }

  /** Order-sensitive checksum of the values of every batch (closes the batches). */
  private static long checksum(List<VectorSchemaRoot> batches) {
    long h = 1;
    long n = 0;
    for (VectorSchemaRoot b : batches) {
      try (b) {
        h = mix(h, b);
        n += b.getRowCount();
      }
    }
    return h * 31 + n;
  }

  private static long checksum(VectorSchemaRoot root) {
    return mix(1, root) * 31 + root.getRowCount();
  }

  private static long mix(long h, VectorSchemaRoot b) {
    FieldVector v = b.getVector(0);
    for (int i = 0; i < b.getRowCount(); i++) {
      long x;
      if (v instanceof UInt4Vector u) {
        x = u.get(i);
      } else if (v instanceof VarCharVector s) {
        x = java.util.Arrays.hashCode(s.get(i));
      } else {
        throw new IllegalStateException("unexpected vector " + v.getClass());
      }
      h = h * 1_000_003L + x;
    }
    return h;
  }

  private void check(String what, long got, long expected) {
    if (got != expected) {
      throw new IllegalStateException(what + ": decoded values differ from the source data (dataset " + dataset + ")");
    }
    System.out.println("[setup] " + what + ": values verified");
  }
}
