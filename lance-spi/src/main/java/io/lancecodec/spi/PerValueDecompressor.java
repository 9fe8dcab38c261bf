package io.lancecodec.spi;

/**
 * Reverses a {@link PerValueCompressor} on the values the full-zip layout unzipped: a
 * fixed-width or variable-width block in, the original values out.
 */
public interface PerValueDecompressor {
  DataBlock decompress(DataBlock block);

  /**
   * Like {@link #decompress(DataBlock)}, but the result may be built on {@code reuse}'s arrays
   * (see {@link DecodeBuffers}: valid until the next call with them). Codecs that build their
   * output anew override this; the default ignores {@code reuse}.
   */
  default DataBlock decompress(DataBlock block, DecodeBuffers reuse) {
    return decompress(block);
  }
}
