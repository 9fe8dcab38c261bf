package io.lancecodec.spi;

import java.util.List;

/**
 * Decodes one mini-block chunk from its value buffers. Stateless and thread-safe; random access
 * reads at most one chunk per value, and decodes it whole unless the codec can decode single
 * values ({@link #decodesRanges}).
 */
public interface MiniBlockDecompressor {
  DataBlock decompress(List<byte[]> buffers, long numValues);

  /**
   * Like {@link #decompress(List, long)}, but the result may be built on {@code reuse}'s arrays
   * (see {@link DecodeBuffers}: valid until the next call with them). Codecs that build their
   * output anew override this; the default ignores {@code reuse}.
   */
  default DataBlock decompress(List<byte[]> buffers, long numValues, DecodeBuffers reuse) {
    return decompress(buffers, numValues);
  }

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

  /**
   * Whether {@link #decodeRange} works: values {@code [from, to)} of a chunk decoded without
   * decoding the rest (bit-packing can: every value sits at a computable bit position). A point
   * lookup then costs a few values instead of a whole chunk. Only asked when
   * {@code directBits() > 0}.
   */
  default boolean decodesRanges() {
    return false;
  }

  /**
   * Decodes values {@code [from, to)} of a chunk of {@code numValues} values (buffers as in
   * {@link #decodeInto}) to {@code dst} from byte {@code dstOffset}, {@link #directBits()} bits
   * each. Only called when {@link #decodesRanges()}; the chunk gets the same checks as in
   * {@link #decompress}.
   */
  default void decodeRange(byte[] chunk, int[] offsets, int[] sizes, int numValues, int from, int to, byte[] dst, int dstOffset) {
    throw new UnsupportedOperationException("decodeRange");
  }
}
