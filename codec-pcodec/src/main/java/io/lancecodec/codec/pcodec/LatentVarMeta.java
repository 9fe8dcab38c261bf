package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

/**
 * One latent variable's part of the chunk metadata: the tANS size and the bins. A bin covers
 * latents {@code [lower, lower + 2^offsetBits)}; its weight is its share of the tANS table.
 */
final class LatentVarMeta {
  /** Width of this variable's latents: the number's width, or 32 for dict indices and lookbacks. */
  final int bits;
  final int ansSizeLog;
  final int[] weights;
  final long[] lowers;
  final int[] offsetBits;

  LatentVarMeta(int bits, int ansSizeLog, int[] weights, long[] lowers, int[] offsetBits) {
    this.bits = bits;
    this.ansSizeLog = ansSizeLog;
    this.weights = weights;
    this.lowers = lowers;
    this.offsetBits = offsetBits;
  }

  int nBins() {
    return weights.length;
  }

  long mask() {
    return bits == 64 ? -1L : (1L << bits) - 1;
  }

  static int offsetBitsWidth(int bits) {
    return 32 - Integer.numberOfLeadingZeros(bits);
  }

  /** Bits one bin takes in the metadata. */
  static int binBitSize(int ansSizeLog, int bits) {
    return ansSizeLog + bits + offsetBitsWidth(bits);
  }

  static LatentVarMeta read(BitReader r, int bits, String name) {
    r.need(PcoFormat.ANS_SIZE_LOG_BITS + PcoFormat.N_BINS_BITS, name + " bin count");
    int ansSizeLog = r.readInt(PcoFormat.ANS_SIZE_LOG_BITS);
    int nBins = r.readInt(PcoFormat.N_BINS_BITS);
    check(ansSizeLog <= PcoFormat.MAX_ANS_SIZE_LOG,
        "pcodec: " + name + " ANS size log " + ansSizeLog + " exceeds " + PcoFormat.MAX_ANS_SIZE_LOG);
    check(nBins <= 1 << ansSizeLog,
        "pcodec: " + name + " has " + nBins + " bins, more than its ANS table of 2^" + ansSizeLog);
    check(nBins != 1 || ansSizeLog == 0,
        "pcodec: " + name + " has 1 bin but ANS size log " + ansSizeLog + " (must be 0)");
    r.need((long) nBins * binBitSize(ansSizeLog, bits), name + " bins");
    int obWidth = offsetBitsWidth(bits);
    int[] weights = new int[nBins];
    long[] lowers = new long[nBins];
    int[] offsetBits = new int[nBins];
    long weightSum = 0;
    for (int i = 0; i < nBins; i++) {
      weights[i] = r.readInt(ansSizeLog) + 1;
      lowers[i] = r.readWide(bits);
      offsetBits[i] = r.readInt(obWidth);
      check(offsetBits[i] <= bits,
          "pcodec: " + name + " bin " + i + " has " + offsetBits[i] + " offset bits, above the latent's " + bits);
      weightSum += weights[i];
    }
    long tableSize = 1L << ansSizeLog;
    check(nBins == 0 ? ansSizeLog == 0 : weightSum == tableSize,
        "pcodec: " + name + " bin weights sum to " + weightSum + ", not the ANS table size " + tableSize);
    return new LatentVarMeta(bits, ansSizeLog, weights, lowers, offsetBits);
  }

  void write(BitWriter w) {
    w.write(ansSizeLog, PcoFormat.ANS_SIZE_LOG_BITS);
    w.write(weights.length, PcoFormat.N_BINS_BITS);
    int obWidth = offsetBitsWidth(bits);
    for (int i = 0; i < weights.length; i++) {
      w.write(weights[i] - 1, ansSizeLog);
      w.write(lowers[i], bits);
      w.write(offsetBits[i], obWidth);
    }
  }

  /** Exact metadata bits, for the encoder's size estimates. */
  long bitSize() {
    return PcoFormat.ANS_SIZE_LOG_BITS + PcoFormat.N_BINS_BITS + (long) weights.length * binBitSize(ansSizeLog, bits);
  }
}
