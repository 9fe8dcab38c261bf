package io.lancecodec.interop;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.util.Range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared machinery of the interop tests: deterministic data generation, a canonical per-row
 * string (raw value bytes in hex, so floats compare bit for bit), and both implementations'
 * write and read paths.
 */
final class Interop {
  /** One allocator for the whole test JVM (the reference's JNI transfer allocates from it too). */
  static final BufferAllocator ALLOC = new RootAllocator();

  /** How many rows of a case are null. */
  enum Nulls {
    NONE,
    SOME,
    ALL
  }

  /** Value distribution, chosen so the encoders meet compressible and incompressible data. */
  enum Dist {
    RANDOM,
    NARROW,
    SEQUENTIAL,
    RUNS,
    CONSTANT
  }

  record TypeCase(String name, ArrowType type) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final List<TypeCase> FLAT_TYPES =
      List.of(
          new TypeCase("bool", ArrowType.Bool.INSTANCE),
          new TypeCase("int8", new ArrowType.Int(8, true)),
          new TypeCase("int16", new ArrowType.Int(16, true)),
          new TypeCase("int32", new ArrowType.Int(32, true)),
          new TypeCase("int64", new ArrowType.Int(64, true)),
          new TypeCase("uint8", new ArrowType.Int(8, false)),
          new TypeCase("uint16", new ArrowType.Int(16, false)),
          new TypeCase("uint32", new ArrowType.Int(32, false)),
          new TypeCase("uint64", new ArrowType.Int(64, false)),
          new TypeCase("float16", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)),
          new TypeCase("float32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
          new TypeCase("float64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
          new TypeCase("utf8", ArrowType.Utf8.INSTANCE),
          new TypeCase("large_utf8", ArrowType.LargeUtf8.INSTANCE),
          new TypeCase("binary", ArrowType.Binary.INSTANCE),
          new TypeCase("large_binary", ArrowType.LargeBinary.INSTANCE),
          new TypeCase("fixed_size_binary16", new ArrowType.FixedSizeBinary(16)),
          new TypeCase("date32", new ArrowType.Date(DateUnit.DAY)),
          new TypeCase("date64", new ArrowType.Date(DateUnit.MILLISECOND)),
          new TypeCase("time32_ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
          new TypeCase("time64_us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
          new TypeCase("timestamp_s", new ArrowType.Timestamp(TimeUnit.SECOND, null)),
          new TypeCase("timestamp_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
          new TypeCase("timestamp_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
          new TypeCase("timestamp_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
          new TypeCase("timestamp_s_utc", new ArrowType.Timestamp(TimeUnit.SECOND, "UTC")),
          new TypeCase("timestamp_ms_utc", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
          new TypeCase("timestamp_us_utc", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
          new TypeCase("timestamp_ns_utc", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC")),
          new TypeCase("decimal128_10_2", new ArrowType.Decimal(10, 2, 128)),
          new TypeCase("decimal256_40_5", new ArrowType.Decimal(40, 5, 256)));

  /** Counters behind the summary lines. */
  static final class Tally {
    final AtomicInteger refToOursIdentical = new AtomicInteger();
    final AtomicInteger refToOursPending = new AtomicInteger();
    final AtomicInteger oursToRefIdentical = new AtomicInteger();
    final List<String> pendingMessages = java.util.Collections.synchronizedList(new ArrayList<>());

    String summary(String label) {
      return label + ": " + refToOursIdentical.get() + " cases reference->ours identical, "
          + refToOursPending.get() + " pending (missing codec), "
          + oursToRefIdentical.get() + " ours->reference identical";
    }

    /** Pending cases grouped by their error message with file name and page position removed. */
    java.util.SortedMap<String, Integer> pendingByCause() {
      java.util.SortedMap<String, Integer> out = new java.util.TreeMap<>();
      synchronized (pendingMessages) {
        for (String m : pendingMessages) {
          String cause = m.substring(m.indexOf(" -> ") + 4)
              .replaceAll("[^ ]+\\.lance: ", "")
              .replaceAll("page \\d+", "page N");
          out.merge(cause, 1, Integer::sum);
        }
      }
      return out;
    }
  }

  private Interop() {}

  static FileVersion version(String v) {
    return FileVersion.parse(v);
  }

  /** A stable 64-bit seed from a case name (String.hashCode mixed), so every case is reproducible. */
  static long seedOf(String caseName) {
    long h = 1125899906842597L;
    for (int i = 0; i < caseName.length(); i++) {
      h = 31 * h + caseName.charAt(i);
    }
    return h ^ 0x5DEECE66DL;
  }

  // ---------------------------------------------------------------- generation

  /** Value shape parameters for variable-width columns. */
  record VarShape(int minLen, int maxLen) {
    static final VarShape DEFAULT = new VarShape(0, 24);
  }

  /** A one-column root "c" of the given type; the caller closes it. */
  static VectorSchemaRoot generate(
      ArrowType type, boolean nullable, Map<String, String> metadata, Nulls nulls, Dist dist, int rows, long seed) {
    return generate(type, nullable, metadata, nulls, dist, rows, seed, VarShape.DEFAULT);
  }

  static VectorSchemaRoot generate(
      ArrowType type, boolean nullable, Map<String, String> metadata, Nulls nulls, Dist dist, int rows, long seed,
      VarShape shape) {
    if (!nullable && nulls != Nulls.NONE) {
      throw new IllegalArgumentException("non-nullable field with nulls");
    }
    Field field = new Field("c", new FieldType(nullable, type, null, metadata), null);
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(field)), ALLOC);
    FieldVector v = root.getVector(0);
    v.setInitialCapacity(Math.max(rows, 1));
    v.allocateNew();
    Random rnd = new Random(seed);
    ValueSource src = new ValueSource(type, dist, rnd, shape);
    for (int i = 0; i < rows; i++) {
      boolean isNull =
          switch (nulls) {
            case NONE -> false;
            case SOME -> rnd.nextInt(3) == 0;
            case ALL -> true;
          };
      if (isNull) {
        v.setNull(i);
        src.skip(i);
        continue;
      }
      if (v instanceof BitVector b) {
        b.set(i, src.nextBool(i) ? 1 : 0);
      } else if (v instanceof VariableWidthFieldVector vw) {
        vw.setSafe(i, src.nextBytes(i));
      } else if (v instanceof BaseFixedWidthVector fw) {
        int width = fw.getTypeWidth();
        fw.getDataBuffer().setBytes((long) i * width, src.nextFixed(i, width));
        BitVectorHelper.setBit(fw.getValidityBuffer(), i);
      } else {
        throw new IllegalStateException("no generator for " + v.getClass());
      }
    }
    v.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  /** Deterministic stream of values for one column. */
  private static final class ValueSource {
    private static final String[] CODE_POINTS = {
      "a", "b", "c", "d", "e", "x", "y", "z", "A", "Q", "0", "7", " ", "_", "-", "\u00fc", "\u20ac", "\u00df",
      "\u4e2d", "\ud83d\ude00"
    };
    private final ArrowType type;
    private final Dist dist;
    private final Random rnd;
    private final VarShape shape;
    private final boolean utf8;
    private final int narrowBits;
    private final long seqStart;
    private final long seqStep;
    private final byte[][] dictionary;
    private long runValue;
    private byte[] runBytes;
    private byte[] constBytes;

    ValueSource(ArrowType type, Dist dist, Random rnd, VarShape shape) {
      this.type = type;
      this.dist = dist;
      this.rnd = rnd;
      this.shape = shape;
      this.utf8 = type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8;
      this.narrowBits = 1 + rnd.nextInt(20);
      this.seqStart = rnd.nextInt(100_000) - 50_000;
      this.seqStep = 1 + rnd.nextInt(1000);
      this.dictionary = new byte[6][];
      for (int k = 0; k < dictionary.length; k++) {
        dictionary[k] = randomVar();
      }
      this.runValue = rnd.nextInt(1 << 16);
      this.runBytes = randomVar();
      this.constBytes = null;
    }

    /** Nulls consume no randomness beyond their own coin, except that runs keep running. */
    void skip(int row) {}

    boolean nextBool(int row) {
      return switch (dist) {
        case RANDOM -> rnd.nextBoolean();
        case NARROW -> rnd.nextInt(20) == 0;
        case SEQUENTIAL -> row % 2 == 0;
        case RUNS -> {
          if (rnd.nextInt(30) == 0) {
            runValue ^= 1;
          }
          yield (runValue & 1) == 1;
        }
        case CONSTANT -> true;
      };
    }

    byte[] nextBytes(int row) {
      return switch (dist) {
        case RANDOM -> randomVar();
        case NARROW -> dictionary[rnd.nextInt(dictionary.length)];
        case SEQUENTIAL -> pad(("row-" + row).getBytes(StandardCharsets.UTF_8));
        case RUNS -> {
          if (rnd.nextInt(30) == 0) {
            runBytes = randomVar();
          }
          yield runBytes;
        }
        case CONSTANT -> {
          if (constBytes == null) {
            constBytes = randomVar();
          }
          yield constBytes;
        }
      };
    }

    private byte[] pad(byte[] b) {
      if (b.length >= shape.minLen()) {
        return b;
      }
      byte[] out = Arrays.copyOf(b, shape.minLen());
      Arrays.fill(out, b.length, out.length, (byte) '.');
      return out;
    }

    private byte[] randomVar() {
      int len = shape.minLen() + rnd.nextInt(shape.maxLen() - shape.minLen() + 1);
      if (utf8) {
        // counts UTF-8 bytes as it goes: re-encoding the builder each step was quadratic
        StringBuilder sb = new StringBuilder();
        int bytes = 0;
        while (bytes < len) {
          String cp = CODE_POINTS[rnd.nextInt(CODE_POINTS.length)];
          sb.append(cp);
          bytes += cp.getBytes(StandardCharsets.UTF_8).length;
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
      }
      byte[] b = new byte[len];
      rnd.nextBytes(b);
      return b;
    }

    byte[] nextFixed(int row, int width) {
      return switch (dist) {
        case RANDOM -> randomFixed(width);
        case NARROW -> le(rnd.nextLong() & ((1L << Math.min(narrowBits, width * 8 - 1)) - 1), width);
        case SEQUENTIAL -> le(seqStart + row * seqStep, width);
        case RUNS -> {
          if (rnd.nextInt(30) == 0) {
            runValue = rnd.nextInt(1 << 16);
          }
          yield le(runValue, width);
        }
        case CONSTANT -> {
          if (constBytes == null) {
            constBytes = randomFixed(width);
          }
          yield constBytes;
        }
      };
    }

    /** Full-range random bytes; decimals stay within their precision. */
    private byte[] randomFixed(int width) {
      if (type instanceof ArrowType.Decimal d) {
        BigInteger limit = BigInteger.TEN.pow(d.getPrecision());
        BigInteger v = new BigInteger(limit.bitLength() + 8, rnd).mod(limit);
        if (rnd.nextBoolean()) {
          v = v.negate();
        }
        return le(v, width);
      }
      byte[] b = new byte[width];
      rnd.nextBytes(b);
      return b;
    }
  }

  /** Little-endian two's complement of {@code v}, truncated or sign-extended to {@code width}. */
  static byte[] le(long v, int width) {
    return le(BigInteger.valueOf(v), width);
  }

  static byte[] le(BigInteger v, int width) {
    byte[] be = v.toByteArray();
    byte[] out = new byte[width];
    byte fill = v.signum() < 0 ? (byte) 0xFF : 0;
    for (int k = 0; k < width; k++) {
      int src = be.length - 1 - k;
      out[k] = src >= 0 ? be[src] : fill;
    }
    return out;
  }

  // ---------------------------------------------------------------- canonical form

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** "null", "true"/"false", or "0x" + the value's raw bytes (floats and decimals bit exact). */
  static String canon(ValueVector v, int i) {
    if (v.isNull(i)) {
      return "null";
    }
    if (v instanceof BitVector b) {
      return b.get(i) == 1 ? "true" : "false";
    }
    byte[] bytes;
    if (v instanceof VariableWidthFieldVector vw) {
      bytes = vw.get(i);
    } else if (v instanceof BaseFixedWidthVector fw) {
      int width = fw.getTypeWidth();
      bytes = new byte[width];
      ArrowBuf data = fw.getDataBuffer();
      data.getBytes((long) i * width, bytes);
    } else {
      return String.valueOf(v.getObject(i));
    }
    StringBuilder sb = new StringBuilder(2 + bytes.length * 2).append("0x");
    for (byte x : bytes) {
      sb.append(HEX[(x >> 4) & 15]).append(HEX[x & 15]);
    }
    return sb.toString();
  }

  static List<String> canon(ValueVector v) {
    List<String> out = new ArrayList<>(v.getValueCount());
    appendCanon(v, out);
    return out;
  }

  static void appendCanon(ValueVector v, List<String> out) {
    for (int i = 0; i < v.getValueCount(); i++) {
      out.add(canon(v, i));
    }
  }

  /** Fails with the first mismatching row (position in the result and the row it stands for). */
  static void assertSameRows(String what, List<String> expected, List<String> actual, long[] rowIds) {
    int n = Math.min(expected.size(), actual.size());
    int mismatches = 0;
    int first = -1;
    for (int i = 0; i < n; i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        mismatches++;
        if (first < 0) {
          first = i;
        }
      }
    }
    if (first >= 0) {
      String row = rowIds == null ? "row " + first : "result position " + first + " (file row " + rowIds[first] + ")";
      throw new AssertionError(what + ": " + mismatches + " of " + n + " values differ; first at " + row
          + ": expected " + abbreviate(expected.get(first)) + " but was " + abbreviate(actual.get(first)));
    }
    if (expected.size() != actual.size()) {
      throw new AssertionError(what + ": expected " + expected.size() + " rows but got " + actual.size());
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 120 ? s : s.substring(0, 120) + "...(" + s.length() + " chars)";
  }

  static List<String> pick(List<String> all, long[] rows) {
    List<String> out = new ArrayList<>(rows.length);
    for (long r : rows) {
      out.add(all.get((int) r));
    }
    return out;
  }

  /** ~count random rows in [0, n), unsorted, with repeats, always including the first and last row. */
  static long[] randomTakeRows(int n, int count, Random rnd) {
    if (n == 0) {
      return new long[0];
    }
    long[] rows = new long[count];
    for (int k = 0; k < count; k++) {
      rows[k] = rnd.nextInt(n);
    }
    rows[0] = n - 1;
    rows[count / 2] = 0;
    rows[count - 1] = rows[1]; // a guaranteed repeat
    return rows;
  }

  /** Up to count distinct sorted rows, including the first and last. */
  static long[] sortedDistinctRows(int n, int count, Random rnd) {
    TreeSet<Long> set = new TreeSet<>();
    if (n > 0) {
      set.add(0L);
      set.add((long) n - 1);
      while (set.size() < Math.min(n, count)) {
        set.add((long) rnd.nextInt(n));
      }
    }
    return set.stream().mapToLong(Long::longValue).toArray();
  }

  // ---------------------------------------------------------------- our side

  /** Writes {@code root} with lance-codec, in batches of at most {@code batchRows} rows. */
  static void oursWrite(Path file, VectorSchemaRoot root, String version, long pageBytes, int batchRows) {
    WriterOptions opts = WriterOptions.defaults().withVersion(version(version)).withPageBytesPerColumn(pageBytes);
    try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), opts)) {
      writeBatches(root, batchRows, w::write);
    }
  }

  interface BatchSink {
    void accept(VectorSchemaRoot batch) throws Exception;
  }

  static void writeBatches(VectorSchemaRoot root, int batchRows, BatchSink sink) {
    try {
      int n = root.getRowCount();
      if (n <= batchRows) {
        sink.accept(root);
        return;
      }
      for (int start = 0; start < n; start += batchRows) {
        try (VectorSchemaRoot slice = root.slice(start, Math.min(batchRows, n - start))) {
          sink.accept(slice);
        }
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }

  /**
   * Reads the whole file with lance-codec three ways (one range, a scan of 1000-row batches, a
   * random unsorted take with repeats) and compares each with {@code expected}.
   */
  static void oursReadAndCompare(Path file, Field field, List<String> expected, long seed) {
    int n = expected.size();
    try (LanceFileReader r = LanceFileReader.open(file)) {
      assertEquals(n, r.numRows(), "numRows");
      Field got = r.schema().getFields().get(0);
      assertEquals(field.getType(), got.getType(), "field type");
      assertEquals(field.isNullable(), got.isNullable(), "field nullability");
      try (VectorSchemaRoot all = r.readRange(0, n, null, ALLOC)) {
        assertEquals(n, all.getRowCount(), "readRange row count");
        assertSameRows("ours readRange(0, " + n + ")", expected, canon(all.getVector(0)), null);
      }
      List<String> scanned = new ArrayList<>(n);
      Iterator<VectorSchemaRoot> it = r.scan(null, 1000, ALLOC);
      while (it.hasNext()) {
        try (VectorSchemaRoot b = it.next()) {
          assertTrue(b.getRowCount() <= 1000, "scan batch larger than 1000 rows");
          appendCanon(b.getVector(0), scanned);
        }
      }
      assertSameRows("ours scan(1000)", expected, scanned, null);
      long[] rows = randomTakeRows(n, 200, new Random(seed ^ 0x7A4E));
      try (VectorSchemaRoot t = r.take(rows, List.of(field.getName()), ALLOC)) {
        assertEquals(rows.length, t.getRowCount(), "take row count");
        assertSameRows("ours take(" + rows.length + " unsorted rows)", pick(expected, rows), canon(t.getVector(0)), rows);
      }
    }
  }

  /**
   * Runs {@code readCheck}; an error of kind MISSING_PLUGIN/UNSUPPORTED counts as pending (and
   * returns false), any other failure propagates.
   */
  static boolean oursReadOrPending(Runnable readCheck, Tally tally, String caseName) {
    try {
      readCheck.run();
      tally.refToOursIdentical.incrementAndGet();
      return true;
    } catch (LanceCodecException e) {
      if (e.kind() != LanceCodecException.Kind.MISSING_PLUGIN && e.kind() != LanceCodecException.Kind.UNSUPPORTED) {
        throw new AssertionError(caseName + ": our reader failed with " + e.kind() + ": " + e.getMessage(), e);
      }
      String msg = e.getMessage();
      assertTrue(msg != null && !msg.isBlank(), "pending error has no message");
      tally.refToOursPending.incrementAndGet();
      tally.pendingMessages.add(caseName + " -> " + e.kind() + ": " + msg);
      return false;
    }
  }

  // ---------------------------------------------------------------- reference side

  static void refWrite(Path file, VectorSchemaRoot root, String version, int batchRows) throws Exception {
    try (org.lance.file.LanceFileWriter w =
        org.lance.file.LanceFileWriter.open(file.toString(), ALLOC, null, Optional.of(version), Map.of())) {
      writeBatches(root, batchRows, w::write);
    }
  }

  /** Reads the file's single column with the reference; ranges must be sorted (else it aborts the JVM). */
  static List<String> refRead(Path file, Field field, List<Range> ranges, int expectedRowsInFile) throws Exception {
    if (ranges != null) {
      for (int k = 1; k < ranges.size(); k++) {
        if (ranges.get(k).getStart() < ranges.get(k - 1).getEnd()) {
          throw new IllegalArgumentException("unsorted ranges would abort the JVM");
        }
      }
    }
    List<String> out = new ArrayList<>();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), ALLOC)) {
      assertEquals(expectedRowsInFile, r.numRows(), "reference numRows");
      Field got = r.schema().getFields().get(0);
      assertEquals(field.getType(), got.getType(), "reference field type");
      assertEquals(field.isNullable(), got.isNullable(), "reference field nullability");
      try (ArrowReader ar = r.readAll(null, ranges, 1024)) {
        while (ar.loadNextBatch()) {
          appendCanon(ar.getVectorSchemaRoot().getVector(0), out);
        }
      }
    }
    return out;
  }

  static List<Range> singleRowRanges(long[] sortedRows) {
    List<Range> ranges = new ArrayList<>(sortedRows.length);
    for (long r : sortedRows) {
      ranges.add(Range.of((int) r, (int) r + 1));
    }
    return ranges;
  }

  /** Full read and sorted single-row takes by the reference, compared with {@code expected}. */
  static void refReadAndCompare(Path file, Field field, List<String> expected, long seed) throws Exception {
    int n = expected.size();
    assertSameRows("reference readAll", expected, refRead(file, field, null, n), null);
    if (n > 0) {
      long[] rows = sortedDistinctRows(n, 200, new Random(seed ^ 0x3C1));
      assertSameRows("reference take(" + rows.length + " single-row ranges)", pick(expected, rows),
          refRead(file, field, singleRowRanges(rows), n), rows);
    }
  }
}
