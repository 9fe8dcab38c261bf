package io.lancecodec.runtime.arrow;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.FixedWidthSink;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;

/**
 * A leaf's fixed-width values for one read, appended straight into the Arrow buffer the vector
 * then takes over: decoders write each chunk here from a small array still in cache, which saves
 * a heap array of the whole read (allocated, zeroed, written, then copied). Grows by doubling;
 * the owner closes it once the vector holds its own reference.
 */
public final class ArrowSink implements FixedWidthSink, AutoCloseable {
  private final BufferAllocator allocator;
  private ArrowBuf buf;
  private long size;

  public ArrowSink(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  @Override
  public void reserve(long bytes) {
    ensure(size + Math.max(0, bytes));
  }

  @Override
  public void append(byte[] src, int off, int len) {
    if (len <= 0) {
      return;
    }
    ensure(size + len);
    buf.setBytes(size, src, off, len);
    size += len;
  }

  /** Appends {@code len} zero bytes (the slots of values a page holds as all-null). */
  public void appendZeros(long len) {
    if (len <= 0) {
      return;
    }
    ensure(size + len);
    buf.setZero(size, len);
    size += len;
  }

  public long size() {
    return size;
  }

  /** The buffer holding the {@link #size()} bytes appended (at least one byte long). */
  ArrowBuf buffer() {
    ensure(Math.max(1, size));
    return buf;
  }

  private void ensure(long need) {
    buf = grown(allocator, buf, size, need);
  }

  /**
   * {@code buf} (null: none yet), of which {@code size} bytes are used, or a buffer of at least
   * {@code need} bytes (double the old one if that is more) holding those bytes, the old one
   * released.
   */
  static ArrowBuf grown(BufferAllocator allocator, ArrowBuf buf, long size, long need) {
    long cap = buf == null ? 0 : buf.capacity();
    if (need <= cap) {
      return buf;
    }
    if (need > Integer.MAX_VALUE - 16) {
      throw LanceCodecException.unsupported("decoded batch exceeds 2 GiB of values; use a smaller batch size");
    }
    ArrowBuf grown = allocate(allocator, Math.max(need, Math.min(Integer.MAX_VALUE - 16, cap * 2)));
    if (buf != null) {
      grown.setBytes(0, buf, 0, size);
      buf.close();
    }
    return grown;
  }

  /**
   * Read buffers at least this large (a sink's, or one a filler copies into) take memory the
   * allocator accounts for but does not pool: Arrow's Netty pool rounds such a request up to a
   * whole 4 MiB chunk of its own, made for the batch, zeroed by the JDK, and dropped again when
   * the batch is closed (a scan of 50,194 URLs in one 65,536-row batch spent a quarter of its
   * time there).
   */
  static final long UNPOOLED_MIN = 1 << 20;

  /**
   * A buffer of {@code bytes} from {@code allocator}: pooled below {@link #UNPOOLED_MIN}, above it
   * a {@link ReadBlocks} block, not zeroed (callers expose only the bytes they write), wrapped for
   * the allocator's accounting and given back when the last reference is released.
   */
  static ArrowBuf allocate(BufferAllocator allocator, long bytes) {
    if (bytes < UNPOOLED_MIN) {
      return allocator.buffer(bytes);
    }
    ReadBlocks.Block block = ReadBlocks.take(ReadBlocks.blockSize(bytes));
    try {
      return allocator.wrapForeignAllocation(new ForeignAllocation(bytes, block.address()) {
        @Override
        protected void release0() {
          ReadBlocks.give(block);
        }
      });
    } catch (RuntimeException | Error e) {
      ReadBlocks.give(block);
      throw e;
    }
  }

  @Override
  public void close() {
    if (buf != null) {
      buf.close();
      buf = null;
    }
  }
}
