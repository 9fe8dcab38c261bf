package io.lancecodec.bench.take;

import io.lancecodec.bench.corpus.Cleanup;
import io.lancecodec.bench.corpus.Corpus;
import io.lancecodec.runtime.LanceFileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.util.Range;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Random {@code take} of single rows, lance-codec's reader against the reference's
 * ({@code org.lance:lance-core}, Rust through JNI) on the SAME file: the reference writes it once
 * per trial and both read it, so only the readers differ. Issue #4's targets: {@code oursBatch /
 * refBatch >= 2} and {@code oursSingle / refSingle >= 30}.
 *
 * <p>Every score is rows/s ({@code @OperationsPerInvocation} makes a 10,000-row call count as
 * 10,000 operations). The rows are 10,000 distinct random rows (seed 42), sorted, because the
 * reference must only ever get ascending, disjoint ranges; the reference gets them as one-row
 * {@code Range}s. Before measuring, the setup checks that both readers return exactly the source
 * rows, in order (Arrow's per-row hash folded in order).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      // Relative: run.sh runs from bench/. The reference unpacks its ~173 MB native library here.
      "-Djava.io.tmpdir=target/jvm-tmp",
      "-Xms1g",
      "-Xmx1g"
    })
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class TakeBenchmark {
  static final int TAKE_ROWS = 10_000;
  static final String COL = "v";
  static final int VECTOR_ROWS = 20_000;

  /**
   * {@code int}: the first 2^20 cl100k token ids, flat uint32. {@code string}: every line of the
   * five strings-mail-*.txt files (100,916 rows). {@code list-int}: token lines, list<uint32>.
   * {@code list-string}: the mail lines in lists of 0-7, list<utf8>. {@code vector}: 20,000
   * Gaussian FixedSizeList<float32>[768]. See {@link Corpus}.
   */
  @Param({"int", "string", "list-int", "list-string", "vector"})
  public String column;

  /** The format version the reference writes. */
  @Param({"2.1"})
  public String version;

  BufferAllocator alloc;
  Path dir;
  LanceFileReader ours;
  org.lance.file.LanceFileReader ref;
  List<String> cols;
  long[] rows;
  List<Range> ranges;
  List<List<Range>> singleRanges;
  long[][] singleRows;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    alloc = new RootAllocator();
    cols = List.of(COL);
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    dir = Files.createTempDirectory(tmp, "takebench-");
    Path file = dir.resolve("ref.lance");
    long expected;
    long[] expectedSingle = new long[3];
    int n;
    try (VectorSchemaRoot root = column(column, alloc)) {
      n = root.getRowCount();
      rows = randomSortedRows(n, TAKE_ROWS);
      expected = hash(root.getVector(0), rows);
      for (int i = 0; i < expectedSingle.length; i++) {
        expectedSingle[i] = hash(root.getVector(0), new long[] {rows[i]});
      }
      try (org.lance.file.LanceFileWriter w =
          org.lance.file.LanceFileWriter.open(file.toString(), alloc, null, Optional.of(version), Map.of())) {
        w.write(root);
      }
    }
    ours = LanceFileReader.open(file);
    ref = org.lance.file.LanceFileReader.open(file.toString(), alloc);
    ranges = new ArrayList<>();
    singleRanges = new ArrayList<>();
    singleRows = new long[rows.length][];
    for (int i = 0; i < rows.length; i++) {
      Range r = Range.of((int) rows[i], (int) rows[i] + 1);
      ranges.add(r);
      singleRanges.add(List.of(r));
      singleRows[i] = new long[] {rows[i]};
    }
    System.out.printf("%n[setup] column=%s version=%s rows=%d file=%d B; the reference's layout as our reader sees it: %s%n",
        column, version, n, Files.size(file), ours.columnSummaries().get(0).pages());
    try (VectorSchemaRoot got = ours.take(rows, cols, alloc)) {
      check("ours, 10,000 rows", hash(got.getVector(0), null), expected);
    }
    check("reference, 10,000 rows", refHash(ranges), expected);
    for (int i = 0; i < expectedSingle.length; i++) {
      long one = expectedSingle[i];
      try (VectorSchemaRoot got = ours.take(singleRows[i], cols, alloc)) {
        check("ours, row " + rows[i], hash(got.getVector(0), null), one);
      }
      check("reference, row " + rows[i], refHash(singleRanges.get(i)), one);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    Cleanup.closeThenDelete(dir, ours, ref, alloc);
  }

  /** Which of the 10,000 rows the next one-row call reads (per thread). */
  @State(Scope.Thread)
  public static class Cursor {
    int next;

    int advance() {
      int i = next;
      next = i + 1 == TAKE_ROWS ? 0 : i + 1;
      return i;
    }
  }

  // ---------------------------------------------------------------- benchmarks

  /** lance-codec: the 10,000 rows in one {@code take}. */
  @Benchmark
  @OperationsPerInvocation(TAKE_ROWS)
  public void oursBatch(Blackhole bh) {
    try (VectorSchemaRoot b = ours.take(rows, cols, alloc)) {
      bh.consume(b.getVector(0).getValueCount());
    }
  }

  /** The reference: the 10,000 rows as one-row ranges in one {@code readAll}, one batch. */
  @Benchmark
  @OperationsPerInvocation(TAKE_ROWS)
  public void refBatch(Blackhole bh) throws IOException {
    drain(ref.readAll(cols, ranges, TAKE_ROWS), bh);
  }

  /** lance-codec: one row per {@code take} call. */
  @Benchmark
  public void oursSingle(Cursor c, Blackhole bh) {
    try (VectorSchemaRoot b = ours.take(singleRows[c.advance()], cols, alloc)) {
      bh.consume(b.getVector(0).getValueCount());
    }
  }

  /** The reference: one one-row range per {@code readAll} call. */
  @Benchmark
  public void refSingle(Cursor c, Blackhole bh) throws IOException {
    drain(ref.readAll(cols, singleRanges.get(c.advance()), 1), bh);
  }

  private static void drain(ArrowReader ar, Blackhole bh) throws IOException {
    try (ar) {
      while (ar.loadNextBatch()) {
        bh.consume(ar.getVectorSchemaRoot().getVector(0).getValueCount());
      }
    }
  }

  // ---------------------------------------------------------------- data and checks

  static VectorSchemaRoot column(String name, BufferAllocator alloc) throws IOException {
    Path data = Corpus.dataDir();
    return switch (name) {
      case "int" -> Corpus.uint32Column(COL, Corpus.tokenIds(Corpus.tokenFile(data), 1 << 20), alloc);
      case "string" -> Corpus.utf8Column(COL, Corpus.mailLines(data), alloc);
      case "list-int" -> {
        int[] ids = Corpus.tokenIds(Corpus.tokenFile(data), 1 << 20);
        yield Corpus.uint32Lists(COL, ids, Corpus.lineOffsets(ids, Integer.MAX_VALUE), alloc);
      }
      case "list-string" -> {
        List<byte[]> lines = Corpus.mailLines(data);
        yield Corpus.utf8Lists(COL, lines, Corpus.randomGroups(lines.size(), Integer.MAX_VALUE), alloc);
      }
      case "vector" -> Corpus.vectors(COL, Corpus.gaussian(VECTOR_ROWS, Corpus.VECTOR_DIM), Corpus.VECTOR_DIM, alloc);
      default -> throw new IllegalArgumentException("unknown column " + name);
    };
  }

  /** {@code k} distinct rows of {@code [0, n)}, sorted (seed 42). */
  static long[] randomSortedRows(int n, int k) {
    if (n < 2 * k) {
      throw new IllegalArgumentException(n + " rows are too few for " + k + " distinct random rows");
    }
    return new SplittableRandom(42).longs(4L * k, 0, n).distinct().limit(k).sorted().toArray();
  }

  /** Arrow's per-row hash of the given rows of {@code v} (all rows when null), folded in order. */
  static long hash(FieldVector v, long[] which) {
    long h = 1;
    int n = which == null ? v.getValueCount() : which.length;
    for (int i = 0; i < n; i++) {
      h = h * 1_000_003L + v.hashCode(which == null ? i : (int) which[i]);
    }
    return h;
  }

  private long refHash(List<Range> rs) throws IOException {
    long h = 1;
    try (ArrowReader ar = ref.readAll(cols, rs, TAKE_ROWS)) {
      while (ar.loadNextBatch()) {
        FieldVector v = ar.getVectorSchemaRoot().getVector(0);
        for (int i = 0; i < v.getValueCount(); i++) {
          h = h * 1_000_003L + v.hashCode(i);
        }
      }
    }
    return h;
  }

  static void check(String what, long got, long expected) {
    if (got != expected) {
      throw new IllegalStateException(what + ": the rows read differ from the source rows");
    }
  }
}
