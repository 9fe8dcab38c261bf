package io.lancecodec.codec.general;

import io.lancecodec.runtime.LanceFileReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files written by the reference (lance-core 7.0.0) with general compression, read whole and
 * compared value for value with the formulas that produced them (resources/golden/README.md).
 * Only golden files catch framing mismatches a round trip cannot see.
 */
class GeneralGoldenTest {
  private static final BufferAllocator ALLOC = new RootAllocator();

  @AfterAll
  static void close() {
    ALLOC.close();
  }

  static Object int64(int i) {
    return (i % 100) * 1_000_000_007L;
  }

  static Object int64Nulls(int i) {
    return i % 7 == 3 ? null : int64(i);
  }

  static Object float64(int i) {
    return (i % 50) * 0.1 + 1000.0;
  }

  static Object utf8(int i) {
    return "row-" + i + "-abcdef";
  }

  static Object utf8Nulls(int i) {
    return i % 5 == 1 ? null : utf8(i);
  }

  static Object big(int i) {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 40000 + i * 100) {
      sb.append("value ").append(i).append(" lorem ipsum ");
    }
    return sb.toString();
  }

  static Object dict(int i) {
    return "dictionary-entry-number-" + (i % 1500) + "-xyz";
  }

  static Stream<Arguments> files() {
    return Stream.of(
        Arguments.of("v21_zstd_int64", 2000, (IntFunction<Object>) GeneralGoldenTest::int64, "general"),
        Arguments.of("v21_zstd9_int64", 2000, (IntFunction<Object>) GeneralGoldenTest::int64, "general"),
        Arguments.of("v21_lz4_int64_nulls", 2000, (IntFunction<Object>) GeneralGoldenTest::int64Nulls, "general"),
        Arguments.of("v21_zstd_float64", 2000, (IntFunction<Object>) GeneralGoldenTest::float64, "byte_stream_split"),
        Arguments.of("v21_lz4_float64", 2000, (IntFunction<Object>) GeneralGoldenTest::float64, "byte_stream_split"),
        Arguments.of("v21_zstd_utf8", 1500, (IntFunction<Object>) GeneralGoldenTest::utf8, "general(zstd, variable"),
        Arguments.of("v21_lz4_utf8_nulls", 1500, (IntFunction<Object>) GeneralGoldenTest::utf8Nulls, "general(lz4, variable"),
        Arguments.of("v21_lz4_utf8_big", 3, (IntFunction<Object>) GeneralGoldenTest::big, "full-zip, values: general"),
        Arguments.of("v22_zstd_int64_nulls", 2000, (IntFunction<Object>) GeneralGoldenTest::int64Nulls, "general"),
        Arguments.of("v22_lz4_int64", 2000, (IntFunction<Object>) GeneralGoldenTest::int64, "general"),
        Arguments.of("v22_zstd_float64_bss_on", 2000, (IntFunction<Object>) GeneralGoldenTest::float64, "general"),
        Arguments.of("v22_lz4_utf8", 1500, (IntFunction<Object>) GeneralGoldenTest::utf8, "general"),
        Arguments.of("v22_auto_utf8_big", 3, (IntFunction<Object>) GeneralGoldenTest::big, "full-zip, values: general"),
        Arguments.of("v22_auto_dict", 6000, (IntFunction<Object>) GeneralGoldenTest::dict, "general"));
  }

  static Path golden(String name) throws URISyntaxException {
    return Path.of(GeneralGoldenTest.class.getResource("/golden/" + name + ".lance").toURI());
  }

  static Object value(FieldVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    if (v instanceof BigIntVector b) {
      return b.get(i);
    }
    if (v instanceof Float8Vector f) {
      return f.get(i);
    }
    return new String(((VarCharVector) v).get(i), StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void readsReferenceFile(String name, int rows, IntFunction<Object> expected, String encodingMark) throws Exception {
    try (LanceFileReader r = LanceFileReader.open(golden(name))) {
      assertEquals(rows, r.numRows());
      String pages = r.columnSummaries().toString();
      assertTrue(pages.contains(encodingMark), name + ": expected '" + encodingMark + "' in " + pages);
      try (VectorSchemaRoot all = r.readRange(0, rows, null, ALLOC)) {
        FieldVector v = all.getVector(0);
        List<Integer> wrong = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
          if (!java.util.Objects.equals(expected.apply(i), value(v, i))) {
            wrong.add(i);
          }
        }
        assertTrue(wrong.isEmpty(), name + ": rows differ, first " + (wrong.isEmpty() ? -1 : wrong.get(0)));
      }
      long[] take = {rows - 1, 0, rows / 2, rows / 3, rows - 1};
      try (VectorSchemaRoot t = r.take(take, null, ALLOC)) {
        for (int k = 0; k < take.length; k++) {
          assertEquals(expected.apply((int) take[k]), value(t.getVector(0), k), name + " take row " + take[k]);
        }
      }
    }
  }
}
