package io.lancecodec.codec.alp;

/**
 * Constants of the ALP chunk wire form and of the writer's choices, each with its reason. The
 * byte layout itself is described in {@code package-info.java} and {@code docs/wire/alp.md}.
 */
final class AlpFormat {
  /** Values per chunk at most: the bit-packing kernel works on blocks of 1024 values. */
  static final int MAX_CHUNK_VALUES = 1024;

  /** Mode byte, bit 0: the payload holds deltas of consecutive integers instead of FOR offsets. */
  static final int MODE_DELTA = 1;

  /** Mode byte, bit 1: values are rebuilt with one division by 10^e instead of two multiplies. */
  static final int MODE_DIV = 2;

  /** Mode byte, bit 2: the chunk is ALP-RD (left parts from a dictionary, right parts packed). */
  static final int MODE_RD = 4;

  /** Bits of the mode byte that have a meaning; any other bit set is corruption. */
  static final int MODE_KNOWN = MODE_DELTA | MODE_DIV | MODE_RD;

  /**
   * Largest base-10 exponent per type, the paper's bounds (upstream's too): 10^18 is the largest
   * power of ten below 2^63, so a larger e overflows 64-bit integers even for values under 1;
   * float32 carries about 7 significant digits and stops at 10^10.
   */
  static final int MAX_EXPONENT_F32 = 10;

  static final int MAX_EXPONENT_F64 = 18;

  /** Mode, e, f and bit width: one byte each, ahead of the integer fields. */
  static final int ALP_HEADER_FIXED = 4;

  /** ALP-RD header: mode, right width, index width, a zero byte, then the u32 dictionary length. */
  static final int RD_HEADER_BYTES = 8;

  /** Offset of the reserved zero byte in the ALP-RD header. */
  static final int RD_RESERVED = 3;

  /** ALP-RD dictionary entries are left parts stored as u64, whatever their width. */
  static final int RD_DICT_ENTRY_BYTES = 8;

  /**
   * ALP-RD index stream word width. Indices address at most 1024 dictionary entries (10 bits),
   * so 16-bit words keep a short chunk's raw tail at two bytes per value.
   */
  static final int RD_INDEX_WORD_BITS = 16;

  /** Right-part widths ALP-RD tries, as the spec lists them: whole bytes from 8 to 56. */
  static final int[] RD_RIGHT_WIDTHS = {8, 16, 24, 32, 40, 48, 56};

  /** Exception positions are u16, chunk-relative: a chunk has at most 1024 values. */
  static final int EXCEPTION_POSITION_BYTES = 2;

  /**
   * Paper, first sampling level: a row group of 100 vectors of 1024 values shares one short list
   * of (e, f) candidates.
   */
  static final int ROW_GROUP_VECTORS = 100;

  /** Paper: vectors sampled per row group, evenly spread. */
  static final int SAMPLED_VECTORS = 8;

  /** Paper: values sampled per vector, evenly spread. */
  static final int SAMPLES_PER_VECTOR = 32;

  /** Paper: how many (e, f) candidates the first level hands to the second. */
  static final int MAX_COMBINATIONS = 5;

  /** Paper: the second level stops after this many candidates in a row fail to improve. */
  static final int EARLY_EXIT_WORSE = 2;

  /**
   * Paper: a float64 row group whose best sampled ALP estimate needs at least this many bits per
   * value goes to ALP-RD; the same bound sends a single float64 chunk to the ALP-RD trial.
   */
  static final int RD_TRIGGER_BITS_F64 = 48;

  /**
   * Spec ({@code lance-encoding:alp=auto}): pages whose mean byte-position entropy is below this
   * many bits enter the candidate scan, the rest are left flat.
   */
  static final double ENTROPY_GATE_BITS = 4.6;

  /** The entropy statistic looks at the first 64 values of a page, as the runtime's does. */
  static final int ENTROPY_SAMPLE = 64;

  private AlpFormat() {}

  /** Header bytes of an ALP (not RD) chunk whose integers are {@code intBytes} wide. */
  static int alpHeaderBytes(boolean delta, int intBytes) {
    return ALP_HEADER_FIXED + (delta ? 2 : 1) * intBytes;
  }

  /**
   * Bytes a chunk buffer of {@code bytes} bytes takes in a mini-block page: each value buffer of
   * a chunk is padded to a multiple of 8 ({@code docs/wire/structural.md}, chunk layout;
   * {@code MiniBlocks.storedBytes}). The writer compares its choices in these bytes, so a
   * choice that saves bytes lost to padding anyway is not taken.
   */
  static int storedBytes(int bytes) {
    return (bytes + 7) & ~7;
  }

  /** Bits needed to write {@code v} read as unsigned: 0 for 0, 64 for negative values. */
  static int bitWidth(long v) {
    return 64 - Long.numberOfLeadingZeros(v);
  }
}
