package io.lancecodec.testkit;

import io.lancecodec.spi.FieldOptions;

/** The value types the contract feeds a codec: fixed-width numbers of 8 to 64 bits, and strings. */
public enum ValueKind {
  U8(8, FieldOptions.NumberKind.UNSIGNED_INTEGER),
  U16(16, FieldOptions.NumberKind.UNSIGNED_INTEGER),
  U32(32, FieldOptions.NumberKind.UNSIGNED_INTEGER),
  U64(64, FieldOptions.NumberKind.UNSIGNED_INTEGER),
  I32(32, FieldOptions.NumberKind.SIGNED_INTEGER),
  I64(64, FieldOptions.NumberKind.SIGNED_INTEGER),
  F32(32, FieldOptions.NumberKind.FLOAT),
  F64(64, FieldOptions.NumberKind.FLOAT),
  /** UTF-8 strings with 32-bit offsets. */
  STRING(0, FieldOptions.NumberKind.OTHER);

  private final int bits;
  private final FieldOptions.NumberKind numberKind;

  ValueKind(int bits, FieldOptions.NumberKind numberKind) {
    this.bits = bits;
    this.numberKind = numberKind;
  }

  /** Bits of one value, 0 for strings. */
  public int bits() {
    return bits;
  }

  public FieldOptions.NumberKind numberKind() {
    return numberKind;
  }

  public boolean isFloat() {
    return numberKind == FieldOptions.NumberKind.FLOAT;
  }

  /** The options a writer derives for a plain field of this kind (its number kind, nothing asked). */
  public FieldOptions defaultOptions() {
    return FieldOptions.builder().numberKind(numberKind).build();
  }
}
