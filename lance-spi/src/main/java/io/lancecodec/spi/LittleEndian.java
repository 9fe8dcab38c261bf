package io.lancecodec.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Bounds-checked little-endian access to byte arrays. The JIT intrinsifies these view handles
 * into plain loads and stores, so codecs get speed without {@code Unsafe}.
 */
public final class LittleEndian {
  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private LittleEndian() {}

  public static short getShort(byte[] b, int off) {
    return (short) SHORT.get(b, off);
  }

  public static int getInt(byte[] b, int off) {
    return (int) INT.get(b, off);
  }

  public static long getLong(byte[] b, int off) {
    return (long) LONG.get(b, off);
  }

  public static void putShort(byte[] b, int off, short v) {
    SHORT.set(b, off, v);
  }

  public static void putInt(byte[] b, int off, int v) {
    INT.set(b, off, v);
  }

  public static void putLong(byte[] b, int off, long v) {
    LONG.set(b, off, v);
  }

  /** Reads an unsigned little-endian integer of {@code bytes} (1, 2, 4 or 8) bytes. */
  public static long getUnsigned(byte[] b, int off, int bytes) {
    switch (bytes) {
      case 1:
        return b[off] & 0xFFL;
      case 2:
        return getShort(b, off) & 0xFFFFL;
      case 4:
        return getInt(b, off) & 0xFFFFFFFFL;
      case 8:
        return getLong(b, off);
      default:
        throw LanceCodecException.internal("little-endian width " + bytes + " is not 1, 2, 4 or 8");
    }
  }

  /** Writes the low {@code bytes} (1, 2, 4 or 8) bytes of {@code v}. */
  public static void putUnsigned(byte[] b, int off, int bytes, long v) {
    switch (bytes) {
      case 1:
        b[off] = (byte) v;
        break;
      case 2:
        putShort(b, off, (short) v);
        break;
      case 4:
        putInt(b, off, (int) v);
        break;
      case 8:
        putLong(b, off, v);
        break;
      default:
        throw LanceCodecException.internal("little-endian width " + bytes + " is not 1, 2, 4 or 8");
    }
  }
}
