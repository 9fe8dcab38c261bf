package io.lancecodec.codec.alp;

import java.util.Arrays;

/**
 * ALP-RD for one float64 chunk (the paper's "real doubles" scheme): every 64-bit pattern splits
 * into a left part (its top {@code 64 - d} bits) and a right part (its low {@code d} bits). Left
 * parts repeat far more than whole values do, so they go to a dictionary that the chunk indexes;
 * right parts are bit-packed. The dictionary holds every distinct left part, so there are no
 * exceptions and any bit pattern, NaN payloads included, survives.
 *
 * <p>The right width is chosen by trying {@link AlpFormat#RD_RIGHT_WIDTHS} from the widest down
 * and keeping the smallest chunk; a split is only kept if it is smaller than the raw bytes.
 * Narrower right parts only make the dictionary larger, so the sweep stops as soon as even the
 * narrowest right part with the dictionary counted so far could not beat the best: for uniform
 * doubles that is after three widths. Distinct left parts of up to 16 bits are counted in a
 * bitmap (which also gives each its index, in ascending order, by rank), wider ones in a small
 * open-addressing table. Not thread-safe.
 */
final class AlpRdEncoder {
  private static final int N = AlpFormat.MAX_CHUNK_VALUES;
  /** Bitmaps of left parts of 8 bits (d = 56) and of up to 16 bits (d = 48), and the width each holds. */
  private final long[] bitmap8 = new long[4];
  private final long[] bitmap16 = new long[1 << 10];
  private int bitmap8Width = -1;
  private int bitmap16Width = -1;
  /** Prefix counts of a bitmap: the index of a left part is its rank. */
  private final int[] rank = new int[1 << 10];
  /** Words of {@link #bitmap16} that may be non-zero. */
  private final int[] touched = new int[N];
  private final int[] touched8 = new int[4];
  private int touchedCount;
  /** Index of each 8-bit left part (d = 56), from {@link #bitmap8}. */
  private final int[] index8 = new int[256];
  /**
   * Open-addressing set of wider left parts (at most 56 bits, as d &gt;= 8), each stored with the
   * current stamp in its top 8 bits: a slot with another stamp is free, so the table is only
   * cleared once every 255 uses.
   */
  private static final int TABLE = 2 * N;
  private static final long KEY = (1L << 56) - 1;
  private final long[] keys = new long[TABLE];
  private final int[] keys32 = new int[TABLE];
  private final int[] slotIndex = new int[TABLE];
  private long stamp;

  private final long[] bits = new long[N];
  private final long[] dictionary = new long[N];
  private final long[] parts = new long[N];
  private final long[] words = new long[N];

  private int count;
  private int rightWidth;
  private int dictionarySize;

  /**
   * Finds the cheapest right width for {@code v[off..off+n)}; returns the chunk's stored bytes,
   * or {@code Integer.MAX_VALUE} when no split is smaller than {@code 8 * n} raw bytes.
   */
  int choose(double[] v, int off, int n) {
    count = n;
    bitmap8Width = -1;
    bitmap16Width = -1;
    for (int i = 0; i < n; i++) {
      bits[i] = Double.doubleToRawLongBits(v[off + i]);
    }
    int best = Integer.MAX_VALUE;
    int narrowest = AlpFormat.RD_RIGHT_WIDTHS[0];
    int[] widths = AlpFormat.RD_RIGHT_WIDTHS;
    for (int j = widths.length - 1; j >= 0; j--) {
      int d = widths[j];
      // The dictionary at d has at least as many entries as at any wider split; so has every
      // narrower one, whose right parts take at least the narrowest split's bytes.
      int limit = best == Integer.MAX_VALUE ? n : maxEntries(best - packedRight(narrowest, n), n);
      int distinct = distinct(d, limit);
      if (distinct > limit) {
        break;
      }
      int size = size(d, distinct, n);
      if (size < best) {
        best = size;
        rightWidth = d;
        dictionarySize = distinct;
      }
    }
    return best < 8 * n ? best : Integer.MAX_VALUE;
  }

  /** Prepares {@link #write} with right width {@code d} (1..63), however large; returns the buffer bytes. */
  int useWidth(double[] v, int off, int n, int d) {
    count = n;
    bitmap8Width = -1;
    bitmap16Width = -1;
    for (int i = 0; i < n; i++) {
      bits[i] = Double.doubleToRawLongBits(v[off + i]);
    }
    rightWidth = d;
    dictionarySize = distinct(d, n);
    int ib = indexBits(dictionarySize);
    return BitPacking.packedBytes(64, d, n) + AlpFormat.RD_HEADER_BYTES + AlpFormat.RD_DICT_ENTRY_BYTES * dictionarySize
        + (ib == 0 ? 0 : BitPacking.packedBytes(AlpFormat.RD_INDEX_WORD_BITS, ib, n));
  }

