package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.ProposalContext;

/**
 * FSST in a mini-block page: the page's strings are compressed with one table, then the
 * compressed strings are chunked by the best inner mini-block compressor for them (the built-in
 * Variable, as in the reference), so chunk boundaries follow compressed sizes. Created per page.
 */
final class FsstMiniBlockCompressor implements MiniBlockCompressor {
  private final FsstPage planned;
  private final ProposalContext context;
  private final MiniBlockCompressor fallbackInner;

  FsstMiniBlockCompressor(FsstPage planned, ProposalContext context, MiniBlockCompressor fallbackInner) {
    this.planned = planned;
    this.context = context;
    this.fallbackInner = fallbackInner;
  }

  @Override
  public MiniBlockCompressed compress(DataBlock block) {
    if (!(block instanceof DataBlock.VariableWidth vw)) {
      throw LanceCodecException.invalidArgument("fsst: cannot compress " + block.getClass().getSimpleName() + " values");
    }
    SymbolTable table = FsstPage.tableFor(planned, vw);
    DataBlock.VariableWidth compressed = new FsstEncoder(table).compress(vw);
    MiniBlockCompressor inner =
        context.innerMiniBlock(compressed).map(p -> p.compressor()).orElse(fallbackInner);
    MiniBlockCompressed chunks = inner.compress(compressed);
    return new MiniBlockCompressed(
        chunks.buffers(), chunks.chunks(), chunks.numValues(), FsstPage.encoding(table, chunks.encoding()));
  }
}
