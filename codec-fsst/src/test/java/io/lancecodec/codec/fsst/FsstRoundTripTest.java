package io.lancecodec.codec.fsst;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.Compressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.PerValueDecompressor;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static io.lancecodec.codec.fsst.TestBlocks.assertSameValues;
import static io.lancecodec.codec.fsst.TestBlocks.block;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seeded round trips through the kernels and through both compressors of the plugin. */
class FsstRoundTripTest {
  private final FsstPlugin plugin = new FsstPlugin();

  static Stream<Arguments> kernelCases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 1;
    for (String shape : new String[] {"text", "empty", "binary", "allbytes", "long"}) {
      for (int n : new int[] {0, 1, 2, 7, 8, 9, 100, 1000}) {
        if (shape.equals("long") && n > 9) {
          continue;
        }
        for (int bits : new int[] {32, 64}) {
          out.add(Arguments.of(shape, n, bits, seed++));
        }
      }
    }
    return out.stream();
  }

  /** Learns a table on the values themselves (whatever their size) and round-trips them. */
  @ParameterizedTest(name = "kernel {0} n={1} offsets={2} seed={3}")
  @MethodSource("kernelCases")
  void kernelRoundTrip(String shape, int n, int bits, long seed) {
    List<byte[]> values = TestBlocks.random(shape, n, seed);
    DataBlock.VariableWidth in = block(values, bits);
    SymbolTable table = SymbolTableBuilder.build(SymbolTableBuilder.sample(in));
    DataBlock.VariableWidth codes = new FsstEncoder(table).compress(in);
    assertEquals(bits, codes.bitsPerOffset());
    DataBlock.VariableWidth back = new FsstDecoder(SymbolTable.parse(table.serialize())).decompress(codes);
    assertEquals(bits, back.bitsPerOffset());
    assertSameValues(values, TestBlocks.values(back), "seed " + seed);
  }

  /**
   * Blocks far larger than the decoder's window of code bytes, values of every size mixed (empty,
   * short, and long ones that fill a window alone), with learnt and foreign tables (escapes).
   */
  @ParameterizedTest(name = "large block seed={0}")
  @MethodSource("seeds")
  void largeBlocksSpanManyWindows(long seed) {
    List<byte[]> values = new ArrayList<>();
    java.util.Random rnd = new java.util.Random(seed);
    for (int i = 0; i < 40; i++) {
      String shape = new String[] {"text", "text", "empty", "long", "binary"}[rnd.nextInt(5)];
      values.addAll(TestBlocks.random(shape, shape.equals("long") ? 1 + rnd.nextInt(3) : 1 + rnd.nextInt(400), seed * 100 + i));
    }
    DataBlock.VariableWidth in = block(values, 32);
    for (DataBlock.VariableWidth train : List.of(in, block(TestBlocks.random("text", 300, seed + 7), 32))) {
      SymbolTable table = SymbolTableBuilder.build(SymbolTableBuilder.sample(train));
      DataBlock.VariableWidth codes = new FsstEncoder(table).compress(in);
      assertTrue(codes.offset((int) codes.numValues()) > 4 * 16384, "spans several windows");
      assertSameValues(values, TestBlocks.values(new FsstDecoder(table).decompress(codes)), "seed " + seed);
    }
  }

  /**
   * A block of over 64 KiB of codes is decoded from both ends, the last windows on another core
   * when one is free: decoded again and again (so that the pool thread takes a different share
   * each time), into fresh and into reused arrays, it gives the same values.
   */
  @ParameterizedTest(name = "both ends seed={0}")
  @MethodSource("seeds")
  void largeBlocksDecodeTheSameFromBothEnds(long seed) {
    List<byte[]> values = TestBlocks.random("text", 40_000, seed);
    DataBlock.VariableWidth in = block(values, seed % 2 == 0 ? 32 : 64);
    SymbolTable table = SymbolTableBuilder.build(SymbolTableBuilder.sample(in));
    DataBlock.VariableWidth codes = new FsstEncoder(table).compress(in);
    assertTrue(codes.offset((int) codes.numValues()) > 65536, "over 64 KiB of codes: " + codes.offset((int) codes.numValues()));
    FsstDecoder decoder = new FsstDecoder(table);
    DecodeBuffers reuse = new DecodeBuffers();
    for (int round = 0; round < 40; round++) {
      assertSameValues(values, TestBlocks.values(round % 2 == 0 ? decoder.decompress(codes) : decoder.decompress(codes, reuse)),
          "seed " + seed + " round " + round);
    }
  }

  /** A table learnt on other data: most bytes are escapes, including the escape byte itself. */
  @ParameterizedTest(name = "foreign table seed={0}")
  @MethodSource("seeds")
  void foreignTableEscapes(long seed) {
    DataBlock.VariableWidth train = block(TestBlocks.random("text", 500, seed), 32);
    SymbolTable table = SymbolTableBuilder.build(SymbolTableBuilder.sample(train));
    List<byte[]> values = TestBlocks.random("allbytes", 300, seed + 1000);
    DataBlock.VariableWidth codes = new FsstEncoder(table).compress(block(values, 32));
    assertSameValues(values, TestBlocks.values(new FsstDecoder(table).decompress(codes)), "seed " + seed);
  }

  /**
   * One decoder sizes its output from the previous block's expansion. Blocks that expand 8 times
   * (every code an 8-byte symbol) after blocks of escapes (half a byte per code byte), and back,
   * small and spanning several windows: the guess runs short or long and the values still match.
   */
  @ParameterizedTest(name = "expansion swings seed={0}")
  @MethodSource("seeds")
  void outputSizeGuessFollowsExpansionSwings(long seed) {
    java.util.Random rnd = new java.util.Random(seed);
    byte[] word = "abcdefgh".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    List<byte[]> train = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      train.add(word);
    }
    SymbolTable table = SymbolTableBuilder.build(SymbolTableBuilder.sample(block(train, 32)));
    FsstEncoder encoder = new FsstEncoder(table);
    FsstDecoder decoder = new FsstDecoder(table);
    DecodeBuffers reuse = new DecodeBuffers();
    for (int round = 0; round < 8; round++) {
      boolean wide = round % 2 == 0;
      int n = round < 4 ? 1 + rnd.nextInt(50) : 5_000 + rnd.nextInt(5_000);
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int len = rnd.nextInt(wide ? 12 : 40);
        byte[] v = new byte[wide ? 8 * len : len];
        for (int k = 0; k < v.length; k++) {
          v[k] = wide ? word[k % 8] : (byte) ('0' + rnd.nextInt(10));
        }
        values.add(v);
      }
      DataBlock.VariableWidth codes = encoder.compress(block(values, round % 3 == 0 ? 64 : 32));
      assertSameValues(values, TestBlocks.values(decoder.decompress(codes)), "seed " + seed + " round " + round);
      // the same decoder into arrays reused from round to round, which grow mid-block when the
      // expansion jumps and keep earlier rounds' bytes past the values
      DataBlock.VariableWidth borrowed = decoder.decompress(codes, reuse);
      assertTrue(reuse.holds(borrowed.data()) && reuse.holds(borrowed.offsets()), "decoded into the reused arrays");
      assertSameValues(values, TestBlocks.values(borrowed), "reused, seed " + seed + " round " + round);
    }
  }

  static Stream<Long> seeds() {
    return Stream.of(11L, 12L, 13L, 14L, 15L);
  }

  /** A sub-range of a block (first offset not zero) decodes to the same values. */
  @Test
  void offsetsNeedNotStartAtZero() {
    List<byte[]> values = TestBlocks.random("text", 400, 5);
    DataBlock.VariableWidth in = block(values, 32);
    SymbolTable table = SymbolTableBuilder.build(SymbolTableBuilder.sample(in));
    DataBlock.VariableWidth codes = new FsstEncoder(table).compress(in);
    int from = 100;
    byte[] offs = new byte[(values.size() - from + 1) * 4];
    System.arraycopy(codes.offsets(), from * 4, offs, 0, offs.length);
    DataBlock.VariableWidth slice = new DataBlock.VariableWidth(offs, 32, codes.data(), values.size() - from);
    assertSameValues(values.subList(from, values.size()), TestBlocks.values(new FsstDecoder(table).decompress(slice)), "slice");
  }

  static Stream<Arguments> pageCases() {
    List<Arguments> out = new ArrayList<>();
    for (int n : new int[] {1, 2, 1023, 1024, 1025, 4096, 5000}) {
      for (int bits : new int[] {32, 64}) {
        out.add(Arguments.of(n, bits));
      }
    }
    return out.stream();
  }

  /** Real mail strings, cycled to n values; a single value is made long enough to compress. */
  static List<byte[]> realValues(int n) {
    List<String> real = TestBlocks.realStrings();
    List<String> picked = new ArrayList<>();
    if (n == 1) {
      picked.add(String.join(" ", real.subList(0, 600)));
    } else {
      for (int i = 0; i < n; i++) {
        picked.add(real.get((i * 7) % real.size()));
      }
    }
    return TestBlocks.utf8(picked);
  }

  @ParameterizedTest(name = "mini-block n={0} offsets={1}")
  @MethodSource("pageCases")
  void miniBlockRoundTrip(int n, int bits) {
    List<byte[]> values = realValues(n);
    DataBlock.VariableWidth in = block(values, bits);
    var ctx = TestBlocks.Ctx.of(in, TestBlocks.options("compression", "fsst"));
    MiniBlockCompressed c = plugin.proposeMiniBlock(in, ctx).orElseThrow().compressor().compress(in);
    CompressiveEncoding e = (CompressiveEncoding) c.encoding();
    assertTrue(e.hasFsst() && e.getFsst().getValues().hasVariable(), "fsst over variable: " + e.getCompressionCase());
    assertEquals(bits, e.getFsst().getValues().getVariable().getOffsets().getFlat().getBitsPerValue());
    assertEquals(FsstFormat.TABLE_BYTES, e.getFsst().getSymbolTable().size());
    boolean switchedOn = SymbolTable.parse(e.getFsst().getSymbolTable().toByteArray()).compressed();
    long dataBytes = FsstPage.dataBytes(in);
    assertEquals(dataBytes >= FsstFormat.MIN_COMPRESS_BYTES, switchedOn, "switch follows the 32 KiB rule");
    assertSameValues(values, TestBlocks.decodeChunks(c), "mini-block n=" + n);
  }

  @ParameterizedTest(name = "per-value n={0} offsets={1}")
  @MethodSource("pageCases")
  void perValueRoundTrip(int n, int bits) {
    List<byte[]> values = realValues(n);
    DataBlock.VariableWidth in = block(values, bits);
    var ctx = TestBlocks.Ctx.of(in, TestBlocks.options("compression", "fsst"));
    Compressor<Encoded<DataBlock>> compressor = plugin.proposePerValue(in, ctx).orElseThrow().compressor();
    Encoded<DataBlock> enc = compressor.compress(in);
    PerValueDecompressor dec = TestBlocks.REGISTRY.decoders().perValue(enc.encoding());
    assertSameValues(values, TestBlocks.values(dec.decompress(enc.data(), null)), "per-value n=" + n);
    DecodeBuffers reuse = new DecodeBuffers();
    reuse.data(3 * 1000 * 1000);
    for (int round = 0; round < 2; round++) {
      assertSameValues(values, TestBlocks.values(dec.decompress(enc.data(), reuse)), "per-value into reused arrays n=" + n);
    }
  }

  /** Compressing the same page twice gives the same bytes: sampling has a fixed seed. */
  @Test
  void deterministic() {
    DataBlock.VariableWidth in = block(realValues(5000), 32);
    SymbolTable a = FsstPage.plan(in).table;
    SymbolTable b = FsstPage.plan(block(realValues(5000), 32)).table;
    assertEquals(a, b);
    assertTrue(a.compressed() && a.size() > 100, "a real table: " + a.size() + " symbols");
  }

  /** Real mail text compresses, and the planned estimate is close to the real size. */
  @Test
  void compressesRealStrings() {
    DataBlock.VariableWidth in = block(realValues(5000), 32);
    FsstPage page = FsstPage.plan(in);
    DataBlock.VariableWidth codes = new FsstEncoder(page.table).compress(in);
    long raw = FsstPage.dataBytes(in);
    assertTrue(codes.data().length < raw * 0.7, codes.data().length + " of " + raw);
    assertTrue(Math.abs(page.estimatedDataBytes - codes.data().length) < 0.1 * codes.data().length,
        "estimate " + page.estimatedDataBytes + " vs " + codes.data().length);
  }

  /**
   * A small page (600 values of ~400 bytes of real mail text, mostly message ids, as a full-zip
   * page) gets a well-trained table: learning for 5 generations left it at 0.611 of its raw size,
   * the current 21 at 0.565. The sampling is seeded, so the result is exact from run to run.
   */
  @Test
  void smallPageTableQuality() {
    List<String> real = TestBlocks.realStrings();
    List<String> values = new ArrayList<>();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; values.size() < 600; i++) {
      sb.append(real.get(i % real.size())).append(' ');
      if (sb.length() >= 380) {
        values.add(sb.toString());
        sb.setLength(0);
      }
    }
    DataBlock.VariableWidth in = block(TestBlocks.utf8(values), 32);
    DataBlock.VariableWidth codes = new FsstEncoder(FsstPage.plan(in).table).compress(in);
    long raw = FsstPage.dataBytes(in);
    assertTrue(codes.data().length < raw * 0.59, codes.data().length + " of " + raw);
  }
}