  private static int packedRight(int d, int n) {
    return AlpFormat.storedBytes(BitPacking.packedBytes(64, d, n));
  }

  /** The most dictionary entries a chunk can have and still take fewer than {@code budget} bytes beside its right parts. */
  private static int maxEntries(int budget, int n) {
    int lo = 0;
    for (int hi = n; lo < hi; ) {
      int mid = (lo + hi + 1) >>> 1;
      if (AlpFormat.RD_HEADER_BYTES + AlpFormat.RD_DICT_ENTRY_BYTES * mid + indexBytes(mid, n) < budget) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** Distinct left parts at right width {@code d}; stops counting past {@code limit}. */
  private int distinct(int d, int limit) {
    int n = count;
    if (64 - d <= 16) {
      long[] bitmap = bitmap(d);
      // the words that become non-zero, kept for bitmap16 only (bitmap8 is cleared whole)
      int[] words = bitmap == bitmap16 ? touched : touched8;
      int distinct = 0;
      int t = 0;
      for (int i = 0; i < n; i++) {
        int left = (int) (bits[i] >>> d);
        long bit = 1L << left;
        long old = bitmap[left >>> 6];
        // Stored only when new: a store every time would chain each value to the last through
        // memory whenever they share a word, as repeated left parts mostly do.
        if ((old & bit) == 0) {
          bitmap[left >>> 6] = old | bit;
          distinct++;
          if (old == 0) {
            words[t++] = left >>> 6;
          }
        }
      }
      if (bitmap == bitmap16) {
        touchedCount = t;
      }
      return distinct;
    }
    if (d < 8) {
      return sortedDistinct(d);
    }
    long st = nextStamp();
    int distinct = 0;
    if (64 - d <= 24) {
      // 24-bit left parts and the stamp fit an int: half the table's footprint
      int st32 = (int) st << 24;
      for (int i = 0; i < n && distinct <= limit; i++) {
        int key = (int) (bits[i] >>> d);
        int slot = hash(key);
        int k;
        while (((k = keys32[slot]) & 0xFF00_0000) == st32 && (k & 0xFF_FFFF) != key) {
          slot = (slot + 1) & (TABLE - 1);
        }
        if ((k & 0xFF00_0000) != st32) {
          keys32[slot] = st32 | key;
          distinct++;
        }
      }
      return distinct;
    }
    for (int i = 0; i < n && distinct <= limit; i++) {
      long key = bits[i] >>> d;
      int slot = hash(key);
      long k;
      while ((k = keys[slot]) >>> 56 == st && (k & KEY) != key) {
        slot = (slot + 1) & (TABLE - 1);
      }
      if (k >>> 56 != st) {
        keys[slot] = st << 56 | key;
        distinct++;
      }
    }
    return distinct;
  }

  /**
   * Left parts wider than 56 bits (d &lt; 8, which the writer never chooses, but any 1..63 is
   * valid): sorted into {@link #dictionary} and made unique; returns how many.
   */
  private int sortedDistinct(int d) {
    int n = count;
    for (int i = 0; i < n; i++) {
      dictionary[i] = bits[i] >>> d;
    }
    Arrays.sort(dictionary, 0, n);
    int size = 1;
    for (int i = 1; i < n; i++) {
      if (dictionary[i] != dictionary[size - 1]) {
        dictionary[size++] = dictionary[i];
      }
    }
    return size;
  }

  /** A stamp for a new use of {@link #keys}, 1 to 255. */
  private long nextStamp() {
    if (++stamp > 255) {
      Arrays.fill(keys, 0L);
      Arrays.fill(keys32, 0);
      stamp = 1;
    }
    return stamp;
  }

  /** The cleared bitmap for left parts at right width {@code d} (48 or more), now holding that width. */
  private long[] bitmap(int d) {
    if (64 - d <= 8) {
      Arrays.fill(bitmap8, 0L);
      bitmap8Width = d;
      return bitmap8;
    }
    for (int j = 0; j < touchedCount; j++) {
      bitmap16[touched[j]] = 0;
    }
    touchedCount = 0;
    bitmap16Width = d;
    return bitmap16;
  }

  private static int bitmapWords(int d) {
    return Math.max(1, (1 << (64 - d)) >>> 6);
  }

  private static int hash(long key) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - Integer.numberOfTrailingZeros(TABLE)));
  }

  static int indexBits(int dictionarySize) {
    return AlpFormat.bitWidth(dictionarySize - 1L);
  }

  private static int indexBytes(int dictionarySize, int n) {
    int ib = indexBits(dictionarySize);
    return ib == 0 ? 0 : AlpFormat.storedBytes(BitPacking.packedBytes(AlpFormat.RD_INDEX_WORD_BITS, ib, n));
  }

  /** Stored bytes of a chunk of n values split at {@code d} with that many dictionary entries. */
  static int size(int d, int dictionarySize, int n) {
    return packedRight(d, n)
        + AlpFormat.RD_HEADER_BYTES
        + AlpFormat.RD_DICT_ENTRY_BYTES * dictionarySize
        + indexBytes(dictionarySize, n);
  }

  /** Appends the chunk chosen by the last {@link #choose} to {@code out[0..3]}; returns its buffer bytes. */
  int write(ByteSink[] out) {
    int d = rightWidth;
    int n = count;
    // The dictionary lists left parts in ascending order (as unsigned, all below 2^63 since d >= 1).
    int size;
    if (64 - d <= 16) {
      long[] bitmap = 64 - d <= 8 ? bitmap8 : bitmap16;
      if ((64 - d <= 8 ? bitmap8Width : bitmap16Width) != d) {
        distinct(d, n);
      }
      size = 0;
      int words = bitmapWords(d);
      for (int wi = 0; wi < words; wi++) {
        rank[wi] = size;
        for (long m = bitmap[wi]; m != 0; m &= m - 1) {
          dictionary[size++] = ((long) wi << 6) | Long.numberOfTrailingZeros(m);
        }
      }
      if (bitmap == bitmap8) {
        // 8-bit left parts: a table of all 256 indices, one load per value
        for (int left = 0; left < 1 << (64 - d); left++) {
          index8[left] = rank[left >>> 6] + Long.bitCount(bitmap[left >>> 6] & ((1L << left) - 1));
        }
        for (int i = 0; i < n; i++) {
          parts[i] = index8[(int) (bits[i] >>> d)];
        }
      } else {
        for (int i = 0; i < n; i++) {
          int left = (int) (bits[i] >>> d);
          parts[i] = rank[left >>> 6] + Long.bitCount(bitmap[left >>> 6] & ((1L << left) - 1));
        }
      }
    } else if (d < 8) {
      size = sortedDistinct(d);
      for (int i = 0; i < n; i++) {
        parts[i] = Arrays.binarySearch(dictionary, 0, size, bits[i] >>> d);
      }
    } else {
      long st = nextStamp();
      size = 0;
      for (int i = 0; i < n; i++) {
        long key = bits[i] >>> d;
        int slot = hash(key);
        long k;
        while ((k = keys[slot]) >>> 56 == st && (k & KEY) != key) {
          slot = (slot + 1) & (TABLE - 1);
        }
        if (k >>> 56 != st) {
          keys[slot] = st << 56 | key;
          dictionary[size++] = key;
        }
        parts[i] = slot;
      }
      Arrays.sort(dictionary, 0, size);
      for (int j = 0; j < size; j++) {
        long entry = st << 56 | dictionary[j];
        int slot = hash(dictionary[j]);
        while (keys[slot] != entry) {
          slot = (slot + 1) & (TABLE - 1);
        }
        slotIndex[slot] = j;
      }
      for (int i = 0; i < n; i++) {
        parts[i] = slotIndex[(int) parts[i]];
      }
    }
    int ib = indexBits(size);
    int indexBytes = 0;
    if (ib > 0) {
      int t = AlpFormat.RD_INDEX_WORD_BITS;
      indexBytes = BitPacking.packedBytes(t, ib, n);
      BitPacking.pack(parts, n, t, ib, out[3].reserve(indexBytes), out[3].size(), words);
      out[3].advance(indexBytes);
    }
    long rightMask = (1L << d) - 1;
    for (int i = 0; i < n; i++) {
      parts[i] = bits[i] & rightMask;
    }
    int rightBytes = BitPacking.packedBytes(64, d, n);
    BitPacking.pack(parts, n, 64, d, out[0].reserve(rightBytes), out[0].size(), words);
    out[0].advance(rightBytes);

    ByteSink header = out[1];
    header.putByte(AlpFormat.MODE_RD);
    header.putByte(d);
    header.putByte(ib);
    header.putByte(0);
    header.putInt(size);
    for (int j = 0; j < size; j++) {
      out[2].putLong(dictionary[j]);
    }
    return rightBytes + AlpFormat.RD_HEADER_BYTES + AlpFormat.RD_DICT_ENTRY_BYTES * size + indexBytes;
  }
}
