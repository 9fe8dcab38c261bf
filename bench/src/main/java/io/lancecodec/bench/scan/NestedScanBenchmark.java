package io.lancecodec.bench.scan;

import io.lancecodec.bench.corpus.Cleanup;
import io.lancecodec.bench.corpus.Corpus;
import io.lancecodec.runtime.LanceFileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Full scan of nested columns, lance-codec's reader against the reference's on the SAME file (the
 * reference writes it once per trial; issue #4's target: {@code ours / ref >= 1}). The primary
 * score is scans/s; {@code rows} and {@code items} (list elements) are per second. Before
 * measuring, the setup checks that both readers return the source rows (Arrow's per-row hash,
 * folded in order).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "-Djava.io.tmpdir=target/jvm-tmp",
      "-Xms1g",
      "-Xmx1g"
    })
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class NestedScanBenchmark {
  static final String COL = "v";
  /** Rows per batch, for both readers. */
  static final int BATCH = 8192;

  /**
   * {@code list-int}: all 3,072,000 cl100k ids as lines ({@link Corpus#lineOffsets}), list<uint32>.
   * {@code list-string}: the mail lines in lists of 0-7, list<utf8>. {@code struct-list}: the
   * token lines inside a struct, struct<ids: list<uint32>>.
   */
  @Param({"list-int", "list-string", "struct-list"})
  public String column;

  @Param({"2.1"})
  public String version;

  BufferAllocator alloc;
  Path dir;
  LanceFileReader ours;
  org.lance.file.LanceFileReader ref;
  List<String> cols;
  long rows;
  long items;

  /** Per-thread counters, reported by JMH as rates. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Counters {
    public long rows;
    public long items;

    @Setup(Level.Iteration)
    public void reset() {
      rows = 0;
      items = 0;
    }
  }

  @Setup(Level.Trial)
  public void setup() throws Exception {
    alloc = new RootAllocator();
    cols = List.of(COL);
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    dir = Files.createTempDirectory(tmp, "nestedscan-");
    Path file = dir.resolve("ref.lance");
    long expected;
    try (VectorSchemaRoot root = column(column, alloc)) {
      rows = root.getRowCount();
      items = items(root.getVector(0));
      expected = hash(root.getVector(0), 1);
      try (org.lance.file.LanceFileWriter w =
          org.lance.file.LanceFileWriter.open(file.toString(), alloc, null, Optional.of(version), Map.of())) {
        w.write(root);
      }
    }
    ours = LanceFileReader.open(file);
    ref = org.lance.file.LanceFileReader.open(file.toString(), alloc);
    System.out.printf("%n[setup] column=%s version=%s rows=%d items=%d file=%d B; layout as our reader sees it: %s%n",
        column, version, rows, items, Files.size(file), ours.columnSummaries());
    long h = 1;
    Iterator<VectorSchemaRoot> it = ours.scan(cols, BATCH, alloc);
    while (it.hasNext()) {
      try (VectorSchemaRoot b = it.next()) {
        h = hash(b.getVector(0), h);
      }
    }
    check("ours", h, expected);
    h = 1;
    try (ArrowReader ar = ref.readAll(cols, null, BATCH)) {
      while (ar.loadNextBatch()) {
        h = hash(ar.getVectorSchemaRoot().getVector(0), h);
      }
    }
    check("reference", h, expected);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    Cleanup.closeThenDelete(dir, ours, ref, alloc);
  }

  /** lance-codec scans the reference's file. */
  @Benchmark
  public void oursScan(Counters c, Blackhole bh) {
    long n = 0;
    Iterator<VectorSchemaRoot> it = ours.scan(cols, BATCH, alloc);
    while (it.hasNext()) {
      try (VectorSchemaRoot b = it.next()) {
        n += b.getRowCount();
        bh.consume(b.getVector(0).getValueCount());
      }
    }
    done(n, c);
  }

  /** The reference scans its file: {@code readAll([v], null, 8192)}. */
  @Benchmark
  public void refScan(Counters c, Blackhole bh) throws IOException {
    long n = 0;
    try (ArrowReader ar = ref.readAll(cols, null, BATCH)) {
      while (ar.loadNextBatch()) {
        VectorSchemaRoot b = ar.getVectorSchemaRoot();
        n += b.getRowCount();
        bh.consume(b.getVector(0).getValueCount());
      }
    }
    done(n, c);
  }

  private void done(long n, Counters c) {
    if (n != rows) {
      throw new IllegalStateException("scan returned " + n + " rows, expected " + rows);
    }
    c.rows += n;
    c.items += items;
  }

  static VectorSchemaRoot column(String name, BufferAllocator alloc) throws IOException {
    Path data = Corpus.dataDir();
    return switch (name) {
      case "list-int", "struct-list" -> {
        int[] ids = Corpus.tokenIds(Corpus.tokenFile(data), Integer.MAX_VALUE);
        int[] off = Corpus.lineOffsets(ids, Integer.MAX_VALUE);
        yield name.equals("list-int") ? Corpus.uint32Lists(COL, ids, off, alloc) : Corpus.structOfUint32Lists(COL, ids, off, alloc);
      }
      case "list-string" -> {
        List<byte[]> lines = Corpus.mailLines(data);
        yield Corpus.utf8Lists(COL, lines, Corpus.randomGroups(lines.size(), Integer.MAX_VALUE), alloc);
      }
      default -> throw new IllegalArgumentException("unknown column " + name);
    };
  }

  /** List elements below the top level (the first list child, for a struct). */
  static long items(FieldVector v) {
    if (v instanceof org.apache.arrow.vector.complex.StructVector s) {
      return items(s.getChildrenFromFields().get(0));
    }
    return ((org.apache.arrow.vector.complex.ListVector) v).getDataVector().getValueCount();
  }

  static long hash(FieldVector v, long h) {
    for (int i = 0; i < v.getValueCount(); i++) {
      h = h * 1_000_003L + v.hashCode(i);
    }
    return h;
  }

  static void check(String what, long got, long expected) {
    if (got != expected) {
      throw new IllegalStateException(what + ": the scanned rows differ from the source rows");
    }
  }
}
