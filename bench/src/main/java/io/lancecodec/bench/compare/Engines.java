package io.lancecodec.bench.compare;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/** The systems compared: each writes a column to a file and reads it back (scan, take). */
final class Engines {
  /** Batches our scans decode ahead on other threads ({@code -Dcompare.readAhead}; the reader's default otherwise). */
  static final int READ_AHEAD = Integer.getInteger("compare.readAhead", io.lancecodec.runtime.LanceFileReader.DEFAULT_READ_AHEAD);

  private Engines() {}

  /** Rows per batch for the main scan column (all systems) and rows per Arrow IPC record batch. */
  static final int BATCH = 65_536;

  interface Engine {
    String name();

    /** Writes the column to {@code file}; returns the bytes written (or held, for in-memory systems), -1 for none. */
    long write(Data d, Path file) throws Exception;

    Reader open(Data d, Path file) throws Exception;

    /** False for systems without a file (arraycopy): no write/open/size columns. */
    default boolean hasFile() {
      return true;
    }

    /** True for the Lance readers, whose scans are also timed at {@link Compare#SMALL_BATCHES}; the others keep their own batching. */
    default boolean batchSized() {
      return false;
    }

    /** The reference system this one's ratios are taken against. */
    String refName();
  }

  interface Reader extends AutoCloseable {
    /** A full scan in batches of {@link #BATCH} rows; the order-sensitive hash of all values when {@code hash}, else anything. */
    default long scan(boolean hash) throws Exception {
      return scan(hash, BATCH);
    }

    /** A full scan in batches of {@code batch} rows (only the Lance readers take other sizes than {@link #BATCH}). */
    long scan(boolean hash, int batch) throws Exception;

    /** Reads {@code rows} (ascending, distinct); their hash when {@code hash}. */
    long take(long[] rows, boolean hash) throws Exception;

    /** Bytes of per-file metadata kept in memory for random access; -1 when not known. */
    long searchCacheBytes();

    @Override
    void close() throws Exception;
  }

  // ---------------------------------------------------------------- lance-codec

  static final class Ours implements Engine {
    final FileVersion version;
    final BufferAllocator alloc;

    Ours(FileVersion version, BufferAllocator alloc) {
      this.version = version;
      this.alloc = alloc;
    }

    @Override
    public boolean batchSized() {
      return true;
    }

    @Override
    public String name() {
      return "ours-" + version;
    }

    @Override
    public String refName() {
      // the reference writes no 2.3 pages: 2.3 is measured against its newest stable version
      return version == FileVersion.V2_3 ? "ref-2.2" : "ref-" + version;
    }

    @Override
    public long write(Data d, Path file) {
      // like with like: the reference's writer leaves flushing to the operating system
      WriterOptions o = WriterOptions.defaults().withVersion(version).withDurability(WriterOptions.Durability.OS_BUFFERED);
      try (LanceFileWriter w = LanceFileWriter.open(file, d.schema(), o)) {
        w.write(d.root);
      }
      return size(file);
    }

    @Override
    public Reader open(Data d, Path file) {
      LanceFileReader r = LanceFileReader.open(file);
      List<String> cols = List.of(Data.COL);
      return new Reader() {
        @Override
        public long scan(boolean hash, int batch) {
          long h = 1;
          Iterator<VectorSchemaRoot> it = r.scan(cols, batch, READ_AHEAD, alloc);
          while (it.hasNext()) {
            try (VectorSchemaRoot b = it.next()) {
              h = hash ? Data.mixVector(h, b.getVector(0), d.kind) : h + b.getRowCount();
            }
          }
          return h;
        }

        @Override
        public long take(long[] rows, boolean hash) {
          try (VectorSchemaRoot b = r.take(rows, cols, alloc)) {
            return hash ? Data.mixVector(1, b.getVector(0), d.kind) : b.getRowCount();
          }
        }

        @Override
        public long searchCacheBytes() {
          return r.searchCacheBytes();
        }

        @Override
        public void close() {
          r.close();
        }
      };
    }
  }

