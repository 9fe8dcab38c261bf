package io.lancecodec.runtime;

import java.util.concurrent.atomic.LongAdder;

/**
 * What a reader asked of its file: one count per positional read request and the bytes it
 * returned. Every page-buffer read goes through here (a read that covers several adjacent chunks
 * counts once, with all their bytes); the footer and metadata read while opening are counted
 * too. Thread-safe and cheap enough to stay on: two uncontended adders per request.
 */
public final class ReadStats {
  private final LongAdder reads = new LongAdder();
  private final LongAdder bytes = new LongAdder();

  void record(long length) {
    reads.increment();
    bytes.add(length);
  }

  /** Read requests since the reader opened or the last {@link #reset()}. */
  public long reads() {
    return reads.sum();
  }

  /** Bytes read since the reader opened or the last {@link #reset()}. */
  public long bytes() {
    return bytes.sum();
  }

  /** Starts counting from zero (not atomic with respect to reads running concurrently). */
  public void reset() {
    reads.reset();
    bytes.reset();
  }

  @Override
  public String toString() {
    return reads() + " reads, " + bytes() + " bytes";
  }
}
