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
   * Rows are visited in logical order as the decoders do; each row's lanes take one shift, with
   * the straddling rows in a loop of their own.
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
    int full = n / lanes;
    for (int b = 0; b < full; b++) {
      int s = rows[b] * w;
      int at = lanes * (s / t);
      int o = s % t;
      int i0 = b * lanes;
      if (o + w <= t) {
        for (int l = 0; l < lanes; l++) {
          words[at + l] |= ((values[i0 + l] & valueMask) << o) & wordMask;
        }
      } else {
        int back = t - o;
        for (int l = 0; l < lanes; l++) {
          long v = values[i0 + l] & valueMask;
          words[at + l] |= (v << o) & wordMask;
          words[at + lanes + l] |= v >>> back;
        }
      }
    }
    for (int i = full * lanes; i < n; i++) {
      int s = rows[i / lanes] * w;
      int at = lanes * (s / t) + i % lanes;
      int o = s % t;
      long v = values[i] & valueMask;
      words[at] |= (v << o) & wordMask;
      if (o + w > t) {
        words[at + lanes] |= v >>> (t - o);
      }
    }
    switch (t) {
      case 64:
        for (int j = 0; j < count; j++) {
          LittleEndian.putLong(out, pos + 8 * j, words[j]);
        }
        break;
      case 32:
        for (int j = 0; j < count; j++) {
          LittleEndian.putInt(out, pos + 4 * j, (int) words[j]);
        }
        break;
      default:
        for (int j = 0; j < count; j++) {
          putWord(t, out, pos + j * bytes, words[j]);
        }
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
   * {@link #unpack} for 64-bit words into {@code out[off..off+n)}, in the loop shape of
   * {@link FusedDecode} without FOR or scaling: the plain unpacking the fused decoders are
   * measured against ({@link PlainUnpack}).
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
    int full = n >>> 4;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 63;
      int p = pos + (s >>> 6) * ROW_STRIDE;
      int ob = off + 16 * r;
      if (o + w <= 64) {
        for (int l = 0; l < 16; l++) {
          out[ob + l] = (LittleEndian.getLong(src, p + 8 * l) >>> o) & mask;
        }
      } else {
        int back = 64 - o;
        for (int l = 0; l < 16; l++) {
          out[ob + l] = ((LittleEndian.getLong(src, p + 8 * l) >>> o)
              | (LittleEndian.getLong(src, p + ROW_STRIDE + 8 * l) << back)) & mask;
        }
      }
    }
    for (int i = 16 * full; i < n; i++) {
      out[off + i] = getPacked(64, src, pos, w, i);
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
    int full = n >>> 5;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 31;
      int p = pos + (s >>> 5) * ROW_STRIDE;
      int ob = off + 32 * r;
      if (o + w <= 32) {
        for (int l = 0; l < 32; l++) {
          out[ob + l] = (LittleEndian.getInt(src, p + 4 * l) >>> o) & mask;
        }
      } else {
        int back = 32 - o;
        for (int l = 0; l < 32; l++) {
          out[ob + l] = ((LittleEndian.getInt(src, p + 4 * l) >>> o)
              | (LittleEndian.getInt(src, p + ROW_STRIDE + 4 * l) << back)) & mask;
        }
      }
    }
    for (int i = 32 * full; i < n; i++) {
      out[off + i] = (int) getPacked(32, src, pos, w, i);
    }
  }

  /**
   * {@link #unpack64} for 16-bit words (the ALP-RD index stream, {@code w <= 16}) into an
   * {@code int[]} from index 0; returns the largest value, which the caller checks.
   */
  static int unpack16(byte[] src, int pos, boolean raw, int w, int n, int[] out) {
    int max = 0;
    if (raw) {
      for (int i = 0; i < n; i++) {
        int v = LittleEndian.getShort(src, pos + 2 * i) & 0xFFFF;
        out[i] = v;
        max = Math.max(max, v);
      }
      return max;
    }
    if (w == 0) {
      java.util.Arrays.fill(out, 0, n, 0);
      return 0;
    }
    int mask = (1 << w) - 1;
    int[] rows = ROWS16;
    int full = n >>> 6;
    for (int r = 0; r < full; r++) {
      int s = rows[r] * w;
      int o = s & 15;
      int p = pos + (s >>> 4) * ROW_STRIDE;
      int ob = 64 * r;
      if (o + w <= 16) {
        for (int l = 0; l < 64; l++) {
          int v = ((LittleEndian.getShort(src, p + 2 * l) & 0xFFFF) >>> o) & mask;
          out[ob + l] = v;
          max = Math.max(max, v);
        }
      } else {
        int back = 16 - o;
        for (int l = 0; l < 64; l++) {
          int v = (((LittleEndian.getShort(src, p + 2 * l) & 0xFFFF) >>> o)
              | ((LittleEndian.getShort(src, p + ROW_STRIDE + 2 * l) & 0xFFFF) << back)) & mask;
          out[ob + l] = v;
          max = Math.max(max, v);
        }
      }
    }
    for (int i = 64 * full; i < n; i++) {
      int v = (int) getPacked(16, src, pos, w, i);
      out[i] = v;
      max = Math.max(max, v);
    }
    return max;
  }

  /** Value {@code i} of one packed block of {@code t}-bit words, zero-extended. */
  static long getPacked(int t, byte[] src, int pos, int w, int i) {
    int lanes = BLOCK / t;
    int s = rows(t)[i / lanes] * w;
    int o = s % t;
    int p = pos + (s / t) * ROW_STRIDE + (t / 8) * (i % lanes);
    long v = getWord(t, src, p) >>> o;
    if (o + w > t) {
      v |= getWord(t, src, p + ROW_STRIDE) << (t - o);
    }
    return w == 64 ? v : v & ((1L << w) - 1);
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
