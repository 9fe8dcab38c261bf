package io.lancecodec.runtime;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.PageSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A page's buffers in an open file. Buffer positions and sizes were checked against the file
 * length when the reader opened, and every request is checked against its buffer here.
 */
final class FilePageSource implements PageSource {
  private final FileChannel channel;
  private final long[] offsets;
  private final long[] sizes;
  private final ReadStats stats;

  FilePageSource(FileChannel channel, long[] offsets, long[] sizes, ReadStats stats) {
    this.channel = channel;
    this.offsets = offsets;
    this.sizes = sizes;
    this.stats = stats;
  }

  @Override
  public int numBuffers() {
    return offsets.length;
  }

  @Override
  public long bufferSize(int buffer) {
    checkIndex(buffer);
    return sizes[buffer];
  }

  private void checkIndex(int buffer) {
    if (buffer < 0 || buffer >= offsets.length) {
      throw LanceCodecException.corrupt("page buffer " + buffer + " requested, page has " + offsets.length);
    }
  }

  @Override
  public byte[] read(int buffer, long offset, int length) {
    checkIndex(buffer);
    if (offset < 0 || length < 0 || offset + length > sizes[buffer]) {
      throw LanceCodecException.corrupt(
          "read of bytes [" + offset + ", " + (offset + length) + ") outside page buffer " + buffer + " of "
              + sizes[buffer] + " bytes");
    }
    stats.record(length);
    return readFully(channel, offsets[buffer] + offset, length);
  }

  static byte[] readFully(FileChannel channel, long position, int length) {
    byte[] out = new byte[length];
    ByteBuffer b = ByteBuffer.wrap(out);
    try {
      while (b.hasRemaining()) {
        int r = channel.read(b, position + b.position());
        if (r < 0) {
          throw LanceCodecException.corrupt("file ends at byte " + (position + b.position()) + ", expected "
              + (position + length));
        }
      }
    } catch (IOException e) {
      throw new LanceCodecException(LanceCodecException.Kind.IO, "read failed at byte " + position + ": " + e.getMessage(), e);
    }
    return out;
  }
}
