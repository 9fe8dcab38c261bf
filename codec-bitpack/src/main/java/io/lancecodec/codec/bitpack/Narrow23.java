package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.Optional;

/**
 * 2.3 blocks of 8- and 16-bit values: the repetition and definition levels of dense chunked
 * pages (u16, outside the u32/u64 generic grammar) and narrow dictionary items. They keep the
 * 2.2 block forms under 2.3 messages: {@code OutOfLineBitpacking{T, Flat{W}}} (full groups packed
 * at the page's widest width, the tail packed or raw), {@code InlineBitpacking{T}} (groups of 1024
 * each with its width word; for up to 1024 values the 2.2 block) and {@code Rle{Flat{T}, Flat{8}}}
 * (u64 value bytes, the run values, u8 run lengths). The compressor chosen for a page's levels is
 * applied to each chunk's slice, so every candidate handles any slice of the page.
 */
final class Narrow23 {
  private Narrow23() {}

  /**
   * The smallest of the three forms for the whole block, exact sizes; ties to out-of-line packing
   * (no width words, and a reader unpacks levels group by group straight into its array), then
   * inline packing. Declined when none is strictly smaller than Flat, which would win the
   * runtime's tie by name with the same bytes under a more complex descriptor.
   */
  static Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock.FixedWidth fw, ProposalContext context) {
    int bits = fw.bitsPerValue();
    int n = (int) fw.numValues();
    if (n == 0) {
      return Optional.empty();
    }
    long flat = fw.usedBytes();
    int widest = 0;
    long inline = 0;
    for (int start = 0; start < n; start += InlineBlock23.GROUP) {
      int w = InlineBitpackingCodec.width(fw.data(), bits, start, Math.min(InlineBlock23.GROUP, n - start));
      widest = Math.max(widest, w);
      inline += InlineBitpackingCodec.chunkBytes(bits, w);
    }
    long ool = OutOfLineBitpackingCodec.size(bits, widest, n);
    // the stored runs are at least the runs, so counting them is skipped when even that loses
    long leastRle = 8 + ((Stats.FixedWidth) context.stats()).runCount() * (bits / 8 + 1);
    long rle = leastRle >= Math.min(flat, Math.min(ool, inline)) ? Long.MAX_VALUE : 8 + RleCodec.storedRuns(fw) * (bits / 8 + 1);
    String name = "bitpack-ool";
    long best = ool;
    BlockCompressor c = new OutOfLineBitpackingCodec.Compressor(widest, true);
    if (inline < best) {
      name = "bitpack";
      best = inline;
      c = b -> {
        DataBlock.FixedWidth f = (DataBlock.FixedWidth) b;
        return new Encoded<>(InlineBlock23.pack(f.data(), (int) f.numValues(), f.bitsPerValue()),
            InlineBitpackingCodec.encoding(f.bitsPerValue(), true));
      };
    }
    if (rle < best) {
      name = "rle";
      best = rle;
      c = new RleCodec.Block(true);
    }
    if (best >= flat) {
      return Optional.empty();
    }
    return Optional.of(Proposal.estimated(name, best, c, fw));
  }
}
