package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.List;

/** Decodes a chunk with the inner decompressor, then FSST-decodes each of its values. */
final class FsstMiniBlockDecompressor implements MiniBlockDecompressor {
  private final FsstDecoder decoder;
  private final MiniBlockDecompressor inner;

  FsstMiniBlockDecompressor(FsstDecoder decoder, MiniBlockDecompressor inner) {
    this.decoder = decoder;
    this.inner = inner;
  }

  @Override
  public DataBlock decompress(List<byte[]> buffers, long numValues) {
    DataBlock codes = inner.decompress(buffers, numValues);
    if (!(codes instanceof DataBlock.VariableWidth vw) || vw.numValues() != numValues) {
      throw LanceCodecException.corrupt(
          "fsst: inner encoding produced " + codes.getClass().getSimpleName() + " of " + codes.numValues()
              + " values, expected " + numValues + " variable-width values");
    }
    return decoder.decompress(vw);
  }
}
