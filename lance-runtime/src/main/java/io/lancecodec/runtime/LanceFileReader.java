package io.lancecodec.runtime;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.file.FileDescriptor;
import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.runtime.arrow.ArrowSink;
import io.lancecodec.runtime.arrow.ArrowVariableSink;
import io.lancecodec.runtime.arrow.FslFiller;
import io.lancecodec.runtime.arrow.LanceSchemas;
import io.lancecodec.runtime.arrow.Leaf;
import io.lancecodec.runtime.arrow.NestedAssembler;
import io.lancecodec.runtime.arrow.Physical;
import io.lancecodec.runtime.arrow.VectorFiller;
import io.lancecodec.runtime.file.Container;
import io.lancecodec.runtime.file.FilePageSource;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageCache;
import io.lancecodec.spi.layout.PageDescription;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads a Lance 2.1/2.2 file. Opening it validates the footer, offset tables and every page's
 * buffer table against the file length, and loads the search cache (each page's decoder with
 * its chunk metadata), so later reads never fail on metadata. Thread-safe: the file is read with
 * positional reads and all state built at open is immutable.
 */
public final class LanceFileReader implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final FileVersion version;
  private final Schema schema;
  private final long numRows;
  private final List<Column> columns = new ArrayList<>();
  /**
   * Per top-level field, the bits a row of it takes at least in Arrow, known from the schema:
   * fixed-width values, variable-width offsets and validity of its leaves outside lists.
   */
  private final long[] fixedRowBits;
  private final long fileSize;
  private final ReadStats stats = new ReadStats();
  private final PageCache cache;
  private final long maxReadBytes;
  /** The file mapped read-only for page reads, or null (see {@link FilePageSource#map}). */
  private final ByteBuffer mapped;

  /**
   * One column's pages, sorted by first row. Their decoders open on the column's first read, so
   * a reader lacking a plugin one column needs still opens, describes the file and reads the
   * other columns; the column itself then fails with the missing plugin's name.
   */
  static final class Column {
    private final Leaf leaf;
    private final Physical physical;
    private final long[] firstRows;
    private final List<PageRef> refs;
    private final List<ColumnMetadata.Page> meta;
    private final RuntimeLayoutContext ctx;
    private final String where;
    private volatile List<PageDecoder> pages;

    Column(Leaf leaf, long[] firstRows, List<PageRef> refs, List<ColumnMetadata.Page> meta, RuntimeLayoutContext ctx, String where) {
      this.leaf = leaf;
      this.meta = meta;
      this.physical = leaf.physical();
      this.firstRows = firstRows;
      this.refs = refs;
      this.ctx = ctx;
      this.where = where;
    }

    Leaf leaf() {
      return leaf;
    }

    Physical physical() {
      return physical;
    }

    long[] firstRows() {
      return firstRows;
    }

    List<PageRef> refs() {
      return refs;
    }

    /** The pages as the file lists them (buffer positions and sizes), for tests that look at raw bytes. */
    List<ColumnMetadata.Page> meta() {
      return meta;
    }

    boolean opened() {
      return pages != null;
    }

    /** The page decoders, opened (and their search cache loaded) on first use. */
    List<PageDecoder> pages() {
      List<PageDecoder> p = pages;
      if (p == null) {
        synchronized (this) {
          p = pages;
          if (p == null) {
            List<PageDecoder> opened = new ArrayList<>(refs.size());
            for (int i = 0; i < refs.size(); i++) {
              try {
                opened.add(refs.get(i).open(ctx));
              } catch (LanceCodecException e) {
                throw e.within(where + " page " + i);
              }
            }
            pages = p = List.copyOf(opened);
          }
        }
      }
      return p;
    }
  }

  /**
   * One page as the file lists it: its encoding (the {@code Any}, routed by its type URL to the
   * layout plugin that declares it; {@code owner} null when none does), its buffers and rows.
   */
  record PageRef(String typeUrl, Message encoding, Plugins.Page owner, FilePageSource source, long storedRows, long rows,
      long bytes, Plugins registry) {
    PageDecoder open(RuntimeLayoutContext ctx) {
      Plugins.Page o = owner != null ? owner : registry.pageOwner(typeUrl);
      return o.plugin().open(encoding, source, storedRows, ctx);
    }

    PageDescription describe() {
      if (owner == null) {
        String name = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
        try {
          registry.pageOwner(typeUrl);
        } catch (LanceCodecException e) {
          return new PageDescription("?", name + ": " + e.getMessage());
        }
      }
      return owner.plugin().describe(encoding, source, registry.decoders());
    }
  }

  private LanceFileReader(Path path, CodecRegistry registry, ReaderOptions options) throws IOException {
    this.path = path;
    this.cache = options.pageCache() != null ? options.pageCache() : new LruPageCache(LruPageCache.DEFAULT_BUDGET);
    this.maxReadBytes = options.maxReadBytes();
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      this.fileSize = channel.size();
      if (fileSize < Container.FOOTER_BYTES) {
        throw LanceCodecException.corrupt("not a Lance file: " + fileSize + " bytes is smaller than the 40-byte footer");
      }
      this.mapped = FilePageSource.map(channel, fileSize);
      ByteBuffer footer = ByteBuffer.wrap(readAt(fileSize - Container.FOOTER_BYTES, Container.FOOTER_BYTES))
          .order(ByteOrder.LITTLE_ENDIAN);
      byte[] magic = Arrays.copyOfRange(footer.array(), 36, 40);
      if (!Arrays.equals(magic, Container.MAGIC)) {
        throw LanceCodecException.corrupt("not a Lance file: no LANC magic in the last 4 bytes");
      }
      long cmStart = footer.getLong(0);
      long cmoPos = footer.getLong(8);
      long gboPos = footer.getLong(16);
      long numGlobal = footer.getInt(24) & 0xFFFFFFFFL;
      long numColumns = footer.getInt(28) & 0xFFFFFFFFL;
      int major = footer.getShort(32) & 0xFFFF;
      int minor = footer.getShort(34) & 0xFFFF;
      if (major == 0 && minor == 3 || major == 2 && minor == 0) {
        throw LanceCodecException.unsupported("file format version 2.0 is not supported (2.1 and 2.2 are)");
      }
      if (major == 0) {
        throw LanceCodecException.unsupported("legacy Lance file (version 0." + minor + ") is not supported");
      }
      this.version = FileVersion.of(major, minor);
      long tailEnd = fileSize - Container.FOOTER_BYTES;
      check(gboPos + 16 * numGlobal == tailEnd, "global buffer table [" + gboPos + " + 16 x " + numGlobal + "] does not end at the footer (byte " + tailEnd + ")");
      check(cmoPos + 16 * numColumns == gboPos, "column metadata table [" + cmoPos + " + 16 x " + numColumns + "] does not end at the global buffer table (byte " + gboPos + ")");
      check(numGlobal >= 1, "file has no global buffers (needs the file descriptor in buffer 0)");
      check(cmStart >= 0 && cmStart <= cmoPos, "column metadata start " + cmStart + " is after its table at " + cmoPos);
      ByteBuffer tables = ByteBuffer.wrap(readAt(cmoPos, (int) (tailEnd - cmoPos))).order(ByteOrder.LITTLE_ENDIAN);

      long gb0Pos = tables.getLong((int) (16 * numColumns));
      long gb0Size = tables.getLong((int) (16 * numColumns + 8));
      checkRange(gb0Pos, gb0Size, cmoPos, "file descriptor (global buffer 0)");
      check(gb0Size <= 64L << 20, "file descriptor of " + gb0Size + " bytes exceeds 64 MiB");
      FileDescriptor fd = FileDescriptor.parseFrom(readAt(gb0Pos, (int) gb0Size));
      this.numRows = fd.getLength();
      check(numRows >= 0, "file row count " + numRows + " is negative");
      this.schema = LanceSchemas.toArrow(fd.getSchema());
      List<Leaf> leaves = Leaf.of(schema);
      this.fixedRowBits = new long[schema.getFields().size()];
      check(leaves.size() == numColumns,
          "schema has " + leaves.size() + " leaf fields but the file has " + numColumns + " columns");

      RuntimeLayoutContext ctx = new RuntimeLayoutContext(registry.internals(), version, cache);
      for (int c = 0; c < numColumns; c++) {
        long pos = tables.getLong(16 * c);
        long size = tables.getLong(16 * c + 8);
        Leaf leaf = leaves.get(c);
        Field field = leaf.leafField();
        String where = "column '" + leaf.columnName() + "'";
        checkRange(pos, size, cmoPos, where + " metadata");
        check(size <= 256L << 20, where + " metadata of " + size + " bytes exceeds 256 MiB");
        ColumnMetadata cm = ColumnMetadata.parseFrom(readAt(pos, (int) size));
        columns.add(openColumn(leaf, cm, registry.internals(), ctx, where, cmoPos));
      }
    } catch (InvalidProtocolBufferException e) {
      closeQuietly();
      throw LanceCodecException.corrupt("malformed metadata: " + e.getMessage());
    } catch (RuntimeException | IOException e) {
      closeQuietly();
      throw e;
    }
  }

  private Column openColumn(Leaf leaf, ColumnMetadata cm, Plugins registry, RuntimeLayoutContext ctx, String where, long dataEnd)
      throws InvalidProtocolBufferException {
    List<PageRef> refs = new ArrayList<>();
    boolean unowned = false;
    long[] firstRows = new long[cm.getPagesCount() + 1];
    long row = 0;
    for (int p = 0; p < cm.getPagesCount(); p++) {
      ColumnMetadata.Page page = cm.getPages(p);
      String pw = where + " page " + p;
      check(page.getBufferOffsetsCount() == page.getBufferSizesCount(), pw + ": " + page.getBufferOffsetsCount() + " buffer offsets but " + page.getBufferSizesCount() + " sizes");
      long[] offs = new long[page.getBufferOffsetsCount()];
      long[] sizes = new long[offs.length];
      long bytes = 0;
      for (int b = 0; b < offs.length; b++) {
        offs[b] = page.getBufferOffsets(b);
        sizes[b] = page.getBufferSizes(b);
        checkRange(offs[b], sizes[b], dataEnd, pw + " buffer " + b);
        bytes += sizes[b];
      }
      long stored = page.getLength();
      check(stored >= 0, pw + ": " + stored + " rows");
      Any any = Any.parseFrom(encodingBytes(page.getEncoding(), dataEnd, pw));
      Plugins.Page owner = null;
      Message encoding = null;
      long length = stored;
      try {
        owner = registry.pageOwner(any.getTypeUrl());
        encoding = owner.parser().parseFrom(any.getValue());
        length = owner.plugin().rows(encoding, stored);
      } catch (LanceCodecException e) {
        if (e.kind() != LanceCodecException.Kind.MISSING_PLUGIN) {
          throw e.within(pw);
        }
        // the column fails when read; the rest of the file stays readable (a page whose layout
        // is missing may count its rows in other units, so the column's total is not checked)
        unowned = true;
      }
      check(length >= 0 && row + length <= numRows && row + length >= row, pw + ": " + length + " rows run past the file's " + numRows);
      FilePageSource source = new FilePageSource(channel, mapped, offs, sizes, stats::record, dataEnd);
      refs.add(new PageRef(any.getTypeUrl(), encoding, owner, source, stored, length, bytes, registry));
      firstRows[p] = row;
      row += length;
      firstRows[p + 1] = row;
    }
    check(row == numRows || unowned, where + ": pages hold " + row + " rows, the file has " + numRows);
    if (!leaf.nested()) {
      Physical ph = leaf.physical();
      fixedRowBits[leaf.field()] += (ph.kind() == Physical.Kind.VARIABLE ? ph.bits() : ph.rowBits()) + 1;
    }
    return new Column(leaf, firstRows, refs, cm.getPagesList(), ctx, where);
  }

  /** The serialized Any of a page: inline (direct) or in a buffer of the file (deferred). */
  private com.google.protobuf.ByteString encodingBytes(io.lancecodec.format.pb.file2.Encoding e, long dataEnd, String where) {
    switch (e.getLocationCase()) {
      case DIRECT:
        return e.getDirect().getEncoding();
      case INDIRECT:
        {
          long pos = e.getIndirect().getBufferLocation();
          long len = e.getIndirect().getBufferLength();
          checkRange(pos, len, dataEnd, where + " deferred encoding");
          check(len <= 64L << 20, where + ": deferred encoding of " + len + " bytes exceeds 64 MiB");
          return com.google.protobuf.ByteString.copyFrom(readAt(pos, (int) len));
        }
      default:
        throw LanceCodecException.corrupt(where + ": page has no encoding");
    }
  }

  /** A counted read of file metadata. */
  private byte[] readAt(long position, int length) {
    stats.record(length);
    return FilePageSource.readFully(channel, position, length);
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw LanceCodecException.corrupt(what);
    }
  }

  private static void checkRange(long pos, long size, long limit, String what) {
    if (pos < 0 || size < 0 || pos > limit || size > limit - pos) {
      throw LanceCodecException.corrupt(what + " [" + pos + ", +" + size + ") lies outside the file's data (ends at " + limit + ")");
    }
  }

  /** Opens {@code path} with the plugins found on the class path. */
  public static LanceFileReader open(Path path) {
    return open(path, CodecRegistry.discover());
  }

  public static LanceFileReader open(Path path, CodecRegistry registry) {
    return open(path, registry, ReaderOptions.defaults());
  }

  /**
   * Opens {@code path} keeping bulky decoded page state (dictionaries, levels of constant
   * pages) in {@code cache}, which may be shared with other readers; its budget bounds that
   * memory, and state evicted from it is read and decoded again on use.
   */
  public static LanceFileReader open(Path path, CodecRegistry registry, PageCache cache) {
    return open(path, registry, ReaderOptions.defaults().withPageCache(cache));
  }

  /** Opens {@code path} with the given options: page cache and the most bytes one read may allocate. */
  public static LanceFileReader open(Path path, CodecRegistry registry, ReaderOptions options) {
    requireArgument(path, "path");
    requireArgument(registry, "registry");
    requireArgument(options, "options");
    try {
      return new LanceFileReader(path, registry, options);
    } catch (NoSuchFileException e) {
      throw LanceCodecException.invalidArgument("no such file: " + path);
    } catch (IOException e) {
      throw LanceCodecException.io("cannot read " + path + ": " + e.getMessage(), e);
    } catch (LanceCodecException e) {
      throw e.within(path.getFileName().toString());
    }
  }

  public Schema schema() {
    return schema;
  }

  public long numRows() {
    return numRows;
  }

  public FileVersion version() {
    return version;
  }

  public long fileSize() {
    return fileSize;
  }

  /** Read requests and bytes this reader made of its file (shared by all threads). */
  public ReadStats readStats() {
    return stats;
  }

  /** The most bytes one read may allocate ({@link ReaderOptions#maxReadBytes}). */
  public long maxReadBytes() {
    return maxReadBytes;
  }

  /** The cache of decoded page state (dictionaries, constant-page levels) this reader uses. */
  public PageCache pageCache() {
    return cache;
  }

  /**
   * Bytes the search cache holds for the life of the reader: what it needs to find any row
   * (per page the layout, the compact chunk table and the mini-block repetition index). Columns
   * load theirs on first read; this loads every column's that this class path can open (a column
   * needing a missing plugin counts nothing). Decoded dictionaries are not in it: they live in
   * {@link #pageCache()} under its byte budget.
   */
  public long searchCacheBytes() {
    long total = 0;
    for (Column c : columns) {
      List<PageDecoder> pages;
      try {
        pages = c.pages();
      } catch (LanceCodecException e) {
        if (e.kind() == LanceCodecException.Kind.MISSING_PLUGIN) {
          continue;
        }
        throw e.within(path.getFileName().toString());
      }
      for (PageDecoder p : pages) {
        total += p.searchCacheBytes();
      }
    }
    return total;
  }

  /** A page as {@link #columnSummaries()} lists it: rows, bytes on disk, the layout and its compression trees. */
  public record PageSummary(long rows, long bytes, String layout, String description) {
    /** {@code "N rows, B bytes: description"}, as inspect prints it. */
    @Override
    public String toString() {
      return rows + " rows, " + bytes + " bytes: " + description;
    }
  }

  /**
   * A leaf column: its dotted path ({@code a.item.b}), the index of the top-level field it
   * belongs to, and its pages in row order.
   */
  public record ColumnSummary(String name, int field, List<PageSummary> pages) {
    /** The column's bytes on disk, all pages. */
    public long bytes() {
      long total = 0;
      for (PageSummary p : pages) {
        total += p.bytes();
      }
      return total;
    }
  }

  /**
   * Every leaf column with its pages, described from the file's metadata alone (no page is read
   * and no codec opened, so this works on a class path missing plugins the file needs).
   */
  public List<ColumnSummary> columnSummaries() {
    List<ColumnSummary> out = new ArrayList<>();
    for (Column c : columns) {
      List<PageSummary> pages = new ArrayList<>();
      for (PageRef ref : c.refs()) {
        PageDescription d = ref.describe();
        pages.add(new PageSummary(ref.rows(), ref.bytes(), d.layout(), d.details()));
      }
      out.add(new ColumnSummary(c.leaf().columnName(), c.leaf().field(), List.copyOf(pages)));
    }
    return out;
  }

  List<Column> columns() {
    return columns;
  }

  /** Rows {@code [start, end)} of the given columns (all when null), in schema order. */
  public VectorSchemaRoot readRange(long start, long end, List<String> columnNames, BufferAllocator allocator) {
    requireArgument(allocator, "allocator");
    if (start < 0 || end < start || end > numRows) {
      throw LanceCodecException.invalidArgument("row range [" + start + ", " + end + ") is outside the file's " + numRows + " rows");
    }
    try {
      return read(new long[] {start, end}, columnNames, allocator);
    } catch (org.apache.arrow.memory.OutOfMemoryException e) {
      throw overLimit(e, allocator);
    }
  }

  /**
   * The most bytes one read may allocate is the limit of the Arrow allocator it is given; over it,
   * the read fails as one INVALID_ARGUMENT (what it had allocated is released on the way out).
   */
  private static LanceCodecException overLimit(org.apache.arrow.memory.OutOfMemoryException e, BufferAllocator allocator) {
    String limit = allocator.getLimit() == Long.MAX_VALUE ? "no limit of its own; direct memory ran out"
        : allocator.getLimit() + " bytes";
    return new LanceCodecException(LanceCodecException.Kind.INVALID_ARGUMENT, "the read needs more memory than its Arrow allocator allows ("
        + limit + ", " + allocator.getAllocatedMemory() + " in use): " + e.getMessage(), e);
  }

  /**
   * The given rows in the order given (repeats allowed), like a take. Rows are read in sorted
   * order, each chunk once, then permuted.
   */
  public VectorSchemaRoot take(long[] rows, List<String> columnNames, BufferAllocator allocator) {
    requireArgument(rows, "rows");
    requireArgument(allocator, "allocator");
    try {
      return takeRows(rows, columnNames, allocator);
    } catch (org.apache.arrow.memory.OutOfMemoryException e) {
      throw overLimit(e, allocator);
    }
  }

  private VectorSchemaRoot takeRows(long[] rows, List<String> columnNames, BufferAllocator allocator) {
    for (long r : rows) {
      if (r < 0 || r >= numRows) {
        throw LanceCodecException.invalidArgument("row " + r + " is outside the file's " + numRows + " rows");
      }
    }
    long[] sorted = rows.clone();
    Arrays.sort(sorted);
    int unique = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        sorted[unique++] = sorted[i];
      }
    }
    long[] ranges = new long[unique * 2];
    int nr = 0;
    for (int i = 0; i < unique; i++) {
      if (nr > 0 && ranges[nr - 1] == sorted[i]) {
        ranges[nr - 1]++;
      } else {
        ranges[nr++] = sorted[i];
        ranges[nr++] = sorted[i] + 1;
      }
    }
    ranges = Arrays.copyOf(ranges, nr);
    VectorSchemaRoot dense = read(ranges, columnNames, allocator);
    boolean identity = unique == rows.length;
    for (int i = 0; identity && i < rows.length; i++) {
      identity = rows[i] == sorted[i];
    }
    if (identity) {
      return dense;
    }
    try (dense) {
      long[] uniq = Arrays.copyOf(sorted, unique);
      VectorSchemaRoot out = VectorSchemaRoot.create(dense.getSchema(), allocator);
      try {
        for (int c = 0; c < dense.getFieldVectors().size(); c++) {
          FieldVector src = dense.getVector(c);
          FieldVector dst = out.getVector(c);
          dst.setInitialCapacity(rows.length);
          dst.allocateNew();
          if (containsFixedSize(src.getField()) && !(src instanceof org.apache.arrow.vector.complex.FixedSizeListVector)
              && !(src instanceof org.apache.arrow.vector.FixedSizeBinaryVector)) {
            appendRows(src, dst, uniq, rows);
            continue;
          }
          // a transfer pair copies nested values (lists, structs, fixed-size lists) slot by slot
          org.apache.arrow.vector.util.TransferPair copy = src.makeTransferPair(dst);
          for (int i = 0; i < rows.length; i++) {
            copy.copyValueSafe(Arrays.binarySearch(uniq, rows[i]), i);
          }
          dst.setValueCount(rows.length);
        }
        out.setRowCount(rows.length);
        return out;
      } catch (RuntimeException e) {
        out.close(); // a failed copy must not leak the half-built result
        throw e;
      }
    }
  }

  /**
   * Elements {@code [from, to)} of row {@code row} of list column {@code column}
   * ({@code rows[row][from..to)}) as a vector of the list's item type, owned by the caller. On a
   * mini-block page with a depth-2 repetition index ({@code lance-encoding:repetition-index-depth=2})
   * only the chunks holding those elements are read; on other pages the whole row is read and
   * sliced. INVALID_ARGUMENT when the column is not a list, the row is outside the file or the
   * range is outside the row's elements (a null row has none).
   */
  public FieldVector takeElements(String column, long row, int from, int to, BufferAllocator allocator) {
    requireArgument(column, "column");
    requireArgument(allocator, "allocator");
    try {
      return ElementTake.take(this, column, row, from, to, allocator);
    } catch (LanceCodecException e) {
      throw e.within(path.getFileName().toString());
    } catch (org.apache.arrow.memory.OutOfMemoryException e) {
      throw overLimit(e, allocator);
    }
  }

  private static boolean containsFixedSize(Field f) {
    if (f.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList
        || f.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeBinary) {
      return true;
    }
    return f.getChildren().stream().anyMatch(LanceFileReader::containsFixedSize);
  }

  /**
   * Arrow Java cannot copy single values of lists or structs holding fixed-size lists or
   * fixed-size binaries (its ComplexCopier has no writer for them), so such columns are permuted
   * by appending one-row slices.
   */
  private static void appendRows(FieldVector src, FieldVector dst, long[] uniq, long[] rows) {
    dst.setValueCount(0);
    org.apache.arrow.vector.util.VectorAppender appender = new org.apache.arrow.vector.util.VectorAppender(dst);
    for (long r : rows) {
      org.apache.arrow.vector.util.TransferPair slice = src.getTransferPair(src.getAllocator());
      slice.splitAndTransfer(Arrays.binarySearch(uniq, r), 1);
      try (org.apache.arrow.vector.ValueVector one = slice.getTo()) {
        one.accept(appender, null);
      }
    }
  }

  /** Reads sorted, disjoint ranges of rows. */
  VectorSchemaRoot read(long[] ranges, List<String> columnNames, BufferAllocator allocator) {
    List<Integer> selected = select(columnNames);
    long total = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      total += ranges[i + 1] - ranges[i];
    }
    int n = LanceCodecException.checkedInt(total, "rows in one batch");
    List<Field> fields = new ArrayList<>();
    long rowBits = 0;
    for (int f : selected) {
      fields.add(schema.getFields().get(f));
      rowBits += fixedRowBits[f];
    }
    ReadBudget budget = new ReadBudget(maxReadBytes);
    budget.chargeRows(n, rowBits);
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
    try {
      for (int i = 0; i < selected.size(); i++) {
        int f = selected.get(i);
        Field field = schema.getFields().get(f);
        try {
          List<Column> cols = new ArrayList<>();
          for (Column c : columns) {
            if (c.leaf().field() == f) {
              cols.add(c);
            }
          }
          if (cols.size() == 1 && !cols.get(0).leaf().nested()) {
            Column col = cols.get(0);
            Physical ph = col.physical();
            if (ph.kind() == Physical.Kind.FIXED && ph.bits() > 0 && ph.bits() % 8 == 0
                && (long) n * (ph.rowBits() / 8) >= SINK_MIN_BYTES) {
              // values go straight into the Arrow buffer the vector takes over
              try (ArrowSink sink = new ArrowSink(allocator)) {
                List<DecodedPage> pieces = new ArrayList<>();
                if (ph.fsl()) {
                  long[] rows = readColumn(col, ranges, sink, pieces, SinkMode.ROWS, budget);
                  FslFiller.fill((org.apache.arrow.vector.complex.FixedSizeListVector) root.getVector(i), ph, pieces, n, sink, rows);
                } else {
                  sink.reserve((long) n * (ph.bits() / 8));
                  readColumn(col, ranges, sink, pieces, SinkMode.FLAT, budget);
                  VectorFiller.fillFromSink(root.getVector(i), ph, pieces, n, sink);
                }
              }
            } else if (ph.kind() == Physical.Kind.VARIABLE && !ph.fsl() && (long) n * (ph.bits() / 8) >= SINK_MIN_BYTES) {
              // strings go chunk by chunk into the Arrow data buffer the vector takes over
              try (ArrowVariableSink sink = new ArrowVariableSink(allocator, ph.bits() / 8)) {
                List<DecodedPage> pieces = new ArrayList<>();
                sink.expectValues(n);
                readColumn(col, ranges, sink, pieces, true, budget);
                VectorFiller.fillFromVariableSink(root.getVector(i), pieces, n, sink, ph.bits() / 8);
              }
            } else {
              VectorFiller.fill(root.getVector(i), ph, readColumn(col, ranges, budget), n);
            }
          } else {
            List<Leaf> leaves = new ArrayList<>();
            List<NestedAssembler.Unravelled> data = new ArrayList<>();
            List<ArrowSink> sinks = new ArrayList<>();
            List<ArrowVariableSink> variableSinks = new ArrayList<>();
            try {
              for (Column col : cols) {
                leaves.add(col.leaf());
                Physical ph = col.physical();
                if (ph.kind() == Physical.Kind.FIXED && !ph.fsl() && ph.bits() > 0 && ph.bits() % 8 == 0) {
                  ArrowSink sink = new ArrowSink(allocator);
                  sinks.add(sink);
                  List<DecodedPage> pieces = new ArrayList<>();
                  long[] counts = readColumn(col, ranges, sink, pieces, SinkMode.NESTED, budget);
                  data.add(NestedAssembler.unravel(col.leaf(), pieces, counts, sink));
                } else if (ph.kind() == Physical.Kind.VARIABLE && !ph.fsl()) {
                  ArrowVariableSink sink = new ArrowVariableSink(allocator, ph.bits() / 8);
                  variableSinks.add(sink);
                  List<DecodedPage> pieces = new ArrayList<>();
                  long[] counts = readColumn(col, ranges, sink, pieces, false, budget);
                  data.add(NestedAssembler.unravel(col.leaf(), pieces, counts, sink));
                } else {
                  data.add(NestedAssembler.unravel(col.leaf(), readColumn(col, ranges, budget)));
                }
              }
              NestedAssembler.fill(root.getVector(i), field, 0, leaves, data);
            } finally {
              // the vectors hold their own references to the sinks' buffers
              for (ArrowSink s : sinks) {
                s.close();
              }
              for (ArrowVariableSink s : variableSinks) {
                s.close();
              }
            }
            if (data.get(0).layers()[0].count != n) {
              throw LanceCodecException.corrupt("decoded " + data.get(0).layers()[0].count + " rows, expected " + n);
            }
          }
        } catch (LanceCodecException e) {
          throw e.within(path.getFileName() + ": column '" + field.getName() + "'");
        }
      }
      root.setRowCount(n);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  private static List<DecodedPage> readColumn(Column col, long[] ranges, ReadBudget budget) {
    List<DecodedPage> out = new ArrayList<>();
    readColumn(col, ranges, null, out, SinkMode.NESTED, budget);
    return out;
  }

  /**
   * Flat reads of fewer value bytes fill their vector from the decoded pieces instead of a sink:
   * one allocation for validity and values beats two when a lookup reads a few rows. Scans, even
   * in batches of 1,024 rows, sink: pages without lists decode chunk by chunk into the Arrow
   * buffer then, with no batch-sized array on the heap.
   */
  private static final long SINK_MIN_BYTES = 1 << 10;

  /** What a read into an {@link ArrowSink} does with the values a page returns instead of sinking them. */
  private enum SinkMode {
    /** A nested leaf's: moved to the sink, the piece keeps only its levels. */
    NESTED,
    /** A flat column's: moved to the sink; an all-null piece keeps its AllNull values, which say its rows are null. */
    FLAT,
    /**
     * A fixed-size list column's whole rows: pages that sink their plain rows do, the others keep
     * their values (rows with validity, say) for the filler.
     */
    ROWS
  }

  /**
   * Reads the column's pieces into {@code out}; with a {@code sink} (byte-aligned fixed-width
   * values) the pieces' values end up there, in order, as {@code mode} says. Returns how many
   * values (rows for {@link SinkMode#ROWS}) each piece put in the sink, or null without a sink.
   */
  private static long[] readColumn(Column col, long[] ranges, ArrowSink sink, List<DecodedPage> out, SinkMode mode,
      ReadBudget budget) {
    long[] counts = sink == null ? null : new long[col.pages().size()];
    int pieces = 0;
    int bits = mode == SinkMode.ROWS ? col.physical().rowBits() : col.physical().bits();
    long[] first = col.firstRows();
    int i = 0;
    for (int p = 0; p < col.pages().size() && i < ranges.length; p++) {
      long[] lr = pageRanges(ranges, i, first[p], first[p + 1]);
      i = nextRange(ranges, i, first[p + 1]);
      if (lr.length != 0) {
        try {
          long before = sink == null ? 0 : sink.size();
          DecodedPage d = checkRows(sink == null ? col.pages().get(p).read(lr) : col.pages().get(p).read(lr, bits, sink), lr);
          // the sink of a flat column was counted before decoding; a nested leaf's item count was not known then
          budget.charge(d, "the decoded page");
          if (mode == SinkMode.NESTED && sink != null) {
            budget.charge(sink.size() - before, "the page's values");
          }
          if (sink != null) {
            DataBlock kept = null;
            if (d.values() != null && mode == SinkMode.ROWS) {
              kept = d.values();
            } else if (d.values() != null) {
              toSink(d.values(), bits, sink);
              kept = mode == SinkMode.FLAT && d.values() instanceof DataBlock.AllNull ? d.values() : null;
            }
            long bytes = sink.size() - before;
            if (bytes % (bits / 8) != 0) {
              throw LanceCodecException.corrupt("page wrote " + bytes + " bytes of " + bits + "-bit values");
            }
            counts[pieces++] = bytes / (bits / 8);
            d = new DecodedPage(kept, d.repLevels(), d.defLevels(), d.numRows(), d.layers());
          }
          out.add(d);
        } catch (LanceCodecException e) {
          throw e.within("page " + p);
        }
      }
    }
    return counts == null ? null : Arrays.copyOf(counts, pieces);
  }

  /**
   * Reads a variable-width leaf's pieces into {@code out} with their values in {@code sink}
   * (pages that cannot decode into it return their values, which are moved there); returns how
   * many values each piece put in the sink. A {@code flat} column's all-null pieces keep their
   * AllNull values, which say their rows are null.
   */
  private static long[] readColumn(Column col, long[] ranges, ArrowVariableSink sink, List<DecodedPage> out, boolean flat,
      ReadBudget budget) {
    long[] first = col.firstRows();
    long[] counts = new long[col.pages().size()];
    int pieces = 0;
    int i = 0;
    for (int p = 0; p < col.pages().size() && i < ranges.length; p++) {
      long[] lr = pageRanges(ranges, i, first[p], first[p + 1]);
      i = nextRange(ranges, i, first[p + 1]);
      if (lr.length == 0) {
        continue;
      }
      try {
        int before = sink.count();
        long bytesBefore = sink.size();
        DecodedPage d = checkRows(col.pages().get(p).read(lr, sink), lr);
        budget.charge(d, "the decoded page");
        if (d.values() instanceof DataBlock.VariableWidth vw) {
          sink.append(vw);
        } else if (d.values() instanceof DataBlock.AllNull) {
          sink.appendEmpty(d.values().numValues());
        } else if (d.values() != null) {
          throw LanceCodecException.corrupt("page decoded to " + describe(d.values()) + " where the schema needs variable-width values");
        }
        counts[pieces++] = sink.count() - before;
        budget.charge(sink.size() - bytesBefore, "the page's values");
        DataBlock kept = flat && d.values() instanceof DataBlock.AllNull ? d.values() : null;
        out.add(new DecodedPage(kept, d.repLevels(), d.defLevels(), d.numRows(), d.layers()));
      } catch (LanceCodecException e) {
        throw e.within("page " + p);
      }
    }
    return Arrays.copyOf(counts, pieces);
  }

  /** {@code d}, checked to hold as many rows as the page-relative ranges {@code lr} name. */
  private static DecodedPage checkRows(DecodedPage d, long[] lr) {
    long want = 0;
    for (int k = 0; k < lr.length; k += 2) {
      want += lr[k + 1] - lr[k];
    }
    if (d.numRows() != want) {
      throw LanceCodecException.corrupt("page decoded " + d.numRows() + " rows, expected " + want);
    }
    return d;
  }

  /** The part of sorted {@code ranges} from range {@code i} on that falls in page rows [p0, p1), relative to p0. */
  private static long[] pageRanges(long[] ranges, int i, long p0, long p1) {
    int end = i;
    while (end < ranges.length && ranges[end] < p1) {
      end += 2;
      if (ranges[end - 1] > p1) {
        break;
      }
    }
    long[] local = new long[end - i];
    int n = 0;
    for (int k = i; k < end; k += 2) {
      long s = Math.max(ranges[k], p0);
      long e = Math.min(ranges[k + 1], p1);
      if (e > s) {
        local[n++] = s - p0;
        local[n++] = e - p0;
      }
    }
    return n == local.length ? local : Arrays.copyOf(local, n);
  }

  /** The first range from {@code i} on that does not end by page end {@code p1}. */
  private static int nextRange(long[] ranges, int i, long p1) {
    while (i < ranges.length && ranges[i] < p1 && ranges[i + 1] <= p1) {
      i += 2;
    }
    return i;
  }

  /** Moves a page's values, returned rather than written to the sink, into the sink. */
  private static void toSink(DataBlock values, int bits, ArrowSink sink) {
    if (values instanceof DataBlock.AllNull) {
      sink.appendZeros(values.numValues() * (bits / 8));
    } else if (values instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == bits) {
      sink.append(fw.data(), 0, LanceCodecException.checkedInt(fw.numValues() * (bits / 8), "page values"));
    } else {
      throw LanceCodecException.corrupt("page decoded to " + describe(values) + " where the schema needs " + bits + "-bit values");
    }
  }

  private static String describe(DataBlock b) {
    return b instanceof DataBlock.FixedWidth fw ? fw.bitsPerValue() + "-bit values" : b.getClass().getSimpleName() + " values";
  }

  /** Indexes of the selected top-level fields, in schema order. */
  private List<Integer> select(List<String> names) {
    List<Integer> out = new ArrayList<>();
    List<Field> all = schema.getFields();
    for (int f = 0; f < all.size(); f++) {
      if (names == null || names.contains(all.get(f).getName())) {
        out.add(f);
      }
    }
    if (names != null) {
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (String n : names) {
        if (all.stream().noneMatch(x -> x.getName().equals(n))) {
          throw LanceCodecException.invalidArgument("unknown column '" + n + "'");
        }
        if (!seen.add(n)) {
          throw LanceCodecException.invalidArgument("column '" + n + "' is asked for twice");
        }
      }
    }
    return out;
  }

  /** INVALID_ARGUMENT for a null argument, named. */
  static void requireArgument(Object value, String name) {
    if (value == null) {
      throw LanceCodecException.invalidArgument(name + " must not be null");
    }
  }

  /** Full scan in batches of {@code batchSize} rows; each batch must be closed by the caller. */
  public Scanner scan(List<String> columnNames, int batchSize, BufferAllocator allocator) {
    return scan(columnNames, batchSize, DEFAULT_READ_AHEAD, allocator);
  }

  /**
   * Scans decode on the caller's thread unless asked otherwise: on the 2-core machines measured
   * so far, decoding a batch ahead on another thread did not beat a single thread (the decode is
   * bound by memory traffic and allocation, not by one core), so read-ahead stays opt-in.
   */
  public static final int DEFAULT_READ_AHEAD = 0;

  /**
   * Full scan in batches of {@code batchSize} rows, decoding up to {@code readAhead} batches
   * ahead on background threads (0: all on the caller's thread). Each batch must be closed by the
   * caller; close the scanner when stopping early.
   */
  public Scanner scan(List<String> columnNames, int batchSize, int readAhead, BufferAllocator allocator) {
    requireArgument(allocator, "allocator");
    if (batchSize <= 0) {
      throw LanceCodecException.invalidArgument("batch size must be positive, got " + batchSize);
    }
    if (readAhead < 0) {
      throw LanceCodecException.invalidArgument("read-ahead must not be negative, got " + readAhead);
    }
    select(columnNames);
    return new Scanner(this, columnNames, batchSize, readAhead, allocator);
  }

  private void closeQuietly() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // already failing; the original error is what matters
    }
  }

  @Override
  public void close() {
    closeQuietly();
  }
}
