package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.LittleEndian;

/**
 * The fused decode of 2.3 Delta over a bit-packed u32 leaf (inline or out-of-line): the prefix
 * sum done while the deltas are extracted from the packed words, with kernels {@link
 * KernelGenerator} writes per width on first use, so no array of deltas is ever made; measured
 * 1.4-1.7x its composition (bench/README.md, "Fused kernels"). Dictionary indices gathered the
 * same way measured 1.0-1.3x and were dropped.
 *
 * <p>They only take the fast path: any leaf they do not know, any payload its leaf would reject,
 * and any overflow or index out of range returns false with nothing but the caller's fresh
 * output touched, and the caller then runs the composition, which decodes or throws exactly as
 * before. So every error keeps its message and the composition stays the oracle.
 */
final class Fused23 {
  private static final KernelGenerator KERNELS = FastLanes.KERNELS;

  private Fused23() {}

  /**
   * Whether composites decode through the fused kernels: on unless the system property {@code
   * lance.codec.fused} is {@code false} (read when a decoder is opened; for A/B measurements and
   * to rule the kernels out).
   */
  static boolean enabled() {
    return !"false".equals(System.getProperty("lance.codec.fused"));
  }

  /** One group of a u32 leaf: {@code count} values from {@code start}, packed at {@code width} (or raw words) at {@code s[so]}. */
  private interface Group {
    boolean accept(byte[] s, int so, int width, boolean raw, int start, int count);
  }

  /**
   * Hands each group of {@code n} values of the u32 leaf decoded by {@code leaf} from {@code
   * data[off, off + len)} to {@code g}, after the checks the leaf itself makes; false at the first
   * thing the leaf would reject, at a leaf that is not u32 bit-packing, or when {@code g} says so.
   */
  private static boolean walk(BlockDecompressor leaf, byte[] data, int off, int len, int n, Group g) {
    if (leaf.bitsPerValue() != 32 || n < 0) {
      return false;
    }
    if (leaf instanceof InlineBlock23.Decompressor inline) {
      long groups = (n + 1023L) / 1024;
      if (len < groups * 4 || len > inline.maxBytes(n)) {
        return false;
      }
      int pos = off;
      int end = off + len;
      for (int start = 0; start < n; start += 1024) {
        if (end - pos < 4) {
          return false;
        }
        long width = LittleEndian.getInt(data, pos) & 0xFFFFFFFFL;
        if (width > 32 || 4 + 128 * width > end - pos) {
          return false;
        }
        if (!g.accept(data, pos + 4, (int) width, false, start, Math.min(1024, n - start))) {
          return false;
        }
        pos += 4 + 128 * (int) width;
      }
      return pos == end;
    }
    if (leaf instanceof OutOfLineBitpackingCodec.Decompressor ool) {
      int width = ool.width();
      int full = n / 1024;
      int r = n % 1024;
      long fullBytes = (long) full * 128 * width;
      boolean raw = r > 0 && len == fullBytes + 4L * r;
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
   * 2.3 Delta of u32 values: {@code out} (n values) gets {@code base} then the running sums of
   * the leaf's {@code n - 1} deltas in {@code data}; false when the composition must decide.
   */
  static boolean delta(BlockDecompressor leaf, byte[] data, int n, long base, byte[] out) {
    LittleEndian.putInt(out, 0, (int) base);
    long[] acc = {base};
    return walk(leaf, data, 0, data.length, n - 1, (s, so, width, raw, start, count) -> {
      long a = acc[0];
      int o = 4 * (1 + start);
      if (raw) {
        for (int i = 0; i < count; i++) {
          a += LittleEndian.getInt(s, so + 4 * i) & 0xFFFFFFFFL;
          LittleEndian.putInt(out, o + 4 * i, (int) a);
        }
      } else {
        int blocks = count >>> 5;
        int i = 0;
        if (width > 0) {
          a = KERNELS.delta(width).run(s, so, out, o, a, blocks);
          i = 32 * blocks;
        }
        for (; i < count; i++) {
          a += width == 0 ? 0 : FastLanes.valueAt(s, so, 32, width, i);
          LittleEndian.putInt(out, o + 4 * i, (int) a);
        }
      }
      acc[0] = a;
      // a running sum never falls, so one test a group finds every overflow (the composition then names the value)
      return a <= 0xFFFFFFFFL;
    });
  }
}
