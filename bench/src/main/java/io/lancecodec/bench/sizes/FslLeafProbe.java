package io.lancecodec.bench.sizes;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.Scanner;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Fixed-size-list leaf compression on the corpus (issue 15's table): bytes per token of the real
 * token ids as {@code FixedSizeList<UInt64|UInt32>[2048]} in our 2.2 (flat rows, what the
 * reference writes too: 8.000 / 4.000, see the anchor) and our 2.3, with no hint and under zstd;
 * the Gaussian control {@code fsl<f32>[768]} and the same values rounded to float16; then, on
 * the token files, full scans (decoded bytes per second, 256-row batches) and single-row takes
 * (rows per second) of 2.3 against 2.2, the two measured in alternation in this JVM, medians of
 * the rounds.
 *
 * <pre>
 * FslLeafProbe DATA_DIR [SECONDS_PER_MEASURE] [GAUSS_ROWS]
 * </pre>
 */
public final class FslLeafProbe {
  private FslLeafProbe() {}

  static final int DIM = 2048;

  record Variant(String name, FileVersion version, Map<String, String> meta) {}

  static final List<Variant> VARIANTS = List.of(
      new Variant("2.2", FileVersion.V2_2, Map.of()),
      new Variant("2.3", FileVersion.V2_3, Map.of()),
      new Variant("2.2 zstd", FileVersion.V2_2, Map.of("lance-encoding:compression", "zstd")),
      new Variant("2.3 zstd", FileVersion.V2_3, Map.of("lance-encoding:compression", "zstd")));

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
    int gaussRows = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
    Path tmp = Files.createTempDirectory("fsl-leaf-probe-");
    StringBuilder out = new StringBuilder();
    try (BufferAllocator alloc = new RootAllocator()) {
      out.append("| column | rows | ").append(String.join(" | ", VARIANTS.stream().map(Variant::name).toList()))
          .append(" | 2.3 / 2.2 | 2.3 zstd / 2.2 |\n|---|---:|").append("---:|".repeat(VARIANTS.size() + 2)).append('\n');
      List<Path[]> speed = new ArrayList<>();
      for (String vocab : new String[] {"cl100k", "o200k"}) {
        int[] ids = ids(data.resolve("tokens/tokens-" + vocab + "-2048.u32"));
        for (int bits : new int[] {64, 32}) {
          String label = vocab + " fsl<u" + bits + ">[2048]";
          Path[] files = sizes(out, label, tmp, alloc, m -> tokens(ids, bits, m, alloc), (long) ids.length, "B/token");
          speed.add(new Path[] {files[0], files[1], Path.of(label)});
        }
      }
      float[] gauss = gauss(gaussRows * 768);
      sizes(out, "gauss fsl<f32>[768]", tmp, alloc, m -> floats(gauss, 768, m, alloc), (long) gauss.length * 4, "x raw");
      float[] half = gauss.clone();
      for (int i = 0; i < half.length; i++) {
        half[i] = roundToHalf(half[i]);
      }
      sizes(out, "gauss rounded to f16, fsl<f32>[768]", tmp, alloc, m -> floats(half, 768, m, alloc), (long) half.length * 4, "x raw");
      System.out.print(out);
      System.out.println();
      System.out.println("| column | scan 2.2 MB/s | scan 2.3 MB/s | 2.3 / 2.2 | take 2.2 rows/s | take 2.3 rows/s | 2.3 / 2.2 |");
      System.out.println("|---|---:|---:|---:|---:|---:|---:|");
      for (Path[] p : speed) {
        double[] scan = alternate(seconds, () -> scanBytes(p[0], alloc), () -> scanBytes(p[1], alloc));
        double[] take = alternate(seconds, () -> takeRows(p[0], alloc), () -> takeRows(p[1], alloc));
        System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f |%n", p[2], scan[0] / 1e6, scan[1] / 1e6,
            scan[1] / scan[0], take[0], take[1], take[1] / take[0]);
      }
    } finally {
      try (var s = Files.walk(tmp)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  interface Column {
    VectorSchemaRoot make(Map<String, String> meta) throws Exception;
  }

  /** One row of the size table; returns the 2.2 and 2.3 default files. */
  static Path[] sizes(StringBuilder out, String label, Path tmp, BufferAllocator alloc, Column column, long units, String unit) throws Exception {
    Map<String, Long> bytes = new LinkedHashMap<>();
    Path[] files = new Path[2];
    long rows = 0;
    for (Variant v : VARIANTS) {
      Path f = tmp.resolve(label.replaceAll("[^a-z0-9]+", "_") + "_" + v.name().replace(' ', '_') + ".lance");
      try (VectorSchemaRoot root = column.make(v.meta())) {
        rows = root.getRowCount();
        try (LanceFileWriter w = LanceFileWriter.open(f, root.getSchema(), WriterOptions.defaults().withVersion(v.version()))) {
          w.write(root);
        }
      }
      bytes.put(v.name(), Files.size(f));
      if (v.name().equals("2.2")) {
        files[0] = f;
      } else if (v.name().equals("2.3")) {
        files[1] = f;
      } else {
        Files.deleteIfExists(f);
      }
    }
    out.append("| ").append(label).append(" | ").append(rows);
    for (long b : bytes.values()) {
      out.append(String.format(Locale.ROOT, " | %.3f %s", (double) b / units, unit));
    }
    out.append(String.format(Locale.ROOT, " | %.3f | %.3f |%n", (double) bytes.get("2.3") / bytes.get("2.2"),
        (double) bytes.get("2.3 zstd") / bytes.get("2.2")));
    return files;
  }

  static int[] ids(Path f) throws Exception {
    byte[] b = Files.readAllBytes(f);
    int[] ids = new int[b.length / 4];
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(ids);
    return ids;
  }

  static VectorSchemaRoot tokens(int[] ids, int bits, Map<String, String> meta, BufferAllocator alloc) {
    Field item = new Field("item", FieldType.notNullable(new ArrowType.Int(bits, false)), null);
    FixedSizeListVector v = vector(new Field("v", new FieldType(false, new ArrowType.FixedSizeList(DIM), null, meta), List.of(item)),
        ids.length / DIM, alloc);
    BaseFixedWidthVector leaf = (BaseFixedWidthVector) v.getDataVector();
    for (int k = 0; k < ids.length; k++) {
      if (bits == 64) {
        leaf.getDataBuffer().setLong(8L * k, ids[k] & 0xFFFF_FFFFL);
      } else {
        leaf.getDataBuffer().setInt(4L * k, ids[k]);
      }
    }
    return finish(v, leaf, ids.length / DIM, ids.length);
  }

  static VectorSchemaRoot floats(float[] x, int dim, Map<String, String> meta, BufferAllocator alloc) {
    Field item = new Field("item", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    FixedSizeListVector v = vector(new Field("v", new FieldType(false, new ArrowType.FixedSizeList(dim), null, meta), List.of(item)),
        x.length / dim, alloc);
    BaseFixedWidthVector leaf = (BaseFixedWidthVector) v.getDataVector();
    for (int k = 0; k < x.length; k++) {
      leaf.getDataBuffer().setFloat(4L * k, x[k]);
    }
    return finish(v, leaf, x.length / dim, x.length);
  }

  static FixedSizeListVector vector(Field f, int rows, BufferAllocator alloc) {
    FixedSizeListVector v = (FixedSizeListVector) f.createVector(alloc);
    v.setInitialCapacity(rows);
    v.allocateNew();
    return v;
  }

  static VectorSchemaRoot finish(FixedSizeListVector v, BaseFixedWidthVector leaf, int rows, int items) {
    for (int k = 0; k < items; k++) {
      BitVectorHelper.setBit(leaf.getValidityBuffer(), k);
    }
    for (int i = 0; i < rows; i++) {
      v.setNotNull(i);
    }
    v.setValueCount(rows);
    return new VectorSchemaRoot(List.of(v.getField()), List.of(v), rows);
  }

  /** The control of the data README: {@code java.util.Random(42).nextGaussian()}. */
  static float[] gauss(int n) {
    Random r = new Random(42);
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (float) r.nextGaussian();
    }
    return x;
  }

  /** {@code f} rounded to the nearest binary16 value (ties to even), as a float. */
  static float roundToHalf(float f) {
    int bits = Float.floatToRawIntBits(f);
    int exp = ((bits >>> 23) & 0xFF) - 127;
    if (exp < -14) {
      // binary16 subnormals: multiples of 2^-24
      return (float) (Math.rint(f * 0x1p24) * 0x1p-24);
    }
    int lsb = (bits >>> 13) & 1;
    return Float.intBitsToFloat((bits + 0xFFF + lsb) & ~0x1FFF);
  }

  interface Measure {
    double run() throws Exception;
  }

  /** The two measures in alternation for about {@code seconds} each; the median rate of each. */
  static double[] alternate(double seconds, Measure a, Measure b) throws Exception {
    for (int w = 0; w < 3; w++) {
      a.run();
      b.run();
    }
    List<Double> ra = new ArrayList<>();
    List<Double> rb = new ArrayList<>();
    long end = System.nanoTime() + (long) (2 * seconds * 1e9);
    while (System.nanoTime() < end || ra.size() < 5) {
      ra.add(a.run());
      rb.add(b.run());
    }
    return new double[] {median(ra), median(rb)};
  }

  static double median(List<Double> v) {
    double[] s = v.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  /** Decoded bytes per second of a full scan in 256-row batches, the reader's opening included. */
  static double scanBytes(Path f, BufferAllocator alloc) throws Exception {
    long t0 = System.nanoTime();
    long bytes = 0;
    try (LanceFileReader r = LanceFileReader.open(f); Scanner s = r.scan(null, 256, alloc)) {
      while (s.hasNext()) {
        try (VectorSchemaRoot b = s.next()) {
          FixedSizeListVector v = (FixedSizeListVector) b.getVector(0);
          bytes += (long) v.getValueCount() * v.getListSize() * ((BaseFixedWidthVector) v.getDataVector()).getTypeWidth();
        }
      }
    }
    return bytes / ((System.nanoTime() - t0) / 1e9);
  }

  /** Single-row takes per second: 500 calls at random rows on one open reader. */
  static double takeRows(Path f, BufferAllocator alloc) throws Exception {
    try (LanceFileReader r = LanceFileReader.open(f)) {
      long rows = r.numRows();
      Random rnd = new Random(7);
      long t0 = System.nanoTime();
      int calls = 500;
      for (int i = 0; i < calls; i++) {
        try (VectorSchemaRoot t = r.take(new long[] {(long) rnd.nextInt((int) rows)}, null, alloc)) {
          if (t.getRowCount() != 1) {
            throw new IllegalStateException("take returned " + t.getRowCount() + " rows");
          }
        }
      }
      return calls / ((System.nanoTime() - t0) / 1e9);
    }
  }
}
