package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.Scanner;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ALP through real files with every codec jar: real float columns (src/test/resources/real-floats,
 * see its README) and synthetic ones written in 2.3 come back bit for bit (whole, scanned, and one
 * row at a time), their pages say alp where it won, and a 2.3 file is never larger than the 2.2
 * file of the same column. What ALP must not touch stays byte for byte what a class path without
 * codec-alp writes: every 2.1 and 2.2 file, 2.3 integer columns, and 2.3 fields with {@code alp=off}.
 */
class Alp23FileTest {
  static final CodecRegistry ALL = CodecRegistry.discover();
  static final CodecRegistry WITHOUT_ALP = ALL.without("alp");
  static final BufferAllocator ALLOC = new RootAllocator();

  @TempDir static Path dir;

  @AfterAll
  static void close() {
    ALLOC.close();
  }

  /** The real columns, by name: {@code file.column}. */
  static Map<String, double[]> realColumns() {
    Map<String, double[]> out = new LinkedHashMap<>();
    readCsv("seattle-weather.csv", List.of("precipitation", "temp_max", "temp_min", "wind"), out);
    readCsv("earthquakes-columns.csv", List.of("mag", "depth", "longitude", "latitude"), out);
    readCsv("airports-latlon.csv", List.of("latitude", "longitude"), out);
    return out;
  }

