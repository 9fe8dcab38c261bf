package io.lancecodec.spi.layout;

import io.lancecodec.spi.DataBlock;

/**
 * The final home of a read's variable-width values (for the runtime, the buffers of an Arrow
 * string or binary vector), handed to {@link PageDecoder#read(long[], VariableWidthSink)} so that
 * a decoder can decode a page in steps into small arrays that stay in cache and append each step
 * here, instead of building a block of the whole read that is then copied again.
 */
public interface VariableWidthSink {
  /** Room for {@code bytes} more data bytes is likely to be needed; a hint, appends still grow. */
  default void reserve(long bytes) {}

  /** About {@code n} more values are likely to be appended; a hint, appends still grow. */
  default void reserveValues(long n) {}

  /** Appends the block's values in order; its offsets may start anywhere. */
  void append(DataBlock.VariableWidth block);
}
