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

  /**
   * The bytes {@code c} takes in a mini-block page without levels: per chunk its header (value
   * count and one buffer size, 2 bytes each, 4 per size in 2.2 large chunks) and every buffer,
   * each padded to 8 bytes, plus the chunk's metadata word. Proposals that report this compare
   * fairly however differently they cut chunks.
   */
  public static long storedBytes(MiniBlockCompressed c, FileVersion version) {
    boolean large = version.atLeast(FileVersion.V2_2);
    int numBuffers = c.buffers().size();
    long header = pad8(2L + (long) numBuffers * (large ? 4 : 2)) + (large ? 4 : 2);
    long total = 0;
    for (MiniBlockChunk chunk : c.chunks()) {
      total += header;
      for (int size : chunk.bufferSizes()) {
        total += pad8(size);
      }
    }
    return total;
  }

  /** The same for fixed chunks of {@code valuesPerChunk} values of {@code bytesPerChunk} bytes each and one buffer. */
  public static long storedBytes(long numValues, long valuesPerChunk, long bytesPerChunk, long lastChunkBytes, FileVersion version) {
    boolean large = version.atLeast(FileVersion.V2_2);
    long header = pad8(2L + (large ? 4 : 2)) + (large ? 4 : 2);
    long full = numValues / valuesPerChunk;
    long total = full * (header + pad8(bytesPerChunk));
    if (numValues % valuesPerChunk != 0) {
      total += header + pad8(lastChunkBytes);
    }
    return total;
  }

  private static long pad8(long n) {
    return (n + 7) & ~7L;
  }
}
