package io.lancecodec.codec.bitpack;

/**
 * The FastLanes layout packed the plain way, one row of lanes at a time over long arrays: the
 * formula the generated packers and unpackers are checked against (itself checked bit by bit by
 * {@code FastLanesGoldenTest.slowUnpack} and against the reference's bytes).
 */
final class PlainPack {
  private static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  private PlainPack() {}

  /** Packs {@code in[0..1023]} (already below 2^width) into {@code 1024 * width / bits} words. */
  static void pack(int bits, int width, long[] in, long[] words) {
    int lanes = 1024 / bits;
    int nWords = lanes * width;
    java.util.Arrays.fill(words, 0, nWords, 0L);
    if (width == 0) {
      return;
    }
    long wordMask = bits == 64 ? -1L : (1L << bits) - 1;
    int shift = Integer.numberOfTrailingZeros(bits);
    for (int r = 0; r < bits; r++) {
      int s = r * width;
      int o1 = (s >>> shift) * lanes;
      int bit = s & (bits - 1);
      int base = 16 * ORDER[r >>> 3] + 128 * (r & 7);
      for (int l = 0; l < lanes; l++) {
        words[o1 + l] |= (in[base + l] << bit) & wordMask;
      }
      if (bit + width > bits) {
        int o2 = o1 + lanes;
        int down = bits - bit;
        for (int l = 0; l < lanes; l++) {
          words[o2 + l] |= in[base + l] >>> down;
        }
      }
    }
  }

}
