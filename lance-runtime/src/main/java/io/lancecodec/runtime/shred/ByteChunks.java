package io.lancecodec.runtime.shred;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.PageArrays;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A page's value bytes as they arrive batch by batch, joined once when the page is taken. One
 * array grown by doubling copied every byte about twice more before the page's own exact-size
 * copy; here each byte is copied from Arrow once and, when the page came in several batches, once
 * more into the page. A page written by one batch is handed over without a copy. Large arrays
 * come from, and go back to, {@link PageArrays}.
 */
final class ByteChunks {
  /** Batches smaller than this share a chunk, so one-row appends do not make one array each. */
  private static final int MIN_CHUNK = 64 * 1024;

  private static final byte[] EMPTY = new byte[0];

  private final List<byte[]> full = new ArrayList<>();
  private byte[] last = EMPTY;
  private int lastUsed;
  private long size;

  long size() {
    return size;
  }

  /** Copies {@code len} bytes of {@code src} from {@code start}. */
  void append(ArrowBuf src, long start, long len) {
    int n = LanceCodecException.checkedInt(len, "bytes of one batch");
    if (n == 0) {
      return;
    }
    if (last.length - lastUsed < n) {
      if (lastUsed > 0) {
        if (lastUsed == last.length) {
          full.add(last);
        } else {
          full.add(java.util.Arrays.copyOf(last, lastUsed));
          PageArrays.giveBack(last);
        }
      }
      last = PageArrays.forPage(Math.max(n, MIN_CHUNK));
      lastUsed = 0;
    }
    src.getBytes(start, last, lastUsed, n);
    lastUsed += n;
    size += n;
  }

  /**
   * All bytes appended since the last take, as one array of exactly {@code expected} bytes; the
   * caller gives it back ({@link PageArrays#giveBack}) once the page is written.
   */
  byte[] take(long expected) {
    if (expected != size) {
      throw LanceCodecException.internal("page of " + size + " value bytes, " + expected + " expected");
    }
    byte[] out;
    if (full.isEmpty() && lastUsed == last.length) {
      out = last;
    } else {
      out = PageArrays.forPage(LanceCodecException.checkedInt(size, "bytes of one page"));
      int at = 0;
      for (byte[] c : full) {
        System.arraycopy(c, 0, out, at, c.length);
        at += c.length;
        PageArrays.giveBack(c);
      }
      System.arraycopy(last, 0, out, at, lastUsed);
      PageArrays.giveBack(last);
    }
    full.clear();
    last = EMPTY;
    lastUsed = 0;
    size = 0;
    return out;
  }
}
