package io.lancecodec.bench.compare;

import io.lancecodec.bench.corpus.Corpus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One benchmark column: a single non-nullable Arrow column named {@code v}, its raw Arrow bytes
 * (values, plus 4-byte offsets for strings) and an order-sensitive value hash that every system's
 * output is checked against.
 */
final class Data implements AutoCloseable {
  static final String COL = "v";

  /** The column kinds the comparison handles; the last three are nested (their items are {@link #item}). */
  enum Kind {
    INT16(16), UINT32(32), INT32(32), INT64(64), FLOAT32(32), FLOAT64(64), UTF8(0),
    LIST_UINT32(32), LIST_UTF8(0), FSL_FLOAT32(32);

    final int bits;

    Kind(int bits) {
      this.bits = bits;
    }

    boolean nested() {
      return this == LIST_UINT32 || this == LIST_UTF8 || this == FSL_FLOAT32;
    }

    /** The item kind of a nested kind; the kind itself otherwise. */
    Kind item() {
      return switch (this) {
        case LIST_UINT32 -> UINT32;
        case LIST_UTF8 -> UTF8;
        case FSL_FLOAT32 -> FLOAT32;
        default -> this;
      };
    }

    /** The paper's random-access categories. */
    String category() {
      return switch (this) {
        case UTF8 -> "string";
        case LIST_UINT32 -> "list<int>";
        case LIST_UTF8 -> "list<string>";
        case FSL_FLOAT32 -> "vector";
        default -> "scalar";
      };
    }

    ArrowType arrowType() {
      return switch (this) {
        case INT16 -> new ArrowType.Int(16, true);
        case UINT32 -> new ArrowType.Int(32, false);
        case INT32 -> new ArrowType.Int(32, true);
        case INT64 -> new ArrowType.Int(64, true);
        case FLOAT32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
        case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
        case UTF8 -> ArrowType.Utf8.INSTANCE;
        case LIST_UINT32, LIST_UTF8 -> ArrowType.List.INSTANCE;
        case FSL_FLOAT32 -> throw new IllegalStateException("the vector width is part of the type");
      };
    }
  }

  final String name;
  final String source;
  final Kind kind;
  final VectorSchemaRoot root;
  final int rows;
  /** Fixed width: the value buffer; strings: the value bytes only. For nested kinds, of the items. */
  final byte[] values;
  /** Strings only (also as list items): items + 1 offsets into {@link #values}. */
  final int[] offsets;
  /** Lists only: rows + 1 offsets into the items. */
  final int[] listOffsets;
  /** Fixed-size lists only: items per row. */
  final int dim;
  /** Items: rows, or the values inside the lists. */
  final int items;
  /** Value bytes plus 4-byte offsets for strings and lists: what a decoded Arrow column holds. */
  final long rawBytes;

  private Data(String name, String source, Kind kind, VectorSchemaRoot root) {
    this.name = name;
    this.source = source;
    this.kind = kind;
    this.root = root;
    this.rows = root.getRowCount();
    FieldVector v = root.getVector(0);
    long extra = 0;
    if (kind == Kind.LIST_UINT32 || kind == Kind.LIST_UTF8) {
      ListVector l = (ListVector) v;
      listOffsets = new int[rows + 1];
      for (int i = 0; i <= rows; i++) {
        listOffsets[i] = l.getOffsetBuffer().getInt(4L * i);
      }
      dim = 0;
      v = l.getDataVector();
      items = listOffsets[rows];
      extra = 4L * (rows + 1);
    } else if (kind == Kind.FSL_FLOAT32) {
      FixedSizeListVector f = (FixedSizeListVector) v;
      listOffsets = null;
      dim = f.getListSize();
      v = f.getDataVector();
      items = rows * dim;
    } else {
      listOffsets = null;
      dim = 0;
      items = rows;
    }
    if (kind.item() == Kind.UTF8) {
      VarCharVector s = (VarCharVector) v;
      offsets = new int[items + 1];
      for (int i = 0; i <= items; i++) {
        offsets[i] = s.getOffsetBuffer().getInt(4L * i);
      }
      values = new byte[offsets[items]];
      s.getDataBuffer().getBytes(0, values, 0, values.length);
      rawBytes = values.length + 4L * (items + 1) + extra;
    } else {
      offsets = null;
      values = new byte[items * kind.bits / 8];
      v.getDataBuffer().getBytes(0, values, 0, values.length);
      rawBytes = values.length + extra;
    }
  }

