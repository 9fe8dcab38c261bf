package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Plugins that measure their offers by compressing are asked after the others and told the
 * smallest offer so far; the choice is the same as if everyone had been asked in name order.
 */
class MeasuredOffersTest {
  /** Offers {@code bytes}, tagged with its name as the chunk's only buffer; records the size it was told to beat. */
  static final class Fake implements CodecPlugin {
    final String name;
    final long bytes;
    final boolean measures;
    final List<Long> told = new ArrayList<>();
    final List<String> order;

    Fake(String name, long bytes, boolean measures, List<String> order) {
      this.name = name;
      this.bytes = bytes;
      this.measures = measures;
      this.order = order;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Set<FileVersion> fileVersions() {
      return EnumSet.of(FileVersion.V2_3);
    }

    @Override
    public Set<Class<? extends Message>> decodes() {
      return Set.of();
    }

    @Override
    public boolean measuresOffers() {
      return measures;
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
      order.add(name);
      told.add(context.sizeToBeat());
      Message enc = CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(32)).build();
      MiniBlockCompressed out = new MiniBlockCompressed(List.of(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
          List.of(new MiniBlockChunk(new int[] {name.length()}, 0)), block.numValues(), enc);
      return Optional.of(Proposal.measured(name, bytes, c -> out, out));
    }
  }

  static String chosen(List<CodecPlugin> fakes) {
    RuntimeLayoutContext ctx = new RuntimeLayoutContext(new Plugins(fakes, List.of()), FileVersion.V2_3, b -> 0L);
    DataBlock.FixedWidth block = new DataBlock.FixedWidth(new byte[4 * 100], 32, 100);
    MiniBlockCompressed out = ctx.compressMiniBlock(block, FieldOptions.builder().compression("none").build());
    return new String(out.buffers().get(0), java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void measuringPluginsComeLastAndKnowTheSizeToBeat() {
    List<String> order = new ArrayList<>();
    Fake measured = new Fake("a-measures", 60, true, order);
    Fake big = new Fake("b-estimates", 100, false, order);
    Fake small = new Fake("c-estimates", 50, false, order);
    assertEquals("c-estimates", chosen(List.of(measured, big, small)));
    assertEquals(List.of("b-estimates", "c-estimates", "a-measures"), order.subList(0, 3));
    assertEquals(List.of(50L), measured.told);
    assertEquals(List.of(Long.MAX_VALUE), big.told);
  }

  @Test
  void aTieStillGoesToTheEarlierName() {
    List<String> order = new ArrayList<>();
    Fake measured = new Fake("a-measures", 50, true, order);
    Fake small = new Fake("c-estimates", 50, false, order);
    assertEquals("a-measures", chosen(List.of(measured, small)));
  }

  @Test
  void aLayoutsSizeToBeatReachesTheMeasuringPluginsAndChangesNoChoice() {
    for (long layoutLimit : new long[] {40, 55, 1000}) {
      List<String> order = new ArrayList<>();
      Fake measured = new Fake("a-measures", 45, true, order);
      Fake big = new Fake("b-estimates", 100, false, order);
      Fake small = new Fake("c-estimates", 50, false, order);
      RuntimeLayoutContext ctx = new RuntimeLayoutContext(new Plugins(List.of(measured, big, small), List.of()), FileVersion.V2_3, b -> 0L);
      DataBlock.FixedWidth block = new DataBlock.FixedWidth(new byte[4 * 100], 32, 100);
      MiniBlockCompressed out = ctx.compressMiniBlock(block, FieldOptions.builder().compression("none").build(), layoutLimit);
      // the fakes ignore the limit, so the choice is the two-argument one whatever it is
      assertEquals("a-measures", new String(out.buffers().get(0), java.nio.charset.StandardCharsets.UTF_8));
      assertEquals(List.of(Math.min(layoutLimit, 50L)), measured.told);
      assertEquals(List.of(layoutLimit), big.told);
    }
  }
}
