package io.lancecodec.spi;

/**
 * Reverses a {@link BlockCompressor}: turns one buffer back into {@code numValues} values.
 * Must treat the buffer as hostile and fail with CORRUPT rather than over-read or over-allocate.
 */
public interface BlockDecompressor {
  DataBlock decompress(byte[] data, long numValues);
}
