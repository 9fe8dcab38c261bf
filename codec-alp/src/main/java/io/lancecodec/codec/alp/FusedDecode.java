package io.lancecodec.codec.alp;

import io.lancecodec.spi.LittleEndian;

/**
 * The hot loops of the decoder: one pass per chunk that reads each packed word, extracts the
 * value, undoes FOR or Delta and scales it back to a float, with no intermediate integer array.
 * Rows of the FastLanes block are visited in logical order (see {@link BitPacking}), so the
 * inner loop walks one row across its lanes, reading consecutive words: the shift and the
 * "value straddles two words" test are constant across it. Callers have validated every size.
 */
final class FusedDecode {
  private FusedDecode() {}

  /**
   * float64 ALP. FOR: {@code q = base + v}. Delta: {@code q_0 = base + v_0},
   * {@code q_i = q_(i-1) + step + v_i}, all wrapping. Then {@code q / m1} when {@code div},
   * else {@code q * m1 * m2}, left to right.
   */
  static void alp64(byte[] b, int p0, boolean raw, int w, int n, boolean delta, long base, long step,
      boolean div, double m1, double m2, double[] out, int oo) {
    long acc = delta ? base - step : base;
    if (raw || w == 0) {
      for (int i = 0; i < n; i++) {
        long v = raw ? LittleEndian.getLong(b, p0 + 8 * i) : 0L;
        long q;
        if (delta) {
          acc += step + v;
          q = acc;
        } else {
          q = acc + v;
        }
        out[oo + i] = div ? q / m1 : q * m1 * m2;
      }
      return;
    }
    long mask = w == 64 ? -1L : (1L << w) - 1;
    int[] rows = BitPacking.rows(64);
    for (int r = 0, i = 0; i < n; r++) {
      int s = rows[r] * w;
      int o = s & 63;
      boolean spill = o + w > 64;
      int p = p0 + (s >>> 6) * BitPacking.ROW_STRIDE;
      for (int end = Math.min(n, i + 16); i < end; i++, p += 8) {
        long v = LittleEndian.getLong(b, p) >>> o;
        if (spill) {
          v |= LittleEndian.getLong(b, p + BitPacking.ROW_STRIDE) << (64 - o);
        }
        v &= mask;
        long q;
        if (delta) {
          acc += step + v;
          q = acc;
        } else {
          q = acc + v;
        }
        out[oo + i] = div ? q / m1 : q * m1 * m2;
      }
    }
  }

  /** float32 ALP: {@link #alp64} with 32-bit words, int arithmetic and float scaling. */
  static void alp32(byte[] b, int p0, boolean raw, int w, int n, boolean delta, int base, int step,
      boolean div, float m1, float m2, float[] out, int oo) {
    int acc = delta ? base - step : base;
    if (raw || w == 0) {
      for (int i = 0; i < n; i++) {
        int v = raw ? LittleEndian.getInt(b, p0 + 4 * i) : 0;
        int q;
        if (delta) {
          acc += step + v;
          q = acc;
        } else {
          q = acc + v;
        }
        out[oo + i] = div ? q / m1 : q * m1 * m2;
      }
      return;
    }
    int mask = w == 32 ? -1 : (1 << w) - 1;
    int[] rows = BitPacking.rows(32);
    for (int r = 0, i = 0; i < n; r++) {
      int s = rows[r] * w;
      int o = s & 31;
      boolean spill = o + w > 32;
      int p = p0 + (s >>> 5) * BitPacking.ROW_STRIDE;
      for (int end = Math.min(n, i + 32); i < end; i++, p += 4) {
        int v = LittleEndian.getInt(b, p) >>> o;
        if (spill) {
          v |= LittleEndian.getInt(b, p + BitPacking.ROW_STRIDE) << (32 - o);
        }
        v &= mask;
        int q;
        if (delta) {
          acc += step + v;
          q = acc;
        } else {
          q = acc + v;
        }
        out[oo + i] = div ? q / m1 : q * m1 * m2;
      }
    }
  }

  /**
   * float64 ALP-RD: the bits of value i are {@code left[index[i]] | right_i}, where
   * {@code left} holds the dictionary's entries already shifted up by {@code d}.
   */
  static void rd64(byte[] b, int p0, boolean raw, int d, int n, long[] index, long[] left,
      double[] out, int oo) {
    long mask = (1L << d) - 1;
    if (raw) {
      for (int i = 0; i < n; i++) {
        long v = LittleEndian.getLong(b, p0 + 8 * i) & mask;
        out[oo + i] = Double.longBitsToDouble(left[(int) index[i]] | v);
      }
      return;
    }
    int[] rows = BitPacking.rows(64);
    for (int r = 0, i = 0; i < n; r++) {
      int s = rows[r] * d;
      int o = s & 63;
      boolean spill = o + d > 64;
      int p = p0 + (s >>> 6) * BitPacking.ROW_STRIDE;
      for (int end = Math.min(n, i + 16); i < end; i++, p += 8) {
        long v = LittleEndian.getLong(b, p) >>> o;
        if (spill) {
          v |= LittleEndian.getLong(b, p + BitPacking.ROW_STRIDE) << (64 - o);
        }
        out[oo + i] = Double.longBitsToDouble(left[(int) index[i]] | (v & mask));
      }
    }
  }
}