  /** Items {@code [itemStart(r), itemStart(r + 1))} belong to row {@code r}. */
  int itemStart(int r) {
    return listOffsets != null ? listOffsets[r] : dim > 0 ? r * dim : r;
  }

  Schema schema() {
    return root.getSchema();
  }

  /**
   * The canonical 64-bit key of source row {@code i}, as {@link #mix} computes it from any output.
   * A nested row's key folds its item keys and then its length ({@link #foldItem}, {@link #endRow}).
   */
  long key(int i) {
    if (!kind.nested()) {
      return itemKey(i);
    }
    long k = 0;
    int a = itemStart(i);
    int b = itemStart(i + 1);
    for (int j = a; j < b; j++) {
      k = foldItem(k, itemKey(j));
    }
    return endRow(k, b - a);
  }

  static long foldItem(long k, long item) {
    return k * 31 + item;
  }

  static long endRow(long k, int n) {
    return k * 31 + n;
  }

  private long itemKey(int i) {
    ByteBuffer b = ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN);
    return switch (kind.item()) {
      case INT16 -> b.getShort(2 * i);
      case UINT32 -> Integer.toUnsignedLong(b.getInt(4 * i));
      case INT32, FLOAT32 -> b.getInt(4 * i);
      case INT64, FLOAT64 -> b.getLong(8 * i);
      case UTF8 -> Arrays.hashCode(Arrays.copyOfRange(values, offsets[i], offsets[i + 1]));
      default -> throw new IllegalStateException("nested item kind " + kind);
    };
  }

  long hashAll() {
    long h = 1;
    for (int i = 0; i < rows; i++) {
      h = mix(h, key(i));
    }
    return h;
  }

  long hashRows(long[] rowIds) {
    long h = 1;
    for (long r : rowIds) {
      h = mix(h, key((int) r));
    }
    return h;
  }

  static long mix(long h, long key) {
    return h * 1_000_003L + key;
  }

  /** Folds every row of an Arrow vector (ours, the reference's, Arrow IPC's) into {@code h}. */
  static long mixVector(long h, FieldVector v, Kind kind) {
    int n = v.getValueCount();
    for (int i = 0; i < n; i++) {
      h = mix(h, rowKey(v, i, kind));
    }
    return h;
  }

  /** {@link #key} of row {@code i} of a decoded vector. */
  static long rowKey(FieldVector v, int i, Kind kind) {
    if (!kind.nested()) {
      return valueKey(v, i, kind);
    }
    int a;
    int b;
    FieldVector inner;
    if (v instanceof FixedSizeListVector f) {
      a = i * f.getListSize();
      b = a + f.getListSize();
      inner = f.getDataVector();
    } else if (v instanceof LargeListVector l) {
      a = (int) l.getOffsetBuffer().getLong(8L * i);
      b = (int) l.getOffsetBuffer().getLong(8L * i + 8);
      inner = l.getDataVector();
    } else {
      ListVector l = (ListVector) v;
      a = l.getOffsetBuffer().getInt(4L * i);
      b = l.getOffsetBuffer().getInt(4L * i + 4);
      inner = l.getDataVector();
    }
    long k = 0;
    for (int j = a; j < b; j++) {
      k = foldItem(k, valueKey(inner, j, kind.item()));
    }
    return endRow(k, b - a);
  }

  static long valueKey(FieldVector v, int i, Kind kind) {
    if (kind == Kind.UTF8) {
      byte[] b = v instanceof VarCharVector s ? s.get(i)
          : v instanceof LargeVarCharVector l ? l.get(i) : ((VarBinaryVector) v).get(i);
      return Arrays.hashCode(b);
    }
    BaseFixedWidthVector f = (BaseFixedWidthVector) v;
    return switch (kind) {
      case INT16 -> f.getDataBuffer().getShort(2L * i);
      case UINT32 -> Integer.toUnsignedLong(f.getDataBuffer().getInt(4L * i));
      case INT32, FLOAT32 -> f.getDataBuffer().getInt(4L * i);
      default -> f.getDataBuffer().getLong(8L * i);
    };
  }

  @Override
  public void close() {
    root.close();
  }

  // ---------------------------------------------------------------- loading

  /** The sets whose names {@code keep} accepts, in their order; the others are closed. */
  static List<Data> keep(List<Data> sets, java.util.function.Predicate<String> keep) {
    List<Data> kept = new ArrayList<>();
    for (Data d : sets) {
      if (keep.test(d.name)) {
        kept.add(d);
      } else {
        d.close();
      }
    }
    return kept;
  }

  /**
   * The data sets: the real corpus under {@code dataDir} when it is there, else the embedded demo
   * data ({@code demoDir}). {@code limit} caps the rows of every set (quick mode).
   */
  static List<Data> load(Path dataDir, Path demoDir, int limit, boolean quick, BufferAllocator alloc, StringBuilder notes)
      throws IOException {
    List<Data> out = new ArrayList<>();
    boolean corpus = dataDir != null && Files.isDirectory(dataDir.resolve("vega-datasets"));
    if (corpus) {
      Path tokens = dataDir.resolve("tokens/tokens-cl100k-2048.u32");
      if (Files.isReadable(tokens)) {
        out.add(tokens(tokens, Math.min(limit, 1 << 20), alloc));
      }
      Path flights = dataDir.resolve("vega-datasets/flights-200k.arrow");
      if (Files.isReadable(flights)) {
        out.add(arrowColumn("flights-distance", flights, "distance", limit, alloc));
        if (!quick) {
          out.add(arrowColumn("flights-time", flights, "time", limit, alloc));
        }
      }
      Path seattle = dataDir.resolve("vega-datasets/seattle-weather.csv");
      if (Files.isReadable(seattle)) {
        out.add(csvColumn("seattle-temp_max", seattle, "temp_max", Kind.FLOAT64, limit, alloc));
        if (!quick) {
          out.add(csvColumn("seattle-weather", seattle, "weather", Kind.UTF8, limit, alloc));
        }
      }
      Path subjects = dataDir.resolve("strings/strings-mail-subjects.txt");
      if (Files.isReadable(subjects)) {
        out.add(lines("mail-subjects", subjects, limit, alloc));
      }
      Path urls = dataDir.resolve("strings/strings-mail-urls.txt");
      if (!quick && Files.isReadable(urls)) {
        out.add(lines("mail-urls", urls, limit, alloc));
      }
      // quick mode only keeps the code paths from rotting: a few thousand lists are enough
      int lists = quick ? Math.min(limit, 2048) : limit;
      if (Files.isReadable(tokens)) {
        out.add(tokenLines(tokens, lists, alloc));
      }
      if (Files.isReadable(subjects)) {
        out.add(mailLists(dataDir, lists, alloc));
      }
    }
    if (out.isEmpty()) {
      notes.append("data: the corpus (").append(dataDir).append(") is not there; using the embedded demo data in ")
          .append(demoDir).append('\n');
      out.add(arrowColumn("demo-flights-distance", demoDir.resolve("flights-100k.arrow"), "distance", limit, alloc));
      out.add(arrowColumn("demo-flights-time", demoDir.resolve("flights-100k.arrow"), "time", limit, alloc));
      out.add(csvColumn("demo-seattle-temp_max", demoDir.resolve("seattle-weather.csv"), "temp_max", Kind.FLOAT64, limit, alloc));
      out.add(csvColumn("demo-seattle-weather", demoDir.resolve("seattle-weather.csv"), "weather", Kind.UTF8, limit, alloc));
    }
    // Synthetic by design (the reference anchor's control column), so present with or without the corpus.
    out.add(vectors(quick ? Math.min(limit, 256) : Math.min(limit, VECTOR_ROWS), alloc));
    return out;
  }

  /** Rows of the vector data set in a full run: 30.7 MB of float32, enough to leave the CPU caches. */
  static final int VECTOR_ROWS = 10_000;

  /** The first 2^20 cl100k ids as lines ({@link Corpus#lineOffsets}), {@code list<uint32>}. */
  static Data tokenLines(Path f, int limit, BufferAllocator alloc) throws IOException {
    int[] ids = Corpus.tokenIds(f, 1 << 20);
    int[] off = Corpus.lineOffsets(ids, limit);
    VectorSchemaRoot root = Corpus.uint32Lists(COL, ids, off, alloc);
    return new Data("token-lines", "first " + off[off.length - 1] + " ids of " + f.getFileName()
        + " cut after each newline / end-of-text token (list<uint32>, " + (off.length - 1) + " rows)", Kind.LIST_UINT32, root);
  }

  /** All strings-mail-*.txt lines grouped into lists of 0..7 ({@link Corpus#randomGroups}), {@code list<utf8>}. */
  static Data mailLists(Path dataDir, int limit, BufferAllocator alloc) throws IOException {
    List<byte[]> lines = Corpus.mailLines(dataDir);
    int[] off = Corpus.randomGroups(lines.size(), limit);
    VectorSchemaRoot root = Corpus.utf8Lists(COL, lines, off, alloc);
    return new Data("mail-lists", off[off.length - 1] + " lines of strings-mail-*.txt in seeded lists of 0-7"
        + " (list<utf8>, " + (off.length - 1) + " rows)", Kind.LIST_UTF8, root);
  }

  /** Gaussian FixedSizeList<Float32>[768] ({@link Corpus#gaussian}). */
  static Data vectors(int rows, BufferAllocator alloc) {
    VectorSchemaRoot root = Corpus.vectors(COL, Corpus.gaussian(rows, Corpus.VECTOR_DIM), Corpus.VECTOR_DIM, alloc);
    return new Data("vectors", "java.util.Random(42).nextGaussian() as FixedSizeList<float32>[" + Corpus.VECTOR_DIM + "], "
        + rows + " rows", Kind.FSL_FLOAT32, root);
  }

  static VectorSchemaRoot newRoot(Kind kind, BufferAllocator alloc) {
    Field field = new Field(COL, FieldType.notNullable(kind.arrowType()), null);
    return VectorSchemaRoot.create(new Schema(List.of(field)), alloc);
  }

  static Data tokens(Path f, int n, BufferAllocator alloc) throws IOException {
    n = (int) Math.min(n, Files.size(f) / 4);
    ByteBuffer buf = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
      while (buf.hasRemaining() && ch.read(buf) >= 0) {
        // fill
      }
    }
    buf.flip();
    VectorSchemaRoot root = newRoot(Kind.UINT32, alloc);
    UInt4Vector v = (UInt4Vector) root.getVector(0);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      v.set(i, buf.getInt(4 * i));
    }
    v.setValueCount(n);
    root.setRowCount(n);
    return new Data("tokens", "first " + n + " ids of " + f.getFileName() + " (uint32)", Kind.UINT32, root);
  }

  static Data arrowColumn(String name, Path f, String column, int limit, BufferAllocator alloc) throws IOException {
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
        ArrowFileReader r = new ArrowFileReader(ch, alloc)) {
      VectorSchemaRoot src = r.getVectorSchemaRoot();
      FieldVector first = src.getVector(column);
      if (first == null) {
        throw new IllegalArgumentException(f + ": no column '" + column + "'");
      }
      Kind kind = kindOf(first.getField().getType());
      VectorSchemaRoot root = newRoot(kind, alloc);
      FieldVector dst = root.getVector(0);
      int n = 0;
      int nulls = 0;
      while (n < limit && r.loadNextBatch()) {
        FieldVector v = src.getVector(column);
        for (int i = 0; i < v.getValueCount() && n < limit; i++) {
          if (v.isNull(i)) {
            nulls++;
            continue;
          }
          dst.copyFromSafe(i, n++, v);
        }
      }
      dst.setValueCount(n);
      root.setRowCount(n);
      return new Data(name, f.getFileName() + " column " + column + " (" + kind.name().toLowerCase() + ", " + n + " rows"
          + (nulls > 0 ? ", " + nulls + " nulls dropped" : "") + ")", kind, root);
    }
  }

  static Kind kindOf(ArrowType t) {
    if (t instanceof ArrowType.Int i) {
      return switch (i.getBitWidth()) {
        case 16 -> Kind.INT16;
        case 32 -> i.getIsSigned() ? Kind.INT32 : Kind.UINT32;
        case 64 -> Kind.INT64;
        default -> throw new IllegalArgumentException("unsupported int width " + i.getBitWidth());
      };
    }
    if (t instanceof ArrowType.FloatingPoint fp) {
      return fp.getPrecision() == FloatingPointPrecision.SINGLE ? Kind.FLOAT32 : Kind.FLOAT64;
    }
    if (t instanceof ArrowType.Utf8) {
      return Kind.UTF8;
    }
    throw new IllegalArgumentException("unsupported column type " + t);
  }

  static Data csvColumn(String name, Path f, String column, Kind kind, int limit, BufferAllocator alloc) throws IOException {
    List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
    List<String> header = Arrays.asList(lines.get(0).split(",", -1));
    int c = header.indexOf(column);
    if (c < 0) {
      throw new IllegalArgumentException(f + ": no column '" + column + "' (columns: " + header + ")");
    }
    List<String> cells = new ArrayList<>();
    for (int i = 1; i < lines.size() && cells.size() < limit; i++) {
      String[] parts = lines.get(i).split(",", -1);
      if (parts.length > c && !parts[c].isEmpty()) {
        cells.add(parts[c]);
      }
    }
    return fromStrings(name, f.getFileName() + " column " + column, cells, kind, alloc);
  }

  static Data lines(String name, Path f, int limit, BufferAllocator alloc) throws IOException {
    List<String> all = Files.readAllLines(f, StandardCharsets.UTF_8);
    return fromStrings(name, f.getFileName() + ", one line per row", all.subList(0, Math.min(limit, all.size())), Kind.UTF8, alloc);
  }

  /** Parses text cells as {@code kind}. */
  static Data fromStrings(String name, String what, List<String> cells, Kind kind, BufferAllocator alloc) {
    VectorSchemaRoot root = newRoot(kind, alloc);
    FieldVector v = root.getVector(0);
    int n = cells.size();
    v.setInitialCapacity(n);
    v.allocateNew();
    for (int i = 0; i < n; i++) {
      String s = cells.get(i).strip();
      switch (kind) {
        case INT16 -> ((SmallIntVector) v).setSafe(i, Short.parseShort(s));
        case UINT32 -> ((UInt4Vector) v).setSafe(i, (int) Long.parseLong(s));
        case INT32 -> ((org.apache.arrow.vector.IntVector) v).setSafe(i, Integer.parseInt(s));
        case INT64 -> ((org.apache.arrow.vector.BigIntVector) v).setSafe(i, Long.parseLong(s));
        case FLOAT32 -> ((Float4Vector) v).setSafe(i, Float.parseFloat(s));
        case FLOAT64 -> ((Float8Vector) v).setSafe(i, Double.parseDouble(s));
        case UTF8 -> ((VarCharVector) v).setSafe(i, cells.get(i).getBytes(StandardCharsets.UTF_8));
      }
    }
    v.setValueCount(n);
    root.setRowCount(n);
    return new Data(name, what + " (" + kind.name().toLowerCase() + ", " + n + " rows)", kind, root);
  }
}
