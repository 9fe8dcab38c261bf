package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.LittleEndian;

/**
 * The fused decode of 2.3 Delta over a bit-packed leaf (inline or out-of-line, u32 or u64): the
 * prefix sum done while the deltas are extracted from the packed words, with kernels {@link
 * KernelGenerator} writes per width on first use, so no array of deltas is ever made; measured
 * 1.4-2.3x its composition (bench/README.md, "Fused kernels"). Dictionary indices gathered the
 * same way measured 0.97-1.45x (mostly 1.0-1.3x) and were dropped.
 *
 * <p>It only takes the fast path: any leaf it does not know, any payload its leaf would reject,
 * any overflow, and u64 groups wider than 53 bits (whose sums could wrap more than once in a
 * group) return false with nothing but the caller's fresh output touched, and the caller then
 * runs the composition, which decodes or throws exactly as before. So every error keeps its
 * message and the composition stays the oracle.
 */
final class Fused23 {
  private static final KernelGenerator KERNELS = FastLanes.KERNELS;

  /** The widest u64 group the fused path sums: 1024 deltas below 2^53 add less than 2^63, so a sum wraps at most once. */
  private static final int MAX_WIDTH_64 = 53;

  private Fused23() {}

  /** One group of a leaf: {@code count} values from {@code start}, packed at {@code width} (or raw words) at {@code s[so]}. */
  private interface Group {
    boolean accept(byte[] s, int so, int width, boolean raw, int start, int count);
  }

  /**
   * Hands each group of {@code n} values of the u32 or u64 leaf decoded by {@code leaf} from
   * {@code data[off, off + len)} to {@code g}, after the checks the leaf itself makes; false at
   * the first thing the leaf would reject, at a leaf that is not bit-packing, or when {@code g}
   * says so.
   */
  private static boolean walk(BlockDecompressor leaf, byte[] data, int off, int len, int n, Group g) {
    int bits = leaf.bitsPerValue();
    int wb = bits / 8;
    if ((bits != 32 && bits != 64) || n < 0) {
      return false;
    }
    if (leaf instanceof InlineBlock23.Decompressor inline) {
      long groups = (n + 1023L) / 1024;
      if (len < groups * wb || len > inline.maxBytes(n)) {
        return false;
      }
      int pos = off;
      int end = off + len;
      for (int start = 0; start < n; start += 1024) {
        if (end - pos < wb) {
          return false;
        }
        long width = LittleEndian.getUnsigned(data, pos, wb);
        if (width < 0 || width > bits || wb + 128 * width > end - pos) {
          return false;
        }
        if (!g.accept(data, pos + wb, (int) width, false, start, Math.min(1024, n - start))) {
          return false;
        }
        pos += wb + 128 * (int) width;
      }
      return pos == end;
    }
    if (leaf instanceof OutOfLineBitpackingCodec.Decompressor ool) {
      int width = ool.width();
      int full = n / 1024;
      int r = n % 1024;
      long fullBytes = (long) full * 128 * width;
      boolean raw = r > 0 && len == fullBytes + (long) wb * r;
      if (!(raw || len == fullBytes + (r > 0 ? 128L * width : 0))) {
        return false;
      }
      for (int start = 0; start < n; start += 1024) {
        if (!g.accept(data, off + 128 * width * (start / 1024), width, raw && start == 1024 * full, start,
            Math.min(1024, n - start))) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * 2.3 Delta of {@code bits}-bit values (the leaf's width): {@code out} (n values) gets {@code
   * base} then the running sums of the leaf's {@code n - 1} deltas in {@code data}; false when the
   * composition must decide.
   */
  static boolean delta(BlockDecompressor leaf, byte[] data, int n, long base, byte[] out) {
    int bits = leaf.bitsPerValue();
    if (bits != 32 && bits != 64) {
      return false; // a metadata-only leaf (Constant) reports no width
    }
    int wb = bits / 8;
    LittleEndian.putUnsigned(out, 0, wb, base);
    long[] acc = {base};
    return walk(leaf, data, 0, data.length, n - 1, (s, so, width, raw, start, count) -> {
      long a = acc[0];
      int o = wb * (1 + start);
      if (raw) {
        for (int i = 0; i < count; i++) {
          long step = LittleEndian.getUnsigned(s, so + wb * i, wb);
          if (bits == 64 && Long.compareUnsigned(step, -1L - a) > 0) {
            return false;
          }
          a += step;
          LittleEndian.putUnsigned(out, o + wb * i, wb, a);
        }
      } else {
        if (bits == 64 && width > MAX_WIDTH_64) {
          return false;
        }
        long first = a;
        int i = 0;
        if (width > 0) {
          int blocks = count / (1024 / bits);
          a = KERNELS.delta(bits, width).run(s, so, out, o, a, blocks);
          i = blocks * (1024 / bits);
        }
        for (; i < count; i++) {
          a += width == 0 ? 0 : FastLanes.valueAt(s, so, bits, width, i);
          LittleEndian.putUnsigned(out, o + wb * i, wb, a);
        }
        // a running sum never falls, so one test a group finds every overflow (the composition then names the value)
        if (bits == 64 && Long.compareUnsigned(a, first) < 0) {
          return false;
        }
      }
      acc[0] = a;
      return bits == 64 || a <= 0xFFFFFFFFL;
    });
  }
}
