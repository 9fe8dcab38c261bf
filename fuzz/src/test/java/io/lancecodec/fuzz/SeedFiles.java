package io.lancecodec.fuzz;

import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes the seed corpus of {@link FileFuzzTest}: small real files of every version (2.1, 2.2,
 * 2.3) whose columns take every layout and codec this build writes (bit-packing, RLE,
 * dictionaries, FSST, general compression, byte-stream split, ALP, pcodec; mini-block, full zip,
 * constant and all-null pages; lists, structs, fixed-size lists). Deterministic (fixed seeds), so
 * the committed corpus can be regenerated:
 * {@code java -cp <fuzz test class path> io.lancecodec.fuzz.SeedFiles DIR}.
 */
public final class SeedFiles {
  private static final int ROWS = 64;

  private SeedFiles() {}

  /** {@code SeedFiles DIR}: writes every target's seeds under DIR (the package's resource directory). */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    List<Path> all = new ArrayList<>();
    List<Path> files = write(Files.createDirectories(dir.resolve("FileFuzzTestInputs/wholeFile")));
    all.addAll(files);
    all.addAll(io.lancecodec.runtime.PageFuzzTest.writeSeeds(files,
        Files.createDirectories(dir.resolve("../runtime/PageFuzzTestInputs/page").normalize())));
    all.addAll(writeAlp(Files.createDirectories(dir.resolve("AlpFuzzTestInputs/chunk"))));
    all.addAll(writePco(Files.createDirectories(dir.resolve("PcoFuzzTestInputs/standalone"))));
    all.addAll(DecompressorSeeds.write(Files.createDirectories(dir.resolve("DecompressorFuzzTestInputs/decompress"))));
    for (Path p : all) {
      System.out.println(p + " " + Files.size(p));
    }
  }

  /**
   * ALP seeds: the first chunk of pages of decimals (FOR and Delta), coordinates (use_div, with
   * exceptions), random doubles (ALP-RD) and float32 decimals, in {@link AlpFuzzTest}'s input form.
   */
  static List<Path> writeAlp(Path dir) throws Exception {
    List<Path> out = new ArrayList<>();
    SplittableRandom rnd = new SplittableRandom(6);
    int n = 1024;
    double[] decimals = new double[n];
    double[] rising = new double[n];
    double[] coords = new double[n];
    double[] random = new double[n];
    float[] decimals32 = new float[n];
    for (int i = 0; i < n; i++) {
      decimals[i] = Math.round(rnd.nextDouble(-50, 50) * 10) / 10.0;
      rising[i] = 100 + i * 0.25;
      coords[i] = i % 97 == 0 ? Double.NaN : Math.round(rnd.nextDouble(-180, 180) * 1e6) / 1e6;
      random[i] = rnd.nextDouble();
      decimals32[i] = Math.round(rnd.nextDouble(0, 100) * 100) / 100.0f;
    }
    io.lancecodec.codec.alp.AlpEncoder enc = new io.lancecodec.codec.alp.AlpEncoder();
    out.add(alpSeed(dir.resolve("decimals"), true, enc.encodePage(decimals, 0, n, Integer.MAX_VALUE, false)));
    out.add(alpSeed(dir.resolve("rising"), true, enc.encodePage(rising, 0, n, Integer.MAX_VALUE, false)));
    out.add(alpSeed(dir.resolve("coordinates"), true, enc.encodePage(coords, 0, n, Integer.MAX_VALUE, false)));
    out.add(alpSeed(dir.resolve("random"), true, enc.encodePage(random, 0, n, Integer.MAX_VALUE, false)));
    out.add(alpSeed(dir.resolve("decimals32"), false, enc.encodePage(decimals32, 0, n, Integer.MAX_VALUE, false)));
    out.add(alpSeed(dir.resolve("short"), true, enc.encodePage(decimals, 0, 100, Integer.MAX_VALUE, false)));
    return out;
  }

  private static Path alpSeed(Path path, boolean f64, io.lancecodec.codec.alp.AlpPage page) throws Exception {
    int[] sizes = page.chunks().get(0).bufferSizes();
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    int n = page.chunkValues(0);
    b.write(f64 ? 1 : 0);
    b.write(n & 0xFF);
    b.write(n >>> 8);
    for (int size : sizes) {
      b.write(size & 0xFF);
      b.write(size >>> 8);
    }
    for (int i = 0; i < 4; i++) {
      b.write(page.buffer(i), 0, sizes[i]);
    }
    Files.write(path, b.toByteArray());
    return path;
  }

  /**
   * pco seeds: pco's own golden files (codec-pcodec's test resources, each behind the selector
   * of its number type) and files of our encoder, in {@link PcoFuzzTest}'s input form.
   */
  static List<Path> writePco(Path dir) throws Exception {
    List<Path> out = new ArrayList<>();
    Path golden = Path.of(System.getProperty("pco.golden", "../codec-pcodec/src/test/resources/pco-golden"));
    Map<String, String> types = Map.ofEntries(Map.entry("v0_0_0_classic", "i32"), Map.entry("v0_0_0_delta_float_mult", "f32"),
        Map.entry("v0_1_0_delta_int_mult", "i32"), Map.entry("v0_1_1_standalone_versioned", "f32"), Map.entry("v0_3_0_f16", "f16"),
        Map.entry("v0_3_0_float_quant", "f32"), Map.entry("v0_4_0_lookback_delta", "u32"), Map.entry("v0_4_5_uniform_type", "u32"),
        Map.entry("v0_4_8_minor_version", "u32"), Map.entry("v1_0_0_dict", "u64"), Map.entry("v1_0_0_conv1", "i32"),
        Map.entry("v1_0_0_u8", "u8"), Map.entry("v1_0_0_i8", "i8"));
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(types).entrySet()) {
      out.add(pcoSeed(dir.resolve(e.getKey()), e.getValue(), Files.readAllBytes(golden.resolve(e.getKey() + ".pco"))));
    }
    SplittableRandom rnd = new SplittableRandom(5);
    double[] f64 = new double[3000];
    long[] i64 = new long[3000];
    for (int i = 0; i < f64.length; i++) {
      f64[i] = Math.round(rnd.nextDouble(0, 1000) * 100) / 100.0;
      i64[i] = 1_700_000_000_000L + i * 1000L + rnd.nextInt(50);
    }
    out.add(pcoSeed(dir.resolve("ours_f64"), "f64", io.lancecodec.codec.pcodec.Pco.compressF64(f64, 0, f64.length, 8)));
    out.add(pcoSeed(dir.resolve("ours_i64"), "i64", io.lancecodec.codec.pcodec.Pco.compressI64(i64, 0, i64.length, 8)));
    return out;
  }

  private static Path pcoSeed(Path path, String type, byte[] file) throws Exception {
    byte[] b = new byte[file.length + 1];
    b[0] = (byte) (8 << 4 | PcoFuzzTest.typeIndex(type));
    System.arraycopy(file, 0, b, 1, file.length);
    Files.write(path, b);
    return path;
  }

  /** Writes every seed into {@code dir}; returns their paths. */
  static List<Path> write(Path dir) throws Exception {
    List<Path> out = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3)) {
        String tag = v.toString().replace('.', '_');
        out.add(write(dir.resolve("flat-" + tag + ".lance"), flat(), v, Map.of(), alloc, 1));
        out.add(write(dir.resolve("nested-" + tag + ".lance"), nested(), v, Map.of(), alloc, 2));
        out.add(write(dir.resolve("zstd-" + tag + ".lance"), flat(), v,
            Map.of("lance-encoding:compression", "zstd"), alloc, 3));
      }
      out.add(write(dir.resolve("pcodec-2_3.lance"), floats(), FileVersion.V2_3,
          Map.of("lance-encoding:compression", "pcodec"), alloc, 4));
      out.add(write(dir.resolve("fullzip-2_2.lance"), zippable(), FileVersion.V2_2,
          Map.of("lance-encoding:structural-encoding", "fullzip"), alloc, 5));
    }
    return out;
  }

  private static Path write(Path path, List<Field> fields, FileVersion version, Map<String, String> fieldDefaults,
      BufferAllocator alloc, long seed) throws Exception {
    Schema schema = new Schema(fields);
    WriterOptions options = WriterOptions.defaults().withVersion(version);
    for (Map.Entry<String, String> e : fieldDefaults.entrySet()) {
      options = options.withFieldDefault(e.getKey(), e.getValue());
    }
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc)) {
      SplittableRandom rnd = new SplittableRandom(seed);
      for (FieldVector v : root.getFieldVectors()) {
        fill(v, ROWS, rnd);
      }
      root.setRowCount(ROWS);
      Files.deleteIfExists(path);
      try (LanceFileWriter w = LanceFileWriter.open(path, schema, options)) {
        w.write(root);
      }
    }
    return path;
  }

  private static Field field(String name, ArrowType type, Field... children) {
    return new Field(name, FieldType.nullable(type), List.of(children));
  }

  private static final ArrowType I32 = new ArrowType.Int(32, true);
  private static final ArrowType I64 = new ArrowType.Int(64, true);
  private static final ArrowType F32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  private static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

  /** Names say the shape of the data; {@link #fill} reads them. */
  private static List<Field> flat() {
    return List.of(
        field("narrow", I32), field("runs", I64), field("constant", I32), field("allnull", I32),
        field("decimals", F64), field("decimals32", F32), field("bools", ArrowType.Bool.INSTANCE),
        field("lowcard", ArrowType.Utf8.INSTANCE), field("text", ArrowType.Utf8.INSTANCE),
        field("wide", ArrowType.Binary.INSTANCE));
  }

  private static List<Field> nested() {
    return List.of(
        field("list", ArrowType.List.INSTANCE, field("item", I32)),
        field("strings", ArrowType.List.INSTANCE, field("item", ArrowType.Utf8.INSTANCE)),
        field("struct", ArrowType.Struct.INSTANCE, field("narrow", I32), field("text", ArrowType.Utf8.INSTANCE)),
        field("vector", new ArrowType.FixedSizeList(3), field("decimals32", F32)),
        field("tokens", new ArrowType.FixedSizeList(4), new Field("item", FieldType.notNullable(I32), null)));
  }

  private static List<Field> zippable() {
    return List.of(field("narrow", I32), field("text", ArrowType.Utf8.INSTANCE), field("wide", ArrowType.Binary.INSTANCE),
        field("strings", ArrowType.List.INSTANCE, field("item", ArrowType.Utf8.INSTANCE)));
  }

  private static List<Field> floats() {
    return List.of(field("decimals", F64), field("decimals32", F32),
        field("vector", new ArrowType.FixedSizeList(4), new Field("item", FieldType.notNullable(F32), null)));
  }

  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "lance", "codec", "http://example.org/", "mini-block"};

  /** Fills {@code count} slots of {@code v} (and its children) with data of the shape its name says. */
  private static void fill(FieldVector v, int count, SplittableRandom rnd) {
    String name = v.getName();
    boolean nulls = v.getField().isNullable() && !name.equals("constant");
    v.setInitialCapacity(count);
    v.allocateNew();
    if (v instanceof ListVector l) {
      int total = 0;
      int[] lengths = new int[count];
      for (int i = 0; i < count; i++) {
        lengths[i] = rnd.nextInt(5);
        total += lengths[i];
      }
      fill((FieldVector) l.getDataVector(), total, rnd);
      for (int i = 0; i < count; i++) {
        if (nulls && rnd.nextInt(10) == 0) {
          l.setNull(i);
          continue;
        }
        l.startNewValue(i);
        l.endValue(i, lengths[i]);
      }
    } else if (v instanceof FixedSizeListVector l) {
      fill((FieldVector) l.getDataVector(), count * l.getListSize(), rnd);
      for (int i = 0; i < count; i++) {
        if (nulls && rnd.nextInt(10) == 0) {
          l.setNull(i);
        } else {
          l.setNotNull(i);
        }
      }
    } else if (v instanceof StructVector s) {
      for (FieldVector c : s.getChildrenFromFields()) {
        fill(c, count, rnd);
      }
      for (int i = 0; i < count; i++) {
        if (nulls && rnd.nextInt(10) == 0) {
          s.setNull(i);
        } else {
          s.setIndexDefined(i);
        }
      }
    } else {
      for (int i = 0; i < count; i++) {
        // few wide values: they are what makes a file large
        if (name.equals("allnull") || (nulls && rnd.nextInt(8) == 0) || (name.equals("wide") && rnd.nextInt(8) != 0)) {
          continue;
        }
        setLeaf(v, name, i, rnd);
      }
    }
    v.setValueCount(count);
  }

  private static void setLeaf(FieldVector v, String name, int i, SplittableRandom rnd) {
    if (v instanceof IntVector x) {
      x.setSafe(i, name.equals("constant") ? 42 : name.equals("item") ? rnd.nextInt(1 << 17) : rnd.nextInt(100));
    } else if (v instanceof BigIntVector x) {
      x.setSafe(i, 1_700_000_000_000L + (i / 37) * 1000L);
    } else if (v instanceof Float8Vector x) {
      x.setSafe(i, Math.round(rnd.nextDouble(-90, 90) * 100) / 100.0);
    } else if (v instanceof Float4Vector x) {
      x.setSafe(i, Math.round(rnd.nextDouble(0, 50) * 10) / 10.0f);
    } else if (v instanceof BitVector x) {
      x.setSafe(i, rnd.nextInt(3) == 0 ? 1 : 0);
    } else if (v instanceof VarCharVector x) {
      String s = name.equals("lowcard") ? WORDS[rnd.nextInt(3)]
          : WORDS[rnd.nextInt(WORDS.length)] + rnd.nextInt(1000) + "/" + WORDS[rnd.nextInt(WORDS.length)];
      x.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
    } else if (v instanceof VarBinaryVector x) {
      byte[] b = new byte[150 + rnd.nextInt(100)];
      for (int k = 0; k < b.length; k++) {
        b[k] = (byte) rnd.nextInt(16);
      }
      x.setSafe(i, b);
    } else {
      throw new IllegalStateException("no generator for " + v.getClass());
    }
  }
}
