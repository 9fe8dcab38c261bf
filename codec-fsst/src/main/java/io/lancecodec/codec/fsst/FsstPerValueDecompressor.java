package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.PerValueDecompressor;

/** Undoes the inner per-value encoding of the unzipped values, then FSST-decodes each value. */
final class FsstPerValueDecompressor implements PerValueDecompressor {
  private final FsstDecoder decoder;
  private final PerValueDecompressor inner;

  FsstPerValueDecompressor(FsstDecoder decoder, PerValueDecompressor inner) {
    this.decoder = decoder;
    this.inner = inner;
  }

  @Override
  public DataBlock decompress(DataBlock block, DecodeBuffers reuse) {
    DataBlock codes = inner.decompress(block, reuse == null ? null : reuse.inner());
    if (!(codes instanceof DataBlock.VariableWidth vw) || vw.numValues() != block.numValues()) {
      throw LanceCodecException.corrupt(
          "fsst: inner encoding produced " + codes.getClass().getSimpleName() + " of " + codes.numValues()
              + " values, expected " + block.numValues() + " variable-width values");
    }
    return decoder.decompress(vw, reuse);
  }
}
