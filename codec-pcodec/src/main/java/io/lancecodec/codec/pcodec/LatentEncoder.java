package io.lancecodec.codec.pcodec;

/**
 * Writes one latent variable of a page: finds each latent's bin, tANS-encodes the bins in
 * reverse (tANS is last-in first-out) with four interleaved states, then emits batch by batch
 * the tANS bits and the offsets in the order the decoder reads them.
 */
final class LatentEncoder {
  private final BinTrainer.Trained bins;
  private final Ans.Encoder ans;
  private final boolean needsAns;
  private final long[] latents;
  private final int from;
  private final int n;

  private int[] ansVals;
  private byte[] ansBits;
  private long[] offsets;
  private byte[] offsetBits;
  final int[] finalStates = new int[PcoFormat.ANS_INTERLEAVING];

  /** Encodes {@code latents[from, to)}; bins must cover every one of them. */
  LatentEncoder(BinTrainer.Trained bins, long[] latents, int from, int to) {
    this.bins = bins;
    this.latents = latents;
    this.from = from;
    this.n = to - from;
    int nBins = bins.weights.length;
    this.needsAns = nBins != 1;
    this.ans = new Ans.Encoder(bins.ansSizeLog, nBins == 0 ? new int[] {1} : bins.weights);
    dissect();
  }

  private int binOf(long latent) {
    long[] lowers = bins.lowers;
    int lo = 0;
    int hi = lowers.length - 1;
    while (lo < hi) {
      int m = (lo + hi + 1) >>> 1;
      if (Long.compareUnsigned(lowers[m], latent) <= 0) {
        lo = m;
      } else {
        hi = m - 1;
      }
    }
    return lo;
  }

  private void dissect() {
    int nBins = bins.weights.length;
    offsets = new long[n];
    offsetBits = new byte[n];
    int[] symbols = new int[n];
    for (int i = 0; i < n; i++) {
      long l = latents[from + i];
      int s = nBins <= 1 ? 0 : binOf(l);
      symbols[i] = s;
      offsets[i] = nBins == 0 ? 0 : l - bins.lowers[s];
      offsetBits[i] = (byte) (nBins == 0 ? 0 : bins.offsetBits[s]);
    }
    int initial = ans.initialState();
    for (int j = 0; j < PcoFormat.ANS_INTERLEAVING; j++) {
      finalStates[j] = initial;
    }
    if (!needsAns) {
      return;
    }
    ansVals = new int[n];
    ansBits = new byte[n];
    for (int i = n - 1; i >= 0; i--) {
      int j = i & 3;
      int state = finalStates[j];
      int renorm = ans.renormBits(state, symbols[i]);
      ansVals[i] = state & ((1 << renorm) - 1);
      ansBits[i] = (byte) renorm;
      finalStates[j] = ans.next(state, symbols[i], renorm);
    }
  }

  int ansSizeLog() {
    return bins.ansSizeLog;
  }

  /** Writes the four tANS start states as the decoder expects them: indices into the table. */
  void writeStates(BitWriter w) {
    int size = 1 << bins.ansSizeLog;
    for (int s : finalStates) {
      w.write(s - size, bins.ansSizeLog);
    }
  }

  /** Writes latents {@code [start, end)} (relative to this variable's first latent). */
  void writeBatch(BitWriter w, int start, int end) {
    end = Math.min(end, n);
    if (start >= end) {
      return;
    }
    if (needsAns) {
      for (int i = start; i < end; i++) {
        w.write(ansVals[i], ansBits[i]);
      }
    }
    for (int i = start; i < end; i++) {
      w.write(offsets[i], offsetBits[i]);
    }
  }

  /** The reference's estimate of bits per latent from the quantized weights. */
  static double avgBitsPerLatent(BinTrainer.Trained bins) {
    double total = (double) (1L << bins.ansSizeLog);
    double sum = 0;
    for (int i = 0; i < bins.weights.length; i++) {
      double ansBits = bins.ansSizeLog - Math.log(bins.weights[i]) / Math.log(2.0);
      sum += (ansBits + bins.offsetBits[i]) * bins.weights[i] / total;
    }
    return sum;
  }
}
