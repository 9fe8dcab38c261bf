package io.lancecodec.codec.pcodec;

import io.lancecodec.spi.LanceCodecException;

/**
 * Encoder settings, as pco's ChunkConfig: level, how to pick the mode and the delta encoding,
 * and the chunk size. The public API only exposes the level; the rest serves tests that
 * re-encode pco's golden files with the settings they were written with.
 */
final class PcoConfig {
  enum ModeSpec {
    AUTO,
    CLASSIC,
    TRY_INT_MULT,
    TRY_FLOAT_MULT,
    TRY_FLOAT_QUANT,
    TRY_DICT
  }

  enum DeltaSpec {
    AUTO,
    NONE,
    TRY_CONSECUTIVE,
    TRY_LOOKBACK,
    TRY_CONV1
  }

  final int level;
  final ModeSpec modeSpec;
  /** Int mult base, float mult base (as double bits), or float quant k. */
  final long modeParam;
  final DeltaSpec deltaSpec;
  /** Consecutive or conv1 order. */
  final int deltaOrder;
  final int maxChunkN;
  /** Number type written in the header (0 = none), as pco's uniform type option. */
  final NumberType uniformType;

  PcoConfig(int level, ModeSpec modeSpec, long modeParam, DeltaSpec deltaSpec, int deltaOrder,
      int maxChunkN, NumberType uniformType) {
    if (level < 0 || level > PcoFormat.MAX_LEVEL) {
      throw LanceCodecException.invalidArgument("pcodec: level " + level + " outside [0, " + PcoFormat.MAX_LEVEL + "]");
    }
    if (maxChunkN < 1 || maxChunkN > PcoFormat.MAX_CHUNK_N) {
      throw LanceCodecException.invalidArgument("pcodec: chunk size " + maxChunkN + " outside [1, 2^24]");
    }
    if (deltaSpec == DeltaSpec.TRY_CONSECUTIVE && (deltaOrder < 0 || deltaOrder > PcoFormat.MAX_CONSECUTIVE_ORDER)) {
      throw LanceCodecException.invalidArgument("pcodec: consecutive order " + deltaOrder + " outside [0, 7]");
    }
    if (deltaSpec == DeltaSpec.TRY_CONV1 && (deltaOrder < 0 || deltaOrder > PcoFormat.MAX_CONV1_ORDER)) {
      throw LanceCodecException.invalidArgument("pcodec: conv1 order " + deltaOrder + " outside [0, 32]");
    }
    this.level = level;
    this.modeSpec = modeSpec;
    this.modeParam = modeParam;
    this.deltaSpec = deltaSpec;
    this.deltaOrder = deltaOrder;
    this.maxChunkN = maxChunkN;
    this.uniformType = uniformType;
  }

  static PcoConfig level(int level) {
    return new PcoConfig(level, ModeSpec.AUTO, 0, DeltaSpec.AUTO, 0, PcoFormat.DEFAULT_CHUNK_N, null);
  }

  PcoConfig withMode(ModeSpec spec, long param) {
    return new PcoConfig(level, spec, param, deltaSpec, deltaOrder, maxChunkN, uniformType);
  }

  PcoConfig withDelta(DeltaSpec spec, int order) {
    return new PcoConfig(level, modeSpec, modeParam, spec, order, maxChunkN, uniformType);
  }

  PcoConfig withMaxChunkN(int n) {
    return new PcoConfig(level, modeSpec, modeParam, deltaSpec, deltaOrder, n, uniformType);
  }

  PcoConfig withUniformType(NumberType type) {
    return new PcoConfig(level, modeSpec, modeParam, deltaSpec, deltaOrder, maxChunkN, type);
  }
}
