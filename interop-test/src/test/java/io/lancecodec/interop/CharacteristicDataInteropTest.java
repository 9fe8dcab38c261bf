package io.lancecodec.interop;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.WriterOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data characteristics the writer's choices depend on, both directions, 2.1 and 2.2, with no
 * hint and with {@code lance-encoding:compression} zstd and lz4, without and with nulls: low
 * entropy and small negative integers, sorted timestamps with repeats, constants, low- and
 * high-cardinality strings, URL-like strings, long log lines (full-zip), decimal floats (f64 and
 * the same values as f32) and float runs. Every generator is seeded from the case name. Our
 * files must read back identically in the reference; the reference's in ours. The encodings our
 * writer chose are tallied and printed, and the ones this data exists for are asserted.
 */
@ExtendWith(NativeLibCleanup.class)
class CharacteristicDataInteropTest {
  static final List<String> HINTS = List.of("none", "zstd", "lz4");
  static final Interop.Tally TALLY = new Interop.Tally();
  static final Map<String, String> OUR_ENCODINGS = new ConcurrentSkipListMap<>();

  @TempDir static Path dir;

  /** One characteristic column: its type, row count and the generator of row {@code i}. */
  record Data(String name, ArrowType type, int rows, Gen gen, String expectDefault) {}

  interface Gen {
    /** Value of row i: a Long, Double or String (rows are generated in order from one Random). */
    Object next(int i, Random rnd);
  }

  static final String[] CATEGORIES = {
    "drizzle", "rain", "sun", "snow", "fog", "overcast", "hail", "sleet", "thunderstorm", "mist", "haze", "wind"
  };
  static final String[] HOSTS = {
    "example", "lists.sourceforge", "www.linux", "slashdot", "news.bbc.co", "groups.yahoo", "www.python", "spamassassin.apache",
    "www.w3", "xent", "www.ibm", "www.newsisfree", "cnn", "www.amazon", "www.ebay", "www.zdnet", "freshmeat", "www.oreilly"
  };

