package io.lancecodec.codec.fsst;

/**
 * Constants of Lance's FSST wire form and of the writer's decision rules, each with its reason.
 * The byte layout itself is described in {@code package-info.java}.
 */
final class FsstFormat {
  /** Serialized tables always have this size: an 8-byte header, 256 symbol words, 256 lengths. */
  static final int TABLE_BYTES = 8 + 256 * 8 + 256;

  /** "FSST" as the high 32 bits of the little-endian header word. */
  static final long MAGIC = 0x46535354L << 32;

  /** Bit 24 of the header: 1 = strings are FSST codes, 0 = strings were copied unchanged. */
  static final int SWITCH_SHIFT = 24;

  /** A code byte of 255 means "the next byte is a literal"; it is never a symbol code. */
  static final int ESCAPE = 255;

  /** At most 255 symbols, so that code 255 stays free for the escape. */
  static final int MAX_SYMBOLS = 255;

  /** Symbols are 1 to 8 bytes: one 64-bit word each. */
  static final int MAX_SYMBOL_LENGTH = 8;

  /**
   * The reference only compresses when the page holds at least this many string bytes (offsets
   * not counted); below it the table carries switch = 0 and the strings are copied, because a
   * 2312-byte table cannot pay for itself on less data.
   */
  static final int MIN_COMPRESS_BYTES = 32 * 1024;

  /**
   * The reference's automatic choice: FSST when the longest value has at least this many bytes
   * and the page (string bytes plus offsets) at least {@link #MIN_COMPRESS_BYTES}; shorter
   * values leave a symbol nothing to replace.
   */
  static final long MIN_MAX_VALUE_LENGTH = 5;

  /** Symbol tables are learnt on about 16 KiB of strings, as in the paper and the reference. */
  static final int SAMPLE_TARGET = 16 * 1024;

  /** Long strings contribute one random 512-byte piece to the sample (the paper's sample line). */
  static final int SAMPLE_LINE = 512;

  /** Fixed seed of the sampler: our tables, and therefore our pages, are reproducible. */
  static final long SAMPLE_SEED = 0x46535354_2020L;

  private FsstFormat() {}
}
