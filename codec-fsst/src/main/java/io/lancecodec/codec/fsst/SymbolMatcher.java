package io.lancecodec.codec.fsst;

import io.lancecodec.spi.LittleEndian;

/**
 * Finds the longest symbol that starts at a position of the input. Every symbol of two or more
 * bytes is reached through its exact first two bytes: one 2^16-entry table says, for each
 * 2-byte prefix, which 2-byte symbol it is (if any) and where the longer symbols with that
 * prefix sit, longest first, so a lookup tests only symbols that share the input's first two
 * bytes; single-byte symbols sit in a 256-entry table. Used both while a table is learnt and by
 * the final encoder. Immutable, except that a matcher built on a caller's scratch table must be
 * {@link #release released} before the scratch is reused.
 */
final class SymbolMatcher {
  /** MASK[len] keeps the low {@code len} bytes of a little-endian word. */
  static final long[] MASK = new long[9];

  static {
    for (int len = 0; len < 8; len++) {
      MASK[len] = (1L << (8 * len)) - 1;
    }
    MASK[8] = -1L;
  }

  /** The code of symbol 0 in {@link #match}'s answers; codes below it are escaped bytes. */
  static final int CODE_BASE = 256;

  /** Entries of {@link #prefix}, one per 2-byte prefix. */
  static final int PREFIXES = 1 << 16;

  /** Per byte: the code of its single-byte symbol, or the byte itself (an escape). */
  private final int[] byteCode = new int[256];
  /**
   * Per 2-byte prefix (first byte low): 0 when no symbol of two or more bytes starts with it,
   * else (2-byte symbol + 1, or 0) | (count of longer symbols) << 8 | (their first slot) << 16.
   * The one lookup replaced hashing the prefix into a bucket shared with other prefixes and
   * testing each of its symbols, which made encoding mail text about twice as fast.
   */
  private final int[] prefix;
  /** The prefixes set in {@link #prefix}, so that a scratch table is cleared in O(symbols). */
  private final int[] touched;
  private int touchedCount;
  private final long[] longValue;
  private final long[] longMask;
  private final int[] longLength;
  private final int[] longCode;

  /** Symbol {@code i} is the low {@code lengths[i]} bytes of {@code values[i]}; higher bytes are ignored. */
  SymbolMatcher(long[] values, int[] lengths, int count) {
    this(values, lengths, count, new int[PREFIXES]);
  }

  /**
   * As above, on {@code scratch}: {@link #PREFIXES} entries, all zero; this matcher uses it until
   * {@link #release}, which zeroes it again.
   */
  SymbolMatcher(long[] values, int[] lengths, int count, int[] scratch) {
    this.prefix = scratch;
    for (int b = 0; b < 256; b++) {
      byteCode[b] = b;
    }
    // Sort keys of the symbols of 3+ bytes: prefix, then longest first, then symbol order.
    long[] keys = new long[count];
    int multi = 0;
    int[] touched = new int[count];
    int nTouched = 0;
    for (int i = 0; i < count; i++) {
      int len = lengths[i];
      if (len == 1) {
        int b = (int) values[i] & 0xFF;
        if (byteCode[b] == b) {
          byteCode[b] = CODE_BASE + i;
        }
      } else if (len == 2) {
        int pre = (int) values[i] & 0xFFFF;
        if (scratch[pre] == 0) {
          touched[nTouched++] = pre;
        }
        if ((scratch[pre] & 0xFF) == 0) {
          scratch[pre] |= i + 1;
        }
      } else {
        keys[multi++] = ((values[i] & 0xFFFF) << 16) | ((long) (8 - len) << 8) | i;
      }
    }
    java.util.Arrays.sort(keys, 0, multi);
    longValue = new long[multi];
    longMask = new long[multi];
    longLength = new int[multi];
    longCode = new int[multi];
    for (int at = 0; at < multi; at++) {
      int i = (int) keys[at] & 0xFF;
      int len = lengths[i];
      int pre = (int) (keys[at] >>> 16);
      longValue[at] = values[i] & MASK[len];
      longMask[at] = MASK[len];
      longLength[at] = len;
      longCode[at] = CODE_BASE + i;
      int e = scratch[pre];
      if (e == 0) {
        touched[nTouched++] = pre;
      }
      scratch[pre] = (e & 0xFF00) == 0 ? (e & 0xFF) | 1 << 8 | at << 16 : e + (1 << 8);
    }
    this.touched = touched;
    this.touchedCount = nTouched;
  }

  /** Zeroes the entries this matcher set in its prefix table; the matcher must not be used after. */
  void release() {
    for (int k = 0; k < touchedCount; k++) {
      prefix[touched[k]] = 0;
    }
    touchedCount = 0;
  }

  /**
   * The little-endian word of the up to 8 bytes at {@code pos}; bytes at or past {@code end} are
   * whatever follows in the array, or zero past its end. {@link #match} never looks at them (it
   * compares only symbols no longer than what remains, and looks up the prefix only when two
   * bytes remain), so a word is one load wherever eight bytes of the array are left, also at the
   * end of a short string.
   */
  static long load(byte[] data, int pos, int end) {
    if (data.length - pos >= 8) {
      return LittleEndian.getLong(data, pos);
    }
    long w = 0;
    for (int k = end - pos - 1; k >= 0; k--) {
      w = (w << 8) | (data[pos + k] & 0xFF);
    }
    return w;
  }

  /**
   * The code of the longest symbol equal to the input at a position: {@link #CODE_BASE} + its
   * index, or the position's byte (0-255) when no symbol matches and the byte must be escaped.
   * One number for both spares the learner a branch on every match.
   *
   * @param word the input's next bytes as from {@link #load}
   * @param remaining input bytes left from the position (at least 1)
   */
  int match(long word, int remaining) {
    if (remaining >= 2) {
      int e = prefix[(int) word & 0xFFFF];
      if (e != 0) {
        if (remaining >= 3) {
          for (int k = e >>> 16, end = k + (e >>> 8 & 0xFF); k < end; k++) {
            if (longLength[k] <= remaining && (word & longMask[k]) == longValue[k]) {
              return longCode[k];
            }
          }
        }
        if ((e & 0xFF) != 0) {
          return CODE_BASE - 1 + (e & 0xFF);
        }
      }
    }
    return byteCode[(int) word & 0xFF];
  }
}
