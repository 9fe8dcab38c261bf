package io.lancecodec.spi;

/** Limits shared by mini-block compressors and the mini-block layout. */
public final class MiniBlocks {
  /** Chunks hold at most 4096 values: 12 bits would do, the metadata word spends 4 on log2. */
  public static final int MAX_VALUES = 4096;

  /**
   * Byte budget of one chunk. The 2.1 chunk metadata stores (words - 1) in 12 bits, so a chunk
   * is at most 4096 eight-byte words = 32 KiB including its header and padding; 2.2 "large
   * chunk" pages use 32-bit metadata words and allow far more.
   */
  public static final int MAX_CHUNK_BYTES_SMALL = 32 * 1024;

  private MiniBlocks() {}

  /** The largest encoded chunk a compressor should produce for the given file version. */
  public static int maxChunkBytes(FileVersion version) {
    return MAX_CHUNK_BYTES_SMALL;
  }
}
