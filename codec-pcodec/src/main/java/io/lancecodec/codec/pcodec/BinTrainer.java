package io.lancecodec.codec.pcodec;

/**
 * Chooses a latent variable's bins as pco does (facts from pcodec/pcodec
 * {@code bin_optimization.rs}, {@code ans/encoding.rs}): an equal-count {@link Histogram} of
 * 2^binsLog bins that keeps runs of one value together, then an exact
 * dynamic program that merges neighbouring bins when the estimated total bits shrink, then tANS
 * weights quantized to a table of at most 2^(binsLog + 2) (capped at 2^12 and at n).
 */
final class BinTrainer {
  /** Bits per number a single bin may cost more and still win: it decodes faster. */
  private static final float SINGLE_BIN_SPEEDUP_BITS = 0.1f;
  /** Same for bins that are all single values (no offsets to read). */
  private static final float TRIVIAL_OFFSET_SPEEDUP_BITS = 0.1f;
  private static final int MAX_ESTIMATED_ANS_SIZE_LOG = 12;

  /** The result: final bins, the unquantized count of each, and the tANS size log. */
  static final class Trained {
    final int ansSizeLog;
    final int[] weights;
    final long[] lowers;
    final int[] offsetBits;
    final int[] counts;

    Trained(int ansSizeLog, int[] weights, long[] lowers, int[] offsetBits, int[] counts) {
      this.ansSizeLog = ansSizeLog;
      this.weights = weights;
      this.lowers = lowers;
      this.offsetBits = offsetBits;
      this.counts = counts;
    }

    LatentVarMeta meta(int bits) {
      return new LatentVarMeta(bits, ansSizeLog, weights, lowers, offsetBits);
    }
  }

  private BinTrainer() {}

  static Trained train(long[] latents, int from, int to, int bits, int binsLog) {
    int n = to - from;
    if (n == 0) {
      return new Trained(0, new int[0], new long[0], new int[0], new int[0]);
    }
    Histogram h = Histogram.of(latents, from, to, bits, binsLog);
    int nLogCeil = n <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(n - 1L);
    int estimated = Math.min(Math.min(binsLog + 2, MAX_ESTIMATED_ANS_SIZE_LOG), nLogCeil);
    int[] parts = optimize(h, bits, estimated);
    int nBins = parts.length / 2;
    int[] counts = new int[nBins];
    long[] lowers = new long[nBins];
    int[] offsetBits = new int[nBins];
    for (int b = 0; b < nBins; b++) {
      int j = parts[2 * b];
      int i = parts[2 * b + 1];
      int c = 0;
      for (int k = j; k <= i; k++) {
        c += h.counts[k];
      }
      counts[b] = c;
      lowers[b] = h.lowers[j];
      offsetBits[b] = bitsToEncode(h.uppers[i] - h.lowers[j]);
    }
    int[] sizeLog = new int[1];
    int[] weights = Ans.quantizeWeights(counts, n, estimated, sizeLog);
    return new Trained(sizeLog[0], weights, lowers, offsetBits, counts);
  }

  static int bitsToEncode(long maxOffset) {
    return 64 - Long.numberOfLeadingZeros(maxOffset);
  }

  /**
   * Pco's fast log2 for positive normal floats: exact at powers of two, continuous, within
   * 0.0076 elsewhere. The constants are part of its cost model, so we reproduce them.
   */
  static float log2Approx(float x) {
    final float z = 0.674f;
    final int signifMask = 0x7FFFFF;
    final int zSignif = Float.floatToRawIntBits(z) & signifMask;
    final float b = 2.0f / z;
    final float c = -b / (6.0f * z);
    final float a = -b - c;
    int bitsX = Float.floatToRawIntBits(x);
    int exp = bitsX >>> 23;
    int signif = bitsX & signifMask;
    int high = signif > zSignif ? 1 : 0;
    int logInt = exp + high - 127;
    float normalized = Float.intBitsToFloat(((0x7F ^ high) << 23) | signif);
    return (float) logInt + a + normalized * (b + c * normalized);
  }

  private static float binCost(float metaCost, long lower, long upper, int count, float totalLog2) {
    float ansCost = totalLog2 - log2Approx((float) count);
    float offsetCost = (float) bitsToEncode(upper - lower);
    return metaCost + (ansCost + offsetCost) * (float) count;
  }

  /** Returns pairs (first, last) of histogram bins to merge, in order. */
  private static int[] optimize(Histogram h, int bits, int ansSizeLog) {
    int m = h.size;
    long[] lowers = h.lowers;
    long[] uppers = h.uppers;
    int[] cCounts = new int[m + 1];
    float[] bestCosts = new float[m + 1];
    for (int i = 0; i < m; i++) {
      cCounts[i + 1] = cCounts[i] + h.counts[i];
    }
    int total = cCounts[m];
    float totalLog2 = log2Approx((float) total);
    float metaCost = (float) LatentVarMeta.binBitSize(ansSizeLog, bits);
    int[] bestJ = new int[m];
    for (int i = 0; i < m; i++) {
      float best = Float.MAX_VALUE;
      int bestJi = -1;
      long upper = uppers[i];
      int cI = cCounts[i + 1];
      for (int j = i; j >= 0; j--) {
        float cost = bestCosts[j] + binCost(metaCost, lowers[j], upper, cI - cCounts[j], totalLog2);
        if (cost < best) {
          best = cost;
          bestJi = j;
        }
      }
      bestCosts[i + 1] = best;
      bestJ[i] = bestJi;
    }
    float bestCost = bestCosts[m];
    float singleCost = binCost(metaCost, lowers[0], uppers[m - 1], total, totalLog2);
    if (singleCost < bestCost + SINGLE_BIN_SPEEDUP_BITS * (float) total) {
      return new int[] {0, m - 1};
    }
    boolean allSingleValues = true;
    float trivialCost = 0f;
    for (int i = 0; i < m; i++) {
      allSingleValues &= lowers[i] == uppers[i];
      trivialCost += binCost(metaCost, lowers[i], uppers[i], h.counts[i], totalLog2);
    }
    if (allSingleValues && trivialCost < bestCost + TRIVIAL_OFFSET_SPEEDUP_BITS * (float) total) {
      int[] parts = new int[2 * m];
      for (int i = 0; i < m; i++) {
        parts[2 * i] = i;
        parts[2 * i + 1] = i;
      }
      return parts;
    }
    int[] reversed = new int[2 * m];
    int k = 0;
    int i = m - 1;
    while (true) {
      int j = bestJ[i];
      reversed[k++] = j;
      reversed[k++] = i;
      if (j == 0) {
        break;
      }
      i = j - 1;
    }
    int[] parts = new int[k];
    for (int p = 0; p < k / 2; p++) {
      parts[2 * p] = reversed[k - 2 - 2 * p];
      parts[2 * p + 1] = reversed[k - 1 - 2 * p];
    }
    return parts;
  }
}
