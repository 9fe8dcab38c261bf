package io.lancecodec.bench.sizes;

import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * DuckDB as a peer for the float columns of the corpus (issue 16): bytes per value of DuckDB's
 * DOUBLE / FLOAT storage (ALP, ALP-RD or whatever it picks per segment) beside ours in 2.3 and
 * 2.2, measured the same way for all three.
 *
 * <p>DuckDB stores a row group's column segment in whole 256 KiB blocks, so one copy of a small
 * column says nothing about its encoding. Each column is therefore repeated: {@code k} copies
 * back to back with {@code k * rows >= --min-values} (default 4,194,304), and again {@code 2k}
 * copies; the bytes per value are the growth of the file between the two divided by the
 * {@code k * rows} values added, which cancels every fixed cost (headers, catalog, a last
 * partial block). DuckDB: a fresh database file per size, one thread (so copies keep their
 * order), the copies made by doubling the table with {@code INSERT INTO t SELECT * FROM t}, then
 * {@code CHECKPOINT} and the file's size; its segments' compression from
 * {@code pragma_storage_info}. The values reach DuckDB as the shortest decimal strings of the
 * exact doubles/floats ({@code Double.toString}), which its correctly rounded parser turns back
 * into the same bits; that is checked value by value on the first copy. Ours: one-column files of
 * the same {@code k} and {@code 2k} copies with dictionaries off (k copies keep one copy's
 * cardinality, so a dictionary's indices would stand for the values), and the default 2.3 file of
 * one copy, bytes per row with its footer.
 *
 * <p>{@code bench/duckdb-peer.sh} runs this ({@code org.duckdb:duckdb_jdbc} is a dependency of
 * bench). Arguments: {@code [--only REGEX]
 * [--min-values N] [--out DIR] [--alp MODE]} ({@code --alp} sets {@code lance-encoding:alp} on
 * our 2.3 files). Markdown on stdout, progress on stderr.
 */
public final class DuckDbPeer {
  private DuckDbPeer() {}

  record Row(String label, int rows, int copies, double duck, String duckCompression, double ours23, double ours22,
      double ours23OneCopy) {}

  /**
   * Dictionaries off for the repeated columns: k copies have the cardinality of one, so the
   * writer would store dictionary indices, which says nothing of how one copy is stored.
   */
  static final Map<String, String> NO_DICTIONARY = Map.of("lance-encoding:dict-divisor", "1000000000");

  public static void main(String[] args) throws Exception {
    Path root = Path.of(System.getProperty("lance.codec.root", ".")).toAbsolutePath();
    Path data = CorpusSizes.sharedDir(root).resolve("data");
    Pattern only = null;
    long minValues = 1L << 22;
    Path out = null;
    Map<String, String> ours = Map.of();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--only" -> only = Pattern.compile(args[++i]);
        case "--min-values" -> minValues = Long.parseLong(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--data" -> data = Path.of(args[++i]);
        case "--alp" -> ours = Map.of("lance-encoding:alp", args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + " (usage: [--only REGEX] [--min-values N] [--out DIR] [--data DIR] [--alp off|on|auto])");
      }
    }
    Path tmp = Files.createTempDirectory("duckdb-peer");
    List<Row> rows = new ArrayList<>();
    String version;
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT version()")) {
      r.next();
      version = r.getString(1);
    }
    try (BufferAllocator alloc = new RootAllocator()) {
      for (CorpusColumn col : new Corpus(data, alloc).load("floats")) {
        if (only != null && !only.matcher(col.label()).find()) {
          continue;
        }
        int copies = (int) Math.max(1, (minValues + col.rows() - 1) / col.rows());
        copies = Integer.highestOneBit(copies) == copies ? copies : Integer.highestOneBit(copies) << 1;
        long added = (long) copies * col.rows();
        long[] duck = new long[2];
        String compression = "";
        long[] ours23 = new long[2];
        long[] ours22 = new long[2];
        for (int k = 0; k < 2; k++) {
          int n = copies << k;
          Path db = tmp.resolve("t" + k + ".duckdb");
          Files.deleteIfExists(db);
          compression = duck(col, n, db, tmp);
          duck[k] = Files.size(db);
          Files.delete(db);
          ours23[k] = ours(col, n, FileVersion.V2_3, with(NO_DICTIONARY, ours), tmp, alloc);
          ours22[k] = ours(col, n, FileVersion.V2_2, NO_DICTIONARY, tmp, alloc);
        }
        double oneCopy = ours(col, 1, FileVersion.V2_3, ours, tmp, alloc) / (double) col.rows();
        Row row = new Row(col.label(), col.rows(), copies, (duck[1] - duck[0]) / (double) added, compression,
            (ours23[1] - ours23[0]) / (double) added, (ours22[1] - ours22[0]) / (double) added, oneCopy);
        rows.add(row);
        System.err.printf(Locale.ROOT, "%-36s x%-5d duckdb %.3f B/value (%s)  ours 2.3 %.3f  ours 2.2 %.3f%n", row.label(),
            copies, row.duck(), compression, row.ours23(), row.ours22());
      }
    }
    String md = markdown(rows, version, minValues, ours);
    System.out.print(md);
    if (out != null) {
      Files.createDirectories(out);
      String stamp = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm'Z'")
          .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now());
      Files.writeString(out.resolve("alp-duckdb-" + stamp + ".md"), md);
    }
  }

  private static boolean isF64(CorpusColumn col) {
    return ((ArrowType.FloatingPoint) col.type()).getPrecision() == FloatingPointPrecision.DOUBLE;
  }

  /** Writes {@code copies} copies of the column into a fresh DuckDB file; returns its segments' compression. */
  private static String duck(CorpusColumn col, int copies, Path db, Path tmp) throws IOException, SQLException {
    boolean f64 = isF64(col);
    ByteBuffer b = ByteBuffer.wrap(col.data()).order(ByteOrder.LITTLE_ENDIAN);
    Path csv = tmp.resolve("values.csv");
    try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      for (int i = 0; i < col.rows(); i++) {
        w.write(f64 ? Double.toString(b.getDouble(8 * i)) : Float.toString(b.getFloat(4 * i)));
        w.write('\n');
      }
    }
    String type = f64 ? "DOUBLE" : "FLOAT";
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement s = c.createStatement()) {
      s.execute("SET threads = 1");
      s.execute("SET preserve_insertion_order = true");
      s.execute("CREATE TABLE t AS SELECT v FROM read_csv('" + csv + "', header = false, columns = {'v': '" + type
          + "'}, auto_detect = false)");
      try (ResultSet r = s.executeQuery("SELECT v FROM t")) {
        int i = 0;
        while (r.next()) {
          boolean same = f64 ? Double.doubleToRawLongBits(r.getDouble(1)) == Double.doubleToRawLongBits(b.getDouble(8 * i))
              : Float.floatToRawIntBits(r.getFloat(1)) == Float.floatToRawIntBits(b.getFloat(4 * i));
          if (!same) {
            throw new IllegalStateException(col.label() + ": DuckDB holds another value at row " + i);
          }
          i++;
        }
        if (i != col.rows()) {
          throw new IllegalStateException(col.label() + ": DuckDB holds " + i + " rows, not " + col.rows());
        }
      }
      for (int have = 1; have < copies; have *= 2) {
        s.execute("INSERT INTO t SELECT v FROM t");
      }
      s.execute("CHECKPOINT");
      StringBuilder kinds = new StringBuilder();
      try (ResultSet r = s.executeQuery("SELECT compression, count(*) FROM pragma_storage_info('t') WHERE segment_type = '"
          + type + "' GROUP BY compression ORDER BY 2 DESC")) {
        while (r.next()) {
          kinds.append(kinds.length() == 0 ? "" : ", ").append(r.getString(1)).append(" ×").append(r.getLong(2));
        }
      }
      return kinds.toString();
    } finally {
      Files.deleteIfExists(csv);
      Files.deleteIfExists(db.resolveSibling(db.getFileName() + ".wal"));
    }
  }

  /** Our one-column file of {@code copies} copies, {@code metadata} on the field; its size. */
  private static long ours(CorpusColumn col, int copies, FileVersion version, Map<String, String> metadata, Path tmp,
      BufferAllocator alloc) throws IOException {
    byte[] one = col.data();
    int width = one.length / col.rows();
    byte[] all = new byte[Math.multiplyExact(copies, col.rows() * width)];
    for (int k = 0; k < copies; k++) {
      System.arraycopy(one, 0, all, k * one.length, col.rows() * width);
    }
    CorpusColumn repeated = CorpusColumn.fixed(col.label(), col.section(), col.type(), all, copies * col.rows());
    Path file = tmp.resolve("ours.lance");
    try (VectorSchemaRoot root = repeated.root(metadata, alloc);
        LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults().withVersion(version))) {
      w.write(root);
    }
    long size = Files.size(file);
    Files.delete(file);
    return size;
  }

  private static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
    Map<String, String> m = new java.util.TreeMap<>(a);
    m.putAll(b);
    return m;
  }

  private static String markdown(List<Row> rows, String version, long minValues, Map<String, String> ours) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Float columns: bytes per value, DuckDB ").append(version).append(" beside ours")
        .append(ours.isEmpty() ? "" : " (ours 2.3 with " + ours + ")").append("\n\n");
    sb.append("Each column repeated k and 2k times (k·rows ≥ ").append(minValues)
        .append("); bytes per value = file growth from k to 2k copies / (k·rows). DuckDB: fresh database file, ")
        .append("one thread, CHECKPOINT; its compression per segment from pragma_storage_info. Ours: one-column ")
        .append("files with dictionaries off (k copies have one copy's cardinality, and indices would say nothing of ")
        .append("the values' encoding); \"one copy\" is our default 2.3 file of the column itself, bytes / rows, ")
        .append("footer and all.\n\n");
    sb.append("| column | rows | k | DuckDB B/value | DuckDB segments (2k copies) | ours 2.3 B/value | ours 2.2 B/value"
        + " | 2.3 / DuckDB | ours 2.3 one copy |\n");
    sb.append("|---|---:|---:|---:|---|---:|---:|---:|---:|\n");
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %.3f | %s | %.3f | %.3f | %.3f | %.3f |%n", r.label(), r.rows(),
          r.copies(), r.duck(), r.duckCompression(), r.ours23(), r.ours22(), r.ours23() / r.duck(), r.ours23OneCopy()));
    }
    return sb.toString();
  }
}
