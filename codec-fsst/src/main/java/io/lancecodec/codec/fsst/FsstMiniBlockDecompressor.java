package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockDecompressor;

/**
 * Decodes a chunk's codes with the inner decompressor (into the reader's inner buffers, so the
 * codes of one chunk after another reuse one array), then FSST-decodes each value.
 */
final class FsstMiniBlockDecompressor implements MiniBlockDecompressor {
  private final FsstDecoder decoder;
  private final MiniBlockDecompressor inner;

  FsstMiniBlockDecompressor(FsstDecoder decoder, MiniBlockDecompressor inner) {
    this.decoder = decoder;
    this.inner = inner;
  }

  @Override
  public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
    DataBlock codes = inner.decompress(chunk, numValues, reuse == null ? null : reuse.inner());
    if (!(codes instanceof DataBlock.VariableWidth vw) || vw.numValues() != numValues) {
      throw LanceCodecException.corrupt(
          "fsst: inner encoding produced " + codes.getClass().getSimpleName() + " of " + codes.numValues()
              + " values, expected " + numValues + " variable-width values");
    }
    return decoder.decompress(vw, reuse);
  }
}
