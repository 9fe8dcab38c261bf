package io.lancecodec.bench.corpus;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The nested and vector benchmark columns, shared by the end-to-end comparison and the JMH
 * benchmarks so both measure the same data. Every column is one non-nullable field; lists and
 * their items are non-nullable too (the shape the reference's anchor numbers were taken on).
 *
 * <ul>
 *   <li><b>token lines</b>, {@code list<uint32>}: the cl100k ids cut after every newline token
 *       ({@code "\n"} = 198, {@code "\n\n"} = 271) and end-of-text (100257), so a row is one line
 *       of a real mail body as the tokenizer saw it (median 19 ids, mean 28, longest a few
 *       thousand).
 *   <li><b>mail lists</b>, {@code list<utf8>}: the lines of the five strings-mail-*.txt files in
 *       name order, grouped into lists of 0 to 7 strings (seeded lengths; empty lists included).
 *       The strings are real, the grouping is not: the files keep no message boundaries.
 *   <li><b>vectors</b>, {@code FixedSizeList<Float32>[768]}: {@code java.util.Random(42)
 *       .nextGaussian()} cast to float, row-major, as in the reference anchor's control column.
 * </ul>
 */
public final class Corpus {
  /** Tokens that end a line: "\n", "\n\n" and cl100k's end-of-text. */
  static final int NEWLINE = 198;
  static final int DOUBLE_NEWLINE = 271;
  static final int END_OF_TEXT = 100_257;
  public static final int VECTOR_DIM = 768;
  /** Longest list of the mail-lists grouping; lengths are uniform in [0, this]. */
  static final int MAIL_LIST_MAX = 7;

  private Corpus() {}

  /** The data directory: {@code -Dbench.data}, else {@code /work/shared/data}. */
  public static Path dataDir() {
    return Path.of(System.getProperty("bench.data", "/work/shared/data"));
  }

  public static Path tokenFile(Path dataDir) {
    return dataDir.resolve("tokens/tokens-cl100k-2048.u32");
  }

  /** The first {@code max} ids of the cl100k token file (little-endian uint32). */
  public static int[] tokenIds(Path file, int max) throws IOException {
    long n = Math.min(max, Files.size(file) / 4);
    byte[] bytes = new byte[(int) (4 * n)];
    try (var in = Files.newInputStream(file)) {
      int got = in.readNBytes(bytes, 0, bytes.length);
      if (got != bytes.length) {
        throw new IOException(file + ": short read, " + got + " of " + bytes.length + " bytes");
      }
    }
    int[] ids = new int[(int) n];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(ids);
    return ids;
  }

  /**
   * Row offsets (rows + 1 entries) that cut {@code ids} after each line-ending token, at most
   * {@code maxRows} rows; a trailing partial line is a row of its own.
   */
  public static int[] lineOffsets(int[] ids, int maxRows) {
    int[] off = new int[Math.min(ids.length, maxRows) + 1];
    int rows = 0;
    for (int i = 0; i < ids.length && rows < maxRows; i++) {
      int id = ids[i];
      if (id == NEWLINE || id == DOUBLE_NEWLINE || id == END_OF_TEXT) {
        off[++rows] = i + 1;
      }
    }
    if (rows < maxRows && off[rows] < ids.length) {
      off[++rows] = ids.length;
    }
    return java.util.Arrays.copyOf(off, rows + 1);
  }

  /** The lines of the five strings-mail-*.txt files, concatenated in name order. */
  public static List<byte[]> mailLines(Path dataDir) throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(dataDir.resolve("strings"))) {
      s.filter(p -> p.getFileName().toString().matches("strings-mail-.*\\.txt")).sorted().forEach(files::add);
    }
    if (files.isEmpty()) {
      throw new IOException(dataDir.resolve("strings") + ": no strings-mail-*.txt files");
    }
    List<byte[]> out = new ArrayList<>();
    for (Path f : files) {
      for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
        out.add(line.getBytes(StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** Row offsets grouping {@code items} values into lists of 0..{@link #MAIL_LIST_MAX} (seed 42), at most {@code maxRows}. */
  public static int[] randomGroups(int items, int maxRows) {
    SplittableRandom rnd = new SplittableRandom(42);
    int[] off = new int[Math.min(items + 1, maxRows) + 1];
    int rows = 0;
    int at = 0;
    while (at < items && rows < maxRows) {
      at = Math.min(items, at + rnd.nextInt(MAIL_LIST_MAX + 1));
      off[++rows] = at;
    }
    return java.util.Arrays.copyOf(off, rows + 1);
  }

  /** {@code rows} x {@code dim} floats from {@code java.util.Random(42).nextGaussian()}, row-major. */
  public static float[] gaussian(int rows, int dim) {
    Random rnd = new Random(42);
    float[] v = new float[rows * dim];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return v;
  }

  // ---------------------------------------------------------------- Arrow columns

  static Field notNull(String name, ArrowType type, Field... children) {
    return new Field(name, FieldType.notNullable(type), List.of(children));
  }

  public static Field uint32ListField(String name) {
    return notNull(name, ArrowType.List.INSTANCE, notNull("item", new ArrowType.Int(32, false)));
  }

  public static Field utf8ListField(String name) {
    return notNull(name, ArrowType.List.INSTANCE, notNull("item", ArrowType.Utf8.INSTANCE));
  }

  public static Field vectorField(String name, int dim) {
    return notNull(name, new ArrowType.FixedSizeList(dim), notNull("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
  }

  /** A one-column root: flat non-nullable uint32. */
  public static VectorSchemaRoot uint32Column(String name, int[] ids, BufferAllocator alloc) {
    Field f = notNull(name, new ArrowType.Int(32, false));
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), alloc);
    UInt4Vector v = (UInt4Vector) root.getVector(0);
    v.allocateNew(ids.length);
    for (int i = 0; i < ids.length; i++) {
      v.set(i, ids[i]);
    }
    v.setValueCount(ids.length);
    root.setRowCount(ids.length);
    return root;
  }

  /** A one-column root: flat non-nullable utf8. */
  public static VectorSchemaRoot utf8Column(String name, List<byte[]> strings, BufferAllocator alloc) {
    Field f = notNull(name, ArrowType.Utf8.INSTANCE);
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), alloc);
    VarCharVector v = (VarCharVector) root.getVector(0);
    long bytes = 0;
    for (byte[] s : strings) {
      bytes += s.length;
    }
    v.allocateNew(bytes, strings.size());
    for (int i = 0; i < strings.size(); i++) {
      v.setSafe(i, strings.get(i));
    }
    v.setValueCount(strings.size());
    root.setRowCount(strings.size());
    return root;
  }

  /** A one-column root: {@code list<uint32>} rows {@code ids[off[r], off[r+1])}. */
  public static VectorSchemaRoot uint32Lists(String name, int[] ids, int[] off, BufferAllocator alloc) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(uint32ListField(name))), alloc);
    fillUint32Lists((ListVector) root.getVector(0), ids, off);
    root.setRowCount(off.length - 1);
    return root;
  }

  static void fillUint32Lists(ListVector list, int[] ids, int[] off) {
    int rows = off.length - 1;
    int first = off[0];
    int items = off[rows] - first;
    list.setInitialCapacity(rows);
    list.allocateNew();
    UInt4Vector inner = (UInt4Vector) list.getDataVector();
    inner.allocateNew(items);
    for (int i = 0; i < items; i++) {
      inner.set(i, ids[first + i]);
    }
    inner.setValueCount(items);
    for (int r = 0; r < rows; r++) {
      list.startNewValue(r);
      list.endValue(r, off[r + 1] - off[r]);
    }
    list.setValueCount(rows);
  }

  /** A one-column root: {@code list<utf8>} rows {@code strings[off[r], off[r+1])}. */
  public static VectorSchemaRoot utf8Lists(String name, List<byte[]> strings, int[] off, BufferAllocator alloc) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(utf8ListField(name))), alloc);
    ListVector list = (ListVector) root.getVector(0);
    int rows = off.length - 1;
    int items = off[rows] - off[0];
    long bytes = 0;
    for (int i = 0; i < items; i++) {
      bytes += strings.get(off[0] + i).length;
    }
    list.setInitialCapacity(rows);
    list.allocateNew();
    VarCharVector inner = (VarCharVector) list.getDataVector();
    inner.allocateNew(bytes, items);
    for (int i = 0; i < items; i++) {
      inner.setSafe(i, strings.get(off[0] + i));
    }
    inner.setValueCount(items);
    for (int r = 0; r < rows; r++) {
      list.startNewValue(r);
      list.endValue(r, off[r + 1] - off[r]);
    }
    list.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  /** A one-column root: {@code FixedSizeList<Float32>[dim]} of {@code values.length / dim} rows. */
  public static VectorSchemaRoot vectors(String name, float[] values, int dim, BufferAllocator alloc) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(vectorField(name, dim))), alloc);
    FixedSizeListVector fsl = (FixedSizeListVector) root.getVector(0);
    int rows = values.length / dim;
    fsl.setInitialCapacity(rows);
    fsl.allocateNew();
    Float4Vector inner = (Float4Vector) fsl.getDataVector();
    inner.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      inner.set(i, values[i]);
    }
    inner.setValueCount(values.length);
    for (int r = 0; r < rows; r++) {
      fsl.setNotNull(r);
    }
    fsl.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  /** A one-column root: {@code struct<ids: list<uint32>>}, the token lines inside a struct. */
  public static VectorSchemaRoot structOfUint32Lists(String name, int[] ids, int[] off, BufferAllocator alloc) {
    Field f = notNull(name, ArrowType.Struct.INSTANCE, uint32ListField("ids"));
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), alloc);
    StructVector s = (StructVector) root.getVector(0);
    int rows = off.length - 1;
    s.setInitialCapacity(rows);
    s.allocateNew();
    fillUint32Lists((ListVector) s.getChild("ids"), ids, off);
    for (int r = 0; r < rows; r++) {
      s.setIndexDefined(r);
    }
    s.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }
}
