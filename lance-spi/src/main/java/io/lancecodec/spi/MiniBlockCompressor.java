package io.lancecodec.spi;

/**
 * Splits a page's values into mini-block chunks and compresses each. The compressor decides
 * chunk boundaries because only it knows how compressible the values are; the rules every chunk
 * must follow (value counts, byte budgets) are in {@link MiniBlocks}.
 */
public interface MiniBlockCompressor extends Compressor<MiniBlockCompressed> {}
