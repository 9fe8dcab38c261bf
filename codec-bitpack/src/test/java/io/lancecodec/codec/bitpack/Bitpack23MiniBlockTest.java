package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.InlineBitpacking;
import io.lancecodec.format.pb.v23.Range;
import io.lancecodec.format.pb.v23.Rle;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * codec-bitpack's 2.3 mini-block and 8/16-bit block forms: the 2.2 chunks and block bytes under
 * 2.3 descriptors, read with 2.3's exactness (no byte after an inline chunk, runs covering a
 * chunk or block exactly), and every malformed descriptor refused as one CORRUPT line. The same
 * codecs through the real registry are tested in lance-runtime's Bitpack23RegistryTest.
 */
class Bitpack23MiniBlockTest {
  static final BitpackPlugin PLUGIN = new BitpackPlugin();

  /** A proposal context with the runtime's statistics of {@code fw} and no other plugins. */
  record Context(DataBlock.FixedWidth fw, FieldOptions options, FileVersion version, boolean oneChunk) implements ProposalContext {
    Context(DataBlock.FixedWidth fw, FieldOptions options, FileVersion version) {
      this(fw, options, version, false);
    }

    @Override
    public Stats stats() {
      long or = 0;
      long runs = 0;
      int wb = fw.bitsPerValue() / 8;
      for (int i = 0; i < fw.numValues(); i++) {
        long v = LittleEndian.getUnsigned(fw.data(), i * wb, wb);
        or |= v;
        runs += i == 0 || v != LittleEndian.getUnsigned(fw.data(), (i - 1) * wb, wb) ? 1 : 0;
      }
      return new Stats.FixedWidth(fw.numValues(), fw.bitsPerValue(), 64 - Long.numberOfLeadingZeros(or), runs, fw.usedBytes());
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }

  static DataBlock.FixedWidth values(int bits, int n, long seed, String shape) {
    return BitpackRoundTripTest.data(bits, n, shape, seed);
  }

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding rle(CompressiveEncoding values, CompressiveEncoding lengths) {
    Rle.Builder r = Rle.newBuilder();
    if (values != null) {
      r.setValues(values);
    }
    if (lengths != null) {
      r.setRunLengths(lengths);
    }
    return CompressiveEncoding.newBuilder().setRle(r).build();
  }

  static CompressiveEncoding inline(long bits) {
    return CompressiveEncoding.newBuilder().setInlineBitpacking(InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bits)).build();
  }

  static Message node(CompressiveEncoding e) {
    return (Message) e.getField(e.getDescriptorForType().findFieldByNumber(e.getCompressionCase().getNumber()));
  }

  static MiniBlockDecompressor open(CompressiveEncoding e) {
    return PLUGIN.openMiniBlock(node(e), Decoders23.INSTANCE);
  }

