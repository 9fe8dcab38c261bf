package io.lancecodec.spi;

import java.util.List;

/**
 * Decodes one mini-block chunk from its value buffers. Stateless and thread-safe; a chunk is
 * always decoded whole, so random access reads at most one chunk per value.
 */
public interface MiniBlockDecompressor {
  DataBlock decompress(List<byte[]> buffers, long numValues);

  /**
   * The width of the fixed-width values this decompressor produces, when it can also decode
   * straight into a caller's array ({@link #decodeInto}); 0 when it cannot. Scans use this to skip
   * an intermediate copy per chunk.
   */
  default int directBits() {
    return 0;
  }

  /**
   * Decodes a chunk whose buffer {@code i} is {@code chunk[offsets[i], offsets[i] + sizes[i])},
   * writing {@code numValues} values of {@link #directBits()} bits to {@code dst} from byte
   * {@code dstOffset}. Only called when {@code directBits() > 0}; the same checks as
   * {@link #decompress} apply.
   */
  default void decodeInto(byte[] chunk, int[] offsets, int[] sizes, int numValues, byte[] dst, int dstOffset) {
    throw new UnsupportedOperationException("decodeInto");
  }
}
