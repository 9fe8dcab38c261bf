package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.BufferCompression;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.General;
import io.lancecodec.format.pb.v23.Range;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.Extensions;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * codec-general in 2.3 beyond generic blocks, with the real registry (every plugin of this
 * build): general compression around mini-block chunks (every buffer a frame; one-buffer inner
 * encodings get 2.2's exact frames), byte-stream-split, values compressed one by one, and blocks
 * of any width and of strings; snappy as an extension node; malformed trees and damaged frames one CORRUPT line.
 */
@Timeout(120)
class General23ContextsTest {
  static final Plugins REGISTRY = Plugins.discover(General23ContextsTest.class.getClassLoader());
  static final RuntimeLayoutContext CTX = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_3, b -> 0L);
  static final RuntimeLayoutContext CTX22 = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_2, b -> 0L);

  static FieldOptions options(String... kv) {
    java.util.Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put("lance-encoding:" + kv[i], kv[i + 1]);
    }
    return io.lancecodec.runtime.CodecRegistry.discover().parseOptions(m);
  }

  /** u64 values repeating a period of random ones: general compression sees the repeats, the integer codecs do not. */
  static DataBlock.FixedWidth periodic(int n, int period, long seed) {
    Random rnd = new Random(seed);
    long[] p = new long[period];
    for (int i = 0; i < period; i++) {
      p[i] = rnd.nextLong();
    }
    byte[] d = new byte[8 * n];
    for (int i = 0; i < n; i++) {
      LittleEndian.putLong(d, 8 * i, p[i % period]);
    }
    return new DataBlock.FixedWidth(d, 64, n);
  }

  /** Strings of 3 or 4 letters from a few words: offsets pack to a few bits, the bytes repeat. */
  static DataBlock.VariableWidth words(int n, long seed) {
    String[] pool = {"ant", "bee", "cat", "dove", "emu", "frog", "gnu", "hare"};
    Random rnd = new Random(seed);
    byte[] offsets = new byte[4 * (n + 1)];
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      data.writeBytes(pool[rnd.nextInt(pool.length)].getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      LittleEndian.putInt(offsets, 4 * (i + 1), data.size());
    }
    return new DataBlock.VariableWidth(offsets, 32, data.toByteArray(), n);
  }

  static List<String> decode(MiniBlockCompressed c, MiniBlockDecompressor d, boolean reuse) {
    List<String> out = new ArrayList<>();
    int[] pos = new int[c.buffers().size()];
    long item = 0;
    DecodeBuffers buffers = reuse ? new DecodeBuffers() : null;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      int n = (int) (k == c.chunks().size() - 1 ? c.numValues() - item : 1L << ch.logNumValues());
      byte[][] b = new byte[pos.length][];
      for (int i = 0; i < pos.length; i++) {
        b[i] = java.util.Arrays.copyOfRange(c.buffers().get(i), pos[i], pos[i] + ch.bufferSizes()[i]);
        pos[i] += ch.bufferSizes()[i];
      }
      out.add(text(d.decompress(MiniBlockBuffers.of(b), n, buffers)));
      item += n;
    }
    return out;
  }

  static String text(DataBlock b) {
    if (b instanceof DataBlock.FixedWidth fw) {
      return HexFormat.of().formatHex(fw.data(), 0, fw.usedBytes());
    }
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) b;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < vw.numValues(); i++) {
      sb.append(new String(vw.data(), (int) vw.offset(i), (int) (vw.offset(i + 1) - vw.offset(i)), java.nio.charset.StandardCharsets.ISO_8859_1))
          .append('|');
    }
    return sb.toString();
  }

  /** Over a one-buffer encoding (Flat), 2.3's frames are 2.2's, byte for byte, under 2.3's General. */
  @Test
  void oneBufferFramesAreThe22Frames() {
    DataBlock.FixedWidth fw = periodic(20_000, 300, 1);
    for (String scheme : new String[] {"zstd", "lz4"}) {
      FieldOptions o = options("compression", scheme, "bss", "off");
      MiniBlockCompressed c23 = CTX.compressMiniBlock(fw, o);
      MiniBlockCompressed c22 = CTX22.compressMiniBlock(fw, o);
      assertEquals("general(" + scheme + ", flat(64))", CTX.describe(c23.encoding()).toString());
      assertArrayEquals(c22.buffers().get(0), c23.buffers().get(0), scheme);
      assertEquals(decode(c22, CTX22.miniBlock(c22.encoding()), false), decode(c23, CTX.miniBlock(c23.encoding()), false));
      assertEquals(c23.numValues() * 8, decode(c23, CTX.miniBlock(c23.encoding()), true).stream().mapToLong(String::length).sum() / 2);
    }
    // 52: case 10 (general), 0a 02 08 01: lz4, 12 04 0a 02 08 40: values (field 2 in 2.3) flat{64}
    assertEquals("520a0a02080112040a020840", HexFormat.of().formatHex(
        General23.encoding(Scheme.LZ4, OptionalInt.empty(), 64).toByteArray()));
  }

  /** Two-buffer inner encodings (run values and lengths, generic string offsets and bytes) get both buffers framed. */
  @Test
  void everyBufferIsAFrame() {
    DataBlock.FixedWidth runs = runs(30_000, 2);
    DataBlock.VariableWidth strings = words(40_000, 3);
    for (DataBlock b : List.of(runs, strings)) {
      FieldOptions o = options("compression", "zstd", "bss", "off");
      MiniBlockCompressed c = CTX.compressMiniBlock(b, o);
      CompressiveEncoding e = (CompressiveEncoding) c.encoding();
      assertTrue(e.hasGeneral(), CTX.describe(e).toString());
      assertEquals(2, c.buffers().size(), CTX.describe(e).toString());
      // each chunk's slice of each buffer is one zstd frame
      BufferCodec zstd = Scheme.ZSTD.codec(OptionalInt.empty());
      int[] pos = new int[2];
      for (MiniBlockChunk ch : c.chunks()) {
        for (int k = 0; k < 2; k++) {
          if (ch.bufferSizes()[k] > 0) {
            assertTrue(zstd.declaredLength(c.buffers().get(k), pos[k], ch.bufferSizes()[k], 1 << 20) >= 0);
          }
          pos[k] += ch.bufferSizes()[k];
        }
      }
      List<String> back = decode(c, CTX.miniBlock(e), false);
      assertEquals(back, decode(c, CTX.miniBlock(e), true));
      assertEquals(text(b), String.join("", back));
    }
    FieldOptions o = options("compression", "zstd", "bss", "off");
    assertEquals("general(zstd, rle(flat(32), flat(8)))", CTX.describe(CTX.compressMiniBlock(runs, o).encoding()).toString());
    String s = CTX.describe(CTX.compressMiniBlock(strings, o).encoding()).toString();
    assertTrue(s.startsWith("general(zstd, variable(") && !s.contains("variable(flat("), s);
  }

  static DataBlock.FixedWidth runs(int n, long seed) {
    Random rnd = new Random(seed);
    byte[] d = new byte[4 * n];
    int v = 0;
    for (int i = 0; i < n; i++) {
      if (i % 9 == 0) {
        v = rnd.nextInt(50) * 1_000_003;
      }
      LittleEndian.putInt(d, 4 * i, v);
    }
    return new DataBlock.FixedWidth(d, 32, n);
  }

  /** An empty slice stays empty (no frame): its chunk records 0 bytes and decodes to nothing. */
  @Test
  void emptySlicesStayEmpty() {
    byte[] a = new byte[9000];
    for (int i = 0; i < a.length; i++) {
      a[i] = (byte) (i % 7);
    }
    byte[] b = new byte[] {1, 2, 3};
    List<MiniBlockChunk> chunks = List.of(new MiniBlockChunk(new int[] {4500, 0}, 1), new MiniBlockChunk(new int[] {4500, 3}, 0));
    CompressiveEncoding inner = CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(8)).build();
    MiniBlockCompressed in = new MiniBlockCompressed(List.of(a, b), chunks, 3, inner);
    GeneralMiniBlock.Compressor c = new GeneralMiniBlock.Compressor(
        x -> in, Scheme.LZ4.codec(OptionalInt.empty()), node -> GeneralMiniBlock.wrap23(Scheme.LZ4.describe23(OptionalInt.empty()), node), 32 * 1024);
    MiniBlockCompressed out = c.wrapOrNull(in);
    assertEquals(0, out.chunks().get(0).bufferSizes()[1]);
    assertTrue(out.chunks().get(1).bufferSizes()[1] > 0);
    // an inner decoder that shows the buffers it was handed
    MiniBlockDecompressor show = (chunk, n, reuse) -> {
      byte[] all = new byte[chunk.size(0) + chunk.size(1)];
      System.arraycopy(chunk.bytes(), chunk.offset(0), all, 0, chunk.size(0));
      System.arraycopy(chunk.bytes(), chunk.offset(1), all, chunk.size(0), chunk.size(1));
      return new DataBlock.FixedWidth(all, 8, all.length);
    };
    MiniBlockDecompressor d = GeneralMiniBlock.decompressor(Scheme.LZ4.codec(OptionalInt.empty()), show, true);
    List<String> back = decode(out, d, false);
    assertEquals(HexFormat.of().formatHex(a, 0, 4500), back.get(0));
    assertEquals(HexFormat.of().formatHex(a, 4500, 9000) + "010203", back.get(1));
  }

  @Test
  void byteStreamSplit() {
    Random rnd = new Random(4);
    byte[] d = new byte[4 * 10_000];
    for (int i = 0; i < 10_000; i++) {
      LittleEndian.putInt(d, 4 * i, Float.floatToIntBits(20.0f + rnd.nextInt(500) * 0.25f));
    }
    DataBlock.FixedWidth f32 = new DataBlock.FixedWidth(d, 32, 10_000);
    MiniBlockCompressed c = CTX.compressMiniBlock(f32, options("compression", "zstd", "bss", "on"));
    assertEquals("general(zstd, byte_stream_split(flat(32)))", CTX.describe(c.encoding()).toString());
    assertEquals(text(f32), String.join("", decode(c, CTX.miniBlock(c.encoding()), false)));
    MiniBlockCompressed c22 = CTX22.compressMiniBlock(f32, options("compression", "zstd", "bss", "on"));
    assertArrayEquals(c22.buffers().get(0), c.buffers().get(0));
    // 4a: case 9 (byte_stream_split), 04 0a 02 08 20: values flat{32}
    assertEquals("4a060a040a020820", HexFormat.of().formatHex(ByteStreamSplit.encoding23(32).toByteArray()));
  }

  /** Per value: the asked scheme (lz4 stays lz4 in 2.3; 2.2 keeps the reference's zstd), one frame a value, nulls empty. */
  @Test
  void perValueFrames() {
    int n = 200;
    byte[] offsets = new byte[4 * (n + 1)];
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      if (i % 17 != 5) {
        data.writeBytes(("value " + i + " ").repeat(50).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      }
      LittleEndian.putInt(offsets, 4 * (i + 1), data.size());
    }
    DataBlock.VariableWidth vw = new DataBlock.VariableWidth(offsets, 32, data.toByteArray(), n);
    for (String scheme : new String[] {"lz4", "zstd"}) {
      Ctx ctx = new Ctx(options("compression", scheme), new io.lancecodec.spi.Stats.VariableWidth(n, 32, vw.data().length, 2000));
      Encoded<DataBlock> r = new GeneralPlugin().proposePerValue(vw, ctx).orElseThrow().result();
      assertEquals("general(" + scheme + (scheme.equals("zstd") ? " 0" : "") + ", variable(flat(32)))", CTX.describe(r.encoding()).toString());
      assertEquals(text(vw), text(CTX.perValue(r.encoding()).decompress(r.data(), null)));
      assertEquals(text(vw), text(CTX.perValue(r.encoding()).decompress(r.data(), new DecodeBuffers())));
    }
  }

  /** Blocks: a page's dictionary items, strings in the 2.2 block form or fixed-width of any width, one frame. */
  @Test
  void dictionaryItemBlocks() {
    DataBlock.VariableWidth items = words(3000, 5);
    Encoded<byte[]> s = CTX.compressBlock(items, options("compression", "lz4"));
    assertEquals("general(lz4, variable(flat(32)))", CTX.describe(s.encoding()).toString());
    assertEquals(text(items), text(CTX.block(s.encoding()).decompress(s.data(), 3000)));
    byte[] raw = CTX.compressBlock(items, FieldOptions.DEFAULT).data();
    assertArrayEquals(raw, Scheme.LZ4.codec(OptionalInt.empty()).decompress(s.data(), 0, s.data().length, 1 << 20),
        "one frame of the 2.2 variable block");
    DataBlock.FixedWidth wide = new DataBlock.FixedWidth(periodic(2000, 10, 6).data(), 128, 1000);
    Encoded<byte[]> w = CTX.compressBlock(wide, options("compression", "zstd"));
    assertEquals("general(zstd, flat(128))", CTX.describe(w.encoding()).toString());
    assertEquals(text(wide), text(CTX.block(w.encoding()).decompress(w.data(), 1000)));
    G.corrupt(() -> CTX.block(w.encoding()).decompress(w.data(), 999));
    // a generic container takes General(Flat) only
    G.corrupt(() -> CTX.unsignedBlock(s.encoding(), 32));
  }

  /** Snappy, which 2.3's grammar lacks, frames mini-blocks and values under its extension node. */
  @Test
  void snappyIsAnExtensionNodeIn23() {
    FieldOptions snappy = options("compression", "snappy");
    MiniBlockCompressed m = CTX.compressMiniBlock(periodic(5000, 10, 7), snappy);
    CompressiveEncoding node = (CompressiveEncoding) m.encoding();
    assertTrue(node.hasExtension(), node.toString());
    assertEquals(General23.SNAPPY_CODEC, node.getExtension().getCodecId());
    assertEquals(1, node.getExtension().getCodecVersion());
    assertEquals(1, node.getExtension().getChildrenCount());
    GeneralPlugin plugin = new GeneralPlugin();
    DataBlock words = words(100_000, 8);
    Encoded<DataBlock> pv = plugin.proposePerValue(words, CTX.proposalContext(plugin, words, snappy)).orElseThrow().result();
    assertTrue(((CompressiveEncoding) pv.encoding()).hasExtension(), pv.encoding().toString());
    assertEquals(text(words), text(CTX.perValue(pv.encoding()).decompress(pv.data(), null)));
    // a second child, or frames inside the frames, is a malformed tree
    G.corrupt(() -> CTX.miniBlock(Extensions.node(General23.SNAPPY_CODEC, 1, new byte[0], flat(8), flat(8))));
    G.corrupt(() -> CTX.miniBlock(Extensions.node(General23.SNAPPY_CODEC, 1, new byte[0], node)));
    // another codec's node inside is routed on: here to a plugin this class path lacks
    LanceCodecException foreign = assertThrows(LanceCodecException.class, () -> CTX.miniBlock(
        Extensions.node(General23.SNAPPY_CODEC, 1, new byte[0], Extensions.node("com.example.other", 1, new byte[0]))));
    assertEquals(LanceCodecException.Kind.MISSING_PLUGIN, foreign.kind(), foreign.getMessage());
    assertTrue(foreign.getMessage().contains("needs codec com.example.other"), foreign.getMessage());
    // a newer version of its bytes than this build reads
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> CTX.miniBlock(Extensions.node(General23.SNAPPY_CODEC, 2, new byte[0], flat(8))));
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("version 2") && e.getMessage().contains("versions 1 to 1"), e.getMessage());
    assertTrue(CTX22.compressMiniBlock(periodic(5000, 10, 7), snappy).encoding().toString().contains("LANCE_CODEC_SNAPPY"));
  }

  static CompressiveEncoding general(int scheme, CompressiveEncoding values) {
    General.Builder g = General.newBuilder();
    if (scheme >= 0) {
      g.setCompression(BufferCompression.newBuilder().setSchemeValue(scheme));
    }
    if (values != null) {
      g.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setGeneral(g).build();
  }

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding bss(CompressiveEncoding values) {
    io.lancecodec.format.pb.v23.ByteStreamSplit.Builder b = io.lancecodec.format.pb.v23.ByteStreamSplit.newBuilder();
    if (values != null) {
      b.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setByteStreamSplit(b).build();
  }

  /** 100,000 u16 levels of a random mix of items (1 in 20) and null or empty lists, seeded. */
  private static byte[] randomMixLevels() {
    Random rnd = new Random(47);
    byte[] levels = new byte[2 * 100_000];
    for (int i = 0; i < levels.length / 2; i++) {
      LittleEndian.putShort(levels, 2 * i, (short) (rnd.nextInt(20) == 0 ? 0 : 1 + rnd.nextInt(2)));
    }
    return levels;
  }

  /**
   * A dense page's levels as 2.2 compresses them: above 32 KiB, unasked, zstd level 0 around the
   * bit-packed block when that is smaller (random mixes of null and empty lists), the same bytes
   * as 2.2's frame; each chunk's slice decodes; a damaged frame is CORRUPT.
   */
  @Test
  void largeLevelBlocksAreFramedAsIn22() {
    byte[] levels = randomMixLevels();
    DataBlock.FixedWidth page = new DataBlock.FixedWidth(levels, 16, levels.length / 2);
    DataBlock.FixedWidth slice = new DataBlock.FixedWidth(java.util.Arrays.copyOfRange(levels, 2000, 2000 + 2 * 4096), 16, 4096);
    Encoded<byte[]> e23 = CTX.levelsFor(page).compress(slice);
    Encoded<byte[]> e22 = CTX22.levelsFor(page).compress(slice);
    assertEquals("general(zstd 0, bitpack-ool(16, flat(2)))", CTX.describe(e23.encoding()).toString());
    assertEquals(CTX22.describe(e22.encoding()).toString(), CTX.describe(e23.encoding()).toString());
    assertArrayEquals(e22.data(), e23.data(), "2.2's frame");
    DataBlock.FixedWidth back = (DataBlock.FixedWidth) CTX.block(e23.encoding()).decompress(e23.data(), 4096);
    assertArrayEquals(slice.data(), java.util.Arrays.copyOf(back.data(), back.usedBytes()));
    byte[] bad = e23.data().clone();
    bad[bad.length / 2] ^= 0x5A;
    try {
      DataBlock.FixedWidth got = (DataBlock.FixedWidth) CTX.block(e23.encoding()).decompress(bad, 4096);
      // zstd frames carry no checksum here: a flip in the literals may decode, but never to more or fewer values
      assertEquals(4096, got.numValues());
    } catch (LanceCodecException x) {
      assertEquals(LanceCodecException.Kind.CORRUPT, x.kind(), x.getMessage());
    }
    // levels of 32 KiB and less keep the plain forms
    DataBlock.FixedWidth small = new DataBlock.FixedWidth(java.util.Arrays.copyOf(levels, 2 * 8000), 16, 8000);
    assertTrue(!((CompressiveEncoding) CTX.levelsFor(small).compress(small).encoding()).hasGeneral());
  }

  /**
   * Levels compressed chunk by chunk are judged by the chunk's slice: slices of 32 KiB and less
   * (4,096 levels, the default chunk) keep the plain form whatever the page's size, since every
   * slice's frame costs a decoding call of its own; larger slices (chunks of mostly empty lists)
   * are framed as whole blocks are. 2.2 and 2.3 alike.
   */
  @Test
  void slicedLevelsAreFramedOnlyInLargeSlices() {
    byte[] levels = randomMixLevels();
    DataBlock.FixedWidth page = new DataBlock.FixedWidth(levels, 16, levels.length / 2);
    DataBlock.FixedWidth slice = new DataBlock.FixedWidth(java.util.Arrays.copyOfRange(levels, 2000, 2000 + 2 * 4096), 16, 4096);
    for (RuntimeLayoutContext ctx : List.of(CTX, CTX22)) {
      Encoded<byte[]> chunked = ctx.levelsFor(page, 4096).compress(slice);
      assertEquals("bitpack-ool(16, flat(2))", ctx.describe(chunked.encoding()).toString(), ctx.version().toString());
      Encoded<byte[]> atLimit = ctx.levelsFor(page, 16 * 1024).compress(slice);
      assertEquals("bitpack-ool(16, flat(2))", ctx.describe(atLimit.encoding()).toString(), ctx.version().toString());
      Encoded<byte[]> large = ctx.levelsFor(page, 16 * 1024 + 1).compress(slice);
      assertEquals("general(zstd 0, bitpack-ool(16, flat(2)))", ctx.describe(large.encoding()).toString(), ctx.version().toString());
      DataBlock.FixedWidth back = (DataBlock.FixedWidth) ctx.block(chunked.encoding()).decompress(chunked.data(), 4096);
      assertArrayEquals(slice.data(), java.util.Arrays.copyOf(back.data(), back.usedBytes()));
    }
  }

  @Test
  void malformedTrees() {
    CompressiveEncoding range = CompressiveEncoding.newBuilder()
        .setRange(Range.newBuilder().setUncompressedBitsPerValue(32).setStart(0).setStep(1)).build();
    CompressiveEncoding variable = CompressiveEncoding.newBuilder()
        .setVariable(Variable.newBuilder().setOffsets(flat(32))).build();
    for (Message e : List.of(general(1, general(1, flat(32))), general(1, null), general(-1, flat(32)), general(0, flat(32)),
        bss(null), bss(flat(24)), bss(range), bss(flat(-32)))) {
      G.corrupt(() -> CTX.miniBlock(e));
    }
    for (Message e : List.of(general(2, flat(32)), general(2, range), general(2, null), general(0, variable))) {
      G.corrupt(() -> CTX.perValue(e));
    }
    for (Message e : List.of(general(2, range), general(2, general(2, flat(32))), general(2, null), general(-1, variable))) {
      G.corrupt(() -> CTX.block(e));
    }
    LanceCodecException x = assertThrows(LanceCodecException.class, () -> CTX.miniBlock(general(1000, flat(32))));
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, x.kind(), "a scheme of a later grammar: " + x.getMessage());
  }

  /** Truncated and flipped frames of a two-buffer page never decode to something else silently: CORRUPT or the right values. */
  @Test
  void damagedFramesSweep() {
    DataBlock.FixedWidth r = runs(20_000, 9);
    MiniBlockCompressed c = CTX.compressMiniBlock(r, options("compression", "lz4"));
    MiniBlockDecompressor d = CTX.miniBlock(c.encoding());
    MiniBlockChunk ch = c.chunks().get(0);
    byte[] a = java.util.Arrays.copyOf(c.buffers().get(0), ch.bufferSizes()[0]);
    byte[] b = java.util.Arrays.copyOf(c.buffers().get(1), ch.bufferSizes()[1]);
    int n = 1 << ch.logNumValues();
    String good = text(d.decompress(MiniBlockBuffers.of(a, b), n, null));
    Random rnd = new Random(10);
    int failures = 0;
    for (int k = 0; k < 400; k++) {
      byte[][] parts = {a.clone(), b.clone()};
      int which = rnd.nextInt(2);
      if (k % 2 == 0) {
        parts[which] = java.util.Arrays.copyOf(parts[which], rnd.nextInt(parts[which].length));
      } else {
        parts[which][rnd.nextInt(parts[which].length)] ^= (byte) (1 + rnd.nextInt(255));
      }
      try {
        String got = text(d.decompress(MiniBlockBuffers.of(parts), n, null));
        assertTrue(got.length() == good.length(), "a damaged chunk decoded to another count of values");
      } catch (LanceCodecException e) {
        assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        failures++;
      }
    }
    assertTrue(failures > 200, "damaged frames refused: " + failures);
  }

  /** A 2.3 proposal context with given statistics and no other plugins. */
  record Ctx(FieldOptions options, io.lancecodec.spi.Stats stats) implements io.lancecodec.spi.ProposalContext {
    @Override
    public FileVersion version() {
      return FileVersion.V2_3;
    }

    @Override
    public java.util.Optional<io.lancecodec.spi.Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return java.util.Optional.empty();
    }

    @Override
    public java.util.Optional<io.lancecodec.spi.Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return java.util.Optional.empty();
    }

    @Override
    public java.util.Optional<io.lancecodec.spi.Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return java.util.Optional.empty();
    }
  }

  static final class G {
    static void corrupt(Runnable r) {
      LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
      assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
      assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }
  }
}