  static LanceCodecException corrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    return e;
  }

  /** The same offer in 2.2 and 2.3 (same chunks, same size); only the descriptor is 2.3's. */
  @ParameterizedTest
  @ValueSource(strings = {"small", "runs", "negative"})
  void miniBlockOffersAreThe22Chunks(String shape) {
    long seed = 40;
    for (int bits : new int[] {8, 16, 32, 64}) {
      for (int n : new int[] {1, 1024, 1025, 5000}) {
        DataBlock.FixedWidth fw = values(bits, n, seed++, shape);
        Optional<Proposal<MiniBlockCompressed>> p22 = PLUGIN.proposeMiniBlock(fw, new Context(fw, FieldOptions.DEFAULT, FileVersion.V2_2));
        Optional<Proposal<MiniBlockCompressed>> p23 = PLUGIN.proposeMiniBlock(fw, new Context(fw, FieldOptions.DEFAULT, FileVersion.V2_3));
        assertEquals(p22.isPresent(), p23.isPresent(), shape + " " + bits + " " + n);
        if (p22.isEmpty()) {
          continue;
        }
        MiniBlockCompressed a = p22.get().result();
        MiniBlockCompressed b = p23.get().result();
        assertEquals(p22.get().codec(), p23.get().codec());
        assertEquals(p22.get().estimatedBytes(), p23.get().estimatedBytes());
        for (int k = 0; k < a.buffers().size(); k++) {
          assertArrayEquals(a.buffers().get(k), b.buffers().get(k));
        }
        CompressiveEncoding e = (CompressiveEncoding) b.encoding();
        assertEquals(p23.get().codec().equals("rle") ? rle(flat(bits), flat(8)) : inline(bits), e);
        byte[] decoded = BitpackRoundTripTest.decodeAll(b, open(e), bits);
        assertArrayEquals(java.util.Arrays.copyOf(fw.data(), fw.usedBytes()), decoded, shape + " " + bits + " " + n);
      }
    }
  }

  /** The context of a fixed-size list's leaf: the whole block is one chunk. */
  static Context oneChunk(DataBlock.FixedWidth fw) {
    return new Context(fw, FieldOptions.DEFAULT, FileVersion.V2_3, true);
  }

  /**
   * One chunk of 1025 u8 ones, hand-checked: two groups, each its width word (1) and 128 bytes of
   * 1-bit FastLanes words; the first group all ones, the second only value 0 (bit 0 of byte 0).
   */
  @Test
  void oneChunkOfManyGroupsGolden() {
    byte[] ones = new byte[1025];
    java.util.Arrays.fill(ones, (byte) 1);
    DataBlock.FixedWidth fw = new DataBlock.FixedWidth(ones, 8, 1025);
    Proposal<MiniBlockCompressed> p = PLUGIN.proposeMiniBlock(fw, oneChunk(fw)).orElseThrow();
    MiniBlockCompressed out = p.result();
    assertEquals(1, out.chunks().size());
    byte[] expected = new byte[2 * (1 + 128)];
    expected[0] = 1;
    java.util.Arrays.fill(expected, 1, 129, (byte) 0xFF);
    expected[129] = 1;
    expected[130] = 1;
    assertArrayEquals(expected, out.buffers().get(0));
    assertEquals(inline(8), out.encoding());
    DataBlock back = open(inline(8)).decompress(MiniBlockBuffers.of(out.buffers().get(0)), 1025, null);
    assertArrayEquals(ones, ((DataBlock.FixedWidth) back).data());
    // a byte after the last group, a group cut short, a group missing: each one CORRUPT line
    corrupt(() -> open(inline(8)).decompress(MiniBlockBuffers.of(java.util.Arrays.copyOf(expected, expected.length + 1)), 1025, null));
    corrupt(() -> open(inline(8)).decompress(MiniBlockBuffers.of(java.util.Arrays.copyOf(expected, expected.length - 1)), 1025, null));
    corrupt(() -> open(inline(8)).decompress(MiniBlockBuffers.of(expected), 2049, null));
  }

  /** Any count in one chunk, every width and shape, whole or in ranges; declined where nothing packs. */
  @ParameterizedTest
  @ValueSource(strings = {"small", "runs", "negative"})
  void oneChunkRoundTrips(String shape) {
    long seed = 90;
    int checked = 0;
    for (int bits : new int[] {8, 16, 32, 64}) {
      for (int n : new int[] {1, 768, 1024, 2048, 3000, 8192}) {
        DataBlock.FixedWidth fw = values(bits, n, seed++, shape);
        Optional<Proposal<MiniBlockCompressed>> p = PLUGIN.proposeMiniBlock(fw, oneChunk(fw));
        if (shape.equals("negative") && n > 1) {
          assertTrue(p.isEmpty(), "negative values fill every bit: no offer");
          continue;
        }
        if (p.isEmpty()) {
          continue;
        }
        MiniBlockCompressed out = p.orElseThrow().result();
        assertEquals(1, out.chunks().size());
        assertEquals(p.get().estimatedBytes(), io.lancecodec.spi.MiniBlocks.pad8(out.buffers().get(0).length));
        io.lancecodec.spi.FixedWidthMiniBlockDecompressor d = (io.lancecodec.spi.FixedWidthMiniBlockDecompressor) open(inline(bits));
        MiniBlockBuffers chunk = MiniBlockBuffers.of(out.buffers().get(0));
        assertArrayEquals(java.util.Arrays.copyOf(fw.data(), fw.usedBytes()), ((DataBlock.FixedWidth) d.decompress(chunk, n, null)).data());
        int from = n / 3;
        int to = Math.min(n, from + 1500);
        byte[] part = new byte[(to - from) * bits / 8];
        d.decodeInto(chunk, n, from, to, part, 0);
        assertArrayEquals(java.util.Arrays.copyOfRange(fw.data(), from * bits / 8, to * bits / 8), part, bits + " x " + n);
        checked++;
      }
    }
    if (!shape.equals("negative")) {
      // every width and count packs narrower for these shapes: all of them were round-tripped
      assertEquals(24, checked, shape);
    }
  }

  /** 2.2's inline chunks stay at most 1024 values: only 2.3 chunks hold several groups. */
  @Test
  void twoPointTwoChunksStayOneGroup() {
    DataBlock.FixedWidth fw = values(32, 2048, 5, "small");
    MiniBlockCompressed out = PLUGIN.proposeMiniBlock(fw, oneChunk(fw)).orElseThrow().result();
    MiniBlockDecompressor v22 = new InlineBitpackingCodec.Decompressor(32);
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> v22.decompress(MiniBlockBuffers.of(out.buffers().get(0)), 2048, null));
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind());
  }

  @Test
  void descriptorGoldens() {
    // 2a: case 5 (inline_bitpacking), 02 08 20: uncompressed_bits_per_value 32
    assertEquals("2a020820", HexFormat.of().formatHex(InlineBitpackingCodec.encoding(32, true).toByteArray()));
    // 42: case 8 (rle) of 0a 04 [0a 02 08 40: values flat{64}], 12 04 [0a 02 08 08: run_lengths flat{8}]
    assertEquals("420c0a040a02084012040a020808", HexFormat.of().formatHex(RleCodec.encoding(64, true).toByteArray()));
    // 22: case 4 (out_of_line_bitpacking): 08 10 bits 16, 12 04 [0a 02 08 03]: values (field 2 in 2.3) flat{3}
    assertEquals("2208081012040a020803", HexFormat.of().formatHex(OutOfLineBitpackingCodec.encoding23(16, 3).toByteArray()));
  }

  /** 2.3 reads what 2.2 tolerates as CORRUPT: a byte after an inline chunk's words, runs past or short of the chunk, empty runs. */
  @Test
  void exactChunks() {
    DataBlock.FixedWidth fw = values(32, 1000, 5, "small");
    byte[] chunk = InlineBitpackingCodec.packChunk(fw.data(), 32, 0, 1000);
    byte[] longer = java.util.Arrays.copyOf(chunk, chunk.length + 1);
    byte[] out = new byte[4000];
    new InlineBitpackingCodec.Decompressor(32).decodeInto(MiniBlockBuffers.of(longer), 1000, 0, 1000, out, 0);
    corrupt(() -> open(inline(32)).decompress(MiniBlockBuffers.of(longer), 1000, null));
    corrupt(() -> ((io.lancecodec.spi.FixedWidthMiniBlockDecompressor) open(inline(32))).decodeInto(MiniBlockBuffers.of(longer), 1000, 3, 9, out, 0));
    assertArrayEquals(java.util.Arrays.copyOf(fw.data(), 4000),
        BitpackRoundTripTest.decodeAll(new InlineBitpackingCodec.Compressor(true).compress(fw), open(inline(32)), 32));

    MiniBlockDecompressor rle = open(rle(flat(16), flat(8)));
    byte[] values = G.u16s(7, 9);
    // 3 + 2 values: exact
    assertEquals(5, rle.decompress(MiniBlockBuffers.of(values, new byte[] {3, 2}), 5, null).numValues());
    // runs past the chunk (2.2's roll-back form): 2.2 reads it, 2.3 does not
    assertEquals(4, new RleCodec.Decompressor(16).decompress(MiniBlockBuffers.of(values, new byte[] {3, 2}), 4, null).numValues());
    corrupt(() -> rle.decompress(MiniBlockBuffers.of(values, new byte[] {3, 2}), 4, null));
    corrupt(() -> rle.decompress(MiniBlockBuffers.of(values, new byte[] {3, 2}), 6, null));
    corrupt(() -> rle.decompress(MiniBlockBuffers.of(values, new byte[] {0, 5}), 5, null));
    corrupt(() -> rle.decompress(MiniBlockBuffers.of(G.u16s(7, 9, 1), new byte[] {3, 2, 0}), 5, null));
    corrupt(() -> rle.decompress(MiniBlockBuffers.of(values, new byte[] {3}), 3, null));
    assertEquals(2 * 4096L, rle.maxBufferBytes(0, 4096));
    assertEquals(4096L, rle.maxBufferBytes(1, 4096));
  }

  /** Each malformed mini-block descriptor is refused when opened. */
  @Test
  void malformedMiniBlockDescriptors() {
    CompressiveEncoding range = CompressiveEncoding.newBuilder()
        .setRange(Range.newBuilder().setUncompressedBitsPerValue(32).setStart(1).setStep(1)).build();
    for (CompressiveEncoding e : List.of(
        inline(12), inline(0), inline(-32),
        rle(null, flat(8)), rle(flat(32), null), rle(range, flat(8)), rle(flat(32), flat(16)), rle(flat(32), flat(32)),
        rle(flat(24), flat(8)), rle(flat(32), inline(8)), range, OutOfLineBitpackingCodec.encoding23(32, 4))) {
      corrupt(() -> open(e));
    }
  }

  /** Levels-like u16 blocks: the smallest of the 2.2 block forms, under 2.3 descriptors, exact sizes; each decodes. */
  @Test
  void narrowBlocks() {
    Random rnd = new Random(12);
    short[][] shapes = new short[6][];
    shapes[0] = new short[3000]; // all zero: out-of-line packing of width 0, no bytes at all
    shapes[1] = new short[3000];
    for (int i = 0; i < 3000; i++) {
      shapes[1][i] = (short) rnd.nextInt(2); // one bit each
    }
    shapes[2] = new short[5000];
    for (int i = 0; i < 5000; i++) {
      shapes[2][i] = (short) (i / 700 % 3); // long runs
    }
    shapes[3] = new short[2048];
    for (int i = 0; i < 2048; i++) {
      shapes[3][i] = (short) (i < 1024 ? rnd.nextInt(2) : rnd.nextInt(1000)); // groups of different widths
    }
    shapes[4] = new short[600];
    java.util.Arrays.fill(shapes[4], (short) 3); // one run: 8 + 3 pieces of 255
    shapes[5] = new short[700];
    for (int i = 0; i < 700; i++) {
      shapes[5][i] = (short) rnd.nextInt(1 << 16); // full width: Flat wins, declined
    }
    String[] expected = {"bitpack-ool", "bitpack-ool", "rle", "bitpack", "rle", null};
    for (int s = 0; s < shapes.length; s++) {
      DataBlock.FixedWidth fw = G.levels(shapes[s]);
      Optional<Proposal<Encoded<byte[]>>> p = PLUGIN.proposeBlock(fw, new Context(fw, FieldOptions.DEFAULT, FileVersion.V2_3));
      assertEquals(expected[s], p.map(Proposal::codec).orElse(null), "shape " + s);
      if (p.isEmpty()) {
        continue;
      }
      Encoded<byte[]> r = p.get().result();
      assertEquals(p.get().estimatedBytes(), r.data().length, "shape " + s + ": an exact size");
      CompressiveEncoding e = (CompressiveEncoding) r.encoding();
      io.lancecodec.spi.BlockDecompressor d = Bitpack23.openBlock(node(e), Decoders23.INSTANCE);
      assertEquals(16, d.bitsPerValue());
      short[] back = new short[shapes[s].length + 2];
      d.decompressLevels(r.data(), 0, r.data().length, shapes[s].length, back, 2);
      assertArrayEquals(shapes[s], java.util.Arrays.copyOfRange(back, 2, back.length), "shape " + s);
      // the page's compressor on a chunk's slice (how levels are written)
      short[] slice = java.util.Arrays.copyOfRange(shapes[s], shapes[s].length / 3, shapes[s].length / 3 + 600);
      Encoded<byte[]> part = p.get().compressor().compress(G.levels(slice));
      assertEquals(e, part.encoding());
      short[] partBack = new short[slice.length];
      Bitpack23.openBlock(node((CompressiveEncoding) part.encoding()), Decoders23.INSTANCE)
          .decompressLevels(part.data(), 0, part.data().length, slice.length, partBack, 0);
      assertArrayEquals(slice, partBack);
      Encoded<byte[]> empty = p.get().compressor().compress(G.levels(new short[0]));
      assertEquals(e, empty.encoding(), "a page without chunks still names its level encoding");
    }
  }

  /** The 2.2 RLE block bytes at 16 bits, read with exact coverage; the generic RLE rules for every other width. */
  @Test
  void narrowRleGolden() {
    DataBlock.FixedWidth fw = G.levels(new short[] {0, 0, 0, 1, 1});
    Encoded<byte[]> r = new RleCodec.Block(true).compress(fw);
    assertEquals(rle(flat(16), flat(8)), r.encoding());
    // u64 value bytes 4, values 0 and 1, lengths 3 and 2
    assertEquals("0400000000000000" + "00000100" + "0302", HexFormat.of().formatHex(r.data()));
    io.lancecodec.spi.BlockDecompressor d = Bitpack23.openBlock(node(rle(flat(16), flat(8))), Decoders23.INSTANCE);
    assertArrayEquals(fw.data(), ((DataBlock.FixedWidth) d.decompress(r.data(), 5)).data());
    corrupt(() -> d.decompress(r.data(), 4)); // runs past the block
    corrupt(() -> d.decompress(r.data(), 6));
    corrupt(() -> d.decompress(HexFormat.of().parseHex("0400000000000000" + "00000100" + "0500"), 5)); // an empty run
    corrupt(() -> d.decompress(HexFormat.of().parseHex("0500000000000000" + "00000100" + "0302"), 5));
    corrupt(() -> d.decompress(new byte[7], 0));
    // 8-bit run lengths belong to 8/16-bit values only: a 32-bit RLE block is the generic one (u32 lengths)
    corrupt(() -> Bitpack23.openBlock(node(rle(flat(32), flat(8))), Decoders23.INSTANCE));
    corrupt(() -> Bitpack23.openBlock(node(rle(flat(16), flat(32))), Decoders23.INSTANCE));
  }

  /** Little-endian helpers. */
  static final class G {
    static byte[] u16s(int... v) {
      byte[] out = new byte[2 * v.length];
      for (int i = 0; i < v.length; i++) {
        LittleEndian.putShort(out, 2 * i, (short) v[i]);
      }
      return out;
    }

    static DataBlock.FixedWidth levels(short[] v) {
      byte[] out = new byte[2 * v.length];
      for (int i = 0; i < v.length; i++) {
        LittleEndian.putShort(out, 2 * i, v[i]);
      }
      return new DataBlock.FixedWidth(out, 16, v.length);
    }
  }
}
