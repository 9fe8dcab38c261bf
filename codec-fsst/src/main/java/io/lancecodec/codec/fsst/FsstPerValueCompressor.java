package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.ProposalContext;

/**
 * FSST in a full-zip page: every value is compressed on its own with the page's table, so each
 * stays addressable; the compressed values go through the best inner per-value compressor (the
 * built-in Variable, which keeps them as they are), or always through {@code fallbackInner}
 * when there is no context. Created per page.
 */
final class FsstPerValueCompressor implements PerValueCompressor {
  private final FsstPage planned;
  private final ProposalContext context;
  private final PerValueCompressor fallbackInner;

  FsstPerValueCompressor(FsstPage planned, ProposalContext context, PerValueCompressor fallbackInner) {
    this.planned = planned;
    this.context = context;
    this.fallbackInner = fallbackInner;
  }

  @Override
  public Encoded<DataBlock> compress(DataBlock block) {
    if (!(block instanceof DataBlock.VariableWidth vw)) {
      throw LanceCodecException.invalidArgument("fsst: cannot compress " + block.getClass().getSimpleName() + " values");
    }
    SymbolTable table = FsstPage.tableFor(planned, vw);
    DataBlock.VariableWidth compressed = new FsstEncoder(table).compress(vw);
    PerValueCompressor inner =
        context == null ? fallbackInner : context.innerPerValue(compressed).map(p -> p.compressor()).orElse(fallbackInner);
    Encoded<DataBlock> values = inner.compress(compressed);
    return new Encoded<>(values.data(), FsstPage.encoding(table, values.encoding()));
  }
}
