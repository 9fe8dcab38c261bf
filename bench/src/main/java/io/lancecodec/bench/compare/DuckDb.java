package io.lancecodec.bench.compare;

import io.lancecodec.bench.compare.Engines.Engine;
import io.lancecodec.bench.compare.Engines.Reader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

/**
 * DuckDB ({@code org.duckdb:duckdb_jdbc}) as a system: the column as table {@code t(v)} in a
 * database file of its own, on one thread ({@code SET threads = 1}, as the other systems read on
 * one), handed over and read back through Arrow's C stream interface, so neither direction pays
 * for JDBC's row-at-a-time getters.
 *
 * <ul>
 *   <li>write: a fresh database file, {@code CREATE TABLE t AS SELECT v FROM} the column
 *       registered as an Arrow stream, {@code CHECKPOINT}, close;
 *   <li>size: not that file's size. DuckDB allocates its file in 256 KiB blocks, so a small column
 *       would measure the block, not its encoding. As {@code DuckDbPeer} does, the column is
 *       stored {@code k} and {@code 2k} times over (k a power of two with k times the raw bytes
 *       at least {@link #minRawBytes}), each in a fresh file, and its size is the file's growth
 *       between the two divided by {@code k}: every fixed cost and the last partial block cancel.
 *       A column that compresses so well that the growth stays under {@link #minGrowth} (a few
 *       blocks, where one block more or less is a large error) is doubled again, up to
 *       {@link #maxRawBytes} of raw bytes. The nested columns' growth is not linear beyond a
 *       few copies (DuckDB 1.4.4: the vectors take 104 and 207 blocks at 1 and 2 copies, 751 at
 *       4; token lines grow by 2.3 MB a copy up to 8 copies, 3.9 MB from 8 to 16), so k stays
 *       small: {@link #FULL_MIN_RAW} makes it 1 and 4 for them. A copy of a column much smaller than a block shares its blocks with the next copies, so
 *       what DuckDB finds across the copies of such a column (runs, a dictionary) counts too, which
 *       for strings is so much ({@link #hasStrings}) that they get no size;
 *   <li>scan: {@code SELECT v FROM t} through {@code DuckDBResultSet.arrowExportStream} in
 *       batches of {@link Engines#BATCH} rows;
 *   <li>take: {@code SELECT v FROM t WHERE rowid IN (...) ORDER BY rowid}, exported the same way.
 * </ul>
 */
final class DuckDb implements Engine {
  final BufferAllocator alloc;
  /** Raw Arrow bytes that k copies must reach for the size measurement. */
  final long minRawBytes;
  /** File growth from k to 2k copies that the size measurement wants at least. */
  final long minGrowth;
  /** Raw Arrow bytes of 2k copies that it stops doubling at. */
  final long maxRawBytes;
  /** Compare's size measurement: k·raw ≥ 16 MiB, growth ≥ 4 MiB (256 KiB blocks: ≤ 6% off), up to 1 GiB raw. */
  static final long FULL_MIN_RAW = 16L << 20;
  static final long FULL_MIN_GROWTH = 4L << 20;
  static final long FULL_MAX_RAW = 1L << 30;
  /** DuckDB's block, the step its file grows in. */
  static final long BLOCK = 256L << 10;
  static final boolean FREE_BLOCKS = Boolean.getBoolean("duckdb.blocks");
  /** The last size measurement's k and growth, for {@link #main}. */
  int lastCopies;
  long lastGrowth;

  /** The size of one copy of each data set, measured once, on its first write. */
  private final Map<Data, Long> sizes = new IdentityHashMap<>();

  DuckDb(BufferAllocator alloc, long minRawBytes, long minGrowth, long maxRawBytes) {
    this.alloc = alloc;
    this.minRawBytes = minRawBytes;
    this.minGrowth = minGrowth;
    this.maxRawBytes = maxRawBytes;
  }

  @Override
  public String name() {
    return "duckdb";
  }

  @Override
  public String refName() {
    return "ref-2.1";
  }

