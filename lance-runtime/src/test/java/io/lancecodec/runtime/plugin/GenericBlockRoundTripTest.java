package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.CompressiveEncoding.CompressionCase;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generic unsigned blocks through the runtime's entry points with the real registry (builtin and
 * codec-bitpack): seeded shapes of u32 and u64 round trip, the choice is the smallest offer of all
 * 2.3 plugins, the shapes each codec exists for get that codec, and the writer is deterministic.
 */
class GenericBlockRoundTripTest {
  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 2300;
    for (int bits : new int[] {32, 64}) {
      for (int n : new int[] {1, 2, 5, 1023, 1024, 1025, 5000}) {
        for (String shape : G23.SHAPES) {
          out.add(Arguments.of(bits, n, shape, seed++));
        }
      }
    }
    return out.stream();
  }

  /** Every 2.3 plugin's offer, as the runtime asks for them. */
  static long smallestOffer(DataBlock.FixedWidth fw) {
    long best = Long.MAX_VALUE;
    for (CodecPlugin p : G23.REGISTRY.codecs()) {
      if (p.fileVersions().contains(FileVersion.V2_3)) {
        Optional<Proposal<Encoded<byte[]>>> o = p.proposeBlock(fw, new Context());
        if (o.isPresent()) {
          best = Math.min(best, o.get().estimatedBytes());
        }
      }
    }
    return best;
  }

  @ParameterizedTest(name = "{0}-bit {2} x{1}")
  @MethodSource("cases")
  void roundTripsWithTheSmallestOffer(int bits, int n, String shape, long seed) {
    long[] v = G23.make(shape, bits, n, seed);
    DataBlock.FixedWidth fw = G23.block(v, bits);
    Encoded<byte[]> enc = G23.CTX.compressUnsigned(fw, FieldOptions.DEFAULT);
    CompressiveEncoding e = (CompressiveEncoding) enc.encoding();
    assertArrayEquals(v, G23.decode(e, enc.data(), v.length, bits), e.toString());
    assertTrue(enc.data().length <= fw.usedBytes(), "never larger than flat");
    if (v.length > 0) {
      assertEquals(smallestOffer(fw), enc.data().length, "the smallest offer, its size exact: " + e.getCompressionCase());
    }
    // deterministic: the same input gives the same bytes
    Encoded<byte[]> again = G23.CTX.compressUnsigned(G23.block(v, bits), FieldOptions.DEFAULT);
    assertEquals(e, again.encoding());
    assertArrayEquals(enc.data(), again.data());
  }

  static CompressionCase chosen(String shape, int bits, int n) {
    long[] v = G23.make(shape, bits, n, 99);
    Encoded<byte[]> enc = G23.CTX.compressUnsigned(G23.block(v, bits), FieldOptions.DEFAULT);
    return ((CompressiveEncoding) enc.encoding()).getCompressionCase();
  }

  @Test
  void eachShapeGetsItsCodec() {
    for (int bits : new int[] {32, 64}) {
      assertEquals(CompressionCase.CONSTANT, chosen("empty", bits, 0));
      assertEquals(CompressionCase.CONSTANT, chosen("one", bits, 1));
      assertEquals(CompressionCase.CONSTANT, chosen("constant", bits, 3000));
      assertEquals(CompressionCase.RANGE, chosen("arithmetic", bits, 3000));
      assertEquals(CompressionCase.DELTA, chosen("sorted", bits, 3000));
      assertEquals(CompressionCase.RLE, chosen("runny", bits, 3000));
      assertEquals(CompressionCase.DICTIONARY, chosen("fewDistinct", bits, 3000));
      assertEquals(CompressionCase.FLAT, chosen("random", bits, 3000));
    }
    // small values: one width for all (out-of-line) or one per 1024 values (inline)
    assertEquals(CompressionCase.OUT_OF_LINE_BITPACKING, chosen("small", 32, 3000));
    long[] widths = new long[4096];
    java.util.Random rnd = new java.util.Random(3);
    for (int i = 0; i < widths.length; i++) {
      widths[i] = i < 3072 ? rnd.nextInt(4) : rnd.nextInt(1 << 24); // three narrow groups, one wide one
    }
    Encoded<byte[]> enc = G23.CTX.compressUnsigned(G23.block(widths, 32), FieldOptions.DEFAULT);
    assertEquals(CompressionCase.INLINE_BITPACKING, ((CompressiveEncoding) enc.encoding()).getCompressionCase());
    assertArrayEquals(widths, G23.decode((CompressiveEncoding) enc.encoding(), enc.data(), widths.length, 32));
  }

  /** The planar layout's sequences: strictly increasing positions, positive counts. */
  @Test
  void sparsePositionsAndCounts() {
    java.util.Random rnd = new java.util.Random(7);
    long[] positions = new long[20000];
    long[] counts = new long[20000];
    long p = 0;
    for (int i = 0; i < positions.length; i++) {
      p += 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 1000 : 3);
      positions[i] = p;
      counts[i] = 1 + rnd.nextInt(4);
    }
    for (long[] v : new long[][] {positions, counts}) {
      DataBlock.FixedWidth fw = G23.block(v, 64);
      Encoded<byte[]> enc = G23.CTX.compressUnsigned(fw, FieldOptions.DEFAULT);
      assertTrue(enc.data().length * 4L < fw.usedBytes(), enc.encoding() + ": " + enc.data().length);
      assertArrayEquals(v, G23.decode((CompressiveEncoding) enc.encoding(), enc.data(), v.length, 64));
    }
  }

  @Test
  void familiesShareOneDescriptor() {
    List<DataBlock.FixedWidth> family = new ArrayList<>();
    java.util.Random rnd = new java.util.Random(11);
    for (int k = 0; k < 5; k++) {
      long[] o = new long[1 + rnd.nextInt(3000)];
      for (int i = 1; i < o.length; i++) {
        o[i] = o[i - 1] + rnd.nextInt(30);
      }
      family.add(G23.block(o, 32));
    }
    List<Encoded<byte[]>> out = GenericBlocks.encodeFamily(G23.REGISTRY, family, FieldOptions.DEFAULT, e -> true,
        r -> r.stream().mapToLong(x -> x.data().length).sum());
    assertEquals(family.size(), out.size());
    for (int k = 0; k < family.size(); k++) {
      assertEquals(out.get(0).encoding(), out.get(k).encoding());
      long[] v = G23.values(family.get(k));
      assertArrayEquals(v, G23.decode((CompressiveEncoding) out.get(k).encoding(), out.get(k).data(), v.length, 32));
    }
    // a root the caller refuses is never chosen, even when it is the smallest
    List<Encoded<byte[]>> noDelta = GenericBlocks.encodeFamily(G23.REGISTRY, family, FieldOptions.DEFAULT,
        e -> !e.hasDelta(), r -> r.stream().mapToLong(x -> x.data().length).sum());
    assertTrue(!((CompressiveEncoding) noDelta.get(0).encoding()).hasDelta());
    assertTrue(((CompressiveEncoding) out.get(0).encoding()).hasDelta(), out.get(0).encoding().toString());
  }

  @Test
  void onlyIn23AndOnlyU32OrU64() {
    RuntimeLayoutContext v22 = new RuntimeLayoutContext(G23.REGISTRY, FileVersion.V2_2, b -> 0L);
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> v22.compressUnsigned(G23.block(new long[] {1}, 32), FieldOptions.DEFAULT));
    assertEquals(LanceCodecException.Kind.INTERNAL, e.kind());
    DataBlock.FixedWidth u16 = new DataBlock.FixedWidth(new byte[4], 16, 2);
    e = assertThrows(LanceCodecException.class, () -> G23.CTX.compressUnsigned(u16, FieldOptions.DEFAULT));
    assertEquals(LanceCodecException.Kind.INTERNAL, e.kind());
  }

  @Test
  void describesEveryRoot() {
    assertEquals("range(32, start 5, step 3)", G23.CTX.describe(G23.range(32, 5, 3)).toString());
    assertEquals("delta(64, base 7, bitpack-ool(64, flat(3)))", G23.CTX.describe(G23.delta(64, 7, G23.ool(64, 3))).toString());
    assertEquals("rle(range(32, start 7, step 2), flat(32))",
        G23.CTX.describe(G23.rle(G23.range(32, 7, 2), G23.flat(32))).toString());
    assertEquals("dictionary(2 items, bitpack(32), constant(u64 9))",
        G23.CTX.describe(G23.dict(G23.inline(32), G23.constant(G23.u64s(9)), 2)).toString());
    assertEquals("constant(empty)", G23.CTX.describe(G23.empty()).toString());
  }

  /** What the runtime hands a plugin for a lone 2.3 block. */
  record Context() implements ProposalContext {
    @Override
    public Stats stats() {
      return new Stats.Other(0);
    }

    @Override
    public FieldOptions options() {
      return FieldOptions.DEFAULT;
    }

    @Override
    public FileVersion version() {
      return FileVersion.V2_3;
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<io.lancecodec.spi.DataBlock>>> innerPerValue(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }
}
