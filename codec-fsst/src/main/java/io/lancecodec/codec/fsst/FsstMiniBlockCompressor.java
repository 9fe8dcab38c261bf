package io.lancecodec.codec.fsst;

import io.lancecodec.spi.Compressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;

/**
 * FSST in a mini-block page: the page's strings are compressed with one table, then the
 * compressed strings are chunked by the best inner mini-block compressor for them (the built-in
 * Variable, as in the reference), so chunk boundaries follow compressed sizes. Created per page.
 */
final class FsstMiniBlockCompressor implements MiniBlockCompressor {
  private final ProposalContext context;
  private final Compressor<MiniBlockCompressed> fallbackInner;

  FsstMiniBlockCompressor(ProposalContext context, Compressor<MiniBlockCompressed> fallbackInner) {
    this.context = context;
    this.fallbackInner = fallbackInner;
  }

  /** Learns a table for {@code block}, then compresses it. */
  @Override
  public MiniBlockCompressed compress(DataBlock block) {
    if (!(block instanceof DataBlock.VariableWidth vw)) {
      throw LanceCodecException.internal("fsst: cannot compress " + block.getClass().getSimpleName() + " values");
    }
    return compress(FsstPage.plan(vw).encoder(), vw);
  }

  /** Compresses {@code vw} with the encoder of a table already learnt for it (the proposal's). */
  MiniBlockCompressed compress(FsstEncoder encoder, DataBlock.VariableWidth vw) {
    SymbolTable table = encoder.table();
    DataBlock.VariableWidth compressed = encoder.compress(vw);
    MiniBlockCompressed chunks =
        context.innerMiniBlock(compressed).map(Proposal::result).orElseGet(() -> fallbackInner.compress(compressed));
    return new MiniBlockCompressed(
        chunks.buffers(), chunks.chunks(), chunks.numValues(), FsstPage.encoding(table, chunks.encoding()));
  }
}
