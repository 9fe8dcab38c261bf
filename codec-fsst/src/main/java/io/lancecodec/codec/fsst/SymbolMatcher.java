package io.lancecodec.codec.fsst;

import io.lancecodec.spi.LittleEndian;

/**
 * Finds the longest symbol that starts at a position of the input. Multi-byte symbols are
 * bucketed by their first two bytes and kept longest first, so a lookup tests only the few
 * symbols sharing that prefix; single-byte symbols sit in a 256-entry table. Used both while a
 * table is learnt and by the final encoder. Immutable.
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

  private final int[] byteSymbol = new int[256];
  private final int[] bucketStart = new int[65536 + 1];
  private final long[] bucketValue;
  private final int[] bucketLength;
  private final int[] bucketSymbol;

  /** Symbol {@code i} is the low {@code lengths[i]} bytes of {@code values[i]}; higher bytes are ignored. */
  SymbolMatcher(long[] values, int[] lengths, int count) {
    java.util.Arrays.fill(byteSymbol, -1);
    int multi = 0;
    for (int i = 0; i < count; i++) {
      if (lengths[i] == 1) {
        int b = (int) values[i] & 0xFF;
        if (byteSymbol[b] < 0) {
          byteSymbol[b] = i;
        }
      } else {
        bucketStart[(int) values[i] & 0xFFFF]++;
        multi++;
      }
    }
    int sum = 0;
    for (int p = 0; p <= 65536; p++) {
      int c = p < 65536 ? bucketStart[p] : 0;
      bucketStart[p] = sum;
      sum += c;
    }
    bucketValue = new long[multi];
    bucketLength = new int[multi];
    bucketSymbol = new int[multi];
    int[] fill = new int[65536];
    for (int i = 0; i < count; i++) {
      int len = lengths[i];
      if (len == 1) {
        continue;
      }
      int prefix = (int) values[i] & 0xFFFF;
      int at = bucketStart[prefix] + fill[prefix]++;
      // Insertion keeps each bucket sorted by length, longest first, earlier symbol first on ties.
      while (at > bucketStart[prefix] && bucketLength[at - 1] < len) {
        bucketValue[at] = bucketValue[at - 1];
        bucketLength[at] = bucketLength[at - 1];
        bucketSymbol[at] = bucketSymbol[at - 1];
        at--;
      }
      bucketValue[at] = values[i] & MASK[len];
      bucketLength[at] = len;
      bucketSymbol[at] = i;
    }
  }

  /** The little-endian word of the up to 8 bytes at {@code pos}, zero-filled past {@code end}. */
  static long load(byte[] data, int pos, int end) {
    if (end - pos >= 8) {
      return LittleEndian.getLong(data, pos);
    }
    long w = 0;
    for (int k = end - pos - 1; k >= 0; k--) {
      w = (w << 8) | (data[pos + k] & 0xFF);
    }
    return w;
  }

  /**
   * The longest symbol equal to the input at a position, or -1 if none matches.
   *
   * @param word the input's next bytes as from {@link #load}
   * @param remaining input bytes left from the position (at least 1)
   */
  int match(long word, int remaining) {
    if (remaining >= 2) {
      int prefix = (int) word & 0xFFFF;
      for (int k = bucketStart[prefix], end = bucketStart[prefix + 1]; k < end; k++) {
        int len = bucketLength[k];
        if (len <= remaining && (word & MASK[len]) == bucketValue[k]) {
          return bucketSymbol[k];
        }
      }
    }
    return byteSymbol[(int) word & 0xFF];
  }
}
