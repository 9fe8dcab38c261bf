package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
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
import org.lance.util.Range;

/**
 * Blob columns (v1 layout, {@code lance-encoding:blob} on large_binary), 2.1 and 2.2. The
 * reference's file reader returns blob columns only as descriptions (position, size): its
 * content mode fails even on its own files. So our files are checked through the descriptions
 * (nulls where expected, and the file's bytes at each position equal to the value), and the
 * reference's files are read by us in full.
 */
@ExtendWith(NativeLibCleanup.class)
class BlobInteropTest {
  static final Interop.Tally TALLY = new Interop.Tally();
  @TempDir static Path dir;

  static Field blobField() {
    return new Field("b", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null, Map.of("lance-encoding:blob", "true")), null);
  }

  static VectorSchemaRoot generate(int rows, int maxLen, long seed) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(blobField())), Interop.ALLOC);
    LargeVarBinaryVector v = (LargeVarBinaryVector) root.getVector(0);
    Random rnd = new Random(seed);
    for (int i = 0; i < rows; i++) {
      int kind = rnd.nextInt(5);
      if (kind == 0) {
        v.setNull(i);
      } else {
        byte[] b = new byte[kind == 1 ? 0 : kind == 2 ? maxLen : rnd.nextInt(maxLen + 1)];
        rnd.nextBytes(b);
        v.setSafe(i, b);
      }
    }
    v.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  @TestFactory
  Stream<DynamicNode> blobs() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String version : TypeMatrixInteropTest.VERSIONS) {
      for (int rows : new int[] {1, 50, 700}) {
        for (int maxLen : new int[] {16, 300 * 1024}) {
          if (rows * (long) maxLen > 40L << 20) {
            continue;
          }
          String name = version + "/" + rows + "/max" + maxLen;
          tests.add(DynamicTest.dynamicTest("ref->ours " + name, () -> refToOurs(version, rows, maxLen, name)));
          tests.add(DynamicTest.dynamicTest("ours->ref " + name, () -> oursToRef(version, rows, maxLen, name)));
        }
      }
    }
    return tests.stream();
  }

  static void refToOurs(String version, int rows, int maxLen, String name) throws Exception {
    Path file = dir.resolve("ref_" + name.replace('/', '_').replace('.', '_') + ".lance");
    long seed = Interop.seedOf("ref->ours blob " + name);
    try (VectorSchemaRoot root = generate(rows, maxLen, seed)) {
      List<String> expected = Interop.canon(root.getVector(0));
      Interop.refWrite(file, root, version, 100);
      Interop.oursReadAndCompare(file, blobField(), expected, seed);
      TALLY.refToOursIdentical.incrementAndGet();
    }
  }

  static void oursToRef(String version, int rows, int maxLen, String name) throws Exception {
    Path file = dir.resolve("ours_" + name.replace('/', '_').replace('.', '_') + ".lance");
    long seed = Interop.seedOf("ours->ref blob " + name);
    try (VectorSchemaRoot root = generate(rows, maxLen, seed)) {
      List<String> expected = Interop.canon(root.getVector(0));
      Interop.oursWrite(file, root, version, 1L << 20, 100);
      Interop.oursReadAndCompare(file, blobField(), expected, seed);
      byte[] bytes = Files.readAllBytes(file);
      Interop.assertSameRows("reference descriptions", expected, refDescriptions(file, bytes, null), null);
      long[] take = Interop.sortedDistinctRows(rows, 30, new Random(seed));
      Interop.assertSameRows("reference descriptions, single-row ranges", Interop.pick(expected, take),
          refDescriptions(file, bytes, Interop.singleRowRanges(take)), take);
      TALLY.oursToRefIdentical.incrementAndGet();
    }
  }

  /** Each row as the reference describes it, resolved against the file: "null" or the value's bytes. */
  static List<String> refDescriptions(Path file, byte[] bytes, List<Range> ranges) throws Exception {
    List<String> out = new ArrayList<>();
    org.lance.file.FileReadOptions options =
        org.lance.file.FileReadOptions.builder().blobReadMode(org.lance.file.BlobReadMode.DESCRIPTOR).build();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), Interop.ALLOC);
         ArrowReader ar = r.readAll(null, ranges, 1024, options)) {
      while (ar.loadNextBatch()) {
        StructVector d = (StructVector) ar.getVectorSchemaRoot().getVector(0);
        UInt8Vector pos = (UInt8Vector) d.getChild("position");
        UInt8Vector size = (UInt8Vector) d.getChild("size");
        for (int i = 0; i < d.getValueCount(); i++) {
          if (d.isNull(i)) {
            out.add("null");
            continue;
          }
          int p = (int) pos.get(i);
          int s = (int) size.get(i);
          StringBuilder sb = new StringBuilder("0x");
          for (int k = p; k < p + s; k++) {
            sb.append(String.format("%02x", bytes[k]));
          }
          out.add(sb.toString());
        }
      }
    }
    return out;
  }

  @AfterAll
  static void summary() {
    System.out.println(TALLY.summary("BlobInteropTest"));
    assertEquals(0, TALLY.refToOursPending.get());
  }
}
