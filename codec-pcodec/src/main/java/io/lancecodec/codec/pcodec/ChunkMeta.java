package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

/**
 * A chunk's metadata: mode, delta encoding, then per latent variable (lookback, primary,
 * secondary, in that order) its tANS size and bins, zero-padded to a byte boundary.
 */
final class ChunkMeta {
  final NumberType type;
  final Mode mode;
  final DeltaEncoding delta;
  /** The lookbacks of lookback delta encoding, else null. */
  final LatentVarMeta deltaVar;
  final LatentVarMeta primary;
  /** The second latent of the mult and quant modes, else null. */
  final LatentVarMeta secondary;

  ChunkMeta(NumberType type, Mode mode, DeltaEncoding delta, LatentVarMeta deltaVar,
      LatentVarMeta primary, LatentVarMeta secondary) {
    this.type = type;
    this.mode = mode;
    this.delta = delta;
    this.deltaVar = deltaVar;
    this.primary = primary;
    this.secondary = secondary;
  }

  static ChunkMeta read(BitReader r, int formatMajor, NumberType type) {
    Mode mode = Mode.read(r, formatMajor, type);
    DeltaEncoding delta = DeltaEncoding.read(r, formatMajor);
    LatentVarMeta deltaVar = null;
    if (delta.hasDeltaVar()) {
      deltaVar = LatentVarMeta.read(r, 32, "lookback variable");
      long window = 1L << delta.windowLog;
      for (int i = 0; i < deltaVar.nBins(); i++) {
        long lower = deltaVar.lowers[i];
        check(lower >= 1 && lower <= window,
            "pcodec: lookback bin lower bound " + lower + " outside the window [1, " + window + "]");
      }
    }
    int primaryBits = mode.primaryBits(type);
    LatentVarMeta primary = LatentVarMeta.read(r, primaryBits, "primary variable");
    LatentVarMeta secondary = mode.hasSecondary() ? LatentVarMeta.read(r, type.bits, "secondary variable") : null;
    r.alignZeros("chunk metadata");
    delta.validateConv1(primaryBits);
    return new ChunkMeta(type, mode, delta, deltaVar, primary, secondary);
  }

  void write(BitWriter w) {
    mode.write(w, type);
    delta.write(w);
    if (deltaVar != null) {
      deltaVar.write(w);
    }
    primary.write(w);
    if (secondary != null) {
      secondary.write(w);
    }
    w.finishByte();
  }

  /** The reference's upper bound of this metadata's bytes, used when it compares candidates. */
  long maxByteSize() {
    long bits = mode.maxBitSize(type) + DeltaEncoding.MAX_BIT_SIZE + primary.bitSize();
    if (deltaVar != null) {
      bits += deltaVar.bitSize();
    }
    if (secondary != null) {
      bits += secondary.bitSize();
    }
    return (bits + 7) / 8;
  }

  /** Exact bytes of a page's metadata: delta states and the four tANS states per variable. */
  long pageMetaByteSize() {
    long bits = varPageMetaBits(primary, delta.primaryStateN());
    if (deltaVar != null) {
      bits += varPageMetaBits(deltaVar, 0);
    }
    if (secondary != null) {
      bits += varPageMetaBits(secondary, delta.forSecondary().primaryStateN());
    }
    return (bits + 7) / 8;
  }

  private static long varPageMetaBits(LatentVarMeta var, int stateN) {
    return (long) var.ansSizeLog * PcoFormat.ANS_INTERLEAVING + (long) var.bits * stateN;
  }
}
