package io.lancecodec.runtime.arrow;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.VariableWidthSink;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A leaf's variable-width values for one read: their bytes appended straight into the Arrow
 * data buffer the vector then takes over, their offsets (rebased, {@code width} bytes each)
 * gathered in a heap array that is copied once at the end. Decoders append a step at a time from
 * arrays still in cache, which saves a heap block of the whole read (allocated, zeroed, written,
 * then copied). The data buffer grows by doubling; the owner closes the sink once the vector
 * holds its own reference.
 */
public final class ArrowVariableSink implements VariableWidthSink, AutoCloseable {
  private final BufferAllocator allocator;
  private final int width;
  private ArrowBuf data;
  private long size;
  private byte[] offsets;
  private int count;

  /** {@code width}: 4 for string/binary offsets, 8 for large ones. */
  public ArrowVariableSink(BufferAllocator allocator, int width) {
    this.allocator = allocator;
    this.width = width;
    this.offsets = new byte[width * 1024];
  }

  @Override
  public void reserve(long bytes) {
    ensureData(size + Math.max(0, Math.min(bytes, Integer.MAX_VALUE - 16 - size)));
  }

  @Override
  public void append(DataBlock.VariableWidth block) {
    int n = LanceCodecException.checkedInt(block.numValues(), "values in one read");
    long base = block.offset(0);
    long end = block.offset(n);
    if (!(base >= 0 && base <= end && end <= block.data().length)) {
      throw LanceCodecException.corrupt("variable values [" + base + ", " + end + ") outside data of " + block.data().length + " bytes");
    }
    if (width == 4 && size + (end - base) > Integer.MAX_VALUE) {
      throw LanceCodecException.unsupported("batch has over 2 GiB of string bytes; use a smaller batch size");
    }
    LanceCodecException.checkedInt(count + (long) n, "values in one read");
    ensureData(size + (end - base));
    ensureOffsets(count + n + 1L);
    if (end > base) {
      data.setBytes(size, block.data(), (int) base, end - base);
    }
    long prev = base;
    long shift = size - base;
    for (int i = 1; i <= n; i++) {
      long o = block.offset(i);
      if (o < prev || o > end) {
        throw LanceCodecException.corrupt("variable value " + (i - 1) + " ends at " + o + ", out of order or past " + end);
      }
      prev = o;
      if (width == 4) {
        LittleEndian.putInt(offsets, (count + i) * 4, (int) (o + shift));
      } else {
        LittleEndian.putLong(offsets, (count + i) * 8, o + shift);
      }
    }
    size += end - base;
    count += n;
  }

  /** A hint past {@link #HINT_VALUES} values is taken as that many: appends still grow. */
  @Override
  public void reserveValues(long n) {
    ensureOffsets(count + 1L + Math.max(0, Math.min(n, HINT_VALUES)));
  }

  private static final int HINT_VALUES = 1 << 22;

  /** Appends {@code n} empty values (the slots of values a page holds as all-null). */
  public void appendEmpty(long n) {
    LanceCodecException.checkedInt(count + n, "values in one read");
    ensureOffsets(count + n + 1);
    for (int i = 1; i <= n; i++) {
      LittleEndian.putUnsigned(offsets, (count + i) * width, width, size);
    }
    count += (int) n;
  }

  /** Makes room for the offsets of {@code n} values in all, when the read knows how many it has. */
  public void expectValues(long n) {
    ensureOffsets(LanceCodecException.checkedInt(n + 1, "values in one read"));
  }

  /** Values appended so far. */
  public int count() {
    return count;
  }

  /** The offsets of the {@link #count()} values (count + 1 entries from 0), in a heap array possibly longer. */
  byte[] offsets() {
    return offsets;
  }

  /** Data bytes appended so far. */
  public long size() {
    return size;
  }

  /** The buffer holding the {@link #size()} data bytes appended (at least one byte long). */
  ArrowBuf data() {
    ensureData(Math.max(1, size));
    return data;
  }

  private void ensureData(long need) {
    data = ArrowSink.grown(allocator, data, size, need);
  }

  private void ensureOffsets(long entries) {
    long need = entries * width;
    if (need > offsets.length) {
      offsets = Arrays.copyOf(offsets, LanceCodecException.checkedInt(Math.max(need, offsets.length * 2L), "offsets in one read"));
    }
  }

  @Override
  public void close() {
    if (data != null) {
      data.close();
      data = null;
    }
  }
}
