package io.lancecodec.runtime.shred;

import java.lang.ref.SoftReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Large value arrays of pages already written, kept for later pages of exactly the same size. A
 * new array of a few MiB is zeroed by the JVM, and in G1 it is a humongous object: writing a page
 * of 1,048,576 uint32 values spent 0.79 ms copying its batch into a new array and 0.29 ms copying
 * it into a reused one. Writers of equal batches (most of them) make pages of equal size, so an
 * exact match is the common case; any other size is simply allocated.
 *
 * <p>Shared by all writers of the process, lock-free. An array is handed out to one caller only,
 * and given back by its one owner once nothing reads it. The slots hold their arrays softly, so
 * the heap can take them back, and hold few, so an idle process keeps at most {@link #SLOTS} of
 * at most {@link #MAX_BYTES}.
 */
final class RecycledArrays {
  /** Smaller arrays are cheap enough to allocate, and would crowd out the large ones. */
  static final int MIN_BYTES = 256 << 10;

  static final int MAX_BYTES = 64 << 20;

  static final int SLOTS = 4;

  private static final AtomicReferenceArray<SoftReference<byte[]>> SLOT = new AtomicReferenceArray<>(SLOTS);

  private static final AtomicInteger NEXT = new AtomicInteger();

  private RecycledArrays() {}

  /** An array of exactly {@code length} bytes, with arbitrary content when it is recycled. */
  static byte[] exactly(int length) {
    if (length >= MIN_BYTES) {
      for (int i = 0; i < SLOTS; i++) {
        SoftReference<byte[]> r = SLOT.get(i);
        byte[] a = r == null ? null : r.get();
        if (a != null && a.length == length && SLOT.compareAndSet(i, r, null)) {
          return a;
        }
      }
    }
    return new byte[length];
  }

  /** Gives back an array the caller no longer reads or writes, nor hands to anyone. */
  static void give(byte[] a) {
    if (a.length < MIN_BYTES || a.length > MAX_BYTES) {
      return;
    }
    SoftReference<byte[]> r = new SoftReference<>(a);
    for (int i = 0; i < SLOTS; i++) {
      SoftReference<byte[]> old = SLOT.get(i);
      if ((old == null || old.get() == null) && SLOT.compareAndSet(i, old, r)) {
        return;
      }
    }
    // all slots hold arrays: the oldest in turn makes room
    SLOT.set(Math.floorMod(NEXT.getAndIncrement(), SLOTS), r);
  }
}
