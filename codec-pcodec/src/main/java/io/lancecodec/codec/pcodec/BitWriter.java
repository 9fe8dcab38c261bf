package io.lancecodec.codec.pcodec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Little-endian bit writer into a growing byte array. */
final class BitWriter {
  static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  // Package-private so that LatentEncoder can run its batch loops on local copies.
  byte[] out;
  int size;
  /** Pending bits, fewer than 8 between calls. */
  long acc;
  int accBits;

  BitWriter(int initialCapacity) {
    out = new byte[Math.max(16, initialCapacity)];
  }

  /** Writes the low n <= 64 bits of v. */
  void write(long v, int n) {
    if (n > 56) {
      write(v, 32);
      write(v >>> 32, n - 32);
      return;
    }
    if (n == 0) {
      return;
    }
    acc |= (v & ((1L << n) - 1)) << accBits;
    accBits += n;
    // Store all 8 accumulator bytes at once (the array keeps 8 spare bytes), keep the partial one.
    ensure(8);
    LONG_LE.set(out, size, acc);
    int whole = accBits >>> 3;
    size += whole;
    acc = whole == 8 ? 0 : acc >>> (whole << 3);
    accBits &= 7;
  }

  void writeBool(boolean b) {
    write(b ? 1 : 0, 1);
  }

  /** Pads with zeros to the next byte boundary. */
  void finishByte() {
    if (accBits > 0) {
      ensure(1);
      out[size++] = (byte) acc;
      acc = 0;
      accBits = 0;
    }
  }

  void writeAlignedBytes(byte[] b) {
    finishByte();
    ensure(b.length);
    System.arraycopy(b, 0, out, size, b.length);
    size += b.length;
  }

  long bitLength() {
    return (long) size * 8 + accBits;
  }

  byte[] toByteArray() {
    finishByte();
    return Arrays.copyOf(out, size);
  }

  void ensure(int extra) {
    if (size + extra > out.length) {
      out = Arrays.copyOf(out, Math.max(out.length * 2, size + extra));
    }
  }
}
