package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

import io.lancecodec.spi.LanceCodecException;

/**
 * How a chunk's latents were delta encoded (format.md, "Delta Encodings"): none, consecutive
 * differences of order 1..7, lookback ({@code l[i] - l[i - lookback[i]]} with the lookbacks as an
 * extra latent variable) or conv1 (residuals of a quantized linear prediction from the previous
 * {@code order} latents). The primary latent variable is always delta encoded; the secondary one
 * only when {@link #secondaryUsesDelta}; the lookback variable never.
 */
final class DeltaEncoding {
  final int kind;
  /** Consecutive: the order. Conv1: the number of weights. */
  final int order;
  final boolean secondaryUsesDelta;
  final int windowLog;
  final int stateLog;
  final int quantization;
  final long bias;
  final long[] weights;

  private DeltaEncoding(int kind, int order, boolean secondaryUsesDelta, int windowLog, int stateLog,
      int quantization, long bias, long[] weights) {
    this.kind = kind;
    this.order = order;
    this.secondaryUsesDelta = secondaryUsesDelta;
    this.windowLog = windowLog;
    this.stateLog = stateLog;
    this.quantization = quantization;
    this.bias = bias;
    this.weights = weights;
  }

  static final DeltaEncoding NONE = new DeltaEncoding(PcoFormat.DELTA_NONE, 0, false, 0, 0, 0, 0, null);

  static DeltaEncoding consecutive(int order, boolean secondaryUsesDelta) {
    return new DeltaEncoding(PcoFormat.DELTA_CONSECUTIVE, order, secondaryUsesDelta, 0, 0, 0, 0, null);
  }

  static DeltaEncoding lookback(int windowLog, int stateLog, boolean secondaryUsesDelta) {
    return new DeltaEncoding(PcoFormat.DELTA_LOOKBACK, 0, secondaryUsesDelta, windowLog, stateLog, 0, 0, null);
  }

  static DeltaEncoding conv1(int quantization, long bias, long[] weights) {
    return new DeltaEncoding(PcoFormat.DELTA_CONV1, weights.length, false, 0, 0, quantization, bias, weights);
  }

  boolean hasDeltaVar() {
    return kind == PcoFormat.DELTA_LOOKBACK;
  }

  /** Latents stored per page to restart decoding, for the primary variable. */
  int primaryStateN() {
    switch (kind) {
      case PcoFormat.DELTA_CONSECUTIVE:
      case PcoFormat.DELTA_CONV1:
        return order;
      case PcoFormat.DELTA_LOOKBACK:
        return 1 << stateLog;
      default:
        return 0;
    }
  }

  /** The delta encoding that applies to the secondary variable: the primary's, or none. */
  DeltaEncoding forSecondary() {
    return secondaryUsesDelta && kind != PcoFormat.DELTA_CONV1 ? this : NONE;
  }

