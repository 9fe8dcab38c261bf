package io.lancecodec.spi.layout;

import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockCompressed;

/**
 * What a layout gets from the runtime while encoding or decoding: the file version, the
 * registry's best compression of each buffer it needs compressed, and the decoders of the
 * compression trees it reads, so layouts never depend on codec jars.
 */
public interface LayoutContext extends Decoders {
  FileVersion version();

  /** Values compressed into mini-block chunks by the best offer of the registry's plugins. */
  MiniBlockCompressed compressMiniBlock(DataBlock values, FieldOptions options);

  /** Values compressed per value (transparently) for a full-zip page. */
  Encoded<DataBlock> compressPerValue(DataBlock values, FieldOptions options);

  /** A whole buffer of values compressed as one block, e.g. a page's dictionary. */
  Encoded<byte[]> compressBlock(DataBlock values, FieldOptions options);

  /**
   * The block compressor for the repetition or definition levels (u16 values) of a page,
   * chosen from the whole page's levels; the layout applies it to each chunk's slice.
   */
  BlockCompressor levelsFor(DataBlock levels);

  /**
   * Writes {@code bytes} to the file's data outside any page (blob values) and returns their
   * position, which a page may then record; only while writing.
   */
  default long writeExternal(byte[] bytes) {
    throw io.lancecodec.spi.LanceCodecException.internal("this layout context writes no file");
  }

  /** Where a page decoder keeps bulky decoded state it can load again (nothing by default). */
  default PageCache cache() {
    return PageCache.NONE;
  }
}
