package io.lancecodec.spi.layout;

import io.lancecodec.spi.LanceCodecException;

/**
 * Read access to the buffers of one page in a file. The runtime bounds-checks every request
 * against the page's buffer table, so a layout cannot read outside its page.
 */
public interface PageSource {
  int numBuffers();

  long bufferSize(int buffer);

  /** Bytes {@code [offset, offset + length)} of a buffer; CORRUPT when outside it. */
  byte[] read(int buffer, long offset, int length);

  /**
   * Like {@link #read}, into {@code dst[dstOff, dstOff + length)}, which the caller sized: lets a
   * decoder reuse one array for the bytes of many reads (a scan reads about a megabyte per batch
   * per column, and a fresh array for each is allocated and zeroed first).
   */
  default void readInto(int buffer, long offset, int length, byte[] dst, int dstOff) {
    System.arraycopy(read(buffer, offset, length), 0, dst, dstOff, length);
  }

  /**
   * Bytes {@code [position, position + length)} of the file itself, for layouts whose values live
   * outside their page (blobs); CORRUPT when outside the file's data.
   */
  default byte[] readExternal(long position, int length) {
    throw LanceCodecException.unsupported("this page source cannot read values stored outside its page");
  }

  /**
   * Where the bytes {@link #readExternal} may read end (the end of the file's data), so a layout
   * can tell a description past the file (corrupt) from one merely too large to read at once.
   */
  default long externalEnd() {
    return Long.MAX_VALUE;
  }

  default byte[] readAll(int buffer) {
    return read(buffer, 0, LanceCodecException.checkedInt(bufferSize(buffer), "buffer size"));
  }
}
