package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A layout that reads a block's statistics (to judge a dictionary) and then compresses the same
 * block hands the plugins those statistics instead of a second pass; the writer forgets them
 * after every page, so a block whose bytes are refilled is judged afresh.
 */
class KeptStatsTest {
  /** Records the statistics it is handed and offers the values flat. */
  static final class Recorder implements CodecPlugin {
    final List<Stats> seen = new ArrayList<>();

    @Override
    public String name() {
      return "recorder";
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
    public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
      seen.add(context.stats());
      Message enc = CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(32)).build();
      MiniBlockCompressed out = new MiniBlockCompressed(List.of(((DataBlock.FixedWidth) block).data()),
          List.of(new MiniBlockChunk(new int[] {400}, 0)), block.numValues(), enc);
      return Optional.of(Proposal.measured(name(), 400, c -> out, out));
    }
  }

  @Test
  void statsReadByTheLayoutReachThePluginsUntilThePageEnds() {
    Recorder recorder = new Recorder();
    RuntimeLayoutContext ctx = new RuntimeLayoutContext(new Plugins(List.<CodecPlugin>of(recorder), List.of()), FileVersion.V2_3, b -> 0L);
    FieldOptions options = FieldOptions.builder().compression("none").build();
    byte[] bytes = new byte[4 * 100];
    DataBlock.FixedWidth block = new DataBlock.FixedWidth(bytes, 32, 100);
    Stats first = ctx.stats(block);
    ctx.compressMiniBlock(block, options);
    assertSame(first, recorder.seen.get(0));
    assertEquals(1, ((Stats.FixedWidth) first).runCount());

    // the same block object refilled for the next page
    ctx.endPage();
    LittleEndian.putInt(bytes, 40, 7);
    ctx.compressMiniBlock(block, options);
    Stats.FixedWidth fresh = (Stats.FixedWidth) recorder.seen.get(1);
    assertEquals(3, fresh.runCount());
    assertEquals(3, fresh.maxBitWidth());

    // another block is never given the kept statistics
    Stats kept = ctx.stats(block);
    DataBlock.FixedWidth other = new DataBlock.FixedWidth(new byte[4 * 100], 32, 100);
    ctx.compressMiniBlock(other, options);
    assertEquals(0, ((Stats.FixedWidth) recorder.seen.get(2)).maxBitWidth());
    ctx.compressMiniBlock(block, options);
    assertSame(kept, recorder.seen.get(3));
  }
}
