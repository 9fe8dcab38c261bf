package io.lancecodec.codec.fsst;

import io.lancecodec.spi.Compressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;

/**
 * FSST in a full-zip page: every value is compressed on its own with the page's table, so each
 * stays addressable; the compressed values go through the best inner per-value compressor (the
 * built-in Variable, which keeps them as they are), or always through {@code fallbackInner}
 * when there is no context. Created per page.
 */
final class FsstPerValueCompressor implements PerValueCompressor {
  private final ProposalContext context;
  private final Compressor<Encoded<DataBlock>> fallbackInner;

  FsstPerValueCompressor(ProposalContext context, Compressor<Encoded<DataBlock>> fallbackInner) {
    this.context = context;
    this.fallbackInner = fallbackInner;
  }

  /** Learns a table for {@code block}, then compresses it. */
  @Override
  public Encoded<DataBlock> compress(DataBlock block) {
    if (!(block instanceof DataBlock.VariableWidth vw)) {
      throw LanceCodecException.internal("fsst: cannot compress " + block.getClass().getSimpleName() + " values");
    }
    return compress(FsstPage.plan(vw).encoder(), vw);
  }

  /** Compresses {@code vw} with the encoder of a table already learnt for it (the proposal's). */
  Encoded<DataBlock> compress(FsstEncoder encoder, DataBlock.VariableWidth vw) {
    SymbolTable table = encoder.table();
    DataBlock.VariableWidth compressed = encoder.compress(vw);
    Encoded<DataBlock> values = context == null
        ? fallbackInner.compress(compressed)
        : context.innerPerValue(compressed).map(Proposal::result).orElseGet(() -> fallbackInner.compress(compressed));
    return new Encoded<>(values.data(), FsstPage.encoding(table, values.encoding()));
  }
}
