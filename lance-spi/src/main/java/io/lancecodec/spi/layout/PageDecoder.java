package io.lancecodec.spi.layout;

/**
 * Reads rows of one page. Created once per page when a reader initializes (loading the page's
 * search cache, e.g. mini-block chunk metadata) and then shared by concurrent reads, so
 * implementations are immutable after construction.
 */
public interface PageDecoder {
  long numRows();

  /** Bytes held in memory for random access (chunk metadata, dictionaries, indexes). */
  long searchCacheBytes();

  /**
   * Decodes the rows of the given half-open ranges, {@code ranges = [start0, end0, start1,
   * end1, ...]}, sorted, non-overlapping and within the page, in that order.
   */
  DecodedPage read(long[] ranges);

  /**
   * Like {@link #read(long[])}, for a caller that wants the values of byte-aligned fixed width
   * ({@code bits} per value, a multiple of 8) in {@code sink}: a decoder that can appends them
   * there in row order and returns the page with {@code values == null}; otherwise (this
   * default) it returns the page as {@code read} does and the caller moves the values itself.
   */
  default DecodedPage read(long[] ranges, int bits, FixedWidthSink sink) {
    return read(ranges);
  }

  /**
   * Like {@link #read(long[])}, for a caller that wants variable-width values in {@code sink}: a
   * decoder that can appends every value the page would return (one per value slot, null slots
   * as empty values) there in row order and returns the page with {@code values == null};
   * otherwise (this default) it returns the page as {@code read} does and the caller moves the
   * values itself.
   */
  default DecodedPage read(long[] ranges, VariableWidthSink sink) {
    return read(ranges);
  }

}
