package io.lancecodec.runtime;

import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.Parallelism;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes the pages {@link SpeculativeWriteTest} compares, in a JVM of its own (whether a write
 * may use a second core is fixed per JVM): columns of 16-, 32- and 64-bit values large enough
 * that the values-alone candidate is encoded beside the dictionary trial, with cardinalities on
 * both sides of the dictionary's win, flat and as list items, in 2.1, 2.2 and 2.3. Prints {@code parallel BOOLEAN}, then
 * {@code NAME SHA-256} per file. Args: DIR.
 */
public final class SpeculativeWriteMain {
  static final int ROWS = 40_000;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("few32", FieldType.notNullable(new ArrowType.Int(32, true)), null),
      new Field("many32", FieldType.notNullable(new ArrowType.Int(32, true)), null),
      new Field("runs64", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("runs32", FieldType.notNullable(new ArrowType.Int(32, true)), null),
      new Field("few16", FieldType.notNullable(new ArrowType.Int(16, true)), null),
      new Field("prices", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
      intList("listsFew32"),
      intList("listsMany32")));

  /** A list of 32-bit items: nested pages are speculated on too (their dictionary wins outright). */
  private static Field intList(String name) {
    return new Field(name, FieldType.notNullable(new ArrowType.List()),
        List.of(new Field("item", FieldType.notNullable(new ArrowType.Int(32, true)), null)));
  }

  private SpeculativeWriteMain() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    System.out.println("parallel " + Parallelism.ENABLED);
    try (BufferAllocator alloc = new RootAllocator(); VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc)) {
      fill(root);
      for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3)) {
        Path f = dir.resolve("speculative-" + v + ".lance");
        try (LanceFileWriter w = LanceFileWriter.open(f, SCHEMA, WriterOptions.defaults().withVersion(v))) {
          w.write(root);
        }
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f));
        System.out.println(f.getFileName() + " " + HexFormat.of().formatHex(digest));
      }
    }
  }

  static void fill(VectorSchemaRoot root) {
    Random r = new Random(7);
    IntVector few32 = (IntVector) root.getVector(0);
    IntVector many32 = (IntVector) root.getVector(1);
    BigIntVector runs64 = (BigIntVector) root.getVector(2);
    IntVector runs32 = (IntVector) root.getVector(3);
    SmallIntVector few16 = (SmallIntVector) root.getVector(4);
    Float8Vector prices = (Float8Vector) root.getVector(5);
    UnionListWriter listsFew32 = ((ListVector) root.getVector(6)).getWriter();
    UnionListWriter listsMany32 = ((ListVector) root.getVector(7)).getWriter();
    for (var v : root.getFieldVectors()) {
      v.allocateNew();
    }
    long run = 0;
    for (int i = 0; i < ROWS; i++) {
      // a few distinct values spread wide: the dictionary wins
      few32.setSafe(i, 1_000_003 * r.nextInt(40));
      // thousands of distinct values in a narrow range: bit-packing the values alone wins
      many32.setSafe(i, r.nextInt(3000));
      if (r.nextInt(50) == 0) {
        run = r.nextLong() >>> 20;
      }
      // long runs of some hundred values: a dictionary fits, but runs alone store them smaller
      runs64.setSafe(i, run);
      runs32.setSafe(i, (int) run);
      few16.setSafe(i, (short) (r.nextInt(12) * 5000));
      prices.setSafe(i, Math.round(r.nextGaussian() * 2000 + 10000) / 100.0);
      listsFew32.setPosition(i);
      listsFew32.startList();
      listsMany32.setPosition(i);
      listsMany32.startList();
      for (int k = r.nextInt(8); k > 0; k--) {
        listsFew32.writeInt(1_000_003 * r.nextInt(40));
        listsMany32.writeInt(r.nextInt(1 << 20));
      }
      listsFew32.endList();
      listsMany32.endList();
    }
    for (int c = 6; c <= 7; c++) {
      root.getVector(c).setValueCount(ROWS);
    }
    root.setRowCount(ROWS);
  }
}