  /**
   * The size measurement alone, for every data set of the comparison, with the copies and the
   * growth it took: {@code DuckDb [MIN_RAW_MIB MIN_GROWTH_MIB MAX_RAW_MIB [DATA_SET_REGEX]]} (defaults: Compare's).
   * Data from {@code -Dlance.codec.root}'s sibling {@code shared/data}, as Compare takes it.
   */
  public static void main(String[] args) throws Exception {
    long mib = 1L << 20;
    long minRaw = args.length > 0 ? Long.parseLong(args[0]) * mib : FULL_MIN_RAW;
    long minGrowth = args.length > 1 ? Long.parseLong(args[1]) * mib : FULL_MIN_GROWTH;
    long maxRaw = args.length > 2 ? Long.parseLong(args[2]) * mib : FULL_MAX_RAW;
    Path tmp = Files.createTempDirectory("duckdb-sizes");
    System.out.println("| data set | rows | raw B | DuckDB B (growth per copy) | B/row | k | growth from k to 2k copies B | s |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
    try (BufferAllocator alloc = new org.apache.arrow.memory.RootAllocator()) {
      StringBuilder notes = new StringBuilder();
      List<Data> sets = Data.load(Compare.defaultDataDir(), Compare.root().resolve("cli/src/main/resources/demo"),
          Integer.MAX_VALUE, false, alloc, notes);
      try {
        DuckDb duck = new DuckDb(alloc, minRaw, minGrowth, maxRaw);
        for (Data d : sets) {
          if (args.length > 3 && !d.name.matches(args[3])) {
            continue;
          }
          long t = System.nanoTime();
          long size = duck.growthPerCopy(d, tmp.resolve(d.name + ".duckdb"));
          System.out.printf(java.util.Locale.ROOT, "| %s | %,d | %,d | %,d | %.3f | %d | %,d | %.1f |%n", d.name, d.rows,
              d.rawBytes, size, size / (double) d.rows, duck.lastCopies, duck.lastGrowth, (System.nanoTime() - t) / 1e9);
        }
      } finally {
        sets.forEach(Data::close);
      }
    } finally {
      io.lancecodec.bench.corpus.Cleanup.deleteTree(tmp);
    }
    System.out.println("\nDuckDB " + version() + "; k·raw ≥ " + minRaw / mib + " MiB, growth ≥ " + minGrowth / mib
        + " MiB unless 4k·raw > " + maxRaw / mib + " MiB; one thread.");
  }

  /** DuckDB's version, e.g. "v1.4.4", or the reason there is none. */
  static String version() {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT version()")) {
      r.next();
      return r.getString(1);
    } catch (SQLException | LinkageError e) {
      return "not available (" + e.getMessage() + ")";
    }
  }

  /**
   * Returns the size of one copy, or -1 for columns of strings ({@link #hasStrings}). The first
   * call per data set also measures the size, which takes longer than a write; Compare
   * makes that call in its warm-up repetition, whose timings are thrown away.
   */
  @Override
  public long write(Data d, Path file) throws Exception {
    Long size = sizes.get(d);
    if (size == null) {
      size = hasStrings(d.kind) ? -1 : growthPerCopy(d, file);
      sizes.put(d, size);
    }
    store(d, file, 1);
    return size;
  }

  /**
   * Strings get no size: a string column's copies share DuckDB's row groups (122,880 values)
   * when a copy has fewer values, and its dictionary compression then stores the copies after the
   * first as references (mail subjects: 6.4 B a row by growth over 128 copies, 33 B raw).
   */
  static boolean hasStrings(Data.Kind kind) {
    return kind == Data.Kind.UTF8 || kind == Data.Kind.LIST_UTF8;
  }

