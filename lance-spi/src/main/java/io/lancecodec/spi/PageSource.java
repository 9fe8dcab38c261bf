package io.lancecodec.spi;

/**
 * Read access to the buffers of one page in a file. The runtime bounds-checks every request
 * against the page's buffer table, so a layout cannot read outside its page.
 */
public interface PageSource {
  int numBuffers();

  long bufferSize(int buffer);

  /** Bytes {@code [offset, offset + length)} of a buffer; CORRUPT when outside it. */
  byte[] read(int buffer, long offset, int length);

  default byte[] readAll(int buffer) {
    return read(buffer, 0, LanceCodecException.checkedInt(bufferSize(buffer), "buffer size"));
  }
}
