package io.lancecodec.interop;

import io.lancecodec.interop.Interop.Dist;
import io.lancecodec.interop.Interop.Nulls;
import io.lancecodec.runtime.WriterOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Field metadata {@code lance-encoding:structural-encoding=fullzip} on an int32 column: our
 * writer must honour it (every page full-zip) and the reference must read the file and see the
 * metadata; the reverse direction is checked as well.
 */
@ExtendWith(NativeLibCleanup.class)
class FieldMetadataInteropTest {
  static final String KEY = "lance-encoding:structural-encoding";
  static final Map<String, String> FULLZIP = Map.of(KEY, "fullzip");
  static final int[] ROWS = {1, 1024, 5000};

  static final Interop.Tally TALLY = new Interop.Tally();

  @TempDir static Path dir;

  @TestFactory
  Stream<DynamicNode> fullZipInt32() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (Nulls nulls : List.of(Nulls.NONE, Nulls.SOME)) {
        for (int rows : ROWS) {
          String name = version + "/int32_fullzip/" + nulls + "/" + rows;
          tests.add(DynamicTest.dynamicTest("ours->ref " + name, () -> oursToRef(version, nulls, rows, name)));
          tests.add(DynamicTest.dynamicTest("ref->ours " + name, () -> refToOurs(version, nulls, rows, name)));
        }
      }
    }
    return tests.stream();
  }

  private static VectorSchemaRoot generate(Nulls nulls, int rows, long seed) {
    return Interop.generate(new ArrowType.Int(32, true), nulls != Nulls.NONE, FULLZIP, nulls, Dist.NARROW, rows, seed);
  }

  private static Path file(String direction, String name) {
    return dir.resolve(direction + "_" + name.replace('/', '_').replace('.', '_') + ".lance");
  }

  static void oursToRef(String version, Nulls nulls, int rows, String name) throws Exception {
    String key = "ours->ref " + name;
    long seed = Interop.seedOf(key);
    Path file = file("ours", name);
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(nulls, rows, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.oursWrite(file, root, version, WriterOptions.DEFAULT_PAGE_BYTES, 100_000);
    }
    WideValuesInteropTest.assertFullZipOrConstant(file);
    Interop.refReadAndCompare(file, field, expected, seed);
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), Interop.ALLOC)) {
      Map<String, String> meta = r.schema().getFields().get(0).getMetadata();
      assertEquals("fullzip", meta == null ? null : meta.get(KEY), "reference sees the field metadata");
    }
    TALLY.oursToRefIdentical.incrementAndGet();
  }

  static void refToOurs(String version, Nulls nulls, int rows, String name) throws Exception {
    String key = "ref->ours " + name;
    long seed = Interop.seedOf(key);
    Path file = file("ref", name);
    List<String> expected;
    Field field;
    try (VectorSchemaRoot root = generate(nulls, rows, seed)) {
      field = root.getSchema().getFields().get(0);
      expected = Interop.canon(root.getVector(0));
      Interop.refWrite(file, root, version, 100_000);
    }
    boolean read = Interop.oursReadOrPending(() -> {
      Interop.oursReadAndCompare(file, field, expected, seed);
      WideValuesInteropTest.assertFullZipOrConstant(file);
      try (io.lancecodec.runtime.LanceFileReader r = io.lancecodec.runtime.LanceFileReader.open(file)) {
        Map<String, String> meta = r.schema().getFields().get(0).getMetadata();
        assertEquals("fullzip", meta == null ? null : meta.get(KEY), "our reader sees the field metadata");
      }
    }, TALLY, key);
    if (!read) {
      System.out.println("interop field metadata: pending " + key);
    }
  }

  @AfterAll
  static void summary() {
    System.out.println(TALLY.summary("interop field metadata"));
    TALLY.pendingMessages.forEach(m -> System.out.println("  pending: " + m));
  }
}
