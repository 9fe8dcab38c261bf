package io.lancecodec.codec.general;


/**
 * Thresholds, limits and the decompression budget of codec-general, each with its reason. Byte
 * layouts are described in {@code package-info.java} and docs/wire/codecs.md §5.
 */
final class GeneralFormat {
  private GeneralFormat() {}

  /**
   * The reference leaves a mini-block page unwrapped when the inner compressor's first buffer
   * holds fewer bytes than this in total: too small to repay a frame per chunk.
   */
  static final int MIN_MINI_BLOCK_BYTES = 4 * 1024;

  /** 2.2 block buffers (levels, dictionary items) above this many bytes get zstd level 0 unasked. */
  static final long AUTO_BLOCK_BYTES = 32 * 1024;

  /**
   * Whether a block is large enough for zstd unasked: judged by what one frame holds, a slice's
   * bytes when the block is compressed in slices (a mini-block page's levels, chunk by chunk, each
   * chunk's frame decoded by a call of its own). Frames of a few KiB do not repay that call: lists
   * of about 28 token ids, their rep levels framed per chunk of 1,024, were 1.4% smaller and
   * scanned 30% slower. Chunks of mostly null or empty lists hold tens of thousands of levels and
   * are still framed.
   */
  static boolean largeForAutomatic(io.lancecodec.spi.DataBlock block, io.lancecodec.spi.ProposalContext context) {
    long bytes = context.stats().dataBytes();
    long slice = context.sliceValues();
    long n = block.numValues();
    long framed = slice > 0 && slice < n ? bytes * slice / n : bytes;
    return framed > AUTO_BLOCK_BYTES;
  }

  /**
   * Full-zip pages whose longest value exceeds this, or whose user asked for compression, are
   * compressed value by value once the page holds at least {@link #PER_VALUE_MIN_PAGE_BYTES}.
   */
  static final long AUTO_PER_VALUE_MAX_LENGTH = 32 * 1024;

  static final long PER_VALUE_MIN_PAGE_BYTES = 32 * 1024;

  /** The byte-position entropy (bits) below which {@code bss=auto} splits: sensitivity 0.5 x 8. */
  static final double BSS_AUTO_ENTROPY_BITS = 4.0;

  /** Values sampled for the entropy test, as the reference does (the first 64 of the page). */
  static final int BSS_ENTROPY_SAMPLE = 64;

  /**
   * Output ceiling of one decompressed mini-block buffer when the inner encoding gives no exact
   * size (Variable, RLE, ...). 2.1 chunks are at most 32 KiB and 2.2 chunks hold at most 4096
   * values of under 256 bytes by default, so 64 MiB is far above anything a writer produces.
   */
  static final long MAX_MINI_BLOCK_OUTPUT = 64L << 20;

  /** Output ceiling of a decompressed block buffer (a page's dictionary or levels). */
  static final long MAX_BLOCK_OUTPUT = 512L << 20;

  /** Output ceiling of all values of one per-value read together: the largest Java array. */
  static final long MAX_PER_VALUE_OUTPUT = Integer.MAX_VALUE - 16;

  /**
   * The most bytes a frame may decode to: what the inner decoder says a valid buffer can take
   * ({@code bound}, -1 when it cannot say), capped by {@code ceiling}.
   */
  static long budget(long bound, long ceiling) {
    return bound < 0 ? ceiling : Math.min(bound, ceiling);
  }
}
