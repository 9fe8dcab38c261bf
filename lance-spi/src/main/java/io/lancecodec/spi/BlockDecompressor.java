package io.lancecodec.spi;

/**
 * Reverses a {@link BlockCompressor}: turns one buffer back into {@code numValues} values.
 * Must treat the buffer as hostile and fail with CORRUPT rather than over-read or over-allocate.
 */
public interface BlockDecompressor {
  DataBlock decompress(byte[] data, long numValues);

  /**
   * The width in bits of the values this decoder produces, fixed by its encoding alone, or 0 when
   * the encoding does not fix one (a 2.3 Constant without a value, the empty sequence, whose width
   * is its container's) or the decoder does not say. 2.3 composite codecs compare their children's
   * widths with their own through this before decoding anything; a generic unsigned block's
   * container compares the root's with the width it supplies.
   */
  default int bitsPerValue() {
    return 0;
  }

  /**
   * Whether the encoding reads a payload buffer. False for metadata-only encodings (2.3 Constant,
   * Range, Delta over a metadata-only child, a block Dictionary of two): no buffer is stored for
   * them, their container passes an empty array, and they reject anything else as CORRUPT. A 2.3
   * container of generic unsigned blocks learns from this how many buffers (zero or one) a
   * sequence consumes, before reading them.
   */
  default boolean consumesPayload() {
    return true;
  }

  /**
   * The most bytes a valid buffer of {@code numValues} values can take, or -1 when the value
   * count does not bound it; a wrapping codec refuses a larger declared size before allocating.
   */
  default long maxBytes(long numValues) {
    return -1;
  }

  /**
   * Decodes the buffer {@code src[off, off + len)} as {@code numValues} 16-bit repetition or
   * definition levels into {@code dst[dstOff, dstOff + numValues)}; CORRUPT when it does not
   * hold exactly that. Layouts read levels per chunk into one array for the whole read, so a
   * codec that can unpack without its own output block saves an array and a copy per chunk; this
   * default decompresses a copy of the buffer and converts it.
   */
  default void decompressLevels(byte[] src, int off, int len, int numValues, short[] dst, int dstOff) {
    if (off < 0 || len < 0 || len > src.length - off) {
      throw LanceCodecException.corrupt("level buffer [" + off + ", +" + len + ") outside its " + src.length + " bytes");
    }
    if (numValues < 0 || dstOff < 0 || numValues > dst.length - dstOff) {
      throw LanceCodecException.internal(numValues + " levels do not fit at " + dstOff);
    }
    DataBlock block = decompress(java.util.Arrays.copyOfRange(src, off, off + len), numValues);
    if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != 16 || fw.numValues() != numValues
        || fw.data().length < 2L * numValues) {
      throw LanceCodecException.corrupt("level buffer did not decode to " + numValues + " u16 values");
    }
    java.nio.ByteBuffer.wrap(fw.data()).order(java.nio.ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(dst, dstOff, numValues);
  }
}
