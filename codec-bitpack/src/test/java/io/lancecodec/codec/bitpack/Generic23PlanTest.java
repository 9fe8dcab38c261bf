package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every 2.3 plan of codec-bitpack forced onto every shape it can take, u32 and u64, at group-edge
 * sizes: the payload has exactly the planned bytes and decodes to the input; the proposal is the
 * smallest plan and its size is the payload's.
 */
class Generic23PlanTest {
  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 23;
    for (int bits : new int[] {32, 64}) {
      for (int n : new int[] {1, 2, 3, 100, 1023, 1024, 1025, 3000}) {
        for (String shape : Shapes23.SHAPES) {
          out.add(Arguments.of(bits, n, shape, seed++));
        }
      }
    }
    return out.stream();
  }

  /** The plans a test can force: each leaf alone, and each composite. */
  static List<Plan23> plans(List<long[]> family, int[] counts, int bits) {
    List<Plan23> plans = new ArrayList<>();
    for (Leaf23.Kind k : Leaf23.Kind.values()) {
      Leaf23.Plan p = Leaf23.best(family, counts, bits, EnumSet.of(k));
      if (p != null) {
        plans.add(p);
      }
    }
    for (Plan23 p : new Plan23[] {
        Delta23.plan(family, counts, bits), Rle23.plan(family, counts, bits), Dictionary23.plan(family, counts, bits)}) {
      if (p != null) {
        plans.add(p);
      }
    }
    return plans;
  }

  static long[] decode(CompressiveEncoding e, byte[] payload, long n) {
    BlockDecompressor d = Decoders23.INSTANCE.block(e);
    assertEquals(d.consumesPayload(), payload.length > 0, e.getCompressionCase() + ": payload iff not metadata-only");
    return Shapes23.values((DataBlock.FixedWidth) d.decompress(payload, n));
  }

  @ParameterizedTest(name = "{0}-bit {2} x{1}")
  @MethodSource("cases")
  void everyPlanRoundTripsWithItsExactSize(int bits, int n, String shape, long seed) {
    long[] v = Shapes23.make(shape, bits, n, seed);
    List<Plan23> plans = plans(List.of(v), new int[] {v.length}, bits);
    assertTrue(plans.size() >= 3, "flat, inline and delta or rle always apply here: " + plans.size());
    for (Plan23 p : plans) {
      byte[] payload = p.payload(v, v.length);
      assertEquals(p.bytes(), payload.length, p.encoding().getCompressionCase() + " planned bytes");
      assertArrayEquals(v, decode(p.encoding(), payload, v.length), p.encoding().toString());
    }
  }

  @ParameterizedTest(name = "{0}-bit {2} x{1}")
  @MethodSource("cases")
  void proposalIsTheSmallestPlanAndHonest(int bits, int n, String shape, long seed) {
    long[] v = Shapes23.make(shape, bits, n, seed);
    DataBlock.FixedWidth fw = Shapes23.block(v, bits);
    Optional<Proposal<Encoded<byte[]>>> offer = Bitpack23.proposeBlock(fw, new Context(List.of()));
    boolean constant = java.util.Arrays.stream(v).distinct().count() <= 1;
    long smallest = Long.MAX_VALUE;
    for (Plan23 p : plans(List.of(v), new int[] {v.length}, bits)) {
      CompressiveEncoding e = p.encoding();
      smallest = e.hasFlat() || e.hasConstant() ? smallest : Math.min(smallest, p.bytes());
    }
    // constant sequences are the runtime's Constant, and nothing no smaller than Flat is offered
    assertEquals(!constant && smallest < fw.usedBytes(), offer.isPresent(), "offers exactly when it beats Flat");
    if (offer.isEmpty()) {
      return;
    }
    Encoded<byte[]> r = offer.get().result();
    assertEquals(offer.get().estimatedBytes(), r.data().length, "estimate is the payload size");
    for (Plan23 p : plans(List.of(v), new int[] {v.length}, bits)) {
      CompressiveEncoding e = p.encoding();
      boolean rootLeaf = e.hasFlat() || e.hasConstant();
      assertTrue(rootLeaf || offer.get().estimatedBytes() <= p.bytes(), e.getCompressionCase() + " is smaller: " + p.bytes());
    }
    assertArrayEquals(v, decode((CompressiveEncoding) r.encoding(), r.data(), v.length));
  }

  /** Offsets of fixed-length values chunk by chunk: one Range for the whole family, no payload. */
  @Test
  void familyOfEqualStepsIsOneRange() {
    List<DataBlock.FixedWidth> family = new ArrayList<>();
    for (int n : new int[] {513, 513, 200}) {
      long[] o = new long[n];
      for (int i = 0; i < n; i++) {
        o[i] = 12L * i;
      }
      family.add(Shapes23.block(o, 32));
    }
    Proposal<Encoded<byte[]>> p = Bitpack23.proposeBlock(family.get(0), new Context(family)).orElseThrow();
    assertEquals(0, p.estimatedBytes());
    for (DataBlock.FixedWidth m : family) {
      Encoded<byte[]> r = p.compressor().compress(m);
      assertEquals(p.result().encoding(), r.encoding());
      CompressiveEncoding e = (CompressiveEncoding) r.encoding();
      assertTrue(e.hasRange() && e.getRange().getStep() == 12 && e.getRange().getStart() == 0, e.toString());
      assertArrayEquals(Shapes23.values(m), decode(e, r.data(), m.numValues()));
    }
  }

  /** Offsets of varied lengths: one descriptor, its packing width the family's widest, every member decodes. */
  @Test
  void familyPlansShareOneDescriptor() {
    java.util.Random rnd = new java.util.Random(5);
    List<DataBlock.FixedWidth> family = new ArrayList<>();
    List<long[]> values = new ArrayList<>();
    for (int k = 0; k < 6; k++) {
      int n = 1 + rnd.nextInt(2000);
      long[] o = new long[n + 1];
      for (int i = 1; i <= n; i++) {
        o[i] = o[i - 1] + rnd.nextInt(k == 3 ? 3000 : 40);
      }
      values.add(o);
      family.add(Shapes23.block(o, 64));
    }
    int[] counts = values.stream().mapToInt(a -> a.length).toArray();
    for (Plan23 p : plans(values, counts, 64)) {
      long total = 0;
      for (long[] o : values) {
        byte[] payload = p.payload(o, o.length);
        total += payload.length;
        assertArrayEquals(o, decode(p.encoding(), payload, o.length), p.encoding().getCompressionCase().toString());
      }
      assertEquals(p.bytes(), total, p.encoding().getCompressionCase() + " family bytes");
    }
    Proposal<Encoded<byte[]>> offer = Bitpack23.proposeBlock(family.get(0), new Context(family)).orElseThrow();
    assertTrue(((CompressiveEncoding) offer.result().encoding()).hasDelta(), offer.result().encoding().toString());
  }

  @Test
  void leafTiesAndEmptyFamilies() {
    // no values at all: the empty Constant, whatever else is allowed
    Leaf23.Plan empty = Leaf23.best(List.of(new long[0]), new int[] {0}, 32, Leaf23.ALL);
    assertTrue(empty.empty() && empty.encoding().hasConstant() && !empty.encoding().getConstant().hasValue());
    assertNull(Leaf23.best(List.of(new long[0]), new int[] {0}, 32, EnumSet.of(Leaf23.Kind.FLAT)));
    // 0, 0: Constant (metadata) beats everything; all-zero out-of-line packing (width 0) is never planned
    Leaf23.Plan zeros = Leaf23.best(List.of(new long[2]), new int[] {2}, 64, EnumSet.of(Leaf23.Kind.OUT_OF_LINE));
    assertNull(zeros);
    // a family whose members disagree on the start has no Range
    assertNull(Leaf23.best(List.of(new long[] {0, 1}, new long[] {1, 2}), new int[] {2, 2}, 32, EnumSet.of(Leaf23.Kind.RANGE)));
    assertNotNull(Leaf23.best(List.of(new long[] {0, 1}, new long[] {0, 1, 2}), new int[] {2, 3}, 32, EnumSet.of(Leaf23.Kind.RANGE)));
    // a dictionary needs the same item count in every member
    assertNull(Dictionary23.plan(List.of(new long[] {5, 6, 5, 6}, new long[] {5, 5, 5, 5}), new int[] {4, 4}, 32));
  }

  /** A proposal context with a family and nothing else a 2.3 bitpack proposal reads. */
  record Context(List<DataBlock.FixedWidth> family) implements ProposalContext {
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
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }
}
