package io.lancecodec.codec.alp;

import java.util.Arrays;

/**
 * ALP-RD for one float64 chunk (the paper's "real doubles" scheme): every 64-bit pattern splits
 * into a left part (its top {@code 64 - d} bits) and a right part (its low {@code d} bits). Left
 * parts repeat far more than whole values do, so they go to a dictionary that the chunk indexes;
 * right parts are bit-packed. The dictionary holds every distinct left part, so there are no
 * exceptions and any bit pattern, NaN payloads included, survives.
 *
 * <p>The right width is chosen by trying {@link AlpFormat#RD_RIGHT_WIDTHS} and keeping the
 * smallest chunk; a split is only kept if it is smaller than the raw bytes. Not thread-safe.
 */
final class AlpRdEncoder {
  private final long[] sorted = new long[AlpFormat.MAX_CHUNK_VALUES];
  private final long[] dictionary = new long[AlpFormat.MAX_CHUNK_VALUES];
  private final long[] parts = new long[AlpFormat.MAX_CHUNK_VALUES];
  private final long[] words = new long[AlpFormat.MAX_CHUNK_VALUES];

  private double[] values;
  private int offset;
  private int count;
  private int rightWidth;
  private int dictionarySize;

  /**
   * Finds the cheapest right width for {@code v[off..off+n)}; returns the chunk's bytes, or
   * {@code Integer.MAX_VALUE} when no split is smaller than {@code 8 * n} raw bytes.
   */
  int choose(double[] v, int off, int n) {
    load(v, off, n);
    int best = Integer.MAX_VALUE;
    for (int d : AlpFormat.RD_RIGHT_WIDTHS) {
      int distinct = distinct(d);
      int size = size(d, distinct, n);
      if (size < best) {
        best = size;
        rightWidth = d;
        dictionarySize = distinct;
      }
    }
    return best < 8 * n ? best : Integer.MAX_VALUE;
  }

  /** Prepares {@link #write} with right width {@code d} (1..63), however large; returns the bytes. */
  int useWidth(double[] v, int off, int n, int d) {
    load(v, off, n);
    rightWidth = d;
    dictionarySize = distinct(d);
    return size(d, dictionarySize, n);
  }

  private void load(double[] v, int off, int n) {
    values = v;
    offset = off;
    count = n;
    // Sorting by unsigned value sorts the left parts of every width at once: distinct left parts
    // are then the changes between neighbours.
    for (int i = 0; i < n; i++) {
      sorted[i] = Double.doubleToRawLongBits(v[off + i]) ^ Long.MIN_VALUE;
    }
    Arrays.sort(sorted, 0, n);
  }

  private int distinct(int d) {
    int distinct = 1;
    long previous = (sorted[0] ^ Long.MIN_VALUE) >>> d;
    for (int i = 1; i < count; i++) {
      long left = (sorted[i] ^ Long.MIN_VALUE) >>> d;
      distinct += left != previous ? 1 : 0;
      previous = left;
    }
    return distinct;
  }

  static int indexBits(int dictionarySize) {
    return AlpFormat.bitWidth(dictionarySize - 1L);
  }

  static int size(int d, int dictionarySize, int n) {
    int ib = indexBits(dictionarySize);
    int index = ib == 0 ? 0 : BitPacking.packedBytes(AlpFormat.RD_INDEX_WORD_BITS, ib, n);
    return BitPacking.packedBytes(64, d, n)
        + AlpFormat.RD_HEADER_BYTES
        + AlpFormat.RD_DICT_ENTRY_BYTES * dictionarySize
        + index;
  }

  /** Appends the chunk chosen by the last {@link #choose} to {@code out[0..3]}; returns its bytes. */
  int write(ByteSink[] out) {
    int d = rightWidth;
    int n = count;
    // The dictionary lists left parts in ascending order; below 2^63 (d >= 1), so signed search
    // finds them.
    int size = 0;
    long previous = -1;
    for (int i = 0; i < n; i++) {
      long left = (sorted[i] ^ Long.MIN_VALUE) >>> d;
      if (left != previous) {
        dictionary[size++] = left;
        previous = left;
      }
    }
    long rightMask = (1L << d) - 1;
    for (int i = 0; i < n; i++) {
      parts[i] = Double.doubleToRawLongBits(values[offset + i]) & rightMask;
    }
    int rightBytes = BitPacking.packedBytes(64, d, n);
    BitPacking.pack(parts, n, 64, d, out[0].reserve(rightBytes), out[0].size(), words);
    out[0].advance(rightBytes);

    int ib = indexBits(size);
    ByteSink header = out[1];
    header.putByte(AlpFormat.MODE_RD);
    header.putByte(d);
    header.putByte(ib);
    header.putByte(0);
    header.putInt(size);
    for (int j = 0; j < size; j++) {
      out[2].putLong(dictionary[j]);
    }
    if (ib > 0) {
      for (int i = 0; i < n; i++) {
        long left = Double.doubleToRawLongBits(values[offset + i]) >>> d;
        parts[i] = Arrays.binarySearch(dictionary, 0, size, left);
      }
      int t = AlpFormat.RD_INDEX_WORD_BITS;
      int indexBytes = BitPacking.packedBytes(t, ib, n);
      BitPacking.pack(parts, n, t, ib, out[3].reserve(indexBytes), out[3].size(), words);
      out[3].advance(indexBytes);
    }
    values = null;
    return size(d, size, n);
  }
}
