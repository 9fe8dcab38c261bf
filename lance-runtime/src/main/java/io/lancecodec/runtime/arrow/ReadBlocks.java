package io.lancecodec.runtime.arrow;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Native blocks of 1 MiB or more that read buffers live in, kept after a batch is closed for the
 * next batch to reuse. Handing them back to malloc made each batch of a scan touch fresh pages:
 * glibc returns a freed block of this size to the kernel (unmapped, or trimmed from the top of a
 * thread's arena), and every 4 KiB page of the next batch's buffer then costs a page fault. On
 * this VM that was 7,500 faults and 70 ms for a 25 MB batch of float vectors that copies in 3 ms,
 * in some JVMs and not others, depending on which arena the scanning thread drew.
 *
 * <p>At most {@link #LIMIT} bytes are kept, process-wide ({@code -Dlancecodec.read.blockCache=BYTES},
 * default 64 MiB; 0 keeps none): blocks freed beyond it go back to malloc, oldest first.
 * A block is reused for a request of at least four fifths its size, so a buffer never wastes more
 * than a quarter of what it asks for.
 */
final class ReadBlocks {
  static final long LIMIT = Math.max(0, Long.getLong("lancecodec.read.blockCache", 64L << 20));

  /** Sizes are rounded up to this, so batches of the same shape ask for the same size. */
  private static final long GRANULE = 64 << 10;

  private static final int SLOTS = 16;

  // Oldest first; a small array scanned under the lock: taking or giving a block happens once per
  // megabyte or more of a batch.
  private static final Block[] kept = new Block[SLOTS];
  private static int count;
  private static long held;

  private ReadBlocks() {}

  /** A block's size for a request of {@code bytes}. */
  static long blockSize(long bytes) {
    return (bytes + GRANULE - 1) & -GRANULE;
  }

  /** A native block: where it starts and how many bytes it has. */
  record Block(long address, long size) {}

  /**
   * A block of {@code size} bytes (a {@link #blockSize} result) or a little more, reused or newly
   * allocated; its contents are whatever was there.
   */
  static Block take(long size) {
    synchronized (ReadBlocks.class) {
      int best = -1;
      for (int i = 0; i < count; i++) {
        long s = kept[i].size;
        if (s >= size && s - s / 5 <= size && (best < 0 || s < kept[best].size)) {
          best = i;
        }
      }
      if (best >= 0) {
        Block b = kept[best];
        held -= b.size;
        remove(best);
        return b;
      }
    }
    return new Block(MemoryUtil.allocateMemory(size), size);
  }

  /** Gives back a block {@link #take} handed out. */
  static void give(Block b) {
    if (b.size <= LIMIT) {
      synchronized (ReadBlocks.class) {
        while (count > 0 && (count == SLOTS || held + b.size > LIMIT)) {
          MemoryUtil.freeMemory(kept[0].address);
          held -= kept[0].size;
          remove(0);
        }
        kept[count++] = b;
        held += b.size;
        return;
      }
    }
    MemoryUtil.freeMemory(b.address);
  }

  /** Bytes kept for reuse now. */
  static synchronized long held() {
    return held;
  }

  private static void remove(int i) {
    System.arraycopy(kept, i + 1, kept, i, count - i - 1);
    kept[--count] = null;
  }
}
