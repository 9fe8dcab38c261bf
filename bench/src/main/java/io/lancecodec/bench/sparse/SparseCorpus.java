package io.lancecodec.bench.sparse;

import io.lancecodec.bench.sizes.Corpus;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Sparse data of real shape, our 2.2 file beside our 2.3 file, measured in one run: the file
 * bytes, random single-row takes per second (the two versions alternating in rounds, best round
 * of each), and the value bytes a 2.3 take of only null rows reads (after the pages' structure is
 * loaded). Data sets, 1M rows each by default:
 *
 * <ul>
 *   <li>{@code flights.delay 99% null}: the delays of flights-3m (vega-datasets) as int64 (its type)
 *       and as int16 (flights-200k's type), 99% of the rows nulled at random (seeded);
 *   <li>{@code mail.subjects list}: {@code list<utf8>} rows of which 95% have no value, 90% null and
 *       5% empty, and (the hard case for positions) 47.5% null and 47.5% empty at random; the rest
 *       lists of 1 to 3 real mail subjects (the strings corpus).
 * </ul>
 *
 * <p>Usage: {@code SparseCorpus DATA_DIR [--rows N] [--seconds S] [--keep DIR]}; prints a Markdown
 * table; {@code --keep} writes the files to DIR and leaves them there.
 */
public final class SparseCorpus {
  private SparseCorpus() {}

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args.length > 0 ? args[0] : "../shared/data");
    int rows = 1_000_000;
    double seconds = 1.0;
    Path keep = null;
    for (int i = 1; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--rows" -> rows = Integer.parseInt(args[i + 1]);
        case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
        case "--keep" -> keep = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    PrintStream out = System.out;
    Path tmp = keep != null ? Files.createDirectories(keep) : Files.createTempDirectory("sparse-corpus-");
    try (BufferAllocator al = new RootAllocator()) {
      List<String> lines = new ArrayList<>();
      lines.add("| data set | rows | 2.2 bytes | 2.3 bytes | 2.3/2.2 | 2.2 takes/s | 2.3 takes/s | 2.3/2.2 | 2.3 null-row take: value bytes | 2.3 page |");
      lines.add("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
      for (int bits : new int[] {64, 16}) {
        try (VectorSchemaRoot delays = delays(data, rows, bits, al)) {
          lines.add(measure("flights.delay:i" + bits + " 99% null", delays, tmp, seconds, al));
        }
      }
      try (VectorSchemaRoot subjects = subjects(data, rows, 900, 50, al)) {
        lines.add(measure("mail.subjects list 90% null 5% empty", subjects, tmp, seconds, al));
      }
      try (VectorSchemaRoot subjects = subjects(data, rows, 475, 475, al)) {
        lines.add(measure("mail.subjects list 47.5% null 47.5% empty", subjects, tmp, seconds, al));
      }
      lines.forEach(out::println);
    } finally {
      if (keep != null) {
        return;
      }
      try (var s = Files.walk(tmp)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Delays as int64 (flights-3m's type) or int16 (flights-200k's, where every delay fits). */
  static VectorSchemaRoot delays(Path data, int rows, int bits, BufferAllocator al) throws IOException {
    long[] all = Corpus.Flights3m.longs(data.resolve("vega-datasets/flights-3m.parquet"), "delay");
    Schema schema = new Schema(List.of(new Field("delay", FieldType.nullable(new ArrowType.Int(bits, true)), null)));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, al);
    org.apache.arrow.vector.BaseFixedWidthVector v = (org.apache.arrow.vector.BaseFixedWidthVector) root.getVector(0);
    v.allocateNew(rows);
    Random rnd = new Random(1);
    for (int i = 0; i < rows; i++) {
      if (rnd.nextInt(100) == 0) {
        long x = all[i % all.length];
        if (v instanceof BigIntVector b) {
          b.set(i, x);
        } else {
          ((org.apache.arrow.vector.SmallIntVector) v).set(i, (short) x);
        }
      } else {
        v.setNull(i);
      }
    }
    v.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  /** Lists: {@code nulls} and {@code empties} per mille of the rows, the rest 1 to 3 subjects. */
  static VectorSchemaRoot subjects(Path data, int rows, int nulls, int empties, BufferAllocator al) throws IOException {
    List<String> subjects = Files.readAllLines(data.resolve("strings/strings-mail-subjects.txt"), StandardCharsets.UTF_8);
    Field item = new Field("item", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    Schema schema = new Schema(List.of(new Field("subjects", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, al);
    ListVector lv = (ListVector) root.getVector(0);
    lv.allocateNew();
    VarCharVector items = (VarCharVector) lv.getDataVector();
    Random rnd = new Random(2);
    int k = 0;
    int next = 0;
    for (int i = 0; i < rows; i++) {
      int r = rnd.nextInt(1000);
      if (r < nulls) {
        lv.setNull(i);
        continue;
      }
      lv.startNewValue(i);
      int n = r < nulls + empties ? 0 : 1 + rnd.nextInt(3);
      for (int j = 0; j < n; j++) {
        items.setSafe(k++, subjects.get(next++ % subjects.size()).getBytes(StandardCharsets.UTF_8));
      }
      lv.endValue(i, n);
    }
    items.setValueCount(k);
    lv.setValueCount(rows);
    root.setRowCount(rows);
    return root;
  }

  private static String measure(String name, VectorSchemaRoot root, Path tmp, double seconds, BufferAllocator al) throws IOException {
    int rows = root.getRowCount();
    String file = name.replaceAll("[^A-Za-z0-9.]+", "-");
    Path f22 = tmp.resolve(file + "-2.2.lance");
    Path f23 = tmp.resolve(file + "-2.3.lance");
    write(root, f22, FileVersion.V2_2);
    write(root, f23, FileVersion.V2_3);
    long b22 = Files.size(f22);
    long b23 = Files.size(f23);
    List<Integer> nullRows = new ArrayList<>();
    for (int i = 0; i < rows && nullRows.size() < 100; i++) {
      if (root.getVector(0).isNull(i)) {
        nullRows.add(i);
      }
    }
    double best22 = 0;
    double best23 = 0;
    long nullBytes;
    String page;
    try (LanceFileReader r22 = LanceFileReader.open(f22); LanceFileReader r23 = LanceFileReader.open(f23)) {
      r22.searchCacheBytes();
      r23.searchCacheBytes();
      Random rnd = new Random(3);
      for (int round = 0; round < 6; round++) {
        best22 = Math.max(best22, takes(r22, rows, rnd, seconds / 2, al));
        best23 = Math.max(best23, takes(r23, rows, rnd, seconds / 2, al));
      }
      r23.readStats().reset();
      long[] picks = nullRows.stream().mapToLong(Integer::longValue).toArray();
      try (VectorSchemaRoot got = r23.take(picks, null, al)) {
        nullBytes = r23.readStats().bytes();
      }
      page = r23.columnSummaries().get(0).pages().get(0).toString();
      check(root, r23, al);
    }
    return String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %.3f | %,.0f | %,.0f | %.2f | %d (of %d null rows) | %s |",
        name, rows, b22, b23, b23 / (double) b22, best22, best23, best23 / best22, nullBytes, nullRows.size(), page);
  }

  private static void write(VectorSchemaRoot root, Path f, FileVersion version) {
    try (LanceFileWriter w = LanceFileWriter.open(f, root.getSchema(), WriterOptions.defaults().withVersion(version))) {
      w.write(root);
    }
  }

  /** Single-row takes of random rows for about {@code seconds}; rows per second. */
  private static double takes(LanceFileReader r, int rows, Random rnd, double seconds, BufferAllocator al) {
    long n = 0;
    long t0 = System.nanoTime();
    long limit = (long) (seconds * 1e9);
    long[] one = new long[1];
    while (System.nanoTime() - t0 < limit) {
      for (int i = 0; i < 64; i++) {
        one[0] = rnd.nextInt(rows);
        try (VectorSchemaRoot got = r.take(one, null, al)) {
          n += got.getRowCount();
        }
      }
    }
    return n / ((System.nanoTime() - t0) / 1e9);
  }

  /** The 2.3 file reads back equal to the data (every row, compared as Arrow objects). */
  private static void check(VectorSchemaRoot root, LanceFileReader r, BufferAllocator al) {
    try (VectorSchemaRoot all = r.readRange(0, root.getRowCount(), null, al)) {
      for (int i = 0; i < root.getRowCount(); i++) {
        Object a = root.getVector(0).getObject(i);
        Object b = all.getVector(0).getObject(i);
        if (!java.util.Objects.equals(String.valueOf(a), String.valueOf(b))) {
          throw new IllegalStateException("row " + i + " reads back as " + b + ", wrote " + a);
        }
      }
    }
  }
}
