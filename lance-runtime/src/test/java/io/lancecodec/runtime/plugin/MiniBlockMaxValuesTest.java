package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * LANCE_MINIBLOCK_MAX_VALUES in every version: no chunk of the codecs on this class path (flat,
 * booleans, variable, fixed-size lists, RLE) holds more values than asked, the chunks
 * decode to the same values as the default's, bit-packing (1024-value chunks) steps aside below
 * 1024, and bad values fail with one INVALID_ARGUMENT naming the variable.
 */
class MiniBlockMaxValuesTest {
  static final Map<FileVersion, RuntimeLayoutContext> CONTEXTS = Map.of(
      FileVersion.V2_1, new RuntimeLayoutContext(G23.REGISTRY, FileVersion.V2_1, b -> 0L),
      FileVersion.V2_2, Builtin23Test.CTX22,
      FileVersion.V2_3, G23.CTX);

  static Map<String, DataBlock> blocks() {
    Map<String, DataBlock> m = new LinkedHashMap<>();
    m.put("random int32", Codec23.ints(32, 20_000, 1, 32));
    m.put("narrow int32", Codec23.ints(32, 20_000, 2, 9));
    m.put("runs int64", Codec23.runs(64, 20_000, 3, 700));
    m.put("int16", Codec23.ints(16, 20_000, 4, 16));
    m.put("booleans", Codec23.bools(20_000, 5));
    m.put("short strings", Codec23.strings(20_000, 32, 3, 6));
    m.put("empty strings", Codec23.strings(20_000, 32, 0, 7));
    m.put("fsl with validity", Codec23.lists(6000, new long[] {3}, new boolean[] {true}, 32, 8));
    m.put("fsl of bytes", Codec23.lists(6000, new long[] {4}, new boolean[] {false}, 8, 9));
    return m;
  }

  static FieldOptions max(int values) {
    return FieldOptions.builder().miniBlockMaxValues(values).build();
  }

  /** Each chunk's value count: 2^log for all but the last, the rest for the last. */
  static long[] counts(MiniBlockCompressed c) {
    List<MiniBlockChunk> chunks = c.chunks();
    long[] out = new long[chunks.size()];
    long seen = 0;
    for (int i = 0; i < out.length; i++) {
      out[i] = i == out.length - 1 ? c.numValues() - seen : 1L << chunks.get(i).logNumValues();
      seen += out[i];
    }
    return out;
  }

  /** The chunks' decoded values as one text, without the per-chunk counts. */
  static String values(MiniBlockCompressed c, RuntimeLayoutContext ctx) {
    StringBuilder sb = new StringBuilder();
    for (String chunk : Codec23.decodeChunks(c, ctx.miniBlock(c.encoding()), false)) {
      sb.append(chunk, chunk.lastIndexOf(':') + 1, chunk.length());
    }
    return sb.toString();
  }

  @Test
  void noChunkHoldsMoreThanAsked() {
    for (var v : CONTEXTS.entrySet()) {
      RuntimeLayoutContext ctx = v.getValue();
      for (var b : blocks().entrySet()) {
        String expected = values(ctx.compressMiniBlock(b.getValue(), FieldOptions.DEFAULT), ctx);
        for (int max : new int[] {8, 100, 256, 1024, 32_768}) {
          String what = v.getKey() + " " + b.getKey() + " max " + max;
          MiniBlockCompressed c = ctx.compressMiniBlock(b.getValue(), max(max));
          long[] counts = counts(c);
          for (long n : counts) {
            assertTrue(n >= 1 && n <= max, what + ": a chunk of " + n + " values");
          }
          assertEquals(expected, values(c, ctx), what);
          if (max < 1024) {
            // inline bit-packing of the values; a generic offset block (bitpack-ool) is not chunked
            assertFalse(ctx.describe(c.encoding()).toString().startsWith("bitpack("), what + ": " + ctx.describe(c.encoding()));
          }
        }
      }
    }
  }

  @Test
  void aSmallerBoundCutsMoreChunks() {
    for (var v : CONTEXTS.entrySet()) {
      RuntimeLayoutContext ctx = v.getValue();
      DataBlock runs = Codec23.runs(64, 20_000, 3, 20_000);
      // one long run: RLE chunks stop only at the bound
      assertEquals(5, ctx.compressMiniBlock(runs, FieldOptions.DEFAULT).chunks().size(), v.getKey() + " default");
      assertEquals(79, ctx.compressMiniBlock(runs, max(256)).chunks().size(), v.getKey() + " 256");
      assertEquals(1, ctx.compressMiniBlock(runs, max(32_768)).chunks().size(), v.getKey() + " 32768");
      DataBlock bools = Codec23.bools(20_000, 5);
      assertEquals(20_000 / 64 + 1, ctx.compressMiniBlock(bools, max(64)).chunks().size(), v.getKey() + " booleans");
    }
  }

  @Test
  void badValuesFailWithOneClearError() {
    for (String bad : new String[] {"0", "-5", "7", "32769", "4k", ""}) {
      LanceCodecException e = assertThrows(LanceCodecException.class,
          () -> WriterOptions.defaults().withEnvironment(Map.of("LANCE_MINIBLOCK_MAX_VALUES", bad)), bad);
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), bad);
      assertTrue(e.getMessage().contains("LANCE_MINIBLOCK_MAX_VALUES"), e.getMessage());
    }
    assertThrows(LanceCodecException.class, () -> max(40_000));
  }

  @Test
  void theEnvironmentReachesEveryField() {
    OptionsParser parser = new OptionsParser(G23.REGISTRY, Map.of("LANCE_MINIBLOCK_MAX_VALUES", " 512 "));
    assertEquals(512, parser.parse(Map.of(), "x").miniBlockMaxValues());
    assertEquals(FieldOptions.DEFAULT.miniBlockMaxValues(),
        new OptionsParser(G23.REGISTRY, Map.of()).parse(Map.of(), "x").miniBlockMaxValues());
    assertEquals("{LANCE_MINIBLOCK_MAX_VALUES=512}", parser.parse(Map.of(), "x").toString());
  }
}
