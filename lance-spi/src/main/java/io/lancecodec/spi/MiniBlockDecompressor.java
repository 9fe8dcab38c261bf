package io.lancecodec.spi;

/**
 * Decodes one mini-block chunk from its value buffers. Stateless and thread-safe: random access
 * decodes one chunk per value. Decompressors of byte-aligned fixed-width values implement
 * {@link FixedWidthMiniBlockDecompressor}, which scans and point lookups use to write values
 * straight into their output.
 */
public interface MiniBlockDecompressor {
  /**
   * The chunk's {@code numValues} values. With {@code reuse} (null: fresh arrays) the result may
   * be built on its arrays, valid until the next call given them (see {@link DecodeBuffers}).
   */
  DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse);

  /**
   * The most bytes buffer {@code buffer} of a valid chunk of {@code numValues} values can take,
   * or -1 when the value count does not bound it (variable-width data). A codec wrapping this one
   * (general compression of buffer 0) refuses a larger declared size before allocating for it.
   */
  default long maxBufferBytes(int buffer, int numValues) {
    return -1;
  }
}
