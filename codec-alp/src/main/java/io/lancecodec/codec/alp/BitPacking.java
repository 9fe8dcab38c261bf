package io.lancecodec.codec.alp;

import io.lancecodec.spi.LittleEndian;

/**
 * The out-of-line bit-packing layout of Lance 2.1 (FastLanes' transposed 1024-value kernel, see
 * {@code docs/wire/codecs.md} §1.1 and §1.6), for T-bit words with T in {16, 32, 64}. A chunk of
 * n &lt;= 1024 values is either one kernel block of {@code 128 * w} bytes, the values zero-padded
 * to 1024, or, when padding would cost more bits than packing saves, the n values as raw T-bit
 * little-endian words.
 *
 * <p>Kernel geometry: lane {@code l} (of 1024 / T) holds rows {@code r = 0..T-1}; value
 * {@code index(r, l) = 16 * ORDER[r / 8] + 128 * (r % 8) + l}. For a fixed row the lanes hold
 * consecutive indices, so walking rows in the order of their first index visits values in their
 * logical order: {@link #rows} gives that order, and the decoders here emit values in order,
 * which lets Delta and short chunks stop early without a scatter.
 */
final class BitPacking {
  static final int BLOCK = 1024;

  /** FastLanes' row-group permutation (its own inverse). */
  private static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  private static final int[] ROWS16 = rowOrder(16);
  private static final int[] ROWS32 = rowOrder(32);
  private static final int[] ROWS64 = rowOrder(64);

  /** Bytes from one packed word to the same lane's next word: 1024 / T lanes of T / 8 bytes. */
  static final int ROW_STRIDE = 128;

  private BitPacking() {}

  static int index(int row, int lane) {
    return 16 * ORDER[row / 8] + 128 * (row % 8) + lane;
  }

  /** {@code rows(t)[b]} is the row whose lanes hold values {@code b * lanes .. b * lanes + lanes - 1}. */
  static int[] rows(int t) {
    switch (t) {
      case 16:
        return ROWS16;
      case 32:
        return ROWS32;
      case 64:
        return ROWS64;
      default:
        throw new IllegalArgumentException("word width " + t);
    }
  }

  private static int[] rowOrder(int t) {
    int lanes = BLOCK / t;
    int[] rows = new int[t];
    for (int r = 0; r < t; r++) {
      rows[index(r, 0) / lanes] = r;
    }
    return rows;
  }

  /**
   * Upstream's tail rule: a short chunk is packed (padded) only when the padding costs fewer bits
   * than packing saves; ties stay raw. Full chunks are always packed.
   */
  static boolean rawTail(int t, int w, int n) {
    return n < BLOCK && (long) w * (BLOCK - n) >= (long) (t - w) * n;
  }

  static int packedBytes(int t, int w, int n) {
    return rawTail(t, w, n) ? n * (t / 8) : 128 * w;
  }

  /**
   * Writes the low {@code w} bits of {@code values[0..n)} at {@code out[pos..]} and returns the
   * byte count; {@code words} is scratch of at least 1024 entries. Values must fit in T bits.
   */
  static int pack(long[] values, int n, int t, int w, byte[] out, int pos, long[] words) {
    int bytes = t / 8;
    if (rawTail(t, w, n)) {
      for (int i = 0; i < n; i++) {
        putWord(t, out, pos + i * bytes, values[i]);
      }
      return n * bytes;
    }
    if (w == 0) {
      return 0;
    }
    int lanes = BLOCK / t;
    int count = lanes * w;
    java.util.Arrays.fill(words, 0, count, 0L);
    long wordMask = t == 64 ? -1L : (1L << t) - 1;
    long valueMask = w == 64 ? -1L : (1L << w) - 1;
    int[] rows = rows(t);
    for (int b = 0, i = 0; i < n; b++) {
      int s = rows[b] * w;
      int at = lanes * (s / t);
      int o = s % t;
      boolean spill = o + w > t;
      for (int end = Math.min(n, i + lanes); i < end; i++, at++) {
        long v = values[i] & valueMask;
        words[at] |= (v << o) & wordMask;
        if (spill) {
          words[at + lanes] |= v >>> (t - o);
        }
      }
    }
    for (int j = 0; j < count; j++) {
      putWord(t, out, pos + j * bytes, words[j]);
    }
    return count * bytes;
  }

