package io.lancecodec.spi.layout;

/**
 * The final home of a read's fixed-width values (for the runtime, an Arrow buffer), handed to
 * {@link PageDecoder#read(long[], int, FixedWidthSink)} so that a decoder can write each chunk's
 * values there as it decodes them, from a small array that stays in cache, instead of gathering
 * them in a block of the whole read that is then copied again.
 */
public interface FixedWidthSink {
  /** Room for {@code bytes} more bytes is likely to be needed; a hint, appends still grow. */
  void reserve(long bytes);

  /** Appends {@code src[off, off + len)} after the bytes appended so far. */
  void append(byte[] src, int off, int len);
}
