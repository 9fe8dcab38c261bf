package io.lancecodec.codec.alp;

/**
 * The baseline ALP decoding is measured against: the out-of-line bit-unpacking of n integers of
 * W bits (one FastLanes block, or n raw words, decided by the byte count as {@link AlpDecoder}
 * decides it) into an integer array, without FOR, Delta or scaling. Public only for the
 * benchmarks ({@code bench/.../alp/AlpBenchmark}), which read codec-alp from the class path; the
 * module exports nothing. The caller has checked the sizes.
 */
public final class PlainUnpack {
  private PlainUnpack() {}

  /** {@code bytes} bytes at {@code src[pos..]} holding n values of w bits in 64-bit words. */
  public static void unpack64(byte[] src, int pos, int bytes, int w, int n, long[] out, int off) {
    boolean raw = n < BitPacking.BLOCK && bytes == 8 * n;
    BitPacking.unpack64(src, pos, raw, w, n, out, off);
  }

  /** {@code bytes} bytes at {@code src[pos..]} holding n values of w bits in 32-bit words. */
  public static void unpack32(byte[] src, int pos, int bytes, int w, int n, int[] out, int off) {
    boolean raw = n < BitPacking.BLOCK && bytes == 4 * n;
    BitPacking.unpack32(src, pos, raw, w, n, out, off);
  }

  /**
   * {@code bytes} bytes at {@code src[pos..]} holding n values of w bits in 16-bit words (an
   * ALP-RD index stream) into {@code out[0..n)}; returns the largest.
   */
  public static int unpack16(byte[] src, int pos, int bytes, int w, int n, int[] out) {
    boolean raw = n < BitPacking.BLOCK && bytes == 2 * n;
    return BitPacking.unpack16(src, pos, raw, w, n, out);
  }
}
