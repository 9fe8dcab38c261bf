package io.lancecodec.layout.physical;

import io.lancecodec.spi.LanceCodecException;

/**
 * Arrays a read reuses from batch to batch on its thread instead of a fresh zeroed one each time.
 * A thread runs one read at a time, and nothing a read returns refers to them (what is decoded
 * from them is copied out).
 */
final class ThreadArrays {
  private ThreadArrays() {}

  /** The thread's array in {@code slot} if it holds {@code need} bytes, else a new one, kept when at most {@code keep}. */
  static byte[] bytes(ThreadLocal<byte[]> slot, long need, int keep) {
    byte[] a = slot.get();
    if (a == null || a.length < need) {
      a = new byte[LanceCodecException.checkedInt(need, "bytes of one read")];
      if (need <= keep) {
        slot.set(a);
      }
    }
    return a;
  }
}
