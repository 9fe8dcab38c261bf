package io.lancecodec.cli;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.LruPageCache;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;

/**
 * {@code demo}: two embedded real data sets (see demo/ATTRIBUTION.md) written as Lance 2.1 and
 * 2.2, then read back: sizes against uncompressed Arrow IPC, the encodings chosen per column,
 * the search cache, full-scan and random-take throughput, and a value-by-value round-trip check.
 */
final class Demo {
  static final List<FileVersion> VERSIONS = List.of(FileVersion.V2_1, FileVersion.V2_2);
  /** Warm-up runs: at least this many, and until {@link #WARMUP_NANOS} have passed. */
  static final int WARMUP = 2;
  static final long WARMUP_NANOS = 300_000_000L;
  static final int MAX_WARMUP = 500;
  static final int RUNS = 5;
  static final int TAKE_ROWS = 10_000;
  /** Writes are timed best of this many (the first one also loads and compiles the writer). */
  static final int WRITE_RUNS = 3;

  private final PrintStream out;
  private final PrintStream err;

  Demo(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** A loaded data set; {@code owner} is closed with it (e.g. the IPC reader owning the root). */
  record DataSet(String name, String about, VectorSchemaRoot root, AutoCloseable owner) implements AutoCloseable {
    @Override
    public void close() {
      try {
        owner.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing demo data set " + name + ": " + e.getMessage(), e);
      }
    }
  }

  /** Measurements for one data set written as one version. */
  record Result(FileVersion version, long fileBytes, long cacheBytes, long pageCacheBytes, double writeSeconds, double scanSeconds,
      long decodedBytes, double takeSeconds, boolean scanEqual, boolean takeEqual, List<List<LanceFileReader.PageSummary>> pages) {}

  void run() throws IOException {
    Path dir = Files.createTempDirectory("lance-codec-demo-");
    boolean allEqual = true;
    try (BufferAllocator allocator = new RootAllocator()) {
      out.println("lance-codec demo: real data written as Lance 2.1 and 2.2, read back and compared");
      out.println("(throughput: best of " + RUNS + " runs after >= " + WARMUP_NANOS / 1_000_000 + " ms of warm-up, one thread; MB = 10^6 bytes of decoded Arrow buffers)");
      try (DataSet weather = seattleWeather(allocator)) {
        allEqual &= report(weather, dir, allocator);
      }
      try (DataSet flights = flights(allocator)) {
        allEqual &= report(flights, dir, allocator);
      }
      out.println();
      out.println("round trip: " + (allEqual ? "every value of every data set and version read back equal" : "MISMATCH (see above)"));
      out.println("data: seattle-weather (NOAA, U.S. Government Dataset) and flights (U.S. DOT BTS), both from vega-datasets@3.2.1;");
      out.println("      provenance and licenses in demo/ATTRIBUTION.md inside the CLI jar");
    } finally {
      deleteTree(dir);
    }
    if (!allEqual) {
      throw LanceCodecException.internal("demo: round trip verification failed (values differ)");
    }
  }

  // ---------------------------------------------------------------- data sets

  static DataSet seattleWeather(BufferAllocator allocator) throws IOException {
    FieldType f64 = FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    Schema schema = new Schema(List.of(
        new Field("date", FieldType.nullable(new ArrowType.Date(DateUnit.DAY)), null),
        new Field("precipitation", f64, null),
        new Field("temp_max", f64, null),
        new Field("temp_min", f64, null),
        new Field("wind", f64, null),
        new Field("weather", FieldType.nullable(new ArrowType.Utf8()), null)));
    List<String[]> rows = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(resource("seattle-weather.csv"), StandardCharsets.UTF_8))) {
      String header = r.readLine();
      if (header == null || !header.equals("date,precipitation,temp_max,temp_min,wind,weather")) {
        throw new IllegalStateException("unexpected header in demo/seattle-weather.csv: " + header);
      }
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isEmpty()) {
          rows.add(line.split(",", -1));
        }
      }
    }
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    try {
      root.allocateNew();
      DateDayVector date = (DateDayVector) root.getVector(0);
      VarCharVector weather = (VarCharVector) root.getVector(5);
      for (int i = 0; i < rows.size(); i++) {
        String[] v = rows.get(i);
        if (v.length != 6) {
          throw new IllegalStateException("demo/seattle-weather.csv line " + (i + 2) + " has " + v.length + " fields, expected 6");
        }
        date.setSafe(i, (int) LocalDate.parse(v[0]).toEpochDay());
        for (int c = 1; c <= 4; c++) {
          Float8Vector f = (Float8Vector) root.getVector(c);
          if (v[c].isEmpty()) {
            f.setNull(i);
          } else {
            f.setSafe(i, Double.parseDouble(v[c]));
          }
        }
        if (v[5].isEmpty()) {
          weather.setNull(i);
        } else {
          weather.setSafe(i, v[5].getBytes(StandardCharsets.UTF_8));
        }
      }
      root.setRowCount(rows.size());
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
    return new DataSet("seattle-weather", "daily weather, Seattle 2012-2015 (NOAA); CSV parsed to date32, float64 x4, utf8",
        root, root);
  }

  static DataSet flights(BufferAllocator allocator) throws IOException {
    byte[] bytes;
    try (InputStream in = resource("flights-100k.arrow")) {
      bytes = in.readAllBytes();
    }
    ArrowFileReader reader = new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(bytes), allocator);
    try {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      if (!reader.loadNextBatch()) {
        throw new IllegalStateException("demo/flights-100k.arrow holds no record batch");
      }
      return new DataSet("flights", "US flight delays, first 100k rows of flights-200k (BTS); Arrow IPC: int16, int16, float32",
          root, reader);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  private static InputStream resource(String name) {
    InputStream in = Demo.class.getResourceAsStream("/demo/" + name);
    if (in == null) {
      throw new IllegalStateException("demo data set demo/" + name + " is missing from the class path");
    }
    return in;
  }

  // ---------------------------------------------------------------- measuring

  /** Runs every measurement for one data set and prints its table; returns whether all values matched. */
  private boolean report(DataSet ds, Path dir, BufferAllocator allocator) throws IOException {
    VectorSchemaRoot root = ds.root();
    long ipcBytes = ipcSize(root);
    List<Result> results = measure(ds, dir, allocator);
    int n = root.getRowCount();
    out.println();
    out.println("== " + ds.name() + ": " + ds.about());
    out.println("   " + fmt("%,d", n) + " rows x " + root.getFieldVectors().size() + " columns; Arrow IPC file (uncompressed): "
        + fmt("%,d", ipcBytes) + " bytes");
    out.println();
    List<String[]> table = new ArrayList<>();
    table.add(row("", results, r -> "Lance " + r.version()));
    table.add(row("file size", results, r -> fmt("%,d B (%.2fx IPC)", r.fileBytes(), (double) r.fileBytes() / ipcBytes)));
    table.add(row("search cache", results, r -> fmt("%,d B (%.2f%% of file)", r.cacheBytes(), 100.0 * r.cacheBytes() / r.fileBytes())));
    table.add(row("page cache (dictionaries)", results, r -> fmt("%,d B (budget %,d B)", r.pageCacheBytes(), LruPageCache.DEFAULT_BUDGET)));
    table.add(row("write (best of " + WRITE_RUNS + ")", results, r -> fmt("%.1f ms", r.writeSeconds() * 1e3)));
    table.add(row("full scan", results, r -> fmt("%s rows/s, %,.0f MB/s", rate(n / r.scanSeconds()), r.decodedBytes() / r.scanSeconds() / 1e6)));
    table.add(row("take " + fmt("%,d", TAKE_ROWS) + " random", results, r -> fmt("%s rows/s", rate(TAKE_ROWS / r.takeSeconds()))));
    table.add(row("round trip", results, r -> "all values equal: " + (r.scanEqual() && r.takeEqual() ? "yes" : "NO")));
    int w0 = table.stream().mapToInt(r -> r[0].length()).max().orElse(0) + 3;
    int w1 = table.stream().mapToInt(r -> r[1].length()).max().orElse(0) + 4;
    for (String[] r : table) {
      StringBuilder sb = new StringBuilder("   ").append(Main.pad(r[0], w0));
      for (int i = 1; i < r.length; i++) {
        sb.append(i + 1 < r.length ? Main.pad(r[i], w1) : r[i]);
      }
      out.println(sb.toString().stripTrailing());
    }
    out.println();
    out.println("   column encodings (bytes on disk: layout, compression tree)");
    List<Field> fields = root.getSchema().getFields();
    int wn = fields.stream().mapToInt(f -> (f.getName() + " " + TypeNames.of(f)).length()).max().orElse(0) + 3;
    for (int c = 0; c < fields.size(); c++) {
      String label = fields.get(c).getName() + " " + TypeNames.of(fields.get(c));
      for (int k = 0; k < results.size(); k++) {
        Result r = results.get(k);
        List<LanceFileReader.PageSummary> pages = r.pages().get(c);
        long bytes = pages.stream().mapToLong(p -> Math.max(0, p.bytes())).sum();
        String desc = pages.isEmpty() ? "(no pages)" : pages.get(0).description()
            + (pages.size() > 1 ? fmt(" (+%d more pages)", pages.size() - 1) : "");
        out.println("   " + Main.pad(k == 0 ? label : "", wn) + r.version() + "  " + Main.pad(fmt("%,d B", bytes), 11) + desc);
      }
    }
    out.flush();
    return results.stream().allMatch(r -> r.scanEqual() && r.takeEqual());
  }

  /**
   * Writes the data set in every version, checks the round trip, then times scans and takes.
   * Versions are interleaved run by run so neither profits from the other's JIT warm-up or
   * suffers more from a busy machine.
   */
  private List<Result> measure(DataSet ds, Path dir, BufferAllocator allocator) {
    VectorSchemaRoot root = ds.root();
    int n = root.getRowCount();
    int k = VERSIONS.size();
    Path[] files = new Path[k];
    double[] write = new double[k];
    Arrays.fill(write, Double.MAX_VALUE);
    for (int run = 0; run < WRITE_RUNS; run++) {
      for (int v = 0; v < k; v++) {
        files[v] = dir.resolve(ds.name() + "-" + VERSIONS.get(v) + ".lance");
        long t0 = System.nanoTime();
        try (LanceFileWriter w = LanceFileWriter.open(files[v], root.getSchema(), WriterOptions.defaults().withVersion(VERSIONS.get(v)))) {
          w.write(root);
        }
        write[v] = Math.min(write[v], (System.nanoTime() - t0) / 1e9);
      }
    }
    Random random = new Random(42);
    long[] rows = new long[TAKE_ROWS];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = random.nextInt(n);
    }
    List<LanceFileReader> readers = new ArrayList<>();
    List<LruPageCache> caches = new ArrayList<>();
    try {
      boolean[] scanEqual = new boolean[k];
      boolean[] takeEqual = new boolean[k];
      for (int v = 0; v < k; v++) {
        LruPageCache cache = new LruPageCache(LruPageCache.DEFAULT_BUDGET);
        LanceFileReader reader = LanceFileReader.open(files[v], CodecRegistry.discover(), cache);
        readers.add(reader);
        caches.add(cache);
        // Round trip: every value of a full scan and of a take, compared in canonical JSON form
        // (exact for floats: Float/Double.toString identify the value uniquely).
        scanEqual[v] = reader.numRows() == n && scanEquals(reader, root, allocator);
        try (VectorSchemaRoot taken = reader.take(rows, null, allocator)) {
          takeEqual[v] = takeEquals(taken, rows, root);
        }
      }
      int warmup = 0;
      for (long w0 = System.nanoTime(); warmup < MAX_WARMUP && (warmup < WARMUP || System.nanoTime() - w0 < WARMUP_NANOS); warmup++) {
        for (LanceFileReader r : readers) {
          scanOnce(r, allocator);
          r.take(rows, null, allocator).close();
        }
      }
      double[] scan = new double[k];
      double[] take = new double[k];
      long[] decoded = new long[k];
      Arrays.fill(scan, Double.MAX_VALUE);
      Arrays.fill(take, Double.MAX_VALUE);
      for (int run = 0; run < RUNS; run++) {
        for (int v = 0; v < k; v++) {
          LanceFileReader reader = readers.get(v);
          long s = System.nanoTime();
          long bytes = 0;
          for (Iterator<VectorSchemaRoot> it = reader.scan(null, Main.BATCH, allocator); it.hasNext(); ) {
            try (VectorSchemaRoot b = it.next()) {
              for (FieldVector vec : b.getFieldVectors()) {
                bytes += vec.getBufferSize();
              }
            }
          }
          scan[v] = Math.min(scan[v], (System.nanoTime() - s) / 1e9);
          decoded[v] = bytes;
          s = System.nanoTime();
          try (VectorSchemaRoot taken = reader.take(rows, null, allocator)) {
            if (taken.getRowCount() != rows.length) {
              takeEqual[v] = false;
            }
          }
          take[v] = Math.min(take[v], (System.nanoTime() - s) / 1e9);
        }
      }
      List<Result> out = new ArrayList<>();
      for (int v = 0; v < k; v++) {
        LanceFileReader r = readers.get(v);
        out.add(new Result(VERSIONS.get(v), r.fileSize(), r.searchCacheBytes(), caches.get(v).usedBytes(), write[v], scan[v], decoded[v], take[v],
            scanEqual[v], takeEqual[v], Inspect.pages(r)));
      }
      return out;
    } finally {
      for (LanceFileReader r : readers) {
        r.close();
      }
    }
  }

  private static void scanOnce(LanceFileReader reader, BufferAllocator allocator) {
    for (Iterator<VectorSchemaRoot> it = reader.scan(null, Main.BATCH, allocator); it.hasNext(); ) {
      it.next().close();
    }
  }

  private boolean scanEquals(LanceFileReader reader, VectorSchemaRoot original, BufferAllocator allocator) {
    Json.RowWriter want = new Json.RowWriter(original);
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    int offset = 0;
    boolean equal = true;
    for (Iterator<VectorSchemaRoot> it = reader.scan(null, Main.BATCH, allocator); it.hasNext(); ) {
      try (VectorSchemaRoot batch = it.next()) {
        if (!sameSchema(batch.getSchema(), original.getSchema())) {
          err.println("demo: schema read back differs: " + batch.getSchema() + " vs " + original.getSchema());
          equal = false;
        }
        Json.RowWriter got = new Json.RowWriter(batch);
        for (int i = 0; i < batch.getRowCount() && equal; i++) {
          a.setLength(0);
          b.setLength(0);
          want.row(offset + i, a);
          got.row(i, b);
          if (!a.toString().contentEquals(b)) {
            err.println("demo: row " + (offset + i) + " differs: wrote " + a + ", read " + b);
            equal = false;
          }
        }
        offset += batch.getRowCount();
      }
    }
    return equal && offset == original.getRowCount();
  }

  private boolean takeEquals(VectorSchemaRoot taken, long[] rows, VectorSchemaRoot original) {
    if (taken.getRowCount() != rows.length) {
      return false;
    }
    Json.RowWriter want = new Json.RowWriter(original);
    Json.RowWriter got = new Json.RowWriter(taken);
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < rows.length; i++) {
      a.setLength(0);
      b.setLength(0);
      want.row((int) rows[i], a);
      got.row(i, b);
      if (!a.toString().contentEquals(b)) {
        err.println("demo: take of row " + rows[i] + " differs: wrote " + a + ", read " + b);
        return false;
      }
    }
    return true;
  }

  private static boolean sameSchema(Schema a, Schema b) {
    if (a.getFields().size() != b.getFields().size()) {
      return false;
    }
    for (int i = 0; i < a.getFields().size(); i++) {
      Field x = a.getFields().get(i);
      Field y = b.getFields().get(i);
      if (!x.getName().equals(y.getName()) || !x.getType().equals(y.getType())) {
        return false;
      }
    }
    return true;
  }

  /** Size of the batch as an uncompressed Arrow IPC file. */
  static long ipcSize(VectorSchemaRoot root) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ArrowFileWriter w = new ArrowFileWriter(root, null, Channels.newChannel(bytes))) {
      w.start();
      w.writeBatch();
      w.end();
    }
    return bytes.size();
  }

  // ---------------------------------------------------------------- formatting

  private static String[] row(String label, List<Result> results, java.util.function.Function<Result, String> cell) {
    String[] r = new String[results.size() + 1];
    r[0] = label;
    for (int i = 0; i < results.size(); i++) {
      r[i + 1] = cell.apply(results.get(i));
    }
    return r;
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /** 12.3 M, 456 k, 789. */
  static String rate(double perSecond) {
    if (perSecond >= 1e9) {
      return fmt("%.2f G", perSecond / 1e9);
    }
    if (perSecond >= 1e6) {
      return fmt("%.1f M", perSecond / 1e6);
    }
    if (perSecond >= 1e3) {
      return fmt("%.1f k", perSecond / 1e3);
    }
    return fmt("%.0f", perSecond);
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException ignored) {
          // a temp file left behind is harmless
        }
      });
    } catch (IOException ignored) {
      // same
    }
  }
}
