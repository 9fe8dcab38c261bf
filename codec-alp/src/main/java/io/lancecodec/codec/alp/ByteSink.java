package io.lancecodec.codec.alp;

import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;

/** A growable little-endian byte buffer: one per output buffer of a page. */
final class ByteSink {
  private byte[] data;
  private int size;

  ByteSink(int capacity) {
    data = new byte[Math.max(16, capacity)];
  }

  int size() {
    return size;
  }

  /** Forgets the contents, keeping the capacity. */
  void clear() {
    size = 0;
  }

  /** Makes room for {@code n} more bytes and returns the array to write them at {@link #size}. */
  byte[] reserve(int n) {
    if (size + n > data.length) {
      data = Arrays.copyOf(data, Math.max(size + n, data.length * 2));
    }
    return data;
  }

  /** Marks {@code n} bytes written at the old {@link #size} as used. */
  void advance(int n) {
    size += n;
  }

  void putByte(int v) {
    reserve(1)[size++] = (byte) v;
  }

  void putShort(int v) {
    LittleEndian.putShort(reserve(2), size, (short) v);
    size += 2;
  }

  void putInt(int v) {
    LittleEndian.putInt(reserve(4), size, v);
    size += 4;
  }

  void putLong(long v) {
    LittleEndian.putLong(reserve(8), size, v);
    size += 8;
  }

  /** The low {@code bytes} (4 or 8) bytes of {@code v}. */
  void putWord(int bytes, long v) {
    if (bytes == 4) {
      putInt((int) v);
    } else {
      putLong(v);
    }
  }

  byte[] toArray() {
    return Arrays.copyOf(data, size);
  }
}
