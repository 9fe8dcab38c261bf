package io.lancecodec.codec.pcodec;

/**
 * Writes one latent variable of a page: finds each latent's bin, tANS-encodes the bins in
 * reverse (tANS is last-in first-out) with four interleaved states, then emits batch by batch
 * the tANS bits and the offsets in the order the decoder reads them.
 *
 * <p>One int per latent carries everything the writer needs besides the latent itself:
 * {@code ansValue | renormBits << 14 | bin << 18} (tANS tables have at most 2^14 states, so at
 * most 14 bits are emitted and there are at most 2^14 bins). Offsets are computed when written.
 */
final class LatentEncoder {
  private static final int BITS_SHIFT = 14;
  private static final int BIN_SHIFT = 18;

  private final BinTrainer.Trained bins;
  private final boolean needsAns;
  private final long[] latents;
  private final int from;
  private final int n;
  private final int[] packed;
  final int[] finalStates = new int[PcoFormat.ANS_INTERLEAVING];

  /** Encodes {@code latents[from, to)}; bins must cover every one of them. */
  LatentEncoder(BinTrainer.Trained bins, long[] latents, int from, int to) {
    this.bins = bins;
    this.latents = latents;
    this.from = from;
    this.n = to - from;
    int nBins = bins.weights.length;
    this.needsAns = nBins > 1;
    this.packed = new int[n];
    int initial = 1 << bins.ansSizeLog;
    java.util.Arrays.fill(finalStates, initial);
    if (needsAns) {
      findBins(nBins);
      encodeAns(new Ans.Encoder(bins.ansSizeLog, bins.weights));
    }
  }

  /**
   * Each latent's bin: the last one whose lower bound is at most the latent, by a branchless
   * binary search over the lower bounds padded to a power of two with the largest latent, one
   * depth at a time across a batch, as pco does. Comparisons are unsigned (top bit flipped).
   */
  private void findBins(int nBins) {
    int sizeLog = 32 - Integer.numberOfLeadingZeros(nBins - 1);
    long flip = Long.MIN_VALUE;
    long[] search = new long[1 << sizeLog];
    java.util.Arrays.fill(search, -1L ^ flip);
    for (int b = 0; b < nBins; b++) {
      search[b] = bins.lowers[b] ^ flip;
    }
    long[] lat = latents;
    int[] out = packed;
    for (int start = 0; start < n; start += PcoFormat.BATCH_N) {
      int end = Math.min(n, start + PcoFormat.BATCH_N);
      for (int i = start; i < end; i++) {
        out[i] = 0;
      }
      for (int half = 1 << (sizeLog - 1); half > 0; half >>>= 1) {
        for (int i = start; i < end; i++) {
          int idx = out[i];
          long x = lat[from + i] ^ flip;
          out[i] = x >= search[idx + half] ? idx + half : idx;
        }
      }
      if (nBins < search.length) {
        for (int i = start; i < end; i++) {
          out[i] = Math.min(out[i], nBins - 1);
        }
      }
    }
  }

  /** tANS from the last latent to the first; latent i uses state i % 4. */
  private void encodeAns(Ans.Encoder ans) {
    int[] cutoff = ans.cutoff;
    int[] minRenorm = ans.minRenormBits;
    int[] nextStates = ans.nextStates;
    int nBins = cutoff.length;
    // Where a symbol's next states start, less its weight: the state after emitting renorm bits
    // of `state` for symbol s is nextStates[nextBase[s] + (state >>> renorm)].
    int[] nextBase = new int[nBins];
    for (int s = 0; s < nBins; s++) {
      nextBase[s] = ans.firstNext[s] - ans.weights[s];
    }
    int[] p = packed;
    int[] states = finalStates;
    for (int i = n - 1; i >= 0; i--) {
      int j = i & 3;
      int state = states[j];
      int sym = p[i];
      // One more bit from the cutoff on, without a branch: which side a state falls on is
      // close to a coin flip.
      int renorm = minRenorm[sym] + ((cutoff[sym] - 1 - state) >>> 31);
      p[i] = (state & ((1 << renorm) - 1)) | renorm << BITS_SHIFT | sym << BIN_SHIFT;
      states[j] = nextStates[nextBase[sym] + (state >>> renorm)];
    }
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
    // A batch writes at most 256 * (14 + 64) bits: room for it once, then no checks per value.
    // Each step adds at most 56 bits to fewer than 8 pending ones and stores all 8 bytes of the
    // accumulator, keeping the partial byte.
    w.ensure(((end - start) * (14 + 64) + 7) / 8 + 16);
    byte[] out = w.out;
    int size = w.size;
    long acc = w.acc;
    int accBits = w.accBits;
    int[] p = packed;
    if (needsAns) {
      for (int i = start; i < end; i++) {
        int v = p[i];
        acc |= (long) (v & 0x3FFF) << accBits;
        accBits += (v >>> BITS_SHIFT) & 15;
        BitWriter.LONG_LE.set(out, size, acc);
        int whole = accBits >>> 3;
        size += whole;
        acc >>>= whole << 3;
        accBits &= 7;
      }
    }
    long[] lowers = bins.lowers;
    int[] offsetBits = bins.offsetBits;
    long[] lat = latents;
    int base = from;
    if (offsetBits.length > 0) {
      for (int i = start; i < end; i++) {
        int sym = p[i] >>> BIN_SHIFT;
        int ob = offsetBits[sym];
        long offset = lat[base + i] - lowers[sym];
        if (ob > 56) {
          // Too wide for one step with up to 7 pending bits: the low half first.
          acc |= (offset & 0xFFFFFFFFL) << accBits;
          accBits += 32;
          BitWriter.LONG_LE.set(out, size, acc);
          int whole = accBits >>> 3;
          size += whole;
          acc >>>= whole << 3;
          accBits &= 7;
          offset >>>= 32;
          ob -= 32;
        }
        acc |= offset << accBits;
        accBits += ob;
        BitWriter.LONG_LE.set(out, size, acc);
        int whole = accBits >>> 3;
        size += whole;
        acc >>>= whole << 3;
        accBits &= 7;
      }
    }
    w.out = out;
    w.size = size;
    w.acc = acc;
    w.accBits = accBits;
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
