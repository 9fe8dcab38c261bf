package io.lancecodec.spi;

/**
 * A mini-block decompressor whose values are byte-aligned and fixed-width, so they can be
 * written where the caller wants them: a scan decodes each chunk straight into its output and a
 * point lookup decodes a few values instead of the chunk (bit-packing finds any value at a
 * computable bit position; other codecs decode the chunk and copy the range).
 */
public interface FixedWidthMiniBlockDecompressor extends MiniBlockDecompressor {
  /** Bits of each decoded value, a positive multiple of 8. */
  int bitsPerValue();

  /**
   * Decodes values {@code [from, to)} of the chunk of {@code numValues} values to {@code dst}
   * from byte {@code dstOffset}; {@code 0 <= from <= to <= numValues}. The chunk gets the same
   * checks whatever the range.
   */
  void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset);

  /**
   * Whether the chunk's one buffer is the values as they are ({@code Flat}): a codec wrapping
   * this one can then decompress its frame straight into the caller's output.
   */
  default boolean storesValuesAsIs() {
    return false;
  }

  /**
   * Most bytes one chunk may decode to: chunks are a few KiB to 32 KiB encoded, so even zero-width
   * bit-packing of the widest fixed-size rows stays far below; a larger claim comes from a hostile
   * message (a width of millions of bits) and is refused before anything is allocated.
   */
  long MAX_DECODED_CHUNK_BYTES = 256L << 20;

  @Override
  default DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
    int bytes = bitsPerValue() / 8;
    long size = (long) numValues * bytes;
    if (numValues < 0 || size > MAX_DECODED_CHUNK_BYTES) {
      throw LanceCodecException.corrupt("mini-block chunk of " + numValues + " values of " + bitsPerValue()
          + " bits would decode to " + size + " bytes, more than a chunk holds (" + MAX_DECODED_CHUNK_BYTES + ")");
    }
    byte[] out = new byte[(int) size];
    decodeInto(chunk, numValues, 0, numValues, out, 0);
    return new DataBlock.FixedWidth(out, bitsPerValue(), numValues);
  }
}
