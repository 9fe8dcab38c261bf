package io.lancecodec.spi;

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

  /** A human readable description of the layout and its compression tree, for inspect. */
  String describe();
}
