package io.lancecodec.codec.pcodec;

/**
 * The eleven number types of pco 1.0 with their one-byte codes and latent widths.
 *
 * <p>Every number maps to an "ordered latent": an unsigned integer of the type's width whose
 * unsigned order matches the numbers' order. We keep latents in {@code long}s, zero-extended to
 * 64 bits, so one code path serves all widths; {@link #mask} cuts results back to the width.
 */
enum NumberType {
  U32(1, 32, Kind.UNSIGNED),
  U64(2, 64, Kind.UNSIGNED),
  I32(3, 32, Kind.SIGNED),
  I64(4, 64, Kind.SIGNED),
  F32(5, 32, Kind.FLOAT),
  F64(6, 64, Kind.FLOAT),
  U16(7, 16, Kind.UNSIGNED),
  I16(8, 16, Kind.SIGNED),
  F16(9, 16, Kind.FLOAT),
  U8(10, 8, Kind.UNSIGNED),
  I8(11, 8, Kind.SIGNED);

  enum Kind {
    UNSIGNED,
    SIGNED,
    FLOAT
  }

  final int code;
  final int bits;
  final Kind kind;
  /** All ones in the latent's width. */
  final long mask;
  /** The latent's top bit: the sign bit of signed and float numbers, and the centre of deltas. */
  final long mid;

  NumberType(int code, int bits, Kind kind) {
    this.code = code;
    this.bits = bits;
    this.kind = kind;
    this.mask = bits == 64 ? -1L : (1L << bits) - 1;
    this.mid = 1L << (bits - 1);
  }

  boolean isFloat() {
    return kind == Kind.FLOAT;
  }

  /** Mantissa bits without the implicit one: the largest legal float-quant k. */
  int precisionBits() {
    switch (this) {
      case F16:
        return 10;
      case F32:
        return 23;
      case F64:
        return 52;
      default:
        return 0;
    }
  }

  /** The type with this code byte, or null for an unknown code. */
  static NumberType ofCode(int code) {
    for (NumberType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }

  /** Raw bits (as Java stores the number, zero-extended) to the ordered latent. */
  long toOrdered(long raw) {
    raw &= mask;
    switch (kind) {
      case UNSIGNED:
        return raw;
      case SIGNED:
        return raw ^ mid;
      default:
        // Negative floats are complemented, positive ones get the top bit: without a branch,
        // since signs of real data are often unpredictable.
        return (raw ^ (((raw << (64 - bits)) >> 63) | mid)) & mask;
    }
  }

  /** The ordered latent back to raw bits, zero-extended. */
  long fromOrdered(long ordered) {
    switch (kind) {
      case UNSIGNED:
        return ordered & mask;
      case SIGNED:
        return (ordered ^ mid) & mask;
      default:
        return (ordered ^ (~((ordered << (64 - bits)) >> 63) | mid)) & mask;
    }
  }

  /** Number of bits used to store a bin's offset width: log2(width) + 1. */
  int offsetBitsWidth() {
    return 32 - Integer.numberOfLeadingZeros(bits);
  }
}
