package io.lancecodec.layout.planar;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.PageSource;

/** Buffers {@code [from, from + count)} of a page, seen as a page of their own (one plane's buffers). */
final class SourceSlice implements PageSource {
  private final PageSource source;
  private final int from;
  private final int count;

  SourceSlice(PageSource source, int from, int count) {
    if (from < 0 || count < 0 || from + count > source.numBuffers()) {
      throw LanceCodecException.corrupt("planar: page has " + source.numBuffers() + " buffers, its values need " + (from + count));
    }
    this.source = source;
    this.from = from;
    this.count = count;
  }

  @Override
  public int numBuffers() {
    return count;
  }

  private int at(int buffer) {
    if (buffer < 0 || buffer >= count) {
      throw LanceCodecException.corrupt("planar: value buffer " + buffer + " of " + count);
    }
    return from + buffer;
  }

  @Override
  public long bufferSize(int buffer) {
    return source.bufferSize(at(buffer));
  }

  @Override
  public byte[] read(int buffer, long offset, int length) {
    return source.read(at(buffer), offset, length);
  }

  @Override
  public void readInto(int buffer, long offset, int length, byte[] dst, int dstOff) {
    source.readInto(at(buffer), offset, length, dst, dstOff);
  }
}
