package io.lancecodec.spi;

/**
 * The mini-block rulebook, in one place: the format's limits (what a reader must accept and a
 * writer must not exceed), the reference writer's targets (what it aims at, and why), and the
 * sizes of chunk headers and padding. Every compressor, layout and reader uses these; none
 * writes the numbers again.
 *
 * <p>A chunk is its header (value count, then one size per buffer, padded to 8 bytes), its
 * repetition and definition levels, then its value buffers, each padded to 8 bytes. The page's
 * metadata holds one word per chunk: the chunk's size in 8-byte words minus one, and log2 of its
 * value count in the low 4 bits. Every chunk but the last holds a power-of-two count of values.
 * The last chunk's count is what the page's total leaves, whatever its field says: writers
 * store 0 there for a partial last chunk (the spec's rule) and log2 for a full one (what the
 * reference's flat and fixed-size-list chunks do). A chunk of one value in the middle of a page
 * also stores 0 (2^0 = 1): readers tell it apart from the last by position.
 */
public final class MiniBlocks {
  /**
   * Values in one chunk, at most, unless LANCE_MINIBLOCK_MAX_VALUES says otherwise
   * ({@link FieldOptions#miniBlockMaxValues()}): the spec's default.
   */
  public static final int MAX_VALUES = 4096;

  /**
   * The largest LANCE_MINIBLOCK_MAX_VALUES a writer accepts (the spec's): 2^15, the largest count
   * the 4-bit log2 of a chunk's metadata word can name.
   */
  public static final int MAX_VALUES_WRITE = 1 << 15;

  /**
   * The smallest LANCE_MINIBLOCK_MAX_VALUES a writer accepts (ours; the spec names none): a chunk
   * of sub-byte values holds whole bytes, 8 booleans at least.
   */
  public static final int MIN_VALUES_WRITE = 8;

  /** The largest power of two not above {@code maxValues}: the value count of a tuned page's full chunks. */
  public static int fullChunkValues(int maxValues) {
    return Integer.highestOneBit(Math.max(1, maxValues));
  }

  /**
   * Values in one chunk a reader accepts: above what tuned writers produce (32768), so no valid
   * file is refused, while a forged count is caught before anything is sized by it.
   */
  public static final int MAX_VALUES_READ = 1 << 16;

  /**
   * Bytes of one 2.1 chunk, header and padding included: its metadata word stores words - 1 in
   * 12 bits, so 4096 words of 8 bytes. 2.2 pages with large chunks use 32-bit words and allow
   * more, but our compressors aim below this in both versions (the reference does too).
   */
  public static final int MAX_CHUNK_BYTES_2_1 = 32 * 1024;

  /**
   * What fixed-width compressors aim a chunk's values at (Flat, RLE, bit-packing's chunks are
   * 1024 values anyway): 8 KiB minus the 6 bytes of header a one-buffer chunk with levels may
   * take, so a chunk plus its header stays within two 4 KiB disk sectors. A target, not a limit.
   */
  public static final int FIXED_TARGET_BYTES = 8 * 1024 - 6;

  /**
   * What variable-width compressors aim a chunk at: the reference doubles the value count while
   * the chunk stays within 4 KiB, then takes the first count that does not.
   */
  public static final int VARIABLE_TARGET_BYTES = 4 * 1024;

  /** Chunks and each of their buffers start at multiples of this. */
  public static final int ALIGNMENT = 8;

  private MiniBlocks() {}

  /** The largest encoded chunk a compressor should produce for the given file version. */
  public static int maxChunkBytes(FileVersion version) {
    return MAX_CHUNK_BYTES_2_1;
  }

  /** {@code n} rounded up to the chunk alignment. */
  public static int pad8(int n) {
    return (n + 7) & ~7;
  }

  public static long pad8(long n) {
    return (n + 7) & ~7L;
  }

  /**
   * The header of a chunk with {@code numBuffers} value buffers and no levels: its value count
   * and one size per buffer (2 bytes each, 4 per size in 2.2 large chunks), padded.
   */
  public static long headerBytes(int numBuffers, FileVersion version) {
    boolean large = version.atLeast(FileVersion.V2_2);
    return pad8(2L + (long) numBuffers * (large ? 4 : 2));
  }

  /** Bytes of the page-level metadata word per chunk: 2, or 4 in 2.2 large-chunk pages. */
  public static int metadataWordBytes(FileVersion version) {
    return version.atLeast(FileVersion.V2_2) ? 4 : 2;
  }

  /**
   * The bytes {@code c} takes in a mini-block page without levels: per chunk its header, every
   * buffer padded, and its metadata word. Proposals that report this compare fairly however
   * differently they cut chunks.
   */
  public static long storedBytes(MiniBlockCompressed c, FileVersion version) {
    long header = headerBytes(c.buffers().size(), version) + metadataWordBytes(version);
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
    long header = headerBytes(1, version) + metadataWordBytes(version);
    long full = numValues / valuesPerChunk;
    long total = full * (header + pad8(bytesPerChunk));
    if (numValues % valuesPerChunk != 0) {
      total += header + pad8(lastChunkBytes);
    }
    return total;
  }

  /** What a chunk's metadata stores for a chunk of {@code n} values: log2 of n, or 0 for the page's last chunk. */
  public static int logNumValues(int n, boolean last) {
    if (last) {
      return 0;
    }
    if (Integer.bitCount(n) != 1 || n > MAX_VALUES_READ) {
      throw LanceCodecException.internal("a chunk that does not end its page holds " + n + " values, not a power of two");
    }
    return Integer.numberOfTrailingZeros(n);
  }
}
