package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.List;

/**
 * Decodes a chunk with the inner decompressor, then FSST-decodes each of its values. Over plain
 * Variable codes (what the writers produce) the chunk is read in place: its offsets are
 * positions within the chunk, so the chunk serves as both the offsets and the data of the codes,
 * without the inner decoder's rebased copy.
 */
final class FsstMiniBlockDecompressor implements MiniBlockDecompressor {
  private final FsstDecoder decoder;
  private final MiniBlockDecompressor inner;
  /** Offset width of plain Variable codes, 0 for any other inner encoding. */
  private final int variableBits;

  FsstMiniBlockDecompressor(FsstDecoder decoder, MiniBlockDecompressor inner, int variableBits) {
    this.decoder = decoder;
    this.inner = inner;
    this.variableBits = variableBits;
  }

  @Override
  public DataBlock decompress(List<byte[]> buffers, long numValues) {
    return decompress(buffers, numValues, null);
  }

  @Override
  public DataBlock decompress(List<byte[]> buffers, long numValues, DecodeBuffers reuse) {
    if (variableBits != 0 && decoder.compressed() && buffers.size() == 1) {
      byte[] chunk = buffers.get(0);
      int width = variableBits / 8;
      if (!(numValues >= 0 && (numValues + 1) * width <= chunk.length)) {
        throw LanceCodecException.corrupt("fsst: " + numValues + " values' offsets do not fit in a chunk of " + chunk.length + " bytes");
      }
      DataBlock.VariableWidth codes = new DataBlock.VariableWidth(chunk, variableBits, chunk, numValues);
      if (codes.offset(0) < (numValues + 1) * width) {
        throw LanceCodecException.corrupt("fsst: codes start at " + codes.offset(0) + ", inside the chunk's offsets");
      }
      return decoder.decompress(codes, reuse);
    }
    DataBlock codes = inner.decompress(buffers, numValues);
    if (!(codes instanceof DataBlock.VariableWidth vw) || vw.numValues() != numValues) {
      throw LanceCodecException.corrupt(
          "fsst: inner encoding produced " + codes.getClass().getSimpleName() + " of " + codes.numValues()
              + " values, expected " + numValues + " variable-width values");
    }
    return decoder.decompress(vw, reuse);
  }
}
