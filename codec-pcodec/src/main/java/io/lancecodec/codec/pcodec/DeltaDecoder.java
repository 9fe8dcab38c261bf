package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

/**
 * Undoes one latent variable's delta encoding batch by batch, carrying its state across batches
 * of a page. Each page starts from {@code stateN} latents stored in its metadata; the decoded
 * output lags the stored deltas by {@code stateN}, so the first outputs are those stored latents
 * and the last {@code stateN} positions of a page's final batch hold no deltas at all.
 */
final class DeltaDecoder {
  private final DeltaEncoding enc;
  private final long mask;
  private final long mid;
  final int stateN;

  /** Consecutive: the running moments. Conv1: the last {@code order} latents. */
  private long[] state;
  private long[] convBuf;
  /**
   * Lookback: a ring of decoded latents indexed by page position (stored state at positions
   * 0..stateN-1, positions before 0 read as 0). It grows with the latents actually decoded, up to
   * the window plus a batch, so a file cannot make us allocate for a window it never fills.
   */
  private long[] ring;
  private long ringLimit;
  private long pos;
  private long windowN;

  DeltaDecoder(DeltaEncoding enc, int bits) {
    this.enc = enc;
    this.mask = bits == 64 ? -1L : (1L << bits) - 1;
    this.mid = 1L << (bits - 1);
    this.stateN = enc.primaryStateN();
    if (enc.kind == PcoFormat.DELTA_CONV1) {
      convBuf = new long[stateN + PcoFormat.BATCH_N];
    }
  }

  /** Starts a page of {@code pageN} numbers from the latents stored in its metadata. */
  void startPage(long[] stored, int pageN) {
    switch (enc.kind) {
      case PcoFormat.DELTA_CONSECUTIVE:
      case PcoFormat.DELTA_CONV1:
        state = stored;
        break;
      case PcoFormat.DELTA_LOOKBACK:
        windowN = 1L << enc.windowLog;
        ringLimit = Long.highestOneBit(Math.min(windowN, (long) stateN + pageN) + PcoFormat.BATCH_N) << 1;
        ring = new long[(int) Math.min(ringLimit, Long.highestOneBit(stateN + 2L * PcoFormat.BATCH_N) << 1)];
        for (int i = 0; i < stateN; i++) {
          ring[i & (ring.length - 1)] = stored[i];
        }
        pos = stateN;
        break;
      default:
        break;
    }
  }

  /**
   * Decodes a batch in place: {@code len} outputs from the deltas in {@code latents}, whose
   * first {@code nReal} entries are real (the rest is ignored).
   */
  void decode(long[] latents, int len, int nReal, long[] lookbacks) {
    switch (enc.kind) {
      case PcoFormat.DELTA_CONSECUTIVE:
        decodeConsecutive(latents, len);
        break;
      case PcoFormat.DELTA_LOOKBACK:
        decodeLookback(latents, len, nReal, lookbacks);
        break;
      case PcoFormat.DELTA_CONV1:
        decodeConv1(latents, len);
        break;
      default:
        break;
    }
  }

  private void toggle(long[] latents, int len) {
    for (int i = 0; i < len; i++) {
      latents[i] = (latents[i] + mid) & mask;
    }
  }

  private void decodeConsecutive(long[] latents, int len) {
    long msk = mask;
    // Each running sum carries only an add from one number to the next: deltas are centred
    // before it and results are cut to the latent width as they are stored (sums modulo 2^64
    // cut to the width equal sums cut at every step). The highest moment's pass also undoes
    // the centring (adds MID): one pass less.
    int top = state.length - 1;
    long moment = state[top];
    long mid = this.mid;
    for (int i = 0; i < len; i++) {
      long delta = latents[i] + mid;
      latents[i] = moment & msk;
      moment += delta;
    }
    state[top] = moment & msk;
    for (int m = top - 1; m >= 0; m--) {
      moment = state[m];
      for (int i = 0; i < len; i++) {
        long delta = latents[i];
        latents[i] = moment & msk;
        moment += delta;
      }
      state[m] = moment & msk;
    }
  }

  private void decodeLookback(long[] latents, int len, int nReal, long[] lookbacks) {
    toggle(latents, len);
    growRing(pos + len);
    long[] buf = ring;
    int ringMask = buf.length - 1;
    long start = pos;
    boolean outOfWindow = false;
    for (int i = 0; i < len; i++) {
      long p = start + i;
      if (i >= nReal) {
        buf[(int) p & ringMask] = latents[i];
        continue;
      }
      long lookback = lookbacks[i];
      if (lookback > windowN) {
        outOfWindow = true;
        lookback = 1;
      }
      long src = p - lookback;
      buf[(int) p & ringMask] = (latents[i] + (src >= 0 ? buf[(int) src & ringMask] : 0)) & mask;
    }
    check(!outOfWindow, "pcodec: a lookback exceeds the window of " + windowN);
    for (int j = 0; j < len; j++) {
      latents[j] = buf[(int) (start - stateN + j) & ringMask];
    }
    pos = start + len;
  }

  /** Makes the ring hold every position below {@code end}, or as many as the window needs. */
  private void growRing(long end) {
    long needed = Math.min(ringLimit, end);
    if (ring.length >= needed) {
      return;
    }
    int size = ring.length;
    while (size < needed) {
      size <<= 1;
    }
    long[] grown = new long[size];
    int oldMask = ring.length - 1;
    for (long q = Math.max(0, pos - ring.length); q < pos; q++) {
      grown[(int) q & (size - 1)] = ring[(int) q & oldMask];
    }
    ring = grown;
  }

  private void decodeConv1(long[] latents, int len) {
    toggle(latents, len);
    int order = stateN;
    long[] buf = convBuf;
    System.arraycopy(state, 0, buf, 0, order);
    System.arraycopy(latents, 0, buf, order, len);
    long[] weights = enc.weights;
    long bias = enc.bias;
    int q = enc.quantization;
    // Validation bounds |bias| + 2^bits * sum|w| below 2^63, so the long sum never overflows.
    for (int i = order; i < order + len; i++) {
      long s = bias;
      int base = i - order;
      for (int j = 0; j < order; j++) {
        s += weights[j] * buf[base + j];
      }
      long prediction = (Math.max(s, 0) >> q) & mask;
      buf[i] = (buf[i] + prediction) & mask;
    }
    System.arraycopy(buf, 0, latents, 0, len);
    System.arraycopy(buf, len, state, 0, order);
  }
}