  static DeltaEncoding read(BitReader r, int formatMajor) {
    if (formatMajor < 3) {
      // Before format 3 the field was just a 3-bit consecutive order, 0 meaning none.
      r.need(PcoFormat.CONSECUTIVE_ORDER_BITS, "delta order");
      int order = r.readInt(PcoFormat.CONSECUTIVE_ORDER_BITS);
      return order == 0 ? NONE : consecutive(order, false);
    }
    r.need(PcoFormat.DELTA_BITS, "delta encoding");
    int kind = r.readInt(PcoFormat.DELTA_BITS);
    switch (kind) {
      case PcoFormat.DELTA_NONE:
        return NONE;
      case PcoFormat.DELTA_CONSECUTIVE: {
        r.need(PcoFormat.CONSECUTIVE_ORDER_BITS + 1, "consecutive delta");
        int order = r.readInt(PcoFormat.CONSECUTIVE_ORDER_BITS);
        check(order != 0, "pcodec: consecutive delta order 0");
        return consecutive(order, r.readBool());
      }
      case PcoFormat.DELTA_LOOKBACK: {
        r.need(PcoFormat.LOOKBACK_WINDOW_LOG_BITS + PcoFormat.LOOKBACK_STATE_LOG_BITS + 1, "lookback delta");
        int windowLog = 1 + r.readInt(PcoFormat.LOOKBACK_WINDOW_LOG_BITS);
        int stateLog = r.readInt(PcoFormat.LOOKBACK_STATE_LOG_BITS);
        check(windowLog <= PcoFormat.MAX_LOOKBACK_WINDOW_LOG,
            "pcodec: lookback window log " + windowLog + " exceeds " + PcoFormat.MAX_LOOKBACK_WINDOW_LOG);
        check(stateLog <= windowLog,
            "pcodec: lookback state log " + stateLog + " exceeds window log " + windowLog);
        return lookback(windowLog, stateLog, r.readBool());
      }
      case PcoFormat.DELTA_CONV1: {
        r.need(PcoFormat.CONV1_QUANT_BITS + 64 + PcoFormat.CONV1_ORDER_BITS, "conv1 delta");
        int quantization = r.readInt(PcoFormat.CONV1_QUANT_BITS);
        long bias = r.readWide(64) ^ Long.MIN_VALUE;
        int order = 1 + r.readInt(PcoFormat.CONV1_ORDER_BITS);
        r.need(32L * order, "conv1 weights");
        long[] weights = new long[order];
        for (int i = 0; i < order; i++) {
          weights[i] = (int) (r.read(32) ^ 0x80000000L);
        }
        return conv1(quantization, bias, weights);
      }
      default:
        throw LanceCodecException.corrupt("pcodec: unknown delta encoding " + kind);
    }
  }

  void write(BitWriter w) {
    w.write(kind, PcoFormat.DELTA_BITS);
    switch (kind) {
      case PcoFormat.DELTA_CONSECUTIVE:
        w.write(order, PcoFormat.CONSECUTIVE_ORDER_BITS);
        w.writeBool(secondaryUsesDelta);
        break;
      case PcoFormat.DELTA_LOOKBACK:
        w.write(windowLog - 1, PcoFormat.LOOKBACK_WINDOW_LOG_BITS);
        w.write(stateLog, PcoFormat.LOOKBACK_STATE_LOG_BITS);
        w.writeBool(secondaryUsesDelta);
        break;
      case PcoFormat.DELTA_CONV1:
        w.write(quantization, PcoFormat.CONV1_QUANT_BITS);
        w.write(bias ^ Long.MIN_VALUE, 64);
        w.write(order - 1, PcoFormat.CONV1_ORDER_BITS);
        for (long weight : weights) {
          w.write(weight ^ 0x80000000L, 32);
        }
        break;
      default:
        break;
    }
  }

  /**
   * Conv1 must provably not overflow its accumulator, which is twice the latent width: checked
   * against the latent width of the primary variable, as pco does (and 64-bit latents are out).
   */
  void validateConv1(int latentBits) {
    if (kind != PcoFormat.DELTA_CONV1) {
      return;
    }
    check(latentBits <= 32, "pcodec: conv1 delta on " + latentBits + "-bit latents");
    int convBits = 2 * latentBits;
    int maxQuantization = Math.min(PcoFormat.MAX_CONV1_QUANTIZATION, convBits - 1);
    check(quantization <= maxQuantization,
        "pcodec: conv1 quantization " + quantization + " exceeds " + maxQuantization);
    double sumAbs = 0;
    for (long weight : weights) {
      sumAbs += (double) Math.abs(weight);
    }
    double maxPrediction = Math.abs((double) bias) + Math.pow(2, latentBits) * sumAbs;
    check(maxPrediction < Math.pow(2, convBits - 1),
        "pcodec: conv1 weights and bias could overflow (up to " + maxPrediction + ")");
  }

  /** Constant upper bound the reference adds for delta metadata in its size estimates. */
  static final long MAX_BIT_SIZE =
      PcoFormat.DELTA_BITS + PcoFormat.CONV1_QUANT_BITS + PcoFormat.CONV1_ORDER_BITS + 64 + 32L * PcoFormat.MAX_CONV1_ORDER;
}