  private static void readCsv(String file, List<String> columns, Map<String, double[]> out) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        Alp23FileTest.class.getResourceAsStream("/real-floats/" + file), StandardCharsets.UTF_8))) {
      List<String> header = List.of(r.readLine().split(","));
      List<String[]> rows = new ArrayList<>();
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        rows.add(line.split(","));
      }
      String stem = file.substring(0, file.indexOf('-'));
      for (String c : columns) {
        int k = header.indexOf(c);
        double[] v = new double[rows.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = Double.parseDouble(rows.get(i)[k]);
        }
        out.put(stem + "." + c, v);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static Stream<Arguments> realCases() {
    List<Arguments> out = new ArrayList<>();
    realColumns().forEach((name, v) -> {
      out.add(Arguments.of(name, 64, v));
      out.add(Arguments.of(name, 32, v));
    });
    return out.stream();
  }

  static ArrowType floatType(int bits) {
    return new ArrowType.FloatingPoint(bits == 64 ? FloatingPointPrecision.DOUBLE : FloatingPointPrecision.SINGLE);
  }

  /** One column {@code x} of {@code bits}-bit floats (every {@code nullEvery}-th row null when > 0). */
  static VectorSchemaRoot floats(double[] v, int bits, Map<String, String> metadata, int nullEvery) {
    Field field = new Field("x", new FieldType(nullEvery > 0, floatType(bits), null, metadata), null);
    FieldVector vec = field.createVector(ALLOC);
    vec.allocateNew();
    for (int i = 0; i < v.length; i++) {
      if (nullEvery > 0 && i % nullEvery == nullEvery - 1) {
        ((BaseFixedWidthVector) vec).setNull(i);
      } else if (bits == 64) {
        ((Float8Vector) vec).setSafe(i, v[i]);
      } else {
        ((Float4Vector) vec).setSafe(i, (float) v[i]);
      }
    }
    vec.setValueCount(v.length);
    return new VectorSchemaRoot(List.of(vec));
  }

  static Path write(String name, VectorSchemaRoot root, FileVersion version, CodecRegistry registry) {
    Path file = dir.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + version + (registry == ALL ? "" : "-noalp") + ".lance");
    try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(),
        WriterOptions.defaults().withVersion(version).withRegistry(registry))) {
      w.write(root);
    }
    return file;
  }

  static String pages(Path file) {
    try (LanceFileReader r = LanceFileReader.open(file, ALL)) {
      return r.columnSummaries().toString();
    }
  }

  /** The raw little-endian bytes of every slot of a fixed-width vector (null slots zeroed), and its validity. */
  static String image(FieldVector v) {
    BaseFixedWidthVector f = (BaseFixedWidthVector) v;
    int w = f.getTypeWidth();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < f.getValueCount(); i++) {
      if (f.isNull(i)) {
        sb.append("null,");
      } else {
        sb.append(w == 8 ? Long.toHexString(f.getDataBuffer().getLong((long) i * 8))
            : Integer.toHexString(f.getDataBuffer().getInt((long) i * 4))).append(',');
      }
    }
    return sb.toString();
  }

  /** The whole column, a scan in uneven batches, and single rows read back, each bit for bit. */
  static void assertReadsBack(Path file, VectorSchemaRoot expected) {
    FieldVector want = expected.getVector(0);
    int n = want.getValueCount();
    String all = image(want);
    try (LanceFileReader r = LanceFileReader.open(file, ALL)) {
      try (VectorSchemaRoot got = r.readRange(0, n, List.of("x"), ALLOC)) {
        assertEquals(all, image(got.getVector(0)), file.toString());
      }
      StringBuilder scanned = new StringBuilder();
      try (Scanner s = r.scan(List.of("x"), 777, ALLOC)) {
        while (s.hasNext()) {
          try (VectorSchemaRoot batch = s.next()) {
            scanned.append(image(batch.getVector(0)));
          }
        }
      }
      assertEquals(all, scanned.toString(), file + " scanned");
      Random rnd = new Random(n);
      for (long row : new long[] {0, n - 1, n / 2, 1023, 1024, rnd.nextInt(n), rnd.nextInt(n)}) {
        if (row >= n) {
          continue;
        }
        try (VectorSchemaRoot one = r.take(new long[] {row}, List.of("x"), ALLOC)) {
          try (VectorSchemaRoot slice = expected.slice((int) row, 1)) {
            assertEquals(image(slice.getVector(0)), image(one.getVector(0)), file + " row " + row);
          }
        }
      }
    }
  }

  /** Columns whose default 2.3 pages are ALP (with the statistic below the gate and no dictionary winning). */
  static final java.util.Set<String> ALP_BY_DEFAULT = java.util.Set.of(
      "earthquakes.depth f64", "earthquakes.depth f32", "earthquakes.mag f32", "airports.latitude f32");

  /** No dictionary: k copies of a column, or the writer's 20% handicap on dictionaries it adds, aside. */
  static final Map<String, String> NO_DICTIONARY = Map.of("lance-encoding:dict-divisor", "1000000000");

  static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
    Map<String, String> m = new LinkedHashMap<>(a);
    m.putAll(b);
    return m;
  }

  @ParameterizedTest(name = "{0} f{1}")
  @MethodSource("realCases")
  void realColumns(String name, int bits, double[] v) throws IOException {
    String label = name + " f" + bits;
    double entropy;
    try (VectorSchemaRoot root = floats(v, bits, Map.of(), 0)) {
      Path v23 = write(label, root, FileVersion.V2_3, ALL);
      assertReadsBack(v23, root);
      String pages = pages(v23);
      Path v22 = write(label, root, FileVersion.V2_2, ALL);
      assertFalse(pages(v22).contains("alp"), pages(v22));
      byte[] raw = new byte[v.length * bits / 8];
      ((BaseFixedWidthVector) root.getVector(0)).getDataBuffer().getBytes(0, raw);
      entropy = io.lancecodec.codec.alp.AlpEntropyGate.meanBytePositionEntropy(raw, 0, bits / 8, v.length);
      if (!io.lancecodec.codec.alp.AlpEntropyGate.passes(entropy)) {
        // auto's gate (the spec's 4.6 bits over the first 64 values) keeps the scan away
        assertFalse(pages.contains("alp"), label + " entropy " + entropy + ": " + pages);
      }
      if (ALP_BY_DEFAULT.contains(label)) {
        assertTrue(pages.contains("alp(flat(" + bits + "))"), pages);
      }
      System.out.printf(java.util.Locale.ROOT, "%-24s f%d  entropy %.3f  2.2 %,8d  2.3 %,8d  x%.3f  %s%n", name, bits, entropy,
          Files.size(v22), Files.size(v23), (double) Files.size(v23) / Files.size(v22),
          pages.replaceAll(".*chunked values: ", "").replaceAll("\\].*", ""));
    }
    // without dictionaries, ALP is written only where it is the smallest offer: never a larger file
    // than without the plugin; with alp=on it wins on every float64 one of these decimal columns
    // (float32 coordinates of seven decimals have more digits than a float32 holds)
    for (Map<String, String> meta : List.of(NO_DICTIONARY, with(NO_DICTIONARY, Map.of("lance-encoding:alp", "on")))) {
      try (VectorSchemaRoot root = floats(v, bits, meta, 0)) {
        String l = label + (meta.size() > 1 ? " on" : "") + " nodict";
        Path with = write(l, root, FileVersion.V2_3, ALL);
        long without = Files.size(write(l, root, FileVersion.V2_3, WITHOUT_ALP));
        assertTrue(Files.size(with) <= without, l + ": " + Files.size(with) + " bytes with ALP, " + without + " without");
        if (meta.size() > 1 && (bits == 64 || pages(with).contains("alp"))) {
          assertTrue(pages(with).contains("alp(flat(" + bits + "))"), pages(with));
          assertTrue(Files.size(with) < without, l);
          assertReadsBack(with, root);
          System.out.printf(java.util.Locale.ROOT, "%-24s f%d  alp=on, no dictionary: %,8d bytes, flat %,8d  x%.3f%n", name, bits,
              Files.size(with), without, (double) Files.size(with) / without);
        }
      }
    }
  }

  /** Decimals with 1% special values: NaN payloads, both zeros, subnormals, infinities; and nulls. */
  @Test
  void specialValuesAndNullsSurvive() {
    Random rnd = new Random(23);
    double[] v = new double[10_000];
    long[] specials = {0x7FF8000000000000L, 0x7FF0000000000001L, 0xFFF8000000000123L, 0x8000000000000000L,
        0x0000000000000001L, 0x000FFFFFFFFFFFFFL, 0x7FF0000000000000L, 0xFFF0000000000000L};
    for (int i = 0; i < v.length; i++) {
      v[i] = rnd.nextInt(100) == 0 ? Double.longBitsToDouble(specials[rnd.nextInt(specials.length)])
          : BigDecimal.valueOf(rnd.nextInt(2_000_000) - 1_000_000, 3).doubleValue();
    }
    for (int bits : new int[] {64, 32}) {
      for (int nullEvery : new int[] {0, 7}) {
        // alp=on: three decimals of up to seven digits fail auto's entropy gate as float64
        try (VectorSchemaRoot root = floats(v, bits, Map.of("lance-encoding:alp", "on"), nullEvery)) {
          Path file = write("specials-f" + bits + "-nulls" + nullEvery, root, FileVersion.V2_3, ALL);
          assertTrue(pages(file).contains("alp(flat(" + bits + "))"), pages(file));
          assertReadsBack(file, root);
        }
      }
    }
  }

  /** The option, per field: off writes what a class path without codec-alp writes; on and auto offer ALP. */
  @Test
  void theOptionPerField() throws IOException {
    double[] v = realColumns().get("earthquakes.depth");
    for (int bits : new int[] {64, 32}) {
      try (VectorSchemaRoot off = floats(v, bits, Map.of("lance-encoding:alp", "off"), 0);
          VectorSchemaRoot on = floats(v, bits, Map.of("lance-encoding:alp", "on"), 0)) {
        Path withOff = write("off-f" + bits, off, FileVersion.V2_3, ALL);
        Path withoutPlugin = write("off-f" + bits, off, FileVersion.V2_3, WITHOUT_ALP);
        assertFalse(pages(withOff).contains("alp"), pages(withOff));
        assertArrayEquals(Files.readAllBytes(withoutPlugin), Files.readAllBytes(withOff));
        Path withOn = write("on-f" + bits, on, FileVersion.V2_3, ALL);
        assertTrue(pages(withOn).contains("alp(flat(" + bits + "))"), pages(withOn));
        assertReadsBack(withOn, on);
      }
    }
  }

  /** General compression asked for: ALP competes as General's inner encoding and on its own; either reads back. */
  @Test
  void underGeneralCompression() {
    double[] v = realColumns().get("airports.longitude");
    for (String scheme : List.of("zstd", "lz4")) {
      try (VectorSchemaRoot root = floats(v, 64, Map.of("lance-encoding:compression", scheme, "lance-encoding:alp", "on"), 0)) {
        Path file = write(scheme + "-alp", root, FileVersion.V2_3, ALL);
        assertTrue(pages(file).contains("alp(flat(64))"), pages(file));
        assertReadsBack(file, root);
      }
    }
  }

  /** Integer columns, which reach ALP as the same 64/32-bit blocks. */
  static VectorSchemaRoot ints(String shape, int bits, int n) {
    Field field = new Field("x", FieldType.nullable(new ArrowType.Int(bits, true)), null);
    FieldVector vec = field.createVector(ALLOC);
    vec.allocateNew();
    Random rnd = new Random(shape.hashCode());
    long t = 1_700_000_000_000L;
    for (int i = 0; i < n; i++) {
      long x = switch (shape) {
        case "ids" -> i;
        case "timestamps-ms" -> t += rnd.nextInt(1000);
        case "timestamps-ns" -> (t += rnd.nextInt(1000)) * 1_000_000;
        case "counter" -> rnd.nextInt(10) == 0 ? rnd.nextInt(100) : 0;
        case "signed" -> rnd.nextInt(20_001) - 10_000;
        default -> throw new AssertionError(shape);
      };
      if (bits == 64) {
        ((BigIntVector) vec).setSafe(i, x);
      } else {
        ((IntVector) vec).setSafe(i, (int) x);
      }
    }
    vec.setValueCount(n);
    return new VectorSchemaRoot(List.of(vec));
  }

  /**
   * Integer columns in 2.3 never come out as ALP: the files are byte for byte those written
   * without codec-alp on the class path.
   */
  @Test
  void integerColumnsAreUntouched() throws IOException {
    for (String shape : List.of("ids", "timestamps-ms", "timestamps-ns", "counter", "signed")) {
      for (int bits : new int[] {64, 32}) {
        for (FieldOptionsCase o : List.of(new FieldOptionsCase("auto", Map.of()), new FieldOptionsCase("on", Map.of("lance-encoding:alp", "on")))) {
          try (VectorSchemaRoot base = ints(shape, bits, 100_000);
              VectorSchemaRoot root = withMetadata(base, o.metadata())) {
            String name = "int-" + shape + "-" + bits + "-" + o.name();
            Path with = write(name, root, FileVersion.V2_3, ALL);
            Path without = write(name, root, FileVersion.V2_3, WITHOUT_ALP);
            assertFalse(pages(with).contains("alp"), name + ": " + pages(with));
            assertArrayEquals(Files.readAllBytes(without), Files.readAllBytes(with), name);
          }
        }
      }
    }
  }

  record FieldOptionsCase(String name, Map<String, String> metadata) {}

  static VectorSchemaRoot withMetadata(VectorSchemaRoot root, Map<String, String> metadata) {
    FieldVector v = root.getVector(0);
    Field f = v.getField();
    Field withMeta = new Field(f.getName(), new FieldType(f.isNullable(), f.getType(), null, metadata), null);
    org.apache.arrow.vector.util.TransferPair tp = v.getTransferPair(withMeta, ALLOC);
    tp.transfer();
    return new VectorSchemaRoot(List.of((FieldVector) tp.getTo()));
  }

  /** 2.1 and 2.2 files of the float columns are byte for byte what they were without codec-alp. */
  @Test
  void twoOneAndTwoTwoAreUnchanged() throws IOException {
    Map<String, double[]> cols = realColumns();
    for (String name : List.of("earthquakes.depth", "airports.latitude", "seattle.wind")) {
      for (int bits : new int[] {64, 32}) {
        for (Map<String, String> meta : List.of(Map.<String, String>of(), Map.of("lance-encoding:alp", "on"))) {
          try (VectorSchemaRoot root = floats(cols.get(name), bits, meta, 0)) {
            for (FileVersion version : List.of(FileVersion.V2_1, FileVersion.V2_2)) {
              String label = name + "-f" + bits + meta.size();
              byte[] with = Files.readAllBytes(write(label, root, version, ALL));
              byte[] without = Files.readAllBytes(write(label, root, version, WITHOUT_ALP));
              assertArrayEquals(without, with, label + " " + version);
            }
          }
        }
      }
    }
  }
}
