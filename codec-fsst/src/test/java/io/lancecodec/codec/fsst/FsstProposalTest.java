package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the plugin offers itself (the reference's rule) and how honest its estimates are. */
class FsstProposalTest {
  private final FsstPlugin plugin = new FsstPlugin();

  static DataBlock.VariableWidth strings(int totalBytes, int len) {
    List<String> real = TestBlocks.realStrings();
    List<String> out = new ArrayList<>();
    int size = 0;
    for (int i = 0; size < totalBytes; i++) {
      String s = real.get(i % real.size());
      s = s.length() > len ? s.substring(0, len) : s;
      out.add(s);
      size += s.length() + 4;
    }
    return TestBlocks.block(TestBlocks.utf8(out), 32);
  }

  Optional<Proposal<MiniBlockCompressed>> propose(DataBlock.VariableWidth b, FieldOptions o) {
    return plugin.proposeMiniBlock(b, TestBlocks.Ctx.of(b, o));
  }

  @Test
  void proposesOnLargeStringPages() {
    DataBlock.VariableWidth b = strings(200_000, 1000);
    var p = propose(b, FieldOptions.DEFAULT).orElseThrow();
    long variable = TestBlocks.statsOf(b).dataBytes() + (b.numValues() + 1) * 4;
    assertTrue(p.estimatedBytes() < variable * 0.8, p.estimatedBytes() + " vs plain " + variable);
    assertTrue(plugin.proposePerValue(b, TestBlocks.Ctx.of(b, FieldOptions.DEFAULT)).isPresent());
    // the estimate is within 10% of what the compressor produces (table included)
    var c = p.compressor().compress(b);
    long actual = c.buffers().get(0).length + FsstFormat.TABLE_BYTES;
    assertTrue(Math.abs(actual - p.estimatedBytes()) < actual / 10, "estimate " + p.estimatedBytes() + ", actual " + actual);
  }

  @Test
  void declinesSmallPagesAndShortValues() {
    assertTrue(propose(strings(20_000, 1000), FieldOptions.DEFAULT).isEmpty(), "under 32 KiB");
    assertTrue(propose(strings(100_000, 4), FieldOptions.DEFAULT).isEmpty(), "values under 5 bytes");
    DataBlock.VariableWidth empty = TestBlocks.block(Collections.emptyList(), 32);
    assertTrue(propose(empty, TestBlocks.options("compression", "fsst")).isEmpty(), "no values");
    DataBlock.FixedWidth fixed = new DataBlock.FixedWidth(new byte[80_000], 64, 10_000);
    assertTrue(plugin.proposeMiniBlock(fixed, TestBlocks.Ctx.of(strings(40_000, 100), FieldOptions.DEFAULT)).isEmpty());
  }

  @Test
  void followsTheCompressionOption() {
    DataBlock.VariableWidth big = strings(200_000, 1000);
    assertTrue(propose(big, TestBlocks.options("compression", "none")).isEmpty(), "none");
    assertTrue(propose(big, TestBlocks.options("compression", "zstd")).isEmpty(), "general compression requested");
    // forced on a small page: offered, with the reference's switched-off table (strings copied)
    DataBlock.VariableWidth small = strings(3_000, 1000);
    var p = propose(small, TestBlocks.options("compression", "fsst")).orElseThrow();
    long plain = TestBlocks.statsOf(small).dataBytes() + (small.numValues() + 1) * 4;
    assertEquals(plain + FsstFormat.TABLE_BYTES, p.estimatedBytes(), "copy plus table");
    assertTrue(propose(strings(100_000, 4), TestBlocks.options("compression", "fsst")).isPresent(), "forced");
  }

  @Test
  void perValueLeavesHugeValuesToGeneralCompression() {
    StringBuilder sb = new StringBuilder();
    for (String s : TestBlocks.realStrings()) {
      sb.append(s);
      if (sb.length() > 40_000) {
        break;
      }
    }
    DataBlock.VariableWidth huge = TestBlocks.block(TestBlocks.utf8(List.of(sb.toString(), "x")), 32);
    assertTrue(plugin.proposePerValue(huge, TestBlocks.Ctx.of(huge, FieldOptions.DEFAULT)).isEmpty());
    assertTrue(propose(huge, FieldOptions.DEFAULT).isPresent(), "mini-block has no such rule");
  }
}
