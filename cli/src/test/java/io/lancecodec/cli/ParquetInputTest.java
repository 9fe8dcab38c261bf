package io.lancecodec.cli;

import static io.lancecodec.cli.MainTest.assertOneLineError;
import static io.lancecodec.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.Scanner;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Parquet input for {@code write}: files written here with parquet-java hold every supported
 * type and nesting; each is converted to Lance 2.1, 2.2 and 2.3 and read back with
 * {@link LanceFileReader}, and every value's canonical JSON must equal the one derived from
 * the values that were written.
 */
class ParquetInputTest {
  static final int ROWS = 1500;

  @TempDir
  static Path dir;

  static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
      message all_types {
        required int64 id;
        optional boolean b;
        optional int32 i32;
        optional int32 i8 (INTEGER(8,true));
        optional int32 u16 (INTEGER(16,false));
        optional int32 u32 (INTEGER(32,false));
        optional int64 u64 (INTEGER(64,false));
        optional int32 day (DATE);
        optional int32 t_ms (TIME(MILLIS,true));
        optional int64 t_us (TIME(MICROS,false));
        optional int64 ts_us (TIMESTAMP(MICROS,true));
        optional int64 ts_ms (TIMESTAMP(MILLIS,false));
        optional int64 ts_ns (TIMESTAMP(NANOS,true));
        optional int32 dec32 (DECIMAL(9,2));
        optional int64 dec64 (DECIMAL(18,4));
        optional fixed_len_byte_array(9) dec_fixed (DECIMAL(20,3));
        optional binary dec_wide (DECIMAL(40,5));
        optional float f32;
        optional double f64;
        optional binary s (STRING);
        optional binary e (ENUM);
        optional binary raw;
        optional fixed_len_byte_array(3) fixed;
        optional fixed_len_byte_array(16) id16 (UUID);
        optional fixed_len_byte_array(2) half (FLOAT16);
        optional int96 legacy_ts;
        optional group ints (LIST) { repeated group list { optional int32 element; } }
        optional group people (LIST) {
          repeated group list { optional group element { optional binary name (STRING); optional int32 age; } }
        }
        optional group point { required double x; optional double y; optional group tag { optional binary label (STRING); } }
        repeated int64 bare;
        optional group words (LIST) { repeated binary word (STRING); }
      }
      """);

  static List<Object[]> rows;
  static Path uncompressed;

  @BeforeAll
  static void writeSample() throws IOException {
    rows = rows(ROWS, 42);
    uncompressed = dir.resolve("all-types.parquet");
    ParquetFiles.write(uncompressed, SCHEMA, CompressionCodecName.UNCOMPRESSED, rows);
  }

  static List<Object[]> rows(int n, long seed) {
    Random r = new Random(seed);
    String[] words = {"rain", "sun", "caf\u00e9", "\"quoted\"", "\uD83D\uDE00 emoji", ""};
    List<Object[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int k = i;
      boolean nulls = i % 7 == 3;
      Object[] row = new Object[SCHEMA.getFieldCount()];
      row[0] = (long) i;
      row[1] = nulls ? null : r.nextBoolean();
      row[2] = nulls ? null : r.nextInt();
      row[3] = nulls ? null : r.nextInt(256) - 128;
      row[4] = nulls ? null : r.nextInt(65536);
      row[5] = nulls ? null : r.nextInt();
      row[6] = nulls ? null : r.nextLong();
      row[7] = nulls ? null : r.nextInt(60_000) - 20_000;
      row[8] = nulls ? null : r.nextInt(86_400_000);
      row[9] = nulls ? null : (long) r.nextInt(86_400) * 1_000_000L + r.nextInt(1_000_000);
      row[10] = nulls ? null : 1_600_000_000_000_000L + r.nextLong() % 100_000_000_000_000L;
      row[11] = nulls ? null : r.nextLong() % 4_000_000_000_000L;
      row[12] = nulls ? null : r.nextLong();
      row[13] = nulls ? null : r.nextInt(2_000_000_000) - 1_000_000_000;
      row[14] = nulls ? null : r.nextLong() % 1_000_000_000_000_000_000L;
      row[15] = nulls ? null : twosComplement(new BigInteger(66, r).subtract(BigInteger.ONE.shiftLeft(65)), 9);
      row[16] = nulls ? null : new BigInteger(130, r).subtract(BigInteger.ONE.shiftLeft(129)).toByteArray();
      row[17] = nulls ? null : i == 1 ? Float.NaN : i == 2 ? Float.NEGATIVE_INFINITY : (r.nextFloat() - 0.5f) * 1e6f;
      row[18] = nulls ? null : i == 1 ? Double.POSITIVE_INFINITY : r.nextGaussian() * 1e3;
      row[19] = nulls ? null : words[r.nextInt(words.length)] + (i % 3 == 0 ? "" : " " + i);
      row[20] = nulls ? null : List.of("RED", "GREEN", "BLUE").get(i % 3);
      row[21] = nulls ? null : bytes(r, r.nextInt(20));
      row[22] = nulls ? null : bytes(r, 3);
      row[23] = nulls ? null : bytes(r, 16);
      short half = Float16.toFloat16((r.nextFloat() - 0.5f) * 100);
      row[24] = nulls ? null : new byte[] {(byte) half, (byte) (half >> 8)};
      row[25] = nulls ? null : int96(2_440_588 + r.nextInt(40_000) - 10_000, (long) r.nextInt(86_400) * 1_000_000_000L + r.nextInt(1_000_000_000));
      row[26] = nulls ? null : k % 5 == 0 ? List.of() : listOf(r.nextInt(4) + 1, j -> j == 1 ? null : r.nextInt(1000));
      row[27] = nulls ? null : listOf(r.nextInt(3), j -> j == 2 ? null
          : new Object[] {r.nextBoolean() ? null : "p" + r.nextInt(100), r.nextBoolean() ? null : r.nextInt(90)});
      row[28] = nulls ? null : new Object[] {r.nextDouble(), k % 4 == 0 ? null : r.nextDouble(),
          k % 3 == 0 ? null : new Object[] {k % 6 == 1 ? null : "tag" + k}};
      row[29] = listOf(r.nextInt(3), j -> r.nextLong());
      row[30] = nulls ? null : listOf(r.nextInt(3), j -> words[(k + j) % words.length]);
      out.add(row);
    }
    return out;
  }

  static List<Object> listOf(int n, Function<Integer, Object> item) {
    List<Object> l = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      l.add(item.apply(j));
    }
    return l;
  }

  static byte[] bytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  static byte[] twosComplement(BigInteger v, int width) {
    byte[] min = v.toByteArray();
    byte[] b = new byte[width];
    Arrays.fill(b, (byte) (v.signum() < 0 ? 0xFF : 0));
    System.arraycopy(min, 0, b, width - min.length, min.length);
    return b;
  }

  static byte[] int96(long julianDay, long nanosOfDay) {
    return ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(nanosOfDay).putInt((int) julianDay).array();
  }

  // ---------------------------------------------------------------- the expected JSON

  static String expected(int column, Object v) {
    if (v == null) {
      return column == 29 ? "[]" : "null";
    }
    return switch (column) {
      case 0, 2, 3, 4, 7, 8, 9, 10, 11, 12 -> v.toString();
      case 1 -> v.toString();
      case 5 -> Integer.toUnsignedString((Integer) v);
      case 6 -> Long.toUnsignedString((Long) v);
      case 13 -> Json.quote(BigDecimal.valueOf((Integer) v, 2).toPlainString());
      case 14 -> Json.quote(BigDecimal.valueOf((Long) v, 4).toPlainString());
      case 15 -> Json.quote(new BigDecimal(new BigInteger((byte[]) v), 3).toPlainString());
      case 16 -> Json.quote(new BigDecimal(new BigInteger((byte[]) v), 5).toPlainString());
      case 17 -> number(Float.toString((Float) v));
      case 18 -> number(Double.toString((Double) v));
      case 19, 20 -> Json.quote((String) v);
      case 21, 22, 23 -> Json.quote(Base64.getEncoder().encodeToString((byte[]) v));
      case 24 -> {
        byte[] b = (byte[]) v;
        yield number(Float.toString(Float16.toFloat((short) ((b[0] & 0xFF) | (b[1] << 8)))));
      }
      case 25 -> {
        ByteBuffer b = ByteBuffer.wrap((byte[]) v).order(ByteOrder.LITTLE_ENDIAN);
        yield Long.toString((b.getInt(8) - 2_440_588L) * 86_400_000_000_000L + b.getLong(0));
      }
      case 26, 29 -> array((List<?>) v, x -> x == null ? "null" : x.toString());
      case 27 -> array((List<?>) v, x -> {
        if (x == null) {
          return "null";
        }
        Object[] p = (Object[]) x;
        return "{\"name\":" + (p[0] == null ? "null" : Json.quote((String) p[0])) + ",\"age\":" + p[1] + "}";
      });
      case 28 -> {
        Object[] p = (Object[]) v;
        Object[] tag = (Object[]) p[2];
        yield "{\"x\":" + p[0] + ",\"y\":" + p[1] + ",\"tag\":"
            + (tag == null ? "null" : "{\"label\":" + (tag[0] == null ? "null" : Json.quote((String) tag[0])) + "}") + "}";
      }
      case 30 -> array((List<?>) v, x -> Json.quote((String) x));
      default -> throw new IllegalArgumentException("column " + column);
    };
  }

  static String number(String s) {
    return s.equals("NaN") || s.endsWith("Infinity") ? "\"" + s + "\"" : s;
  }

  static String array(List<?> items, Function<Object, String> f) {
    return items.stream().map(f).collect(Collectors.joining(",", "[", "]"));
  }

  /** Reads a Lance file back and compares every value with {@link #expected}. */
  static void assertMatches(Path lance, List<Object[]> rows) {
    try (LanceFileReader reader = LanceFileReader.open(lance);
        BufferAllocator allocator = new RootAllocator();
        Scanner scan = reader.scan(null, 333, allocator)) {
      assertEquals(rows.size(), reader.numRows());
      int row = 0;
      while (scan.hasNext()) {
        try (VectorSchemaRoot root = scan.next()) {
          for (int i = 0; i < root.getRowCount(); i++, row++) {
            for (int c = 0; c < root.getFieldVectors().size(); c++) {
              String want = expected(c, rows.get(row)[c]);
              String got = Json.value(root.getVector(c), i);
              if (!want.equals(got)) {
                assertEquals(want, got, lance.getFileName() + " row " + row + " column " + root.getVector(c).getName());
              }
            }
          }
        }
      }
      assertEquals(rows.size(), row);
    }
  }

  // ---------------------------------------------------------------- tests

  @Test
  void typesMapToArrow() throws IOException {
    Path out = dir.resolve("types.lance");
    MainTest.Result r = run("write", uncompressed.toString(), out.toString());
    assertEquals(0, r.status(), r.err());
    Map<String, String> types = new LinkedHashMap<>();
    try (LanceFileReader reader = LanceFileReader.open(out)) {
      for (Field f : reader.schema().getFields()) {
        types.put(f.getName(), f.getType() + (f.getChildren().isEmpty() ? "" : f.getChildren().stream()
            .map(c -> c.getName() + ":" + c.getType()).collect(Collectors.joining(",", "<", ">"))));
      }
    }
    assertEquals("Int(64, true)", types.get("id"));
    assertEquals("Int(8, true)", types.get("i8"));
    assertEquals("Int(16, false)", types.get("u16"));
    assertEquals("Int(64, false)", types.get("u64"));
    assertEquals("Date(DAY)", types.get("day"));
    assertEquals("Time(MILLISECOND, 32)", types.get("t_ms"));
    assertEquals("Time(MICROSECOND, 64)", types.get("t_us"));
    assertEquals("Timestamp(MICROSECOND, UTC)", types.get("ts_us"));
    assertEquals("Timestamp(MILLISECOND, null)", types.get("ts_ms"));
    assertEquals("Timestamp(NANOSECOND, null)", types.get("legacy_ts"));
    assertEquals("Decimal(9, 2, 128)", types.get("dec32"));
    assertEquals("Decimal(40, 5, 256)", types.get("dec_wide"));
    assertEquals("Utf8", types.get("s"));
    assertEquals("Utf8", types.get("e"));
    assertEquals("Binary", types.get("raw"));
    assertEquals("FixedSizeBinary(16)", types.get("id16"));
    assertEquals("FloatingPoint(HALF)", types.get("half"));
    assertEquals("List<element:Int(32, true)>", types.get("ints"));
    assertEquals("List<element:Struct>", types.get("people"));
    assertEquals("Struct<x:FloatingPoint(DOUBLE),y:FloatingPoint(DOUBLE),tag:Struct>", types.get("point"));
    assertEquals("List<bare:Int(64, true)>", types.get("bare"));
    assertEquals("List<word:Utf8>", types.get("words"));
  }

  @Test
  void everyValueRoundTripsInEveryVersion() {
    for (String version : List.of("2.1", "2.2", "2.3")) {
      Path out = dir.resolve("all-types-" + version + ".lance");
      MainTest.Result r = run("write", uncompressed.toString(), out.toString(), "--version", version);
      assertEquals(0, r.status(), r.err());
      assertEquals("", r.out());
      assertTrue(r.err().startsWith("wrote " + ROWS + " rows, 31 columns"), r.err());
      assertMatches(out, rows);
    }
  }

  /** Batches far smaller than a row group, so batches start in the middle of one and span two. */
  @Test
  void smallBatchesAcrossRowGroups() throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
        ParquetSource source = ParquetSource.open(uncompressed, allocator, 97)) {
      int row = 0;
      while (source.loadNextBatch()) {
        VectorSchemaRoot root = source.root();
        assertTrue(root.getRowCount() <= 97);
        for (int i = 0; i < root.getRowCount(); i++, row++) {
          for (int c = 0; c < SCHEMA.getFieldCount(); c++) {
            assertEquals(expected(c, rows.get(row)[c]), Json.value(root.getVector(c), i), "row " + row + " column " + c);
          }
        }
        assertEquals(row / (double) ROWS, source.fractionRead(), 1e-9);
      }
      assertEquals(ROWS, row);
    }
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodecName.class, names = {"SNAPPY", "GZIP", "ZSTD", "LZ4_RAW"})
  void compressedPages(CompressionCodecName codec) throws IOException {
    Path in = dir.resolve("codec-" + codec + ".parquet");
    List<Object[]> some = rows(400, codec.ordinal());
    ParquetFiles.write(in, SCHEMA, codec, some);
    Path out = dir.resolve("codec-" + codec + ".lance");
    MainTest.Result r = run("write", in.toString(), out.toString(), "--version", "2.3");
    assertEquals(0, r.status(), r.err());
    assertMatches(out, some);
  }

  /** The committed slice of vega-datasets' flights-3m (zstd pages, a timestamp, strings). */
  @Test
  void flightsSampleRoundTrips() throws IOException {
    Path in = dir.resolve("flights-500.parquet");
    try (java.io.InputStream s = ParquetInputTest.class.getResourceAsStream("/vega/flights-500.parquet")) {
      Files.copy(s, in);
    }
    for (String version : List.of("2.1", "2.2", "2.3")) {
      Path out = dir.resolve("flights-500-" + version + ".lance");
      MainTest.Result r = run("write", in.toString(), out.toString(), "--version", version);
      assertEquals(0, r.status(), r.err());
      assertEquals(500, RoundTrip.assertMatchesParquet(out, in));
    }
  }

  @Test
  void parquetIsRecognisedByItsMagicWhateverTheName() throws IOException {
    Path in = dir.resolve("no-extension");
    Files.copy(uncompressed, in);
    Path out = dir.resolve("by-magic.lance");
    MainTest.Result r = run("write", in.toString(), out.toString());
    assertEquals(0, r.status(), r.err());
    assertMatches(out, rows);
  }

  @Test
  void mapsNeedVersion22() throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType("""
        message maps {
          required int32 id;
          optional group m (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }
        }
        """);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Map<String, Integer> m = new LinkedHashMap<>();
      for (int j = 0; j < i % 4; j++) {
        m.put("k" + j, j == 1 ? null : i * j);
      }
      rows.add(new Object[] {i, i % 9 == 0 ? null : m});
    }
    Path in = dir.resolve("maps.parquet");
    ParquetFiles.write(in, schema, CompressionCodecName.UNCOMPRESSED, rows);
    for (String version : List.of("2.2", "2.3")) {
      Path out = dir.resolve("maps-" + version + ".lance");
      MainTest.Result r = run("write", in.toString(), out.toString(), "--version", version);
      assertEquals(0, r.status(), r.err());
      r = run("cat", out.toString(), "--rows", "0:5,9");
      assertEquals(List.of("{\"id\":0,\"m\":null}",
          "{\"id\":1,\"m\":[{\"key\":\"k0\",\"value\":0}]}",
          "{\"id\":2,\"m\":[{\"key\":\"k0\",\"value\":0},{\"key\":\"k1\",\"value\":null}]}",
          "{\"id\":3,\"m\":[{\"key\":\"k0\",\"value\":0},{\"key\":\"k1\",\"value\":null},{\"key\":\"k2\",\"value\":6}]}",
          "{\"id\":4,\"m\":[]}",
          "{\"id\":9,\"m\":null}"), r.lines());
    }
    assertOneLineError(1, "maps need file version 2.2 or later", "write", in.toString(), dir.resolve("maps-2.1.lance").toString());
  }

  @Test
  void unsupportedTypeNamesColumnAndType() throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType("""
        message odd { required int32 id; optional fixed_len_byte_array(12) span (INTERVAL); }
        """);
    Path in = dir.resolve("interval.parquet");
    ParquetFiles.write(in, schema, CompressionCodecName.UNCOMPRESSED, List.<Object[]>of(new Object[] {1, new byte[12]}));
    assertOneLineError(1, "column 'span' has Parquet type optional fixed_len_byte_array(12) span (INTERVAL), which write does not support",
        "write", in.toString(), dir.resolve("interval.lance").toString());
    assertFalse(Files.exists(dir.resolve("interval.lance")));
  }

  @Test
  void badParquetIsOneLine() throws IOException {
    byte[] whole = Files.readAllBytes(uncompressed);
    Path truncated = dir.resolve("truncated.parquet");
    Files.write(truncated, Arrays.copyOf(whole, whole.length / 2));
    assertOneLineError(1, "truncated.parquet: not a readable Parquet file", "write", truncated.toString(),
        dir.resolve("t.lance").toString());
    assertFalse(Files.exists(dir.resolve("t.lance")));

    Path text = dir.resolve("text.parquet");
    Files.writeString(text, "date,precipitation\n2012-01-01,0.0\n");
    assertOneLineError(1, "text.parquet: not a readable Parquet file", "write", text.toString(), dir.resolve("t.lance").toString());

    Path empty = dir.resolve("empty.parquet");
    Files.write(empty, new byte[0]);
    assertOneLineError(1, "empty.parquet: empty file", "write", empty.toString(), dir.resolve("t.lance").toString());

    // damage inside the pages: either an error line or (where only values changed) a file
    for (int at = 4; at < whole.length / 2; at += whole.length / 23) {
      byte[] bad = whole.clone();
      for (int i = at; i < at + 16; i++) {
        bad[i] = (byte) 0xA5;
      }
      Path damaged = dir.resolve("damaged.parquet");
      Files.write(damaged, bad);
      MainTest.Result r = run("write", damaged.toString(), dir.resolve("d.lance").toString());
      assertEquals("", r.out());
      assertTrue(r.err().indexOf('\n') == r.err().length() - 1, r.err());
      assertFalse(r.err().contains("\tat "), r.err());
      if (r.status() != 0) {
        assertTrue(r.err().startsWith("lance-codec: damaged.parquet"), r.err());
      }
    }
  }

  @Test
  void unsupportedCodecIsOneLine() throws IOException {
    Path in = dir.resolve("brotli.parquet");
    // pages stored raw but labelled BROTLI: the reader must refuse the codec, not misread
    ParquetFiles.write(in, SCHEMA, CompressionCodecName.BROTLI, rows(10, 1));
    assertOneLineError(1, "pages compressed with BROTLI are not supported", "write", in.toString(),
        dir.resolve("brotli.lance").toString());
  }

  @Test
  void csvOptionsAreRefusedForParquet() {
    assertOneLineError(2, "apply to CSV input", "write", uncompressed.toString(), dir.resolve("x.lance").toString(),
        "--csv-types", "id:int64");
  }
}
