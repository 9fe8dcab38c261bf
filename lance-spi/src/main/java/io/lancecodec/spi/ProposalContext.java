package io.lancecodec.spi;

import java.util.Optional;

/**
 * What a plugin may consult when proposing a compressor: the block's statistics (computed once),
 * the field's options, the file version, and the best offers of the other plugins for a block,
 * so wrapping codecs (general compression, byte-stream-split, FSST) can compose with whatever
 * compresses the inner data best without knowing who that is.
 */
public interface ProposalContext {
  Stats stats();

  FieldOptions options();

  FileVersion version();

  /** The best mini-block offer for {@code block} from every plugin not already asking. */
  Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block);

  /** The best per-value offer for {@code block} from every plugin not already asking. */
  Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block);

  /** The best block offer for {@code block} from every plugin not already asking. */
  Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block);
}
