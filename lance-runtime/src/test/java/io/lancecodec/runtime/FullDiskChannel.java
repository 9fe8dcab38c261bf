package io.lancecodec.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/** A file channel on a disk that fills up after {@code capacity} bytes: writes past it throw, as ENOSPC does. */
final class FullDiskChannel extends FileChannel {
  private final FileChannel inner;
  private final long capacity;

  FullDiskChannel(FileChannel inner, long capacity) {
    this.inner = inner;
    this.capacity = capacity;
  }

  private int room(ByteBuffer src, long at) throws IOException {
    if (at + src.remaining() > capacity) {
      // like a real full disk: what fits is written, then the call fails
      int fits = (int) Math.max(0, capacity - at);
      ByteBuffer part = src.duplicate();
      part.limit(part.position() + fits);
      inner.write(part, at);
      throw new IOException("No space left on device");
    }
    return src.remaining();
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    room(src, inner.position());
    return inner.write(src);
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    room(src, position);
    return inner.write(src, position);
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    long n = 0;
    for (int i = offset; i < offset + length; i++) {
      n += write(srcs[i]);
    }
    return n;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    return inner.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    return inner.read(dsts, offset, length);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    return inner.read(dst, position);
  }

  @Override
  public long position() throws IOException {
    return inner.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    inner.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return inner.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    inner.truncate(size);
    return this;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    inner.force(metaData);
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
    return inner.transferTo(position, count, target);
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
    throw new IOException("not used by the writer");
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    return inner.map(mode, position, size);
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    return inner.lock(position, size, shared);
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    return inner.tryLock(position, size, shared);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    inner.close();
  }
}