  // ---------------------------------------------------------------- the reference

  /** org.lance:lance-core (Rust through JNI). It only ever gets ascending, disjoint ranges. */
  static final class Ref implements Engine {
    final String version;
    final BufferAllocator alloc;

    Ref(String version, BufferAllocator alloc) {
      this.version = version;
      this.alloc = alloc;
    }

    @Override
    public boolean batchSized() {
      return true;
    }

    @Override
    public String name() {
      return "ref-" + version;
    }

    @Override
    public String refName() {
      return name();
    }

    @Override
    public long write(Data d, Path file) throws Exception {
      try (org.lance.file.LanceFileWriter w =
          org.lance.file.LanceFileWriter.open(file.toString(), alloc, null, Optional.of(version), Map.of())) {
        w.write(d.root);
      }
      return size(file);
    }

    @Override
    public Reader open(Data d, Path file) throws Exception {
      org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), alloc);
      List<String> cols = List.of(Data.COL);
      return new Reader() {
        @Override
        public long scan(boolean hash, int batch) throws IOException {
          return drain(r.readAll(cols, null, batch), d.kind, hash);
        }

        @Override
        public long take(long[] rows, boolean hash) throws IOException {
          List<org.lance.util.Range> ranges = new ArrayList<>();
          int i = 0;
          while (i < rows.length) {
            int j = i + 1;
            while (j < rows.length && rows[j] == rows[j - 1] + 1) {
              j++;
            }
            if (i > 0 && rows[i] <= rows[i - 1]) {
              throw new IllegalStateException("rows for the reference must be ascending and distinct");
            }
            ranges.add(org.lance.util.Range.of((int) rows[i], (int) rows[j - 1] + 1));
            i = j;
          }
          return drain(r.readAll(cols, ranges, BATCH), d.kind, hash);
        }

        @Override
        public long searchCacheBytes() {
          return -1;
        }

        @Override
        public void close() throws Exception {
          r.close();
        }
      };
    }
  }

  /**
   * Reads every batch of {@code ar} (closing it): a hash of the first column's values when
   * verifying, else only the row count, so timing measures reading, not hashing.
   */
  static long drain(ArrowReader ar, Data.Kind kind, boolean hash) throws IOException {
    long h = 1;
    try (ar) {
      while (ar.loadNextBatch()) {
        VectorSchemaRoot b = ar.getVectorSchemaRoot();
        h = hash ? Data.mixVector(h, b.getVector(0), kind) : h + b.getRowCount();
      }
    }
    return h;
  }

  // ---------------------------------------------------------------- Arrow IPC

  /** Uncompressed Arrow IPC file, record batches of {@link #BATCH} rows; take loads whole batches. */
  static final class ArrowIpc implements Engine {
    final BufferAllocator alloc;

    ArrowIpc(BufferAllocator alloc) {
      this.alloc = alloc;
    }

    @Override
    public String name() {
      return "arrow-ipc";
    }

    @Override
    public String refName() {
      return "ref-2.1";
    }

    @Override
    public long write(Data d, Path file) throws IOException {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE);
          VectorSchemaRoot out = VectorSchemaRoot.create(d.schema(), alloc);
          ArrowFileWriter w = new ArrowFileWriter(out, null, ch)) {
        w.start();
        VectorLoader loader = new VectorLoader(out);
        for (int start = 0; start < d.rows; start += BATCH) {
          try (VectorSchemaRoot slice = d.root.slice(start, Math.min(BATCH, d.rows - start));
              ArrowRecordBatch batch = new VectorUnloader(slice).getRecordBatch()) {
            loader.load(batch);
            w.writeBatch();
          }
        }
        w.end();
      }
      return size(file);
    }

    @Override
    public Reader open(Data d, Path file) throws IOException {
      FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
      ArrowFileReader r = new ArrowFileReader(ch, alloc);
      List<ArrowBlock> blocks;
      try {
        r.getVectorSchemaRoot();
        blocks = r.getRecordBlocks();
      } catch (IOException | RuntimeException e) {
        r.close();
        throw e;
      }
      return new Reader() {
        @Override
        public long scan(boolean hash, int batch) throws IOException {
          long h = 1;
          for (ArrowBlock b : blocks) {
            r.loadRecordBatch(b);
            VectorSchemaRoot root = r.getVectorSchemaRoot();
            h = hash ? Data.mixVector(h, root.getVector(0), d.kind) : h + root.getRowCount();
          }
          return h;
        }

        @Override
        public long take(long[] rows, boolean hash) throws IOException {
          long h = 1;
          int loaded = -1;
          FieldVector v = null;
          for (long row : rows) {
            int b = (int) (row / BATCH);
            if (b != loaded) {
              r.loadRecordBatch(blocks.get(b));
              loaded = b;
              v = r.getVectorSchemaRoot().getVector(0);
            }
            int i = (int) (row % BATCH);
            h = hash ? Data.mix(h, keyOf(v, i, d.kind)) : h + (v.isNull(i) ? 0 : 1);
          }
          return h;
        }

        @Override
        public long searchCacheBytes() {
          return 24L * blocks.size(); // footer Block structs: offset, metadata length, body length
        }

        @Override
        public void close() throws IOException {
          r.close();
        }
      };
    }
  }

  static long keyOf(FieldVector v, int i, Data.Kind kind) {
    return Data.rowKey(v, i, kind);
  }

  // ---------------------------------------------------------------- System.arraycopy

  /** The memory-bandwidth limit: copying the decoded Arrow bytes (scan), or one row's bytes (take). */
  static final class Arraycopy implements Engine {
    @Override
    public String name() {
      return "arraycopy";
    }

    @Override
    public String refName() {
      return "ref-2.1";
    }

    @Override
    public boolean hasFile() {
      return false;
    }

    @Override
    public long write(Data d, Path file) {
      return d.rawBytes;
    }

    @Override
    public Reader open(Data d, Path file) {
      byte[] dst = new byte[d.values.length];
      int[] offDst = d.offsets == null ? null : new int[d.offsets.length];
      int[] listDst = d.listOffsets == null ? null : new int[d.listOffsets.length];
      int width = d.kind.bits / 8;
      return new Reader() {
        @Override
        public long scan(boolean hash, int batch) {
          System.arraycopy(d.values, 0, dst, 0, d.values.length);
          if (offDst != null) {
            System.arraycopy(d.offsets, 0, offDst, 0, offDst.length);
          }
          if (listDst != null) {
            System.arraycopy(d.listOffsets, 0, listDst, 0, listDst.length);
          }
          return hash ? d.hashAll() : dst.length;
        }

        @Override
        public long take(long[] rows, boolean hash) {
          int pos = 0;
          for (long row : rows) {
            int r = (int) row;
            // a row's items are contiguous: one copy per row, as for a flat value
            int a = d.itemStart(r);
            int b = d.itemStart(r + 1);
            if (offDst == null) {
              System.arraycopy(d.values, a * width, dst, pos, (b - a) * width);
              pos += (b - a) * width;
            } else {
              int len = d.offsets[b] - d.offsets[a];
              System.arraycopy(d.values, d.offsets[a], dst, pos, len);
              pos += len;
            }
          }
          return hash ? d.hashRows(rows) : pos;
        }

        @Override
        public long searchCacheBytes() {
          return 0;
        }

        @Override
        public void close() {}
      };
    }
  }

  // ---------------------------------------------------------------- Parquet (parquet-java, no Hadoop)

  /**
   * parquet-java through LocalOutputFile/LocalInputFile and PlainParquetConfiguration (no Hadoop at
   * run time). {@code tuned} = the paper's settings: 8 KiB pages, no dictionary, no compression,
   * page index on. Otherwise parquet-java's defaults (1 MiB pages of at most 20,000 rows,
   * dictionary on, uncompressed, 128 MiB row groups; offset and column indexes are written by
   * default). Scans decode with the low-level ColumnReader (no record assembly); take reads only
   * the pages that hold the rows, found with the offset index (RowRanges + readFilteredRowGroup).
   */
  static final class Parquet implements Engine {
    final boolean tuned;

    Parquet(boolean tuned) {
      this.tuned = tuned;
    }

    @Override
    public String name() {
      return tuned ? "parquet-tuned" : "parquet-default";
    }

    @Override
    public String refName() {
      return "ref-2.1";
    }

    /**
     * Flat kinds: one required column. Nested kinds: the standard three-level LIST (a required
     * group {@code v} holding a repeated group {@code list} of a required {@code element}); a
     * fixed-size list is such a list that happens to have the same length in every row, since
     * Parquet has no fixed-size list type.
     */
    static MessageType schema(Data.Kind kind) {
      if (kind.nested()) {
        return Types.buildMessage()
            .requiredGroup().as(LogicalTypeAnnotation.listType())
            .repeatedGroup().addField(primitive(kind.item(), "element")).named("list")
            .named(Data.COL)
            .named("schema");
      }
      return Types.buildMessage().addField(primitive(kind, Data.COL)).named("schema");
    }

    static org.apache.parquet.schema.PrimitiveType primitive(Data.Kind kind, String name) {
      var b = switch (kind) {
        case INT16 -> Types.required(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(16, true));
        case UINT32 -> Types.required(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(32, false));
        case INT32 -> Types.required(PrimitiveTypeName.INT32);
        case INT64 -> Types.required(PrimitiveTypeName.INT64);
        case FLOAT32 -> Types.required(PrimitiveTypeName.FLOAT);
        case FLOAT64 -> Types.required(PrimitiveTypeName.DOUBLE);
        case UTF8 -> Types.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType());
        default -> throw new IllegalArgumentException("not a primitive kind: " + kind);
      };
      return b.named(name);
    }

    /** Writes row {@code i} of the column for each record {@code i}. */
    static final class RowWriteSupport extends WriteSupport<Integer> {
      final Data d;
      final MessageType schema;
      RecordConsumer rc;
      java.nio.ByteBuffer le;

      RowWriteSupport(Data d) {
        this.d = d;
        this.schema = schema(d.kind);
        this.le = java.nio.ByteBuffer.wrap(d.values).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      }

      @Override
      public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
        return new WriteContext(schema, Map.of());
      }

      @Override
      public WriteContext init(ParquetConfiguration configuration) {
        return new WriteContext(schema, Map.of());
      }

      @Override
      public void prepareForWrite(RecordConsumer recordConsumer) {
        rc = recordConsumer;
      }

      @Override
      public void write(Integer row) {
        int i = row;
        rc.startMessage();
        rc.startField(Data.COL, 0);
        if (d.kind.nested()) {
          rc.startGroup();
          int a = d.itemStart(i);
          int b = d.itemStart(i + 1);
          if (b > a) {
            rc.startField("list", 0);
            for (int j = a; j < b; j++) {
              rc.startGroup();
              rc.startField("element", 0);
              addValue(d.kind.item(), j);
              rc.endField("element", 0);
              rc.endGroup();
            }
            rc.endField("list", 0);
          }
          rc.endGroup();
        } else {
          addValue(d.kind, i);
        }
        rc.endField(Data.COL, 0);
        rc.endMessage();
      }

      private void addValue(Data.Kind kind, int i) {
        switch (kind) {
          case INT16 -> rc.addInteger(le.getShort(2 * i));
          case UINT32, INT32 -> rc.addInteger(le.getInt(4 * i));
          case INT64 -> rc.addLong(le.getLong(8 * i));
          case FLOAT32 -> rc.addFloat(le.getFloat(4 * i));
          case FLOAT64 -> rc.addDouble(le.getDouble(8 * i));
          case UTF8 -> rc.addBinary(Binary.fromConstantByteArray(d.values, d.offsets[i], d.offsets[i + 1] - d.offsets[i]));
          default -> throw new IllegalArgumentException("not a primitive kind: " + kind);
        }
      }
    }

    static final class Builder extends ParquetWriter.Builder<Integer, Builder> {
      final Data d;

      Builder(OutputFile f, Data d) {
        super(f);
        this.d = d;
      }

      @Override
      protected Builder self() {
        return this;
      }

      @Override
      protected WriteSupport<Integer> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
        return new RowWriteSupport(d);
      }

      @Override
      protected WriteSupport<Integer> getWriteSupport(ParquetConfiguration conf) {
        return new RowWriteSupport(d);
      }
    }

    @Override
    public long write(Data d, Path file) throws IOException {
      Files.deleteIfExists(file);
      Builder b = new Builder(new LocalOutputFile(file), d);
      b.withConf(new PlainParquetConfiguration()).withCompressionCodec(CompressionCodecName.UNCOMPRESSED);
      if (tuned) {
        b.withPageSize(8 * 1024).withDictionaryEncoding(false);
      }
      try (ParquetWriter<Integer> w = b.build()) {
        for (int i = 0; i < d.rows; i++) {
          w.write(i);
        }
      }
      return size(file);
    }

    @Override
    public Reader open(Data d, Path file) throws IOException {
      ParquetReadOptions opts = ParquetReadOptions.builder(new PlainParquetConfiguration()).build();
      ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file), opts);
      MessageType schema = r.getFooter().getFileMetaData().getSchema();
      String createdBy = r.getFooter().getFileMetaData().getCreatedBy();
      ColumnDescriptor cd = schema.getColumns().get(0);
      List<BlockMetaData> groups = r.getRowGroups();
      long[] groupStart = new long[groups.size() + 1];
      OffsetIndex[] index = new OffsetIndex[groups.size()];
      long pages = 0;
      try {
        for (int g = 0; g < groups.size(); g++) {
          groupStart[g + 1] = groupStart[g] + groups.get(g).getRowCount();
          index[g] = r.readOffsetIndex(groups.get(g).getColumns().get(0));
          pages += index[g].getPageCount();
        }
      } catch (IOException | RuntimeException e) {
        r.close();
        throw e;
      }
      long cacheBytes = 20 * pages; // per page: offset (8), compressed size (4), first row (8)
      return new Reader() {
        @Override
        public long scan(boolean hash, int batch) throws IOException {
          long h = 1;
          for (int g = 0; g < groups.size(); g++) {
            PageReadStore rg = r.readRowGroup(g);
            ColumnReader cr = new ColumnReadStoreImpl(rg, new NoConverter(schema), schema, createdBy).getColumnReader(cd);
            long n = rg.getRowCount();
            for (long i = 0; i < n; i++) {
              long k = row(cr, d.kind, hash);
              h = hash ? Data.mix(h, k) : h + k;
            }
          }
          return h;
        }

        @Override
        public long take(long[] rows, boolean hash) throws IOException {
          long h = 1;
          int i = 0;
          while (i < rows.length) {
            int g = Arrays.binarySearch(groupStart, rows[i]);
            g = g >= 0 ? g : -g - 2;
            int j = i;
            while (j < rows.length && rows[j] < groupStart[g + 1]) {
              j++;
            }
            OffsetIndex oi = index[g];
            int[] pagesOf = new int[j - i];
            for (int k = i; k < j; k++) {
              pagesOf[k - i] = pageOf(oi, rows[k] - groupStart[g]);
            }
            PrimitiveIterator.OfInt pageIt = IntStream.of(pagesOf).distinct().iterator();
            RowRanges ranges = RowRanges.create(groups.get(g).getRowCount(), pageIt, oi);
            PageReadStore rg = r.readFilteredRowGroup(g, ranges);
            ColumnReader cr = new ColumnReadStoreImpl(rg, new NoConverter(schema), schema, createdBy).getColumnReader(cd);
            final int group = g;
            PrimitiveIterator.OfLong rowIndexes = rg.getRowIndexes()
                .orElseGet(() -> java.util.stream.LongStream.range(0, groups.get(group).getRowCount()).iterator());
            int want = i;
            long n = rg.getRowCount();
            for (long k = 0; k < n && want < j; k++) {
              long rowInGroup = rowIndexes.nextLong();
              if (rowInGroup == rows[want] - groupStart[g]) {
                long key = row(cr, d.kind, hash);
                h = hash ? Data.mix(h, key) : h + key;
                want++;
              } else {
                skipRow(cr);
              }
            }
            if (want != j) {
              throw new IllegalStateException("parquet take: found " + (want - i) + " of " + (j - i) + " rows");
            }
            i = j;
          }
          return h;
        }

        @Override
        public long searchCacheBytes() {
          return cacheBytes;
        }

        @Override
        public void close() throws IOException {
          r.close();
        }
      };
    }

    static int pageOf(OffsetIndex oi, long row) {
      int lo = 0;
      int hi = oi.getPageCount() - 1;
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        if (oi.getFirstRowIndex(mid) <= row) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      return lo;
    }

    /**
     * Reads one row and moves past it: its key (see {@link Data#key}), or without {@code hash}
     * something that depends on every value read. A nested row is its first entry (repetition
     * level 0) and every following entry with a repetition level above 0; an empty list is one
     * entry below the element's definition level. After the column's last entry the reader
     * reports repetition level 0.
     */
    static long row(ColumnReader cr, Data.Kind kind, boolean hash) {
      if (!kind.nested()) {
        long k = value(cr, kind, hash);
        cr.consume();
        return k;
      }
      int maxDef = cr.getDescriptor().getMaxDefinitionLevel();
      Data.Kind item = kind.item();
      long k = 0;
      int n = 0;
      do {
        if (cr.getCurrentDefinitionLevel() == maxDef) {
          k = Data.foldItem(k, value(cr, item, hash));
          n++;
        }
        cr.consume();
      } while (cr.getCurrentRepetitionLevel() > 0);
      return Data.endRow(k, n);
    }

    static void skipRow(ColumnReader cr) {
      int maxDef = cr.getDescriptor().getMaxDefinitionLevel();
      do {
        if (cr.getCurrentDefinitionLevel() == maxDef) {
          cr.skip(); // only entries with a value have one in the data stream
        }
        cr.consume();
      } while (cr.getCurrentRepetitionLevel() > 0);
    }

    /** The value's key (see {@link Data#key}); for strings without {@code hash}, only the length. */
    static long value(ColumnReader cr, Data.Kind kind, boolean hash) {
      return switch (kind) {
        case INT16 -> (short) cr.getInteger();
        case UINT32 -> Integer.toUnsignedLong(cr.getInteger());
        case INT32 -> cr.getInteger();
        case INT64 -> cr.getLong();
        case FLOAT32 -> Float.floatToRawIntBits(cr.getFloat());
        case FLOAT64 -> Double.doubleToRawLongBits(cr.getDouble());
        case UTF8 -> {
          Binary b = cr.getBinary();
          yield hash ? Arrays.hashCode(b.getBytesUnsafe()) : b.length();
        }
        default -> throw new IllegalArgumentException("not a primitive kind: " + kind);
      };
    }

    /** Converters are unused (values are read from the ColumnReader), but must mirror the schema's groups. */
    static final class NoConverter extends GroupConverter {
      final org.apache.parquet.schema.GroupType type;

      NoConverter(org.apache.parquet.schema.GroupType type) {
        this.type = type;
      }

      @Override
      public Converter getConverter(int fieldIndex) {
        org.apache.parquet.schema.Type t = type.getType(fieldIndex);
        return t.isPrimitive() ? new PrimitiveConverter() {} : new NoConverter(t.asGroupType());
      }

      @Override
      public void start() {}

      @Override
      public void end() {}
    }
  }

  static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
