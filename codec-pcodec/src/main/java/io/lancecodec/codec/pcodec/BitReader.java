package io.lancecodec.codec.pcodec;

import io.lancecodec.spi.LanceCodecException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian bit reader over a private, zero-padded copy of the input.
 *
 * <p>The padding lets the hot loops load a whole {@code long} at any position without bounds
 * checks of their own: a batch of one latent variable reads at most about 2.5 KiB, so callers
 * check {@link #checkInBounds} after each batch and the reads in between stay inside the pad.
 */
final class BitReader {
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Room for the largest batch of one latent variable (256 * (14 + 64) bits) plus a load. */
  static final int PAD = 4096;

  final byte[] buf;
  final long endBit;
  long bitPos;

  BitReader(byte[] src, int off, int len) {
    buf = new byte[len + PAD];
    System.arraycopy(src, off, buf, 0, len);
    endBit = (long) len * 8;
  }

  long loadLong(long byteIdx) {
    return (long) LONG_LE.get(buf, (int) byteIdx);
  }

  /** Reads n <= 57 bits; the caller has made sure they lie within the pad. */
  long read(int n) {
    long word = loadLong(bitPos >>> 3) >>> (bitPos & 7);
    bitPos += n;
    return word & ((1L << n) - 1);
  }

  /** Reads n <= 64 bits. */
  long readWide(int n) {
    if (n <= 56) {
      return read(n);
    }
    long low = read(32);
    return low | (read(n - 32) << 32);
  }

  int readInt(int n) {
    return (int) read(n);
  }

  boolean readBool() {
    return read(1) != 0;
  }

  long bitsLeft() {
    return endBit - bitPos;
  }

  /** Fails unless {@code bits} more bits are present: the guard before any sized allocation. */
  void need(long bits, String what) {
    if (bits < 0 || bits > endBit - bitPos) {
      throw LanceCodecException.corrupt(
          "pcodec: truncated input: " + what + " needs " + bits + " bits, " + Math.max(0, endBit - bitPos) + " left");
    }
  }

  void checkInBounds(String what) {
    if (bitPos > endBit) {
      throw LanceCodecException.corrupt(
          "pcodec: truncated input: " + what + " ends at bit " + bitPos + " of " + endBit);
    }
  }

  /** Skips to the next byte boundary; the skipped bits must be zero. */
  void alignZeros(String what) {
    checkInBounds(what);
    int rem = (int) (bitPos & 7);
    if (rem != 0) {
      if (read(8 - rem) != 0) {
        throw LanceCodecException.corrupt("pcodec: nonzero padding bits after " + what);
      }
    }
  }

  int readAlignedByte(String what) {
    need(8, what);
    int b = buf[(int) (bitPos >>> 3)] & 0xFF;
    bitPos += 8;
    return b;
  }
}
