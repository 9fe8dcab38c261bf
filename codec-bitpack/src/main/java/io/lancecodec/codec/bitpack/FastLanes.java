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
  private static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  /** INDEX[t][r * lanes + l] = input index of row r of lane l, for T = 8 << t. */
  private static final int[][] INDEX = new int[4][];

  static {
    for (int t = 0; t < 4; t++) {
      int bits = 8 << t;
      int lanes = 1024 / bits;
      int[] idx = new int[1024];
      for (int r = 0; r < bits; r++) {
        for (int l = 0; l < lanes; l++) {
          idx[r * lanes + l] = 16 * ORDER[r / 8] + 128 * (r % 8) + l;
        }
      }
      INDEX[t] = idx;
    }
  }

  private FastLanes() {}

  static int[] index(int bits) {
    return INDEX[Integer.numberOfTrailingZeros(bits) - 3];
  }

  /** Packs {@code in[0..1023]} (already below 2^width) into {@code 1024 * width / bits} words. */
  static void pack(int bits, int width, long[] in, long[] words) {
    int lanes = 1024 / bits;
    int nWords = lanes * width;
    java.util.Arrays.fill(words, 0, nWords, 0L);
    if (width == 0) {
      return;
    }
    long wordMask = bits == 64 ? -1L : (1L << bits) - 1;
    int[] idx = index(bits);
    for (int l = 0; l < lanes; l++) {
      int s = 0;
      for (int r = 0; r < bits; r++, s += width) {
        long v = in[idx[r * lanes + l]];
        int k = s / bits;
        int o = s % bits;
        words[lanes * k + l] |= (v << o) & wordMask;
        if (o + width > bits) {
          words[lanes * (k + 1) + l] |= v >>> (bits - o);
        }
      }
    }
  }

  /**
   * Unpacks a chunk of 32-bit words straight from little-endian bytes into {@code out[0..1023]}:
   * the hot path of scans over bit-packed ints, so it walks each lane with a running bit offset
   * instead of dividing per value.
   */
  static void unpack32(byte[] src, int off, int width, int[] words, int[] out) {
    if (width == 0) {
      java.util.Arrays.fill(out, 0, 1024, 0);
      return;
    }
    java.nio.ByteBuffer.wrap(src, off, 128 * width).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(words, 0, 32 * width);
    int[] idx = INDEX[2];
    int mask = width == 32 ? -1 : (1 << width) - 1;
    for (int l = 0; l < 32; l++) {
      int k = 0;
      int bit = 0;
      int cur = words[l];
      for (int r = 0; r < 32; r++) {
        int end = bit + width;
        int v;
        if (end < 32) {
          v = (cur >>> bit) & mask;
          bit = end;
        } else if (end == 32) {
          v = (cur >>> bit) & mask;
          bit = 0;
          if (++k < width) {
            cur = words[32 * k + l];
          }
        } else {
          int low = cur >>> bit;
          cur = words[32 * ++k + l];
          v = (low | (cur << (32 - bit))) & mask;
          bit = end - 32;
        }
        out[idx[r * 32 + l]] = v;
      }
    }
  }

  /** Unpacks {@code 1024 * width / bits} words into {@code out[0..1023]}. */
  static void unpack(int bits, int width, long[] words, long[] out) {
    if (width == 0) {
      java.util.Arrays.fill(out, 0, 1024, 0L);
      return;
    }
    int lanes = 1024 / bits;
    long mask = width == 64 ? -1L : (1L << width) - 1;
    int[] idx = index(bits);
    for (int l = 0; l < lanes; l++) {
      int k = 0;
      int bit = 0;
      long cur = words[l];
      for (int r = 0; r < bits; r++) {
        int end = bit + width;
        long v;
        if (end < bits) {
          v = (cur >>> bit) & mask;
          bit = end;
        } else if (end == bits) {
          v = (cur >>> bit) & mask;
          bit = 0;
          if (++k < width) {
            cur = words[lanes * k + l];
          }
        } else {
          long low = cur >>> bit;
          cur = words[lanes * ++k + l];
          v = (low | (cur << (bits - bit))) & mask;
          bit = end - bits;
        }
        out[idx[r * lanes + l]] = v;
      }
    }
  }
}
