package io.lancecodec.codec.bitpack;

/**
 * The FastLanes 1024-value bit-packing kernel in the exact layout the reference writes. 1024
 * unsigned values of T bits become 1024*W/T words of T bits. The values are spread over
 * {@code 1024 / T} lanes of T rows each; row r of lane l holds input
 * {@code 16 * ORDER[r / 8] + 128 * (r % 8) + l}, each lane packs its rows as a little-endian bit
 * stream, and word k of lane l is stored at {@code lanes * k + l}. The transposed order lets
 * SIMD hardware unpack all lanes at once; here it is simply a fixed permutation.
 */
final class FastLanes {
  /** The row-group order of the FastLanes "unified transposed layout"; it is its own inverse. */
  static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  /** The one generator, so every kernel class is written once per JVM; {@link Fused23} asks it for its own. */
  static final KernelGenerator KERNELS = new KernelGenerator();

  private FastLanes() {}

  /**
   * Value {@code i} (0..1023) of a packed chunk whose {@code bits}-bit little-endian words start
   * at {@code src[off]}, read alone: its lane and row invert the layout's index formula, and its
   * bits then sit at {@code row * width} in that lane's stream (spanning at most two words).
   * {@code 0 < width <= bits}; the caller checked that the words are there.
   */
  static long valueAt(byte[] src, int off, int bits, int width, int i) {
    int lanes = 1024 / bits;
    int j = i & 127;
    int t = j / lanes;
    // 16 * ORDER[q] = t * lanes names the row group q; ORDER is its own inverse
    int row = ORDER[t * lanes / 16] * 8 + (i >>> 7);
    int lane = j - t * lanes;
    int s = row * width;
    int w = s / bits;
    int bit = s - w * bits;
    int wb = bits / 8;
    long lo = io.lancecodec.spi.LittleEndian.getUnsigned(src, off + (w * lanes + lane) * wb, wb);
    long v = lo >>> bit;
    if (bit + width > bits) {
      long hi = io.lancecodec.spi.LittleEndian.getUnsigned(src, off + ((w + 1) * lanes + lane) * wb, wb);
      v |= hi << (bits - bit);
    }
    return width == 64 ? v : v & ((1L << width) - 1);
  }

  /**
   * Packs the {@code n <= 1024} values of {@code bits} bits at {@code src[srcOff]} (each below
   * 2^width) into {@code 128 * width} bytes at {@code dst[dstOff]}, with the width's kernel
   * (written on first use, {@link KernelGenerator}); fewer than 1024 values are first copied and
   * padded with zeros, as the layout wants. The caller checks both ranges; the kernel's view
   * handle checks them again.
   */
  static void pack(int bits, int width, byte[] src, int srcOff, int n, byte[] dst, int dstOff) {
    if (n < 1024) {
      int wb = bits / 8;
      byte[] padded = new byte[1024 * wb];
      System.arraycopy(src, srcOff, padded, 0, n * wb);
      src = padded;
      srcOff = 0;
    }
    KERNELS.packer(bits, width).run(src, srcOff, dst, dstOff);
  }

  /**
   * Unpacks the {@code 128 * width} packed bytes at {@code src[srcOff]} into 1024 little-endian
   * values of {@code bits} bits at {@code dst[dstOff]}, with the width's kernel (width 0
   * zero-fills). This is the hot path of scans over bit-packed integers: no intermediate word or
   * value array.
   */
  static void unpack(int bits, int width, byte[] src, int srcOff, byte[] dst, int dstOff) {
    KERNELS.unpacker(bits, width).run(src, srcOff, dst, dstOff);
  }
}
