package io.lancecodec.spi;

/**
 * Splits a page's values into mini-block chunks and compresses each. The compressor decides
 * chunk boundaries because only it knows how compressible the values are; the rules every chunk
 * must follow (value counts, byte budgets) are in {@link MiniBlocks}.
 */
public interface MiniBlockCompressor extends Compressor<MiniBlockCompressed> {
  /**
   * As {@link #compress}, for a layout that stores chunks of one buffer each as
   * {@code headerBytes} (a multiple of 8) then the buffer, padded to a multiple of 8: the
   * chunks written there at once, so the layout need not copy the page into that frame. The
   * header and padding bytes are the layout's to fill. Null (the default) when this compressor
   * does not frame its chunks; the layout then copies them.
   */
  default MiniBlockCompressed compressFramed(DataBlock block, int headerBytes) {
    return null;
  }
}
