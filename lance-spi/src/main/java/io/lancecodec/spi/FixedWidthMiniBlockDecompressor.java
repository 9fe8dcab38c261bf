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

  @Override
  default DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
    int bytes = bitsPerValue() / 8;
    byte[] out = new byte[LanceCodecException.checkedInt((long) numValues * bytes, "decoded chunk size")];
    decodeInto(chunk, numValues, 0, numValues, out, 0);
    return new DataBlock.FixedWidth(out, bitsPerValue(), numValues);
  }
}
