package io.lancecodec.spi;

/**
 * Reverses a {@link PerValueCompressor} on the values the full-zip layout unzipped: a
 * fixed-width or variable-width block in, the original values out.
 */
public interface PerValueDecompressor {
  DataBlock decompress(DataBlock block);
}
