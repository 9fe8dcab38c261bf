package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.interop.Interop.Dist;
import io.lancecodec.interop.Interop.Nulls;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damage inside the pages of every codec and layout (the runtime's own sweep reaches only the
 * built-in codecs and bit-packing): files whose pages are FSST (mini-block and full-zip), general
 * compression of every scheme (chunks and values), byte-stream-split, RLE, bit-packing,
 * dictionaries, wide full-zip values and blobs, truncated at many lengths and with seeded byte
 * flips in their page buffers. Every read either succeeds or fails with one LanceCodecException line,
 * within seconds; nothing else escapes.
 */
class CorruptPagesTest {
  @TempDir static Path dir;

  /** One kind of page; {@code dist} null means compressible text made of words (FSST and zstd shrink it). */
  record Kind(String name, ArrowType type, Map<String, String> metadata, Dist dist, int rows, int maxLen, String expect) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final String P = "lance-encoding:";

  static List<Kind> kinds() {
    return List.of(
        new Kind("fsst mini-block", ArrowType.Utf8.INSTANCE, Map.of(P + "compression", "fsst", P + "dict-divisor", "100000"),
            null, 2000, 8, "fsst("),
        new Kind("fsst full-zip", ArrowType.Utf8.INSTANCE, Map.of(P + "compression", "fsst", P + "structural-encoding", "fullzip"),
            null, 600, 60, "full-zip, values: fsst("),
        new Kind("zstd mini-block", new ArrowType.Int(64, true), Map.of(P + "compression", "zstd"), Dist.NARROW, 3000, 0, "general(zstd"),
        new Kind("lz4 mini-block", ArrowType.Utf8.INSTANCE, Map.of(P + "compression", "lz4", P + "dict-divisor", "100000"),
            Dist.RUNS, 3000, 40, "general(lz4"),
        new Kind("snappy mini-block", new ArrowType.Int(32, true), Map.of(P + "compression", "snappy"), Dist.RUNS, 3000, 0, "general(snappy"),
        new Kind("byte-stream-split", new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE),
            Map.of(P + "compression", "zstd", P + "bss", "on"), Dist.NARROW, 3000, 0, "byte_stream_split("),
        new Kind("zstd per value", ArrowType.Utf8.INSTANCE, Map.of(P + "compression", "snappy", P + "structural-encoding", "fullzip"),
            null, 300, 200, "full-zip, values: general(snappy"),
        new Kind("rle", new ArrowType.Int(32, true), Map.of(P + "dict-divisor", "100000", P + "rle-threshold", "0.9"), Dist.RUNS, 3000, 0, "rle("),
        new Kind("bitpack", new ArrowType.Int(32, true), Map.of(), Dist.NARROW, 3000, 0, "bitpack("),
        new Kind("dictionary", ArrowType.Utf8.INSTANCE, Map.of(), Dist.RUNS, 3000, 20, "dictionary of"),
        new Kind("full-zip wide", new ArrowType.FixedSizeBinary(300), Map.of(), Dist.RANDOM, 200, 0, "full-zip"),
        new Kind("blob", ArrowType.LargeBinary.INSTANCE, Map.of(P + "blob", "true"), Dist.RANDOM, 300, 2000, "blob"));
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String version : List.of("2.1", "2.2")) {
      for (Kind k : kinds()) {
        out.add(Arguments.of(version, k));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void damagedPagesFailCleanly(String version, Kind kind) throws Exception {
    String name = version + "/" + kind.name();
    Path file = dir.resolve(name.replaceAll("[^a-z0-9.]", "_") + ".lance");
    try (VectorSchemaRoot root = kind.dist() == null ? text(kind, Interop.seedOf(name))
        : Interop.generate(kind.type(), true, kind.metadata(), Nulls.SOME, kind.dist(), kind.rows(), Interop.seedOf(name),
            new Interop.VarShape(0, Math.max(1, kind.maxLen())))) {
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults().withVersion(Interop.version(version)))) {
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(file)) {
      String pages = r.columnSummaries().toString();
      assertTrue(pages.contains(kind.expect()), name + " should hold " + kind.expect() + " pages: " + pages);
    }
    byte[] valid = Files.readAllBytes(file);
    long dataEnd = dataEnd(valid);
    Random rnd = new Random(Interop.seedOf(name));
    for (int t = 0; t < 60; t++) {
      byte[] cut = Arrays.copyOf(valid, rnd.nextInt(valid.length));
      readOrFail(cut, name + " cut to " + cut.length);
    }
    for (int t = 0; t < 400; t++) {
      byte[] bad = valid.clone();
      int flips = 1 + rnd.nextInt(3);
      for (int f = 0; f < flips; f++) {
        bad[rnd.nextInt((int) dataEnd)] ^= (byte) (1 + rnd.nextInt(255));
      }
      readOrFail(bad, name + " flip " + t);
    }
  }

  /** Rows of up to {@code maxLen} words from a small vocabulary, every fifth null. */
  private static VectorSchemaRoot text(Kind kind, long seed) {
    org.apache.arrow.vector.types.pojo.Field f = new org.apache.arrow.vector.types.pojo.Field("c",
        new org.apache.arrow.vector.types.pojo.FieldType(true, kind.type(), null, kind.metadata()), null);
    VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(List.of(f)), Interop.ALLOC);
    org.apache.arrow.vector.VarCharVector v = (org.apache.arrow.vector.VarCharVector) root.getVector(0);
    String[] words = {"lance ", "codec ", "column ", "page ", "chunk ", "value ", "the ", "of ", "zipped ", "planar "};
    Random rnd = new Random(seed);
    for (int i = 0; i < kind.rows(); i++) {
      if (i % 5 == 3) {
        v.setNull(i);
        continue;
      }
      StringBuilder sb = new StringBuilder();
      for (int k = 1 + rnd.nextInt(kind.maxLen()); k > 0; k--) {
        sb.append(words[rnd.nextInt(words.length)]);
      }
      v.setSafe(i, sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    v.setValueCount(kind.rows());
    root.setRowCount(kind.rows());
    return root;
  }

  /** Where the page data ends: the file descriptor (global buffer 0) follows it. */
  private static long dataEnd(byte[] file) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long gbo = b.getLong(file.length - 40 + 16);
    return b.getLong((int) gbo);
  }

  private static void readOrFail(byte[] bytes, String what) throws Exception {
    Path f = dir.resolve("damaged.lance");
    Files.write(f, bytes);
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      try (LanceFileReader r = LanceFileReader.open(f)) {
        try (VectorSchemaRoot all = r.readRange(0, r.numRows(), null, Interop.ALLOC)) {
          all.getRowCount();
        }
        if (r.numRows() > 2) {
          try (VectorSchemaRoot t = r.take(new long[] {r.numRows() - 1, 0, r.numRows() / 2}, null, Interop.ALLOC)) {
            t.getRowCount();
          }
        }
      } catch (LanceCodecException e) {
        assertTrue(!e.getMessage().isBlank() && !e.getMessage().contains("\n"), what + ": " + e.getMessage());
        assertTrue(e.kind() != LanceCodecException.Kind.INTERNAL, what + ": INTERNAL on damaged input: " + e.getMessage());
      } catch (Throwable t) {
        throw new AssertionError(what + ": not a LanceCodecException: " + t, t);
      }
    }, what);
    Files.delete(f);
  }
}
