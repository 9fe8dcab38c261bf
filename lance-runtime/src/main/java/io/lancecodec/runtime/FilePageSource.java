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
  private final long dataEnd;

  FilePageSource(FileChannel channel, long[] offsets, long[] sizes) {
    this(channel, offsets, sizes, 0);
  }

  /** With {@code dataEnd}, the end of the file's data section, for reads outside the page (blobs). */
  FilePageSource(FileChannel channel, long[] offsets, long[] sizes, long dataEnd) {
    this.channel = channel;
    this.offsets = offsets;
    this.sizes = sizes;
    this.dataEnd = dataEnd;
  }

  @Override
  public byte[] readExternal(long position, int length) {
    if (position < 0 || length < 0 || position > dataEnd - length) {
      throw LanceCodecException.corrupt("read of bytes [" + position + ", +" + length + ") outside the file's data (ends at " + dataEnd + ")");
    }
    return readFully(channel, position, length);
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