  long growthPerCopy(Data d, Path file) throws Exception {
    int k = 1;
    while ((long) k * d.rawBytes < minRawBytes) {
      k *= 2;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".copies");
    try {
      while (true) {
        store(d, tmp, k);
        long sizeK = Files.size(tmp);
        store(d, tmp, 2 * k);
        long growth = Files.size(tmp) - sizeK;
        if (growth >= minGrowth || 4L * k * d.rawBytes > maxRawBytes) {
          lastCopies = k;
          lastGrowth = growth;
          return Math.round(growth / (double) k);
        }
        // Straight to the copies the growth so far says are needed (at least one block's worth
        // was added, or nothing is known), not one doubling at a time: each try stores 3k copies.
        long need = (minGrowth + Math.max(growth, BLOCK) - 1) / Math.max(growth, BLOCK);
        long factor = Math.max(2, Long.highestOneBit(need - 1) << 1);
        while (factor > 2 && 2L * factor * k * d.rawBytes > maxRawBytes) {
          factor /= 2;
        }
        k = Math.multiplyExact(k, (int) factor);
      }
    } finally {
      delete(tmp);
    }
  }

  /** A fresh database file holding {@code copies} copies of the column, one after the other, as t(v). */
  void store(Data d, Path file, int copies) throws SQLException, IOException {
    delete(file);
    // The stream is declared first so that it is freed last: DuckDB holds its address until the
    // connection closes.
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc);
        ArrowReader source = new RootReader(alloc, d.root, copies);
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
        Statement s = c.createStatement()) {
      s.execute("SET threads = 1");
      org.apache.arrow.c.Data.exportArrayStream(alloc, source, stream);
      c.unwrap(DuckDBConnection.class).registerArrowStream("source", stream);
      // The copies come in one stream, so one statement writes them, in order, without reading the
      // table back as doubling it with INSERT INTO t SELECT v FROM t would.
      s.execute("CREATE TABLE t AS SELECT v FROM source");
      s.execute("CHECKPOINT");
      if (FREE_BLOCKS) {
        try (ResultSet r = s.executeQuery("SELECT total_blocks, used_blocks, free_blocks FROM pragma_database_size()")) {
          r.next();
          System.err.printf("# %s x%d: blocks total %d used %d free %d%n", d.name, copies, r.getLong(1), r.getLong(2),
              r.getLong(3));
        }
        try (ResultSet r = s.executeQuery("SELECT segment_type, compression, count(*) FROM pragma_storage_info('t')"
            + " GROUP BY ALL ORDER BY 3 DESC")) {
          while (r.next()) {
            System.err.printf("#   %s %s x%d%n", r.getString(1), r.getString(2), r.getLong(3));
          }
        }
      }
    }
  }

  static void delete(Path file) throws IOException {
    Files.deleteIfExists(file);
    Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".wal"));
  }

  @Override
  public Reader open(Data d, Path file) throws Exception {
    Properties p = new Properties();
    p.setProperty("duckdb.read_only", "true");
    Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, p);
    try (Statement s = c.createStatement()) {
      s.execute("SET threads = 1");
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
    return new Reader() {
      @Override
      public long scan(boolean hash, int batch) throws Exception {
        return query("SELECT v FROM t", batch, hash);
      }

      @Override
      public long take(long[] rows, boolean hash) throws Exception {
        StringBuilder sql = new StringBuilder("SELECT v FROM t WHERE rowid IN (");
        for (int i = 0; i < rows.length; i++) {
          sql.append(i == 0 ? "" : ",").append(rows[i]);
        }
        return query(sql.append(") ORDER BY rowid").toString(), Engines.BATCH, hash);
      }

      private long query(String sql, int batch, boolean hash) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
          return Engines.drain((ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(alloc, batch), d.kind, hash);
        }
      }

      @Override
      public long searchCacheBytes() {
        return -1;
      }

      @Override
      public void close() throws SQLException {
        c.close();
      }
    };
  }

  /** The data set's Arrow batch {@code copies} times over as a stream, sharing its buffers. */
  static final class RootReader extends ArrowReader {
    private final VectorSchemaRoot source;
    private int left;

    RootReader(BufferAllocator alloc, VectorSchemaRoot source, int copies) {
      super(alloc);
      this.source = source;
      this.left = copies;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (left == 0) {
        return false;
      }
      left--;
      try (ArrowRecordBatch batch = new VectorUnloader(source).getRecordBatch()) {
        new VectorLoader(getVectorSchemaRoot()).load(batch);
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return source.getSchema();
    }
  }
}
