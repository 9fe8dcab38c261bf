package io.lancecodec.codec.fsst;

import io.lancecodec.spi.LittleEndian;

/**
 * Finds the longest symbol that starts at a position of the input. Multi-byte symbols are
 * bucketed by a hash of their first two bytes and kept longest first, so a lookup tests only the
 * few symbols in that bucket (a symbol with another prefix never equals the input); single-byte
 * symbols sit in a 256-entry table. Used both while a table is learnt and by the final encoder.
 * Immutable.
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

  /**
   * Buckets: 2^11 of them for at most 255 symbols, so few share one. One bucket per 2-byte prefix
   * was a 256 KiB array allocated, zeroed and looked up at random for every generation of a table
   * being learnt; with it gone and whole-word loads to the end of the array, learning a table on
   * mail subjects went from 8.7 to 8.3 ms and on mail URLs from 6.5 to 5.9 ms (medians, old and
   * new classes alternating in one JVM).
   */
  private static final int BUCKET_BITS = 11;

  private final int[] byteSymbol = new int[256];
  /** Per bucket: (first slot << 8) | symbol count, 0 for an empty bucket. */
  private final int[] buckets = new int[1 << BUCKET_BITS];
  private final long[] bucketValue;
  private final int[] bucketLength;
  private final int[] bucketSymbol;

  /** Symbol {@code i} is the low {@code lengths[i]} bytes of {@code values[i]}; higher bytes are ignored. */
  SymbolMatcher(long[] values, int[] lengths, int count) {
    java.util.Arrays.fill(byteSymbol, -1);
    // Sort keys of the multi-byte symbols: bucket, then longest first, then symbol order.
    long[] keys = new long[count];
    int multi = 0;
    for (int i = 0; i < count; i++) {
      if (lengths[i] == 1) {
        int b = (int) values[i] & 0xFF;
        if (byteSymbol[b] < 0) {
          byteSymbol[b] = i;
        }
      } else {
        keys[multi++] = ((long) bucket(values[i]) << 16) | ((long) (8 - lengths[i]) << 8) | i;
      }
    }
    java.util.Arrays.sort(keys, 0, multi);
    bucketValue = new long[multi];
    bucketLength = new int[multi];
    bucketSymbol = new int[multi];
    for (int at = 0; at < multi; at++) {
      int i = (int) keys[at] & 0xFF;
      int len = lengths[i];
      int b = (int) (keys[at] >>> 16);
      bucketValue[at] = values[i] & MASK[len];
      bucketLength[at] = len;
      bucketSymbol[at] = i;
      buckets[b] = buckets[b] == 0 ? (at << 8) | 1 : buckets[b] + 1;
    }
  }

  /** The bucket of the symbols starting with the low two bytes of {@code word}. */
  private static int bucket(long word) {
    return ((int) word & 0xFFFF) * 0x9E3779B1 >>> (32 - BUCKET_BITS);
  }

  /**
   * The little-endian word of the up to 8 bytes at {@code pos}; bytes at or past {@code end} are
   * whatever follows in the array, or zero past its end. {@link #match} never looks at them (it
   * compares only symbols no longer than what remains, and hashes the prefix only when two bytes
   * remain), so a word is one load wherever eight bytes of the array are left, also at the end of
   * a short string.
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
   * The longest symbol equal to the input at a position, or -1 if none matches.
   *
   * @param word the input's next bytes as from {@link #load}
   * @param remaining input bytes left from the position (at least 1)
   */
  int match(long word, int remaining) {
    if (remaining >= 2) {
      int bucket = buckets[bucket(word)];
      for (int k = bucket >>> 8, end = k + (bucket & 0xFF); k < end; k++) {
        int len = bucketLength[k];
        if (len <= remaining && (word & MASK[len]) == bucketValue[k]) {
          return bucketSymbol[k];
        }
      }
    }
    return byteSymbol[(int) word & 0xFF];
  }
}