  /**
   * Reads {@code n} values written by {@link #pack} into {@code out}, zero-extended: {@code n}
   * raw words when {@code raw}, else one packed block. The caller has checked that {@code src}
   * holds that many bytes from {@code pos}.
   */
  static void unpack(byte[] src, int pos, boolean raw, int t, int w, int n, long[] out) {
    int bytes = t / 8;
    if (raw) {
      for (int i = 0; i < n; i++) {
        out[i] = getWord(t, src, pos + i * bytes);
      }
      return;
    }
    if (w == 0) {
      java.util.Arrays.fill(out, 0, n, 0L);
      return;
    }
    int lanes = BLOCK / t;
    long valueMask = w == 64 ? -1L : (1L << w) - 1;
    int[] rows = rows(t);
    for (int b = 0, i = 0; i < n; b++) {
      int s = rows[b] * w;
      int o = s % t;
      boolean spill = o + w > t;
      int p = pos + (s / t) * ROW_STRIDE;
      for (int end = Math.min(n, i + lanes); i < end; i++, p += bytes) {
        long v = getWord(t, src, p) >>> o;
        if (spill) {
          v |= getWord(t, src, p + ROW_STRIDE) << (t - o);
        }
        out[i] = v & valueMask;
      }
    }
  }

  /**
   * {@link #unpack} for 64-bit words into {@code out[off..off+n)}, in the loop shape of the fused
   * decoders without FOR or scaling: the plain-unpacking baseline they are measured against.
   */
  static void unpack64(byte[] src, int pos, boolean raw, int w, int n, long[] out, int off) {
    if (raw) {
      for (int i = 0; i < n; i++) {
        out[off + i] = LittleEndian.getLong(src, pos + 8 * i);
      }
      return;
    }
    if (w == 0) {
      java.util.Arrays.fill(out, off, off + n, 0L);
      return;
    }
    long mask = w == 64 ? -1L : (1L << w) - 1;
    int[] rows = ROWS64;
    for (int r = 0, i = 0; i < n; r++) {
      int s = rows[r] * w;
      int o = s & 63;
      boolean spill = o + w > 64;
      int p = pos + (s >>> 6) * ROW_STRIDE;
      for (int end = Math.min(n, i + 16); i < end; i++, p += 8) {
        long v = LittleEndian.getLong(src, p) >>> o;
        if (spill) {
          v |= LittleEndian.getLong(src, p + ROW_STRIDE) << (64 - o);
        }
        out[off + i] = v & mask;
      }
    }
  }

  /** {@link #unpack64} for 32-bit words into an {@code int[]}. */
  static void unpack32(byte[] src, int pos, boolean raw, int w, int n, int[] out, int off) {
    if (raw) {
      for (int i = 0; i < n; i++) {
        out[off + i] = LittleEndian.getInt(src, pos + 4 * i);
      }
      return;
    }
    if (w == 0) {
      java.util.Arrays.fill(out, off, off + n, 0);
      return;
    }
    int mask = w == 32 ? -1 : (1 << w) - 1;
    int[] rows = ROWS32;
    for (int r = 0, i = 0; i < n; r++) {
      int s = rows[r] * w;
      int o = s & 31;
      boolean spill = o + w > 32;
      int p = pos + (s >>> 5) * ROW_STRIDE;
      for (int end = Math.min(n, i + 32); i < end; i++, p += 4) {
        int v = LittleEndian.getInt(src, p) >>> o;
        if (spill) {
          v |= LittleEndian.getInt(src, p + ROW_STRIDE) << (32 - o);
        }
        out[off + i] = v & mask;
      }
    }
  }

  /** Word {@code t} bits wide at byte {@code p}, zero-extended. */
  static long getWord(int t, byte[] b, int p) {
    switch (t) {
      case 16:
        return LittleEndian.getShort(b, p) & 0xFFFFL;
      case 32:
        return LittleEndian.getInt(b, p) & 0xFFFF_FFFFL;
      default:
        return LittleEndian.getLong(b, p);
    }
  }

  static void putWord(int t, byte[] b, int p, long v) {
    switch (t) {
      case 16:
        LittleEndian.putShort(b, p, (short) v);
        break;
      case 32:
        LittleEndian.putInt(b, p, (int) v);
        break;
      default:
        LittleEndian.putLong(b, p, v);
    }
  }
}
