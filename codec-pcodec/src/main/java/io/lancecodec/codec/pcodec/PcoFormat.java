package io.lancecodec.codec.pcodec;

/**
 * Constants of the pco 1.0 format (pcodec/pcodec {@code docs/format.md} and
 * {@code pco/src/constants.rs}), each with the reason it has its value.
 */
final class PcoFormat {
  /** "pco!" in ASCII: the first four bytes of every standalone file. */
  static final byte[] MAGIC = {'p', 'c', 'o', '!'};

  /** Standalone version we write; 3 added the uniform number type byte (pco 0.4.5). */
  static final int STANDALONE_VERSION = 3;

  /** Wrapped format version we write: 4.1 (pco 1.0), the first one with dict mode. */
  static final int FORMAT_MAJOR = 4;

  static final int FORMAT_MINOR = 1;

  /** A zero byte where a chunk's number type byte would be ends the file. */
  static final int TERMINATOR = 0;

  /** Chunk counts are stored as n - 1 in 24 bits, so a chunk holds at most 2^24 numbers. */
  static final int CHUNK_N_BITS = 24;

  static final int MAX_CHUNK_N = 1 << CHUNK_N_BITS;

  /** The standalone n hint is stored as (bit length - 1) in 6 bits, then that many bits. */
  static final int N_HINT_POWER_BITS = 6;

  static final int MODE_BITS = 4;
  static final int DELTA_BITS = 4;
  static final int ANS_SIZE_LOG_BITS = 4;
  static final int N_BINS_BITS = 15;
  static final int QUANT_K_BITS = 8;
  static final int DICT_LEN_BITS = 25;
  static final int CONSECUTIVE_ORDER_BITS = 3;
  static final int LOOKBACK_WINDOW_LOG_BITS = 5;
  static final int LOOKBACK_STATE_LOG_BITS = 4;
  static final int CONV1_QUANT_BITS = 5;
  static final int CONV1_ORDER_BITS = 5;

  /** Largest tANS table: 2^14 states keep tables cache-resident and 4 reads within 57 bits. */
  static final int MAX_ANS_SIZE_LOG = 14;

  /** Readers refuse lookback windows above 2^24: a chunk never holds more numbers than that. */
  static final int MAX_LOOKBACK_WINDOW_LOG = 24;

  static final int MAX_CONSECUTIVE_ORDER = 7;
  static final int MAX_CONV1_ORDER = 32;
  static final int MAX_CONV1_QUANTIZATION = 31;

  /** Numbers are decoded in batches of 256; only a page's last batch may be shorter. */
  static final int BATCH_N = 256;

  /** Four tANS decoders take turns, latent i using state i % 4. */
  static final int ANS_INTERLEAVING = 4;

  static final int MODE_CLASSIC = 0;
  static final int MODE_INT_MULT = 1;
  static final int MODE_FLOAT_MULT = 2;
  static final int MODE_FLOAT_QUANT = 3;
  static final int MODE_DICT = 4;

  static final int DELTA_NONE = 0;
  static final int DELTA_CONSECUTIVE = 1;
  static final int DELTA_LOOKBACK = 2;
  static final int DELTA_CONV1 = 3;

  /** Levels 0..12; 8 is pco's default, a good ratio at moderate encoding cost. */
  static final int MAX_LEVEL = 12;

  static final int DEFAULT_LEVEL = 8;

  /** Standalone writers split input into chunks of at most 2^18 numbers (pco's page size). */
  static final int DEFAULT_CHUNK_N = 1 << 18;

  private PcoFormat() {}
}
