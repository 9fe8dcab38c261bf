package io.lancecodec.codec.pcodec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.FixedSizeList;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.Pcodec;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Lance 2.3 plugin over the real registry: bare float leaves and fixed-size lists of them
 * round-trip bit for bit (NaN payloads and signed zeros included) at every level, chunks follow
 * the spec's 32 KiB rule, the writer picks pcodec for compressible data when asked and only then,
 * lists with null items are left to Flat, and every damaged descriptor or chunk is one CORRUPT.
 */
@Timeout(300)
class PcodecPluginTest {
  static final Plugins REGISTRY = Plugins.discover(PcodecPluginTest.class.getClassLoader());
  static final RuntimeLayoutContext CTX = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_3, b -> 0L);

  static FieldOptions options(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put("lance-encoding:" + kv[i], kv[i + 1]);
    }
    return CodecRegistry.discover().parseOptions(m);
  }

  static final FieldOptions PCODEC = options("compression", "pcodec");

  static NumberType type(int bits) {
    return bits == 16 ? NumberType.F16 : bits == 32 ? NumberType.F32 : NumberType.F64;
  }

  /** {@code raw} as a little-endian fixed-width block of {@code bits}. */
  static DataBlock.FixedWidth leaf(long[] raw, int bits) {
    int w = bits / 8;
    byte[] d = new byte[raw.length * w];
    for (int i = 0; i < raw.length; i++) {
      LittleEndian.putUnsigned(d, i * w, w, raw[i]);
    }
    return new DataBlock.FixedWidth(d, bits, raw.length);
  }

  /** Rows of {@code dims} (outer to inner) over a leaf of rows·Πdims numbers. */
  static DataBlock lists(DataBlock.FixedWidth leaf, long rows, long... dims) {
    DataBlock b = leaf;
    long below = 1;
    for (int k = dims.length - 1; k >= 0; k--) {
      below *= dims[k];
      b = new DataBlock.FixedSizeList(b, dims[k], leaf.numValues() / below);
    }
    assertEquals(rows, b.numValues());
    return b;
  }

  static byte[] leafBytes(DataBlock b) {
    while (b instanceof DataBlock.FixedSizeList f) {
      b = f.child();
    }
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) b;
    return Arrays.copyOf(fw.data(), fw.usedBytes());
  }

  /** Every chunk decoded and concatenated, the chunk value counts checked against the page metadata rules. */
  static byte[] decodeAll(MiniBlockCompressed c) {
    MiniBlockDecompressor d = REGISTRY.decoders().miniBlock(c.encoding());
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int pos = 0;
    long seen = 0;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      int n = (int) (k == c.chunks().size() - 1 ? c.numValues() - seen : 1L << ch.logNumValues());
      byte[] b = Arrays.copyOfRange(c.buffers().get(0), pos, pos + ch.bufferSizes()[0]);
      pos += ch.bufferSizes()[0];
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) d.decompress(MiniBlockBuffers.of(b), n, null);
      out.write(fw.data(), 0, fw.usedBytes());
      seen += n;
    }
    assertEquals(c.numValues(), seen);
    return out.toByteArray();
  }

  static MiniBlockCompressed compress(DataBlock b, int level) {
    return new PcodecMiniBlock.Compressor(level, MiniBlocks.MAX_VALUES).compress(b);
  }

  @Test
  void bareLeavesRoundTripBitExactly() {
    for (int bits : new int[] {16, 32, 64}) {
      for (String shape : TestData.SHAPES) {
        for (int n : new int[] {1, 2, 3, 4096, 4097, 10_000}) {
          long[] raw = TestData.generate(type(bits), shape, n, 17L * n + bits);
          DataBlock.FixedWidth b = leaf(raw, bits);
          MiniBlockCompressed c = compress(b, Pco.DEFAULT_LEVEL);
          assertEquals("pcodec(flat(" + bits + "))", REGISTRY.decoders().describe(c.encoding()).toString());
          assertArrayEquals(leafBytes(b), decodeAll(c), bits + " " + shape + " " + n);
        }
      }
    }
  }

  @Test
  void fixedSizeListsRoundTripInItemMajorChunks() {
    SplittableRandom rnd = new SplittableRandom(5);
    int[][] shapes = {{1}, {2}, {3}, {17}, {768}, {2, 3}, {4, 1, 5}};
    for (int bits : new int[] {16, 32, 64}) {
      for (int[] dims : shapes) {
        long d = Arrays.stream(dims).asLongStream().reduce(1, (a, x) -> a * x);
        for (int rows : new int[] {1, 2, 37, 1000}) {
          String shape = TestData.SHAPES[rnd.nextInt(TestData.SHAPES.length)];
          long[] raw = TestData.generate(type(bits), shape, (int) (rows * d), rows * 31L + d);
          long[] dimsL = Arrays.stream(dims).asLongStream().toArray();
          DataBlock b = lists(leaf(raw, bits), rows, dimsL);
          MiniBlockCompressed c = compress(b, Pco.DEFAULT_LEVEL);
          assertArrayEquals(leafBytes(b), decodeAll(c), bits + " " + Arrays.toString(dims) + " " + rows + " " + shape);
          int per = PcodecMiniBlock.rowsPerChunk(d * bits / 8, MiniBlocks.MAX_VALUES);
          assertEquals((rows + per - 1) / per, c.chunks().size());
        }
      }
    }
  }

  @Test
  void transposeIsItemMajorPerChunk() {
    // two rows of three f32 items: the pco file holds item 0 of both rows, then item 1, then item 2
    long[] raw = new long[6];
    for (int i = 0; i < 6; i++) {
      raw[i] = Float.floatToRawIntBits(i + 1f) & 0xFFFFFFFFL;
    }
    MiniBlockCompressed c = compress(lists(leaf(raw, 32), 2, 3), 8);
    float[] file = Pco.decompressF32(c.buffers().get(0), 0, c.chunks().get(0).bufferSizes()[0]);
    assertArrayEquals(new float[] {1, 4, 2, 5, 3, 6}, file);
  }

  @Test
  void descriptorBytes() {
    // 8a01: CompressiveEncoding.pcodec (field 17), 06 bytes; 0a04: Pcodec.values; 0a02 0820: flat{32}
    assertEquals("8a01060a040a020820", java.util.HexFormat.of().formatHex(
        new PcodecMiniBlock.Shape(new long[0], 32).encoding().toByteArray()));
    assertEquals("pcodec(fixed_size_list(768, flat(16)))",
        REGISTRY.decoders().describe(new PcodecMiniBlock.Shape(new long[] {768}, 16).encoding()).toString());
  }

  @Test
  void chunksHoldThirtyTwoKibibytesOfValuesAtMost() {
    assertEquals(4096, PcodecMiniBlock.rowsPerChunk(4, 4096));
    assertEquals(4096, PcodecMiniBlock.rowsPerChunk(8, 4096));
    assertEquals(8192, PcodecMiniBlock.rowsPerChunk(4, 1 << 15));
    assertEquals(4096, PcodecMiniBlock.rowsPerChunk(8, 1 << 15));
    assertEquals(8, PcodecMiniBlock.rowsPerChunk(768 * 4, 4096));
    assertEquals(16, PcodecMiniBlock.rowsPerChunk(768 * 2, 4096));
    assertEquals(8, PcodecMiniBlock.rowsPerChunk(3000, 4096));
    // rows over 16 KiB: never fewer than two per chunk
    assertEquals(2, PcodecMiniBlock.rowsPerChunk(5000 * 8, 4096));
    assertEquals(2, PcodecMiniBlock.rowsPerChunk(20_000, 4096));
    assertEquals(2, PcodecMiniBlock.rowsPerChunk(16 * 1024, 4096));
    // LANCE_MINIBLOCK_MAX_VALUES caps it, rounded down to a power of two
    assertEquals(512, PcodecMiniBlock.rowsPerChunk(4, 1000));

    long[] raw = TestData.generate(NumberType.F64, "walk", 10_001, 3);
    MiniBlockCompressed c = compress(leaf(raw, 64), 8);
    assertEquals(3, c.chunks().size());
    assertEquals(12, c.chunks().get(0).logNumValues());
    assertEquals(12, c.chunks().get(1).logNumValues());
    assertEquals(0, c.chunks().get(2).logNumValues());
  }

  @Test
  void everyLevelRoundTrips() {
    for (int bits : new int[] {16, 32, 64}) {
      long[] raw = TestData.generate(type(bits), "decimals", 5000, bits);
      DataBlock.FixedWidth b = leaf(raw, bits);
      for (int level = 0; level <= 12; level++) {
        assertArrayEquals(leafBytes(b), decodeAll(compress(b, level)), bits + " level " + level);
      }
    }
  }

  @Test
  void integerWordsRoundTripAsFloatBits() {
    // the block does not say its words are floats: any bits must survive, NaN patterns included
    SplittableRandom rnd = new SplittableRandom(11);
    for (int bits : new int[] {16, 32, 64}) {
      long[] raw = new long[9000];
      for (int i = 0; i < raw.length; i++) {
        raw[i] = rnd.nextLong() & type(bits).mask;
      }
      DataBlock.FixedWidth b = leaf(raw, bits);
      assertArrayEquals(leafBytes(b), decodeAll(compress(b, 8)), "bits " + bits);
    }
  }

  static double[][] co2() throws IOException {
    List<double[]> rows = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        PcodecPluginTest.class.getResourceAsStream("/real/co2-concentration.csv"), StandardCharsets.UTF_8))) {
      r.readLine();
      for (String line; (line = r.readLine()) != null;) {
        String[] f = line.split(",");
        rows.add(new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2])});
      }
    }
    return rows.toArray(new double[0][]);
  }

  @Test
  void realSeriesAreChosenWhenAskedAndRoundTrip() throws IOException {
    double[][] co2 = co2();
    long[] f64 = new long[co2.length];
    long[] f32 = new long[co2.length];
    long[] pairs = new long[2 * co2.length];
    for (int i = 0; i < co2.length; i++) {
      f64[i] = Double.doubleToRawLongBits(co2[i][0]);
      f32[i] = Float.floatToRawIntBits((float) co2[i][0]) & 0xFFFFFFFFL;
      pairs[2 * i] = Float.floatToRawIntBits((float) co2[i][0]) & 0xFFFFFFFFL;
      pairs[2 * i + 1] = Float.floatToRawIntBits((float) co2[i][1]) & 0xFFFFFFFFL;
    }
    DataBlock[] blocks = {leaf(f64, 64), leaf(f32, 32), lists(leaf(pairs, 32), co2.length, 2)};
    String[] expected = {"pcodec(flat(64))", "pcodec(flat(32))", "pcodec(fixed_size_list(2, flat(32)))"};
    for (int k = 0; k < blocks.length; k++) {
      MiniBlockCompressed c = CTX.compressMiniBlock(blocks[k], PCODEC);
      assertEquals(expected[k], CTX.describe(c.encoding()).toString());
      assertArrayEquals(leafBytes(blocks[k]), decodeAll(c));
      assertTrue(c.buffers().get(0).length < leafBytes(blocks[k]).length * 0.6, expected[k] + ": " + c.buffers().get(0).length);
      // not asked: never pcodec
      assertFalse(CTX.describe(CTX.compressMiniBlock(blocks[k], FieldOptions.DEFAULT).encoding()).toString().contains("pcodec"));
    }
  }

  @Test
  void listsWithNullItemsAreLeftToFlat() {
    long[] raw = TestData.generate(NumberType.F32, "walk", 3000, 1);
    byte[] validity = new byte[3000 / 8 + 1];
    Arrays.fill(validity, (byte) 0xFF);
    validity[7] = (byte) 0xF7;
    DataBlock b = new DataBlock.FixedSizeList(new DataBlock.Nullable(leaf(raw, 32), validity), 3, 1000);
    assertTrue(PcodecMiniBlock.Shape.of(b) == null);
    MiniBlockCompressed c = CTX.compressMiniBlock(b, PCODEC);
    assertFalse(CTX.describe(c.encoding()).toString().contains("pcodec"), CTX.describe(c.encoding()).toString());
    // 8-bit leaves are no pcodec number type here either
    assertTrue(PcodecMiniBlock.Shape.of(new DataBlock.FixedWidth(new byte[10], 8, 10)) == null);
  }

  @Test
  void levelOutsideZeroToTwelveIsInvalidArgument() {
    long[] raw = TestData.generate(NumberType.F32, "walk", 100, 1);
    for (String level : new String[] {"-1", "13", "22"}) {
      LanceCodecException e = assertThrows(LanceCodecException.class,
          () -> CTX.compressMiniBlock(leaf(raw, 32), options("compression", "pcodec", "compression-level", level)));
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
      assertTrue(e.getMessage().contains("lance-encoding:compression-level"), e.getMessage());
    }
    CTX.compressMiniBlock(leaf(raw, 32), options("compression", "pcodec", "compression-level", "0"));
    CTX.compressMiniBlock(leaf(raw, 32), options("compression", "pcodec", "compression-level", "12"));
  }

  @Test
  void fullZipAndDictionaryValuesWithPcodecAreInvalidArgument() {
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> options("compression", "pcodec", "structural-encoding", "fullzip"));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
    assertTrue(e.getMessage().contains("structural-encoding=fullzip"), e.getMessage());
    assertTrue(PCODEC.chunkedCompression());
    assertFalse(options("compression", "none").chunkedCompression());
    assertFalse(FieldOptions.DEFAULT.chunkedCompression());
    assertTrue(options("compression", "pcodec", "structural-encoding", "sparse").chunkedCompression());
    LanceCodecException d = assertThrows(LanceCodecException.class, () -> options("dict-values-compression", "pcodec"));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, d.kind());
    assertTrue(d.getMessage().contains("dict-values-compression=pcodec"), d.getMessage());
  }

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding pcodec(CompressiveEncoding values) {
    Pcodec.Builder p = Pcodec.newBuilder();
    if (values != null) {
      p.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setPcodec(p).build();
  }

  static CompressiveEncoding fsl(long d, boolean validity, CompressiveEncoding values) {
    return CompressiveEncoding.newBuilder()
        .setFixedSizeList(FixedSizeList.newBuilder().setItemsPerValue(d).setHasValidity(validity).setValues(values)).build();
  }

  static void assertCorrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void malformedDescriptorsAreCorrupt() {
    List<CompressiveEncoding> bad = List.of(
        pcodec(null),
        pcodec(flat(8)),
        pcodec(flat(0)),
        pcodec(flat(128)),
        pcodec(flat(-32)),
        pcodec(fsl(3, true, flat(32))),
        pcodec(fsl(0, false, flat(32))),
        pcodec(fsl(-1, false, flat(32))),
        pcodec(fsl(1L << 40, false, flat(32))),
        pcodec(fsl(1 << 13, false, fsl(1 << 13, false, flat(64)))),
        pcodec(CompressiveEncoding.newBuilder().setVariable(Variable.newBuilder().setOffsets(flat(32))).build()),
        pcodec(pcodec(flat(32))),
        pcodec(CompressiveEncoding.getDefaultInstance()));
    for (CompressiveEncoding e : bad) {
      assertCorrupt(() -> REGISTRY.decoders().miniBlock(e));
    }
    CompressiveEncoding deep = flat(32);
    for (int i = 0; i < 17; i++) {
      deep = fsl(1, false, deep);
    }
    CompressiveEncoding tooDeep = pcodec(deep);
    assertCorrupt(() -> REGISTRY.decoders().miniBlock(tooDeep));
  }

  @Test
  void damagedChunksAreOneCorruptLine() {
    SplittableRandom rnd = new SplittableRandom(23);
    for (int bits : new int[] {16, 32, 64}) {
      for (String shape : new String[] {"walk", "decimals", "special", "runs"}) {
        long[] raw = TestData.generate(type(bits), shape, 600, bits + shape.length());
        DataBlock b = lists(leaf(raw, bits), 200, 3);
        MiniBlockCompressed c = compress(b, 8);
        byte[] good = c.buffers().get(0);
        MiniBlockDecompressor d = REGISTRY.decoders().miniBlock(c.encoding());
        // wrong counts, either way
        assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(good), 199, null));
        assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(good), 201, null));
        assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(good, new byte[0]), 200, null));
        for (int len = 0; len < good.length; len += Math.max(1, good.length / 97)) {
          byte[] cut = Arrays.copyOf(good, len);
          assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(cut), 200, null));
        }
        for (int k = 0; k < 300; k++) {
          byte[] bad = good.clone();
          int flips = 1 + rnd.nextInt(3);
          for (int f = 0; f < flips; f++) {
            bad[rnd.nextInt(bad.length)] ^= (byte) (1 << rnd.nextInt(8));
          }
          try {
            d.decompress(MiniBlockBuffers.of(bad), 200, null);
          } catch (LanceCodecException e) {
            assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
          }
        }
      }
    }
  }

  @Test
  void rangesDecodeIntoTheCallersArray() {
    long[] raw = TestData.generate(NumberType.F64, "walk", 3 * 500, 9);
    DataBlock b = lists(leaf(raw, 64), 500, 3);
    MiniBlockCompressed c = compress(b, 8);
    FixedWidthMiniBlockDecompressor d = (FixedWidthMiniBlockDecompressor) REGISTRY.decoders().miniBlock(c.encoding());
    assertEquals(3 * 64, d.bitsPerValue());
    byte[] all = leafBytes(b);
    byte[] dst = new byte[24 * 10 + 5];
    d.decodeInto(MiniBlockBuffers.of(c.buffers().get(0)), 500, 123, 133, dst, 5);
    assertArrayEquals(Arrays.copyOfRange(all, 123 * 24, 133 * 24), Arrays.copyOfRange(dst, 5, dst.length));
  }

  @Test
  void theV22RegistryNeverOffersPcodec() {
    RuntimeLayoutContext ctx22 = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_2, b -> 0L);
    long[] raw = TestData.generate(NumberType.F64, "decimals", 5000, 9);
    MiniBlockCompressed c = ctx22.compressMiniBlock(leaf(raw, 64), PCODEC);
    assertFalse(c.encoding() instanceof CompressiveEncoding);
    assertFalse(ctx22.describe(c.encoding()).toString().contains("pcodec"));
  }
}
