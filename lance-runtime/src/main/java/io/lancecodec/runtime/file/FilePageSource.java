package io.lancecodec.runtime.file;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.PageSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A page's buffers in an open file. Buffer positions and sizes were checked against the file
 * length when the reader opened, and every request is checked against its buffer here.
 *
 * <p>Reads copy from a read-only mapping of the file when there is one ({@link #map}): a point
 * lookup reads a few small pieces, and a positional {@code FileChannel} read costs a system call
 * plus the channel's interruption bookkeeping per piece, more than decoding them.
 */
public final class FilePageSource implements PageSource {
  private final FileChannel channel;
  private final ByteBuffer mapped;
  private final long[] offsets;
  private final long[] sizes;
  /** Told the length of every read, for the reader's statistics. */
  private final java.util.function.LongConsumer stats;
  private final long dataEnd;

  /**
   * {@code mapped}: the whole file mapped read-only ({@link #map}), or null to read through the
   * channel; {@code dataEnd}: the end of the file's data section, for reads outside the page (blobs).
   */
  public FilePageSource(FileChannel channel, ByteBuffer mapped, long[] offsets, long[] sizes, java.util.function.LongConsumer stats, long dataEnd) {
    this.channel = channel;
    this.mapped = mapped;
    this.offsets = offsets;
    this.sizes = sizes;
    this.stats = stats;
    this.dataEnd = dataEnd;
  }

  /**
   * The file mapped read-only, or null when it cannot be (larger than one mapping, or the
   * mapping fails, e.g. at the process's limit of mappings): reads then go through the channel.
   */
  public static ByteBuffer map(FileChannel channel, long fileSize) {
    if (fileSize <= 0 || fileSize > Integer.MAX_VALUE) {
      return null;
    }
    try {
      return channel.map(FileChannel.MapMode.READ_ONLY, 0, fileSize);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  @Override
  public byte[] readExternal(long position, int length) {
    if (position < 0 || length < 0 || position > dataEnd - length) {
      throw LanceCodecException.corrupt("read of bytes [" + position + ", +" + length + ") outside the file's data (ends at " + dataEnd + ")");
    }
    stats.accept(length);
    return readFully(channel, position, length);
  }

  @Override
  public long externalEnd() {
    return dataEnd;
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
    checkRange(buffer, offset, length);
    byte[] out = new byte[length];
    readInto(buffer, offset, length, out, 0);
    return out;
  }

  private void checkRange(int buffer, long offset, int length) {
    checkIndex(buffer);
    if (offset < 0 || length < 0 || offset + length > sizes[buffer]) {
      throw LanceCodecException.corrupt(
          "read of bytes [" + offset + ", " + (offset + length) + ") outside page buffer " + buffer + " of "
              + sizes[buffer] + " bytes");
    }
  }

  @Override
  public void readInto(int buffer, long offset, int length, byte[] dst, int dstOff) {
    checkRange(buffer, offset, length);
    if (dstOff < 0 || length > dst.length - dstOff) {
      throw LanceCodecException.internal(length + " bytes do not fit at " + dstOff + " of " + dst.length);
    }
    stats.accept(length);
    long position = offsets[buffer] + offset;
    if (mapped != null) {
      try {
        // absolute bulk get: no shared position, so concurrent reads need no lock
        mapped.get((int) position, dst, dstOff, length);
      } catch (InternalError e) {
        // the JVM reports a fault in the mapping (the file shrank under us) this way
        throw new LanceCodecException(LanceCodecException.Kind.IO,
            "read failed at byte " + position + ": the file changed while open (" + e.getMessage() + ")", e);
      }
      return;
    }
    readFully(channel, position, ByteBuffer.wrap(dst, dstOff, length));
  }

  public static byte[] readFully(FileChannel channel, long position, int length) {
    byte[] out = new byte[length];
    readFully(channel, position, ByteBuffer.wrap(out));
    return out;
  }

  private static void readFully(FileChannel channel, long position, ByteBuffer b) {
    int start = b.position();
    int end = b.limit();
    try {
      while (b.hasRemaining()) {
        int r = channel.read(b, position + (b.position() - start));
        if (r < 0) {
          throw LanceCodecException.corrupt("file ends at byte " + (position + (b.position() - start)) + ", expected "
              + (position + (end - start)));
        }
      }
    } catch (IOException e) {
      throw new LanceCodecException(LanceCodecException.Kind.IO, "read failed at byte " + position + ": " + e.getMessage(), e);
    }
  }
}
