package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * codec-bitpack's 2.3 mini-block chunks and level blocks through the real registry: the runtime
 * picks them where 2.2 picks their 2.2 forms (same bytes, same inspect text), every chunk and
 * every level slice decodes back, and the level forms stay out of generic unsigned blocks.
 */
class Bitpack23RegistryTest {
  static final RuntimeLayoutContext CTX = G23.CTX;
  static final RuntimeLayoutContext CTX22 = Builtin23Test.CTX22;

  @Test
  void miniBlocksAreChosenAsIn22() {
    Map<String, DataBlock.FixedWidth> blocks = new java.util.TreeMap<>();
    blocks.put("bitpack(32)", Codec23.ints(32, 5000, 1, 13));
    blocks.put("bitpack(8)", Codec23.ints(8, 3000, 2, 5));
    blocks.put("bitpack(16)", Codec23.ints(16, 5000, 3, 5));
    blocks.put("rle(flat(32), flat(8))", Codec23.runs(32, 10_000, 4, 500));
    blocks.put("rle(flat(64), flat(8))", Codec23.runs(64, 9000, 5, 40));
    blocks.put("flat(64)", Codec23.ints(64, 3000, 6, 64));
    for (var e : blocks.entrySet()) {
      MiniBlockCompressed c23 = CTX.compressMiniBlock(e.getValue(), FieldOptions.DEFAULT);
      MiniBlockCompressed c22 = CTX22.compressMiniBlock(e.getValue(), FieldOptions.DEFAULT);
      assertEquals(e.getKey(), CTX.describe(c23.encoding()).toString());
      assertEquals(CTX22.describe(c22.encoding()).toString(), CTX.describe(c23.encoding()).toString());
      Builtin23Test.sameChunks(c22, c23, e.getKey());
      Codec23.assertAll23(c23.encoding());
      List<String> chunks = Codec23.decodeChunks(c23, CTX.miniBlock(c23.encoding()), false);
      assertEquals(Codec23.decodeChunks(c22, CTX22.miniBlock(c22.encoding()), false), chunks, e.getKey());
      assertEquals(chunks, Codec23.decodeChunks(c23, CTX.miniBlock(c23.encoding()), true), e.getKey() + " with reused buffers");
    }
  }

  static DataBlock.FixedWidth levels(short[] v) {
    byte[] out = new byte[2 * v.length];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putShort(out, 2 * i, v[i]);
    }
    return new DataBlock.FixedWidth(out, 16, v.length);
  }

  /**
   * Repetition and definition levels (u16) get the 2.2 block forms under 2.3 messages, chosen on
   * the whole page's levels and applied to each chunk's slice, as the mini-block encoder does.
   */
  @Test
  void levelsGetTheNarrowForms() {
    Random rnd = new Random(31);
    Map<String, short[]> pages = new java.util.LinkedHashMap<>();
    short[] bits = new short[9000];
    for (int i = 0; i < bits.length; i++) {
      bits[i] = (short) rnd.nextInt(4);
    }
    pages.put("bitpack-ool(16, flat(2))", bits);
    short[] runs = new short[9000];
    for (int i = 0; i < runs.length; i++) {
      runs[i] = (short) (i / 2000);
    }
    pages.put("rle(flat(16), flat(8))", runs);
    short[] mixed = new short[4096];
    for (int i = 0; i < mixed.length; i++) {
      mixed[i] = (short) (i < 3072 ? rnd.nextInt(2) : rnd.nextInt(3000));
    }
    pages.put("bitpack(16)", mixed);
    short[] wide = new short[3000];
    for (int i = 0; i < wide.length; i++) {
      wide[i] = (short) rnd.nextInt();
    }
    pages.put("flat(16)", wide);
    for (var e : pages.entrySet()) {
      short[] page = e.getValue();
      BlockCompressor c = CTX.levelsFor(levels(page));
      for (int from = 0; from < page.length; from += 1500) {
        int to = Math.min(page.length, from + 1500);
        short[] slice = java.util.Arrays.copyOfRange(page, from, to);
        Encoded<byte[]> r = c.compress(levels(slice));
        assertEquals(e.getKey(), CTX.describe(r.encoding()).toString());
        Codec23.assertAll23(r.encoding());
        short[] back = new short[slice.length + 1];
        CTX.block(r.encoding()).decompressLevels(r.data(), 0, r.data().length, slice.length, back, 1);
        assertArrayEquals(slice, java.util.Arrays.copyOfRange(back, 1, back.length), e.getKey() + " from " + from);
      }
    }
  }

  /** The 16-bit forms are no generic unsigned blocks: a container of u32 or u64 refuses them by width. */
  @Test
  void levelFormsAreNotGenericBlocks() {
    for (var e : List.of(G23.rle(G23.flat(16), G23.flat(8)), G23.inline(16), G23.ool(16, 3), G23.flat(16))) {
      for (int bits : new int[] {32, 64}) {
        G23.corrupt(() -> CTX.unsignedBlock(e, bits));
      }
    }
    // and the generic RLE keeps its u32 run lengths: 8-bit lengths over 32-bit values are refused
    G23.corrupt(() -> CTX.unsignedBlock(G23.rle(G23.flat(32), G23.flat(8)), 32));
  }
}
