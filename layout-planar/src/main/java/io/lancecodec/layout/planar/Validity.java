package io.lancecodec.layout.planar;

import java.util.Arrays;

/**
 * One sparse validity set over a domain {@code [0, size)}: sorted positions that are null (when
 * {@link #storesNulls}) or valid (otherwise); every other position has the opposite state.
 */
record Validity(boolean storesNulls, int[] positions) {
  static final Validity ALL_VALID = new Validity(true, new int[0]);

  boolean isNull(int p) {
    return (Arrays.binarySearch(positions, p) >= 0) == storesNulls;
  }

  /** Whether any position of a domain of {@code size} is null. */
  boolean anyNull(long size) {
    return storesNulls ? positions.length > 0 : positions.length < size;
  }

  /** The first index into {@link #positions} at or after {@code p}. */
  int from(int p) {
    int i = Arrays.binarySearch(positions, p);
    return i >= 0 ? i : -i - 1;
  }

  /**
   * Clears, in {@code bits} (one bit per position of the domain from {@code base}), the positions
   * in {@code [from, to)} that this set makes null.
   */
  void clearNulls(long[] bits, int from, int to) {
    int i = from(from);
    if (storesNulls) {
      for (; i < positions.length && positions[i] < to; i++) {
        int p = positions[i];
        bits[p >>> 6] &= ~(1L << p);
      }
      return;
    }
    int at = from;
    for (; i < positions.length && positions[i] < to; i++) {
      Bits.clear(bits, at, positions[i]);
      at = positions[i] + 1;
    }
    Bits.clear(bits, at, to);
  }
}
