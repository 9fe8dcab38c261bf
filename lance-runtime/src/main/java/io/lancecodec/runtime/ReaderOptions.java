package io.lancecodec.runtime;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.PageCache;

/**
 * Options of a {@link LanceFileReader}: where it keeps decoded page state ({@code pageCache};
 * null gives the reader a cache of its own, {@link LruPageCache#DEFAULT_BUDGET}) and the most
 * bytes one read may allocate ({@code maxReadBytes}).
 *
 * <p>A read is one call of {@code readRange}, {@code take}, {@code takeElements} or one batch of a
 * scan. Its limit is checked before decoding, against the bytes its fixed-width output takes
 * (rows times row width, known from the schema), and again after every page it decodes, against
 * all it decoded so far; over the limit it fails as one INVALID_ARGUMENT naming both, having
 * allocated at most the limit plus one page. This is what keeps a file that is well formed but
 * hostile (a fixed-size list of millions of items, strings that decompress a thousandfold) from
 * exhausting the heap of a service that reads files it did not write.
 */
public record ReaderOptions(PageCache pageCache, long maxReadBytes) {
  /**
   * Half the heap, at least 64 MiB: a read decodes on the heap and copies into Arrow's memory
   * (which by default is as large as the heap), so a read over half of it would run out of
   * memory anyway, only later and less clearly.
   */
  public static final long DEFAULT_MAX_READ_BYTES = Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 2);

  public ReaderOptions {
    if (maxReadBytes <= 0) {
      throw LanceCodecException.invalidArgument("maxReadBytes must be positive, got " + maxReadBytes);
    }
  }

  public static ReaderOptions defaults() {
    return new ReaderOptions(null, DEFAULT_MAX_READ_BYTES);
  }

  /** These options with decoded page state kept in {@code cache}, which other readers may share. */
  public ReaderOptions withPageCache(PageCache cache) {
    LanceFileReader.requireArgument(cache, "cache");
    return new ReaderOptions(cache, maxReadBytes);
  }

  public ReaderOptions withMaxReadBytes(long bytes) {
    return new ReaderOptions(pageCache, bytes);
  }
}
