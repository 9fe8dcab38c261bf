package io.lancecodec.codec.pcodec;

import io.lancecodec.spi.LanceCodecException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian bit reader over the caller's input, without copying it.
 *
 * <p>The hot loops load a whole {@code long} at any position and check the position only once
 * per batch: a batch of one latent variable reads at most about 2.5 KiB, so callers check
 * {@link #checkInBounds} after each batch. Loads near the end of the input would leave it, so
 * once the position comes within {@link #PAD} bytes of the end, {@link #prepare} moves the
 * reader onto a zero-padded copy of the rest (a few KiB at most). Positions are relative to
 * {@link #buf}; {@link #base} is the bit of the input where {@code buf} starts.
 */
final class BitReader {
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * Room for the largest batch of one latent variable, tANS codes and offsets together
   * (256 * (14 + 64) bits = 2,496 bytes), plus two loads: one {@link #prepare} per batch will do.
   */
  static final int PAD = 4096;

  byte[] buf;
  long endBit;
  long bitPos;
  long base;
  /** Beyond this bit a load could leave the input: time to move onto the padded copy. */
  private long directLimit;

  BitReader(byte[] src, int off, int len) {
    if (len <= 2 * PAD) {
      buf = new byte[len + PAD];
      System.arraycopy(src, off, buf, 0, len);
      endBit = (long) len * 8;
      base = (long) off * 8;
      directLimit = Long.MAX_VALUE;
    } else {
      buf = src;
      bitPos = (long) off * 8;
      endBit = (long) (off + len) * 8;
      directLimit = endBit - 8L * PAD;
    }
  }

  /** Called before each latent variable's batch and each generic read: keeps loads inside {@link #buf}. */
  void prepare() {
    if (bitPos > directLimit) {
      movePadded();
    }
  }

  private void movePadded() {
    long startByte = bitPos >>> 3;
    int remaining = (int) Math.max(0, (endBit >>> 3) - startByte);
    byte[] tail = new byte[remaining + PAD];
    System.arraycopy(buf, (int) startByte, tail, 0, remaining);
    buf = tail;
    bitPos -= startByte * 8;
    endBit -= startByte * 8;
    base += startByte * 8;
    directLimit = Long.MAX_VALUE;
  }

  long loadLong(long byteIdx) {
    return (long) LONG_LE.get(buf, (int) byteIdx);
  }

  /** Reads n <= 57 bits; the caller has made sure they lie within the pad. */
  long read(int n) {
    prepare();
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
          "pcodec: truncated input: " + what + " ends at bit " + (base + bitPos) + " of " + (base + endBit));
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
