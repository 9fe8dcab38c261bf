package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

import io.lancecodec.spi.LanceCodecException;

/**
 * How a chunk splits each number into latents (format.md, "Modes"): classic (the ordered latent
 * itself), int mult ({@code mult * base + adj}), float mult ({@code mult * base} plus an ULP
 * adjustment), float quant (high bits and low {@code k} bits) or dict (an index into a table of
 * distinct values).
 */
final class Mode {
  final int kind;
  /** Int mult's base, or float mult's base as an ordered latent. */
  final long base;
  /** Float quant's number of low bits. */
  final int k;
  /** Dict mode's distinct values as ordered latents. */
  final long[] dict;

  private Mode(int kind, long base, int k, long[] dict) {
    this.kind = kind;
    this.base = base;
    this.k = k;
    this.dict = dict;
  }

  static final Mode CLASSIC = new Mode(PcoFormat.MODE_CLASSIC, 0, 0, null);

  static Mode intMult(long base) {
    return new Mode(PcoFormat.MODE_INT_MULT, base, 0, null);
  }

  static Mode floatMult(long baseOrdered) {
    return new Mode(PcoFormat.MODE_FLOAT_MULT, baseOrdered, 0, null);
  }

  static Mode floatQuant(int k) {
    return new Mode(PcoFormat.MODE_FLOAT_QUANT, 0, k, null);
  }

  static Mode dict(long[] values) {
    return new Mode(PcoFormat.MODE_DICT, 0, 0, values);
  }

  boolean hasSecondary() {
    return kind == PcoFormat.MODE_INT_MULT || kind == PcoFormat.MODE_FLOAT_MULT || kind == PcoFormat.MODE_FLOAT_QUANT;
  }

  /** Latent width of the primary variable: dict indices are always 32-bit. */
  int primaryBits(NumberType type) {
    return kind == PcoFormat.MODE_DICT ? 32 : type.bits;
  }

  static Mode read(BitReader r, int formatMajor, NumberType type) {
    r.need(PcoFormat.MODE_BITS, "mode");
    int kind = r.readInt(PcoFormat.MODE_BITS);
    Mode mode;
    switch (kind) {
      case PcoFormat.MODE_CLASSIC:
        mode = CLASSIC;
        break;
      case PcoFormat.MODE_INT_MULT:
        // Format 0 (pco 0.0.0, yanked) used mode 1 for a different GCD mode that pco 1.0 rejects.
        check(formatMajor != 0, "pcodec: format version 0 GCD mode is not supported by pco 1.0");
        r.need(type.bits, "int mult base");
        mode = intMult(r.readWide(type.bits));
        break;
      case PcoFormat.MODE_FLOAT_MULT:
        r.need(type.bits, "float mult base");
        mode = floatMult(r.readWide(type.bits));
        break;
      case PcoFormat.MODE_FLOAT_QUANT:
        r.need(PcoFormat.QUANT_K_BITS, "float quant k");
        mode = floatQuant(r.readInt(PcoFormat.QUANT_K_BITS));
        break;
      case PcoFormat.MODE_DICT:
        r.need(PcoFormat.DICT_LEN_BITS, "dict length");
        int len = r.readInt(PcoFormat.DICT_LEN_BITS);
        r.alignZeros("dict length");
        r.need((long) len * type.bits, "dict of " + len + " values");
        long[] dict = new long[len];
        for (int i = 0; i < len; i++) {
          dict[i] = r.readWide(type.bits);
        }
        mode = dict(dict);
        break;
      default:
        throw LanceCodecException.corrupt("pcodec: unknown mode " + kind);
    }
    mode.validate(type);
    return mode;
  }

  /** pco's per-type mode rules: int modes on integers, float modes on floats, sane parameters. */
  void validate(NumberType type) {
    switch (kind) {
      case PcoFormat.MODE_INT_MULT:
        check(!type.isFloat(), "pcodec: int mult mode on float type " + type);
        check(base != 0, "pcodec: int mult base is 0");
        break;
      case PcoFormat.MODE_FLOAT_MULT:
        check(type.isFloat(), "pcodec: float mult mode on integer type " + type);
        check(FloatKind.of(type).isFiniteNonzero(type.fromOrdered(base)),
            "pcodec: float mult base must be finite and nonzero");
        break;
      case PcoFormat.MODE_FLOAT_QUANT:
        check(type.isFloat(), "pcodec: float quant mode on integer type " + type);
        check(k > 0 && k <= type.precisionBits(),
            "pcodec: float quant k " + k + " outside [1, " + type.precisionBits() + "] for " + type);
        break;
      default:
        break;
    }
  }

  void write(BitWriter w, NumberType type) {
    w.write(kind, PcoFormat.MODE_BITS);
    switch (kind) {
      case PcoFormat.MODE_INT_MULT:
      case PcoFormat.MODE_FLOAT_MULT:
        w.write(base, type.bits);
        break;
      case PcoFormat.MODE_FLOAT_QUANT:
        w.write(k, PcoFormat.QUANT_K_BITS);
        break;
      case PcoFormat.MODE_DICT:
        w.write(dict.length, PcoFormat.DICT_LEN_BITS);
        w.finishByte();
        for (long v : dict) {
          w.write(v, type.bits);
        }
        break;
      default:
        break;
    }
  }

  /** Upper bound of the metadata bits, as the reference counts it for its size estimates. */
  long maxBitSize(NumberType type) {
    switch (kind) {
      case PcoFormat.MODE_INT_MULT:
      case PcoFormat.MODE_FLOAT_MULT:
        return PcoFormat.MODE_BITS + type.bits;
      case PcoFormat.MODE_FLOAT_QUANT:
        return PcoFormat.MODE_BITS + PcoFormat.QUANT_K_BITS;
      case PcoFormat.MODE_DICT:
        return PcoFormat.MODE_BITS + PcoFormat.DICT_LEN_BITS + 7 + (long) dict.length * type.bits;
      default:
        return PcoFormat.MODE_BITS;
    }
  }
}