  static List<Data> data() {
    List<Data> out = new ArrayList<>();
    out.add(new Data("low-entropy-int64", new ArrowType.Int(64, true), 20_000,
        (i, r) -> (long) (-Math.log(1 - r.nextDouble()) * 2), "bitpack"));
    out.add(new Data("small-negative-int16", new ArrowType.Int(16, true), 20_000,
        (i, r) -> (long) (r.nextInt(10) == 0 ? -r.nextInt(90) : (int) (-Math.log(1 - r.nextDouble()) * 25)), null));
    long[] clock = {1_104_537_600_000_000L};
    out.add(new Data("sorted-timestamp-us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), 20_000,
        (i, r) -> clock[0] += r.nextInt(8) < 6 ? 0 : 60_000_000L * (1 + r.nextInt(5)), "rle"));
    out.add(new Data("constant-int32", new ArrowType.Int(32, true), 20_000, (i, r) -> 42L, null));
    out.add(new Data("constant-utf8", ArrowType.Utf8.INSTANCE, 20_000, (i, r) -> "same old value", null));
    out.add(new Data("low-cardinality-utf8", ArrowType.Utf8.INSTANCE, 20_000,
        (i, r) -> CATEGORIES[Math.min(CATEGORIES.length - 1, (int) (-Math.log(1 - r.nextDouble()) * 3))], "dictionary"));
    out.add(new Data("high-cardinality-utf8", ArrowType.Utf8.INSTANCE, 20_000,
        (i, r) -> "<" + Long.toHexString(r.nextLong()) + "." + i + "@mail" + r.nextInt(40) + ".example.org>", "fsst"));
    out.add(new Data("url-utf8", ArrowType.Utf8.INSTANCE, 20_000, CharacteristicDataInteropTest::url, null));
    out.add(new Data("long-lines-utf8", ArrowType.Utf8.INSTANCE, 2_000, CharacteristicDataInteropTest::received, "full-zip"));
    double[] temp = {12.0};
    out.add(new Data("decimal-float64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), 20_000,
        (i, r) -> temp[0] = Math.round((temp[0] + r.nextGaussian() * 0.4) * 10) / 10.0, null));
    double[] temp32 = {12.0};
    out.add(new Data("decimal-float32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), 20_000,
        (i, r) -> temp32[0] = Math.round((temp32[0] + r.nextGaussian() * 0.4) * 10) / 10.0, null));
    double[] hour = {6.0};
    out.add(new Data("float32-runs", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), 20_000,
        (i, r) -> r.nextInt(30) == 0 ? (hour[0] = Math.round(r.nextDouble() * 2398) / 100.0) : hour[0], "rle"));
    return out;
  }

  static String url(int i, Random r) {
    String host = HOSTS[Math.min(HOSTS.length - 1, (int) (-Math.log(1 - r.nextDouble()) * 4))];
    StringBuilder sb = new StringBuilder(r.nextInt(4) == 0 ? "http://" : "https://").append(host).append(".com/");
    int depth = 1 + r.nextInt(3);
    for (int d = 0; d < depth; d++) {
      sb.append(new String[] {"index", "lists", "archive", "news", "story", "cgi-bin", "pub", "mailman"}[r.nextInt(8)]).append('/');
    }
    if (r.nextBoolean()) {
      sb.append("?id=").append(r.nextInt(5000));
    }
    return sb.toString();
  }

  static String received(int i, Random r) {
    StringBuilder sb = new StringBuilder("from mail").append(r.nextInt(200)).append(".example.org (mail").append(r.nextInt(200))
        .append(".example.org [10.").append(r.nextInt(256)).append('.').append(r.nextInt(256)).append('.').append(r.nextInt(256))
        .append("]) by mx").append(r.nextInt(9)).append(".spamassassin.taint.org (Postfix) with ESMTP id ")
        .append(Long.toHexString(r.nextLong()).toUpperCase(java.util.Locale.ROOT)).append(" for <jm@jmason.org>; ");
    while (sb.length() < 260 + r.nextInt(80)) {
      sb.append(new String[] {"Mon, ", "Tue, ", "Wed, ", "Thu, "}[r.nextInt(4)]).append(1 + r.nextInt(28)).append(" Aug 2002 ")
          .append(10 + r.nextInt(14)).append(':').append(10 + r.nextInt(50)).append(":0").append(r.nextInt(10))
          .append(" +0100 (IST) ");
    }
    return sb.toString();
  }

  record Case(String version, Data data, String hint, boolean nulls) {
    String name() {
      return version + "/" + data.name() + "/" + hint + (nulls ? "/nulls" : "");
    }

    Map<String, String> meta() {
      return hint.equals("none") ? Map.of() : Map.of("lance-encoding:compression", hint);
    }
  }

  @TestFactory
  Stream<DynamicNode> characteristicData() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (Data d : data()) {
        for (String hint : HINTS) {
          for (boolean nulls : new boolean[] {false, true}) {
            Case c = new Case(version, d, hint, nulls);
            tests.add(DynamicTest.dynamicTest("ours->ref " + c.name(), () -> oursToRef(c)));
            tests.add(DynamicTest.dynamicTest("ref->ours " + c.name(), () -> refToOurs(c)));
          }
        }
      }
    }
    return tests.stream();
  }

  /** A one-column root "c" (non-nullable without nulls); every third row null with them. */
  static VectorSchemaRoot generate(Case c, long seed) {
    Field field = new Field("c", new FieldType(c.nulls(), c.data().type(), null, c.meta()), null);
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(field)), Interop.ALLOC);
    FieldVector v = root.getVector(0);
    int n = c.data().rows();
    v.setInitialCapacity(n);
    v.allocateNew();
    Random rnd = new Random(seed);
    for (int i = 0; i < n; i++) {
      Object value = c.data().gen().next(i, rnd);
      if (c.nulls() && rnd.nextInt(3) == 0) {
        v.setNull(i);
        continue;
      }
      if (v instanceof VarCharVector s) {
        s.setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
      } else {
        BaseFixedWidthVector f = (BaseFixedWidthVector) v;
        int width = f.getTypeWidth();
        long bits =
            value instanceof Double d
                ? (width == 4 ? Float.floatToRawIntBits((float) (double) d) : Double.doubleToRawLongBits(d))
                : (Long) value;
        f.getDataBuffer().setBytes((long) i * width, Interop.le(bits, width));
        BitVectorHelper.setBit(f.getValidityBuffer(), i);
      }
    }
    v.setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  private static Path file(String direction, Case c) {
    return dir.resolve(direction + "_" + c.name().replace('/', '_').replace('.', '_') + ".lance");
  }

  static void oursToRef(Case c) throws Exception {
    String key = "ours->ref " + c.name();
    long seed = Interop.seedOf(c.name());
    Path file = file("ours", c);
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(c, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.oursWrite(file, root, c.version(), WriterOptions.DEFAULT_PAGE_BYTES, 1 << 20);
    }
    String pages;
    try (LanceFileReader r = LanceFileReader.open(file)) {
      pages = r.columnSummaries().toString();
    }
    OUR_ENCODINGS.put(c.name(), pages);
    String expect = c.data().expectDefault();
    if (expect != null && c.hint().equals("none") && !c.nulls()) {
      assertTrue(pages.contains(expect), key + ": expected " + expect + " in " + pages);
    }
    if (c.data().name().startsWith("constant") && c.version().equals("2.2") && c.hint().equals("none")) {
      assertTrue(pages.contains("constant"), key + ": expected a constant page, got " + pages);
    }
    Interop.oursReadAndCompare(file, field, expected, seed);
    Interop.refReadAndCompare(file, field, expected, seed);
    TALLY.oursToRefIdentical.incrementAndGet();
  }

  static void refToOurs(Case c) throws Exception {
    String key = "ref->ours " + c.name();
    long seed = Interop.seedOf(c.name());
    Path file = file("ref", c);
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(c, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.refWrite(file, root, c.version(), 1 << 20);
    }
    boolean read = Interop.oursReadOrPending(() -> Interop.oursReadAndCompare(file, field, expected, seed), TALLY, key);
    assertTrue(read, key + ": our reader lacks a codec the reference used: " + TALLY.pendingMessages);
  }

  @AfterAll
  static void summary() {
    System.out.println(TALLY.summary("interop characteristic data"));
    OUR_ENCODINGS.forEach((k, v) -> System.out.println("  ours " + k + ": " + v));
  }
}
