package io.lancecodec.spi;

/**
 * Splits a page's values into mini-block chunks and compresses each. The compressor decides
 * chunk boundaries because only it knows how compressible the values are; every chunk but the
 * last holds a power-of-two count of at most {@link MiniBlocks#MAX_VALUES} values and its
 * encoded size stays within {@link MiniBlocks#maxChunkBytes} so that the layout can address it.
 */
public interface MiniBlockCompressor {
  MiniBlockCompressed compress(DataBlock block);
}
