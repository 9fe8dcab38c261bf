package io.lancecodec.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** End to end through {@link Main#run}: write, cat, inspect, codecs, and one-line errors. */
class MainTest {
  static final int ROWS = 20_000; // more than two cat batches of 8192

  @TempDir
  static Path dir;

  static BufferAllocator allocator;
  static VectorSchemaRoot data;
  static Path arrow;
  static Path lance21;
  static Path lance22;
  static Path lance23;

  record Result(int status, String out, String err) {
    List<String> lines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n", -1)).subList(0, out.split("\n", -1).length - 1);
    }
  }

  static Result run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int status;
    try (PrintStream out = new PrintStream(o, false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(e, false, StandardCharsets.UTF_8)) {
      status = Main.run(args, out, err);
    }
    return new Result(status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  static Schema schema() {
    List<Field> f = new ArrayList<>();
    f.add(field("b", ArrowType.Bool.INSTANCE));
    f.add(field("i8", new ArrowType.Int(8, true)));
    f.add(field("i16", new ArrowType.Int(16, true)));
    f.add(field("i32", new ArrowType.Int(32, true)));
    f.add(new Field("i64", new FieldType(true, new ArrowType.Int(64, true), null,
        Map.of("lance-encoding:compression", "none")), null));
    f.add(field("u8", new ArrowType.Int(8, false)));
    f.add(field("u16", new ArrowType.Int(16, false)));
    f.add(field("u32", new ArrowType.Int(32, false)));
    f.add(field("u64", new ArrowType.Int(64, false)));
    f.add(field("f16", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)));
    f.add(field("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
    f.add(field("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)));
    f.add(field("s", ArrowType.Utf8.INSTANCE));
    f.add(field("ls", ArrowType.LargeUtf8.INSTANCE));
    f.add(field("bin", ArrowType.Binary.INSTANCE));
    f.add(field("lbin", ArrowType.LargeBinary.INSTANCE));
    f.add(field("fsb", new ArrowType.FixedSizeBinary(3)));
    f.add(field("d32", new ArrowType.Date(DateUnit.DAY)));
    f.add(field("d64", new ArrowType.Date(DateUnit.MILLISECOND)));
    f.add(field("t32", new ArrowType.Time(TimeUnit.MILLISECOND, 32)));
    f.add(field("t64", new ArrowType.Time(TimeUnit.MICROSECOND, 64)));
    f.add(field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")));
    f.add(field("dec", new ArrowType.Decimal(12, 3, 128)));
    return new Schema(f);
  }

  /** Deterministic values of every flat type; every 7th value of a column is null. */
  static VectorSchemaRoot build(BufferAllocator allocator, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
    root.allocateNew();
    String[] words = {"rain", "sun", "caf\u00e9", "\"quoted\"\n", "\uD83D\uDE00 emoji", ""};
    for (int c = 0; c < root.getFieldVectors().size(); c++) {
      FieldVector v = root.getVector(c);
      for (int i = 0; i < n; i++) {
        if ((i + c) % 7 == 0) {
          continue; // null: the validity bit stays 0
        }
        long x = (long) i * 2654435761L + c;
        if (v instanceof BitVector b) {
          b.setSafe(i, (int) (x & 1));
        } else if (v instanceof TinyIntVector t) {
          t.setSafe(i, (byte) (i % 200 - 100));
        } else if (v instanceof SmallIntVector t) {
          t.setSafe(i, (short) (i - 10_000));
        } else if (v instanceof IntVector t) {
          t.setSafe(i, (int) x);
        } else if (v instanceof BigIntVector t) {
          t.setSafe(i, x * 1_000_003L);
        } else if (v instanceof UInt1Vector t) {
          t.setSafe(i, (byte) (i * 7));
        } else if (v instanceof UInt2Vector t) {
          t.setSafe(i, (char) (i * 13));
        } else if (v instanceof UInt4Vector t) {
          t.setSafe(i, (int) (0xF0000000L + i));
        } else if (v instanceof UInt8Vector t) {
          t.setSafe(i, -1L - i);
        } else if (v instanceof Float2Vector t) {
          t.setSafe(i, Float16.toFloat16(i == 1 ? Float.NaN : i / 8f));
        } else if (v instanceof Float4Vector t) {
          t.setSafe(i, i == 2 ? Float.POSITIVE_INFINITY : i * 0.1f);
        } else if (v instanceof Float8Vector t) {
          t.setSafe(i, i == 2 ? Double.NEGATIVE_INFINITY : Math.sqrt(i));
        } else if (v instanceof VarCharVector t) {
          t.setSafe(i, words[i % words.length].getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof LargeVarCharVector t) {
          t.setSafe(i, ("row " + i).getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof VarBinaryVector t) {
          t.setSafe(i, new byte[] {(byte) i, (byte) (i >> 8)});
        } else if (v instanceof LargeVarBinaryVector t) {
          t.setSafe(i, new byte[i % 5]);
        } else if (v instanceof FixedSizeBinaryVector t) {
          t.setSafe(i, new byte[] {(byte) i, 0, (byte) 0xff});
        } else if (v instanceof DateDayVector t) {
          t.setSafe(i, 15_000 + i);
        } else if (v instanceof DateMilliVector t) {
          t.setSafe(i, 1_300_000_000_000L + i * 86_400_000L);
        } else if (v instanceof TimeMilliVector t) {
          t.setSafe(i, i * 1000);
        } else if (v instanceof TimeMicroVector t) {
          t.setSafe(i, i * 1_000_000L);
        } else if (v instanceof TimeStampVector t) {
          t.setSafe(i, 1_700_000_000_000_000L + x);
        } else if (v instanceof DecimalVector t) {
          t.setSafe(i, BigDecimal.valueOf(i * 1234L - 500_000, 3));
        } else {
          throw new IllegalStateException(v.getClass().toString());
        }
      }
      v.setValueCount(n);
    }
    root.setRowCount(n);
    return root;
  }

  @BeforeAll
  static void writeFiles() throws IOException {
    allocator = new RootAllocator();
    data = build(allocator, ROWS);
    arrow = dir.resolve("all-types.arrow");
    try (FileChannel ch = FileChannel.open(arrow, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ArrowFileWriter w = new ArrowFileWriter(data, null, ch)) {
      w.start();
      w.writeBatch();
      w.end();
    }
    lance21 = dir.resolve("all-types-2.1.lance");
    lance22 = dir.resolve("all-types-2.2.lance");
    Result r = run("write", arrow.toString(), lance21.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.out());
    r = run("write", arrow.toString(), lance22.toString(), "--version", "2.2");
    assertEquals(0, r.status(), r.err());
    lance23 = dir.resolve("all-types-2.3.lance");
    r = run("write", arrow.toString(), lance23.toString(), "--version", "2.3");
    assertEquals(0, r.status(), r.err());
  }

  @AfterAll
  static void close() {
    data.close();
    allocator.close();
  }

  static String expectedRow(int i) {
    return Json.row(data, i);
  }

  @Test
  void catPrintsEveryRowInCanonicalJson() {
    for (Path p : List.of(lance21, lance22, lance23)) {
      Result r = run("cat", p.toString());
      assertEquals(0, r.status(), r.err());
      assertEquals("", r.err());
      List<String> lines = r.lines();
      assertEquals(ROWS, lines.size());
      for (int i = 0; i < ROWS; i++) {
        assertEquals(expectedRow(i), lines.get(i), "row " + i + " of " + p.getFileName());
      }
    }
  }

  @Test
  void catSpotValues() {
    Result r = run("cat", lance21.toString(), "--rows", "1:4", "--columns", "f16,f32,f64,u64,s");
    assertEquals(0, r.status(), r.err());
    assertEquals(List.of(
        "{\"u64\":18446744073709551614,\"f16\":\"NaN\",\"f32\":0.1,\"f64\":1.0,\"s\":\"sun\"}",
        "{\"u64\":18446744073709551613,\"f16\":0.25,\"f32\":\"Infinity\",\"f64\":\"-Infinity\",\"s\":null}",
        "{\"u64\":18446744073709551612,\"f16\":0.375,\"f32\":0.3,\"f64\":null,\"s\":\"\\\"quoted\\\"\\n\"}"), r.lines());
  }

  @Test
  void catRowsUsesTakeOrderAndRepeats() {
    Result r = run("cat", lance22.toString(), "--rows", "19999,0:3,5,5,8190:8194,3:3");
    assertEquals(0, r.status(), r.err());
    int[] want = {19999, 0, 1, 2, 5, 5, 8190, 8191, 8192, 8193};
    assertEquals(want.length, r.lines().size());
    for (int k = 0; k < want.length; k++) {
      assertEquals(expectedRow(want[k]), r.lines().get(k));
    }
  }

  @Test
  void catColumnsInSchemaOrder() {
    Result r = run("cat", lance21.toString(), "--columns", "s,i8", "--rows", "1");
    assertEquals(0, r.status(), r.err());
    assertEquals(List.of("{\"i8\":-99,\"s\":\"sun\"}"), r.lines());
  }

  @Test
  void catLargeSelectionAcrossBatches() {
    Result r = run("cat", lance21.toString(), "--rows", "0:20000,0:20000", "--columns", "i32");
    assertEquals(0, r.status(), r.err());
    assertEquals(2 * ROWS, r.lines().size());
    assertEquals(r.lines().get(17), r.lines().get(ROWS + 17));
  }

  @Test
  void writeAcceptsTheIpcStreamFormat() throws IOException {
    Path stream = dir.resolve("all-types.arrows");
    try (OutputStream os = Files.newOutputStream(stream);
        ArrowStreamWriter w = new ArrowStreamWriter(data, null, Channels.newChannel(os))) {
      w.start();
      w.writeBatch();
      w.writeBatch();
      w.end();
    }
    Path out = dir.resolve("from-stream.lance");
    Result r = run("write", stream.toString(), out.toString(), "--version=2.2");
    assertEquals(0, r.status(), r.err());
    r = run("cat", out.toString(), "--rows", "0,20000,39999");
    assertEquals(0, r.status(), r.err());
    assertEquals(List.of(expectedRow(0), expectedRow(0), expectedRow(19999)), r.lines());
  }

  @Test
  void inspectShowsVersionSchemaAndPages() {
    Result r = run("inspect", lance22.toString());
    assertEquals(0, r.status(), r.err());
    String out = r.out();
    assertTrue(out.contains("version:       2.2"), out);
    assertTrue(out.contains("rows:          20000"), out);
    assertTrue(out.contains("search cache:"), out);
    assertTrue(out.contains("  u64: uint64\n"), out);
    assertTrue(out.contains("  i64: int64  {lance-encoding:compression=none}"), out);
    assertTrue(out.contains("  dec: decimal128(12, 3)"), out);
    assertTrue(out.contains("    page 0: "), out);
    assertTrue(out.contains("mini-block"), out);

    r = run("inspect", "--json", lance21.toString());
    assertEquals(0, r.status(), r.err());
    String json = r.out().strip();
    assertEquals(1, r.lines().size());
    assertTrue(json.startsWith("{\"file\":"), json);
    assertTrue(json.contains("\"version\":\"2.1\",\"rows\":20000,\"file_bytes\":" + fileSize(lance21)), json);
    assertTrue(json.contains("{\"name\":\"fsb\",\"type\":\"fixed_size_binary[3]\",\"nullable\":true"), json);
    assertTrue(json.contains("\"pages\":[{\"rows\":"), json);
    assertTrue(json.endsWith("]}]}"), json);
  }

  /** Every column type of the Arrow file in a 2.3 file: written, read back row for row, and inspect shows its 2.3 trees. */
  @Test
  void writeCatInspect23() {
    Path lance23 = dir.resolve("all-types-2.3.lance");
    Result r = run("write", arrow.toString(), lance23.toString(), "--version", "2.3");
    assertEquals(0, r.status(), r.err());
    r = run("cat", lance23.toString());
    assertEquals(0, r.status(), r.err());
    List<String> lines = r.lines();
    assertEquals(ROWS, lines.size());
    for (int i = 0; i < ROWS; i++) {
      assertEquals(expectedRow(i), lines.get(i), "row " + i);
    }
    r = run("inspect", lance23.toString());
    assertEquals(0, r.status(), r.err());
    String out = r.out();
    assertTrue(out.contains("version:       2.3"), out);
    assertTrue(out.contains("chunked values: "), out);
    assertTrue(!out.contains("mini-block") && !out.contains("full-zip") && !out.contains("plugin missing"), out);
  }

  static long fileSize(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void inspectShows23PagesWithBothPlanes() {
    Result r = run("inspect", "--json", lance23.toString());
    assertEquals(0, r.status(), r.err());
    String json = r.out().strip();
    assertTrue(json.contains("\"version\":\"2.3\""), json);
    assertTrue(json.contains("\"layout\":\"planar\""), json);
    assertTrue(json.contains("dense, chunked values: "), json);
    r = run("cat", lance23.toString(), "--rows", "19999,0:3,5,5,8190:8194,3:3");
    assertEquals(0, r.status(), r.err());
    assertEquals(run("cat", lance21.toString(), "--rows", "19999,0:3,5,5,8190:8194,3:3").lines(), r.lines());
  }

  @Test
  void codecsListsEveryPlugin() {
    Result r = run("codecs");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.lines().get(0).startsWith("kind"), r.out());
    assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("codec") && l.contains(" bitpack ")), r.out());
    assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("layout") && l.contains(" legacy ")), r.out());
    assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("layout") && l.contains(" planar ")), r.out());
    assertTrue(r.lines().stream().allMatch(l -> l.startsWith("kind") || l.contains(".jar") || l.contains("classes")), r.out());
    r = run("codecs", "--json");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.lines().stream().allMatch(l -> l.startsWith("{\"kind\":\"")), r.out());
  }

  @Test
  void helpGoesToStdout() {
    Result r = run("--help");
    assertEquals(0, r.status());
    assertTrue(r.out().startsWith("usage: lance-codec"), r.out());
    assertEquals("", r.err());
    r = run("cat", "--help");
    assertEquals(0, r.status());
    assertTrue(r.out().startsWith("usage: lance-codec cat FILE"), r.out());
  }

  /** Asserts one line on stderr naming the problem, nothing on stdout, no stack trace. */
  static void assertOneLineError(int status, String fragment, String... args) {
    Result r = run(args);
    assertEquals(status, r.status(), () -> String.join(" ", args) + " -> " + r.err());
    assertEquals("", r.out(), String.join(" ", args));
    String err = r.err();
    assertTrue(err.startsWith("lance-codec: "), err);
    assertTrue(err.endsWith("\n") && err.indexOf('\n') == err.length() - 1, "more than one line: " + err);
    assertFalse(err.contains("\tat ") || err.contains("Exception"), err);
    assertTrue(err.contains(fragment), "'" + fragment + "' not in: " + err);
  }

  @Test
  void usageErrorsExitTwo() {
    assertOneLineError(2, "no command given");
    assertOneLineError(2, "unknown command 'frobnicate'", "frobnicate");
    assertOneLineError(2, "unknown option '--bogus'", "cat", lance21.toString(), "--bogus");
    assertOneLineError(2, "missing argument", "cat");
    assertOneLineError(2, "unexpected argument", "cat", lance21.toString(), "extra");
    assertOneLineError(2, "missing argument", "write", arrow.toString());
    assertOneLineError(2, "needs a value", "cat", lance21.toString(), "--rows");
    assertOneLineError(2, "ends before it starts", "cat", lance21.toString(), "--rows", "5:2");
    assertOneLineError(2, "'abc' is not a row index", "cat", lance21.toString(), "--rows", "abc");
    assertOneLineError(2, "empty column name", "cat", lance21.toString(), "--columns", "s,");
    assertOneLineError(2, "unknown file version '3.0'", "write", arrow.toString(), dir.resolve("v3.lance").toString(), "--version", "3.0");
    assertOneLineError(2, "takes no value", "inspect", lance21.toString(), "--json=yes");
    assertOneLineError(2, "given twice", "cat", lance21.toString(), "--rows", "1", "--rows", "2");
  }

  @Test
  void badInputExitsOne() throws IOException {
    assertOneLineError(1, "no such file: " + dir.resolve("missing.lance"), "cat", dir.resolve("missing.lance").toString());
    assertOneLineError(1, "row 20000 is out of range", "cat", lance21.toString(), "--rows", "0,20000");
    assertOneLineError(1, "unknown column 'nope'", "cat", lance21.toString(), "--columns", "s,nope");
    assertOneLineError(1, "not a Lance file", "cat", arrow.toString());
    assertOneLineError(1, "is a directory", "inspect", dir.toString());
    assertOneLineError(1, "is a Lance file", "write", lance21.toString(), dir.resolve("x.lance").toString());
    assertOneLineError(1, "does not exist", "write", arrow.toString(), dir.resolve("no/such/dir/x.lance").toString());

    Path text = dir.resolve("text.arrow");
    Files.writeString(text, "date,precipitation\n2012-01-01,0.0\n");
    assertOneLineError(1, "not an Arrow IPC file or stream", "write", text.toString(), dir.resolve("t.lance").toString());

    byte[] whole = Files.readAllBytes(lance21);
    Path truncated = dir.resolve("truncated.lance");
    Files.write(truncated, java.util.Arrays.copyOf(whole, whole.length / 2));
    assertOneLineError(1, "truncated.lance", "cat", truncated.toString());
    Path cut = dir.resolve("cut-tail.lance");
    byte[] broken = whole.clone();
    // Point the column metadata table past the end of the file (footer bytes 8..15).
    int footer = broken.length - 40;
    java.nio.ByteBuffer.wrap(broken).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(footer + 8, whole.length * 2L);
    Files.write(cut, broken);
    assertOneLineError(1, "cut-tail.lance", "inspect", cut.toString());
    Path empty = dir.resolve("empty.lance");
    Files.write(empty, new byte[0]);
    assertOneLineError(1, "empty.lance", "cat", empty.toString());
  }

  @Test
  void emptyFileRoundTrips() throws IOException {
    Path empty = dir.resolve("empty.arrow");
    try (VectorSchemaRoot none = build(allocator, 0);
        FileChannel ch = FileChannel.open(empty, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ArrowFileWriter w = new ArrowFileWriter(none, null, ch)) {
      w.start();
      w.end();
    }
    Path out = dir.resolve("zero-rows.lance");
    assertEquals(0, run("write", empty.toString(), out.toString()).status());
    Result r = run("cat", out.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.out());
    r = run("inspect", out.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("rows:          0"), r.out());
  }

  @Test
  void demoRoundTripsTheEmbeddedData() {
    Result r = run("demo");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("== seattle-weather"), r.out());
    assertTrue(r.out().contains("1,461 rows x 6 columns"), r.out());
    assertTrue(r.out().contains("100,000 rows x 3 columns"), r.out());
    assertEquals(4, r.out().split("all values equal: yes", -1).length - 1, r.out());
    assertFalse(r.out().contains(": NO"), r.out());
  }

  @Test
  void debugPrintsTheStackTrace() {
    Result r = run("--debug", "cat", lance21.toString(), "--columns", "nope");
    assertEquals(1, r.status());
    assertTrue(r.err().startsWith("lance-codec: "), r.err());
    assertTrue(r.err().contains("\tat "), r.err());
  }

  /** A write that fails once pages are being encoded (snappy asked in a 2.3 file, whose grammar has none) leaves nothing. */
  @Test
  void failedWriteLeavesNoFileBehind() throws IOException {
    // blob columns have no 2.3 layout: the writer opens, then fails on the first page
    Path blobs = dir.resolve("many-blobs.arrow");
    Schema schema = new Schema(List.of(new Field("b", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
        Map.of("lance-encoding:blob", "true")), null)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        FileChannel ch = FileChannel.open(blobs, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
      org.apache.arrow.vector.LargeVarBinaryVector b = (org.apache.arrow.vector.LargeVarBinaryVector) root.getVector(0);
      for (int i = 0; i < 5000; i++) {
        b.setSafe(i, new byte[] {(byte) i, 2, 3});
      }
      b.setValueCount(5000);
      root.setRowCount(5000);
      w.start();
      w.writeBatch();
      w.end();
    }
    Path target = dir.resolve("never.lance");
    Result r = run("write", blobs.toString(), target.toString(), "--version", "2.3");
    assertEquals(1, r.status());
    assertTrue(r.err().contains("2.3"), r.err());
    assertFalse(Files.exists(target));
    try (var s = Files.list(dir)) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".partial")));
    }
  }

  /** Blob columns have no 2.3 layout: the write fails with one line once the first page is encoded. */
  @Test
  void blobColumnIn23IsRefused() throws IOException {
    Schema schema = new Schema(List.of(new Field("b", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
        Map.of("lance-encoding:blob", "true")), null)));
    Path blobs = dir.resolve("blobs.arrow");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        FileChannel ch = FileChannel.open(blobs, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
      ((org.apache.arrow.vector.LargeVarBinaryVector) root.getVector(0)).setSafe(0, new byte[] {1, 2, 3});
      root.setRowCount(1);
      w.start();
      w.writeBatch();
      w.end();
    }
    Path target = dir.resolve("no-blobs.lance");
    assertOneLineError(1, "not part of Lance 2.3", "write", blobs.toString(), target.toString(), "--version", "2.3");
    assertFalse(Files.exists(target));
  }
}
