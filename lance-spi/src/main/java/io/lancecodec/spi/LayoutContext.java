package io.lancecodec.spi;

/**
 * What a layout gets from the runtime while encoding or decoding: the file version, and the
 * registry's choice of compressor for each buffer it needs compressed, so layouts never depend
 * on codec jars.
 */
public interface LayoutContext extends Decoders {
  FileVersion version();

  /** The best mini-block compressor the registry's plugins offer for these values. */
  MiniBlockCompressor miniBlockFor(DataBlock values, FieldOptions options);

  /** The best per-value (transparent) compressor for values stored in a full-zip page. */
  PerValueCompressor perValueFor(DataBlock values, FieldOptions options);

  /** The best block compressor for a whole buffer of values, e.g. a page's dictionary. */
  BlockCompressor blockFor(DataBlock values, FieldOptions options);

  /**
   * The block compressor for the repetition or definition levels (u16 values) of a page,
   * chosen from the whole page's levels; the layout applies it to each chunk's slice.
   */
  BlockCompressor levelsFor(DataBlock levels);

  /** Where a page decoder keeps bulky decoded state it can load again (nothing by default). */
  default PageCache cache() {
    return PageCache.NONE;
  }
}
