package io.lancecodec.spi;

import java.lang.ref.SoftReference;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Arrays for a page's values and buffers that the writer recycles for later pages of exactly the
 * same size. A new array of a few MiB is zeroed by the JVM, and in G1 it is a humongous object:
 * writing a page of 1,048,576 uint32 values spent 0.79 ms copying its batch into a new array and
 * 0.29 ms copying it into a reused one. Writers of equal batches (most of them) make pages of
 * equal size, so an exact match is the common case; any other size is simply allocated.
 *
 * <p>A codec that allocates a page-sized output asks {@link #forPage} and then writes every byte
 * of it: a recycled array holds an earlier page's bytes. The writer gives a page's arrays back
 * with {@link #giveBack} once they are in the file; only arrays this class handed out are taken,
 * each once, so a plugin's own (or shared) arrays are never reused behind its back.
 *
 * <p>Shared by all writers of the process. The slots hold their arrays softly, so the heap can
 * take them back, and hold few, so an idle process keeps at most {@link #SLOTS} arrays of at most
 * {@link #MAX_BYTES}.
 */
public final class PageArrays {
  /** Smaller arrays are cheap enough to allocate, and would crowd out the large ones. */
  public static final int MIN_BYTES = 256 << 10;

  static final int MAX_BYTES = 64 << 20;

  static final int SLOTS = 4;

  private static final AtomicReferenceArray<SoftReference<byte[]>> SLOT = new AtomicReferenceArray<>(SLOTS);

  private static final AtomicInteger NEXT = new AtomicInteger();

  /** Arrays handed out and not given back: by identity (arrays do not override equals), weakly. */
  private static final Map<byte[], Boolean> LENT = Collections.synchronizedMap(new WeakHashMap<>());

  private PageArrays() {}

  /** An array of exactly {@code length} bytes; a recycled one keeps an earlier page's bytes. */
  public static byte[] forPage(int length) {
    if (length < MIN_BYTES || length > MAX_BYTES) {
      return new byte[length];
    }
    byte[] a = null;
    for (int i = 0; i < SLOTS && a == null; i++) {
      SoftReference<byte[]> r = SLOT.get(i);
      byte[] c = r == null ? null : r.get();
      if (c != null && c.length == length && SLOT.compareAndSet(i, r, null)) {
        a = c;
      }
    }
    if (a == null) {
      a = new byte[length];
    }
    LENT.put(a, Boolean.TRUE);
    return a;
  }

  /**
   * Takes back an array from {@link #forPage} that nothing reads or writes any more; anything
   * else, and an array given back before, is ignored.
   */
  public static void giveBack(byte[] a) {
    if (a.length < MIN_BYTES || a.length > MAX_BYTES || LENT.remove(a) == null) {
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
