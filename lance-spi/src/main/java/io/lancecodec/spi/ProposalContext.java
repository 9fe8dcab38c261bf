package io.lancecodec.spi;

import java.util.List;
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

  /**
   * The blocks that will share one encoding descriptor with the block proposed for (that block
   * first), or empty when it stands alone. Only 2.3 generic unsigned blocks (u32 or u64
   * fixed-width values) come in families: the offsets of every mini-block chunk of a page, which
   * one {@code Variable.offsets} descriptor describes. An offer for a family covers all of it: its
   * bytes are the members' payloads together, and its compressor gives every member the same
   * descriptor (a bit width chosen for the widest member, say). A plugin that cannot describe
   * every member with one descriptor declines; the runtime checks that the descriptors agree.
   */
  default List<DataBlock.FixedWidth> family() {
    return List.of();
  }

  /**
   * Whether {@code block} is one chunk of an enclosing encoding (the leaf values of whole rows of
   * a fixed-size list, 2.3): a mini-block offer must then put all of the block's values, however
   * many, in a single chunk (its {@code MiniBlockCompressed} has one chunk), and so must its
   * compressor for every other such block; a plugin that cannot, declines. The enclosing encoding
   * sizes the blocks and checks the chunk budget; the runtime drops offers that break the rule.
   */
  default boolean oneChunk() {
    return false;
  }

  /**
   * With {@link #oneChunk()}: when positive, the block proposed for is a whole page of rows of
   * this many values each, and the compressor will be given one row at a time, each its own chunk
   * of one buffer (zipped fixed-size-list rows). It should then give every row of the page the same
   * size where it can (one bit width for the page, say): fixed-width rows are read without lengths
   * or an index. 0 when the block is the chunk itself.
   */
  default long rowValues() {
    return 0;
  }

  /**
   * When positive, the block is not compressed whole: the compressor will be applied to slices of
   * it holding about this many of its values each, and every slice is decoded with a call of its
   * own (a mini-block page's levels, sliced chunk by chunk). A codec whose fixed cost per call
   * pays off only on large inputs judges by the slice, not the block. 0: compressed whole.
   */
  default long sliceValues() {
    return 0;
  }

  /**
   * The smallest offer for this block from the plugins asked before this one (those that do not
   * {@linkplain CodecPlugin#measuresOffers measure}), or {@link Long#MAX_VALUE}. An offer larger
   * than this is not chosen, so a plugin that compresses to measure may stop and decline as soon
   * as its output passes it.
   */
  default long sizeToBeat() {
    return Long.MAX_VALUE;
  }



  /** The best mini-block offer for {@code block} from every plugin not already asking. */
  Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block);

  /** The best per-value offer for {@code block} from every plugin not already asking. */
  Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block);

  /** The best block offer for {@code block} from every plugin not already asking. */
  Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block);
}
