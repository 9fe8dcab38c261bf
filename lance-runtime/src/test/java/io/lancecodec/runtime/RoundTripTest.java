package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Writes every flat type with our writer and reads it back with our reader: full scans, batched
 * scans and unsorted takes with repeats, across versions (2.3 with and without field options),
 * null patterns, value shapes and row counts at chunk edges. Seeds are fixed and part of each
 * case's name.
 */
class RoundTripTest extends WithAllocator {
  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 100;
    for (FileVersion version : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3}) {
      for (String type : TestData.TYPES.keySet().stream().sorted().toList()) {
        for (int n : new int[] {0, 1, 1023, 1025, 4097}) {
          for (String nulls : new String[] {"none", "some", "all"}) {
            TestData.Shape shape = TestData.Shape.values()[(int) (seed % 4)];
            out.add(Arguments.of(version, type, n, nulls, shape, seed++));
          }
        }
      }
    }
    return out.stream();
  }

  /**
   * Field options that steer the codecs the runtime carries (built-in and bit-packing): no
   * compression, RLE thresholds, forced structural encodings; general compression and FSST are
   * exercised with their plugins in interop-test's Planar23RoundTripTest.
   */
  static final Map<String, Map<String, String>> OPTIONS_23 = new java.util.LinkedHashMap<>();

  static {
    OPTIONS_23.put("none", Map.of("lance-encoding:compression", "none"));
    OPTIONS_23.put("rle-0.9", Map.of("lance-encoding:rle-threshold", "0.9"));
    OPTIONS_23.put("rle-0", Map.of("lance-encoding:rle-threshold", "0"));
    OPTIONS_23.put("miniblock", Map.of("lance-encoding:structural-encoding", "miniblock"));
    OPTIONS_23.put("fullzip", Map.of("lance-encoding:structural-encoding", "fullzip"));
    OPTIONS_23.put("sparse", Map.of("lance-encoding:structural-encoding", "sparse"));
  }

  static Stream<Arguments> options23() {
    List<Arguments> out = new ArrayList<>();
    long seed = 9000;
    for (String type : TestData.TYPES.keySet().stream().sorted().toList()) {
      for (String option : OPTIONS_23.keySet()) {
        if (type.equals("bool") && option.equals("fullzip")) {
          continue; // full-zip booleans are refused as in 2.2 (NestedFslRoundTripTest)
        }
        for (String nulls : new String[] {"none", "some"}) {
          TestData.Shape shape = TestData.Shape.values()[(int) (seed % 4)];
          out.add(Arguments.of(FileVersion.V2_3, type, option, nulls, shape, seed++));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2} nulls={3} {4} seed={5}")
  @MethodSource("options23")
  void roundTrip23WithOptions(FileVersion version, String type, String option, String nulls, TestData.Shape shape, long seed) {
    roundTrip(version, type, 4097, nulls, shape, seed, OPTIONS_23.get(option));
  }

  @ParameterizedTest(name = "{0} {1} rows={2} nulls={3} {4} seed={5}")
  @MethodSource("cases")
  void roundTrip(FileVersion version, String type, int n, String nulls, TestData.Shape shape, long seed) {
    roundTrip(version, type, n, nulls, shape, seed, null);
  }

  private void roundTrip(FileVersion version, String type, int n, String nulls, TestData.Shape shape, long seed, Map<String, String> options) {
    double fraction = nulls.equals("none") ? 0 : nulls.equals("some") ? 0.3 : 1.0;
    Path file = dir.resolve(version + "-" + type + "-" + n + "-" + nulls + "-" + seed + ".lance");
    try (VectorSchemaRoot in = TestData.root("c", TestData.TYPES.get(type), options, !nulls.equals("none"), fraction, n, shape, seed, allocator)) {
      try (LanceFileWriter w = LanceFileWriter.open(file, in.getSchema(), WriterOptions.defaults().withVersion(version))) {
        w.write(in);
      }
      List<Object> expected = TestData.values(in.getVector(0));
      try (LanceFileReader r = LanceFileReader.open(file)) {
        assertEquals(n, r.numRows());
        assertEquals(version, r.version());
        assertEquals(in.getSchema().getFields().get(0).getType(), r.schema().getFields().get(0).getType());
        if (options == null) {
          assertEquals(in.getSchema(), r.schema());
        }
        try (VectorSchemaRoot all = r.readRange(0, n, null, allocator)) {
          assertEquals(expected, TestData.values(all.getVector(0)), "full read, seed " + seed);
        }
        List<Object> scanned = new ArrayList<>();
        var it = r.scan(List.of("c"), 777, allocator);
        while (it.hasNext()) {
          try (VectorSchemaRoot b = it.next()) {
            scanned.addAll(TestData.values(b.getVector(0)));
          }
        }
        assertEquals(expected, scanned, "batched scan, seed " + seed);
        if (n > 0) {
          Random rnd = new Random(seed);
          long[] rows = new long[Math.min(200, 2 * n)];
          for (int i = 0; i < rows.length; i++) {
            rows[i] = rnd.nextInt(n);
          }
          try (VectorSchemaRoot t = r.take(rows, null, allocator)) {
            FieldVector v = t.getVector(0);
            for (int i = 0; i < rows.length; i++) {
              assertEquals(expected.get((int) rows[i]), TestData.value(v, i), "take row " + rows[i] + ", seed " + seed);
            }
          }
        }
      }
    }
  }
}
