package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;

/**
 * General compression of a whole block buffer (2.2 levels and dictionary items): the inner
 * block compressor's bytes become one frame. The reference writes Flat (the raw values) or
 * Variable (its block form) inside; any block encoding decodes, since the inner decoder is
 * opened through the registry.
 */
final class GeneralBlock {
  private GeneralBlock() {}

  /** Remembers the last block so the proposal's exact size costs no second pass. Per page. */
  static final class Compressor implements BlockCompressor {
    private final BlockCompressor inner;
    private final BufferCodec codec;
    private final BufferCompression compression;
    private DataBlock lastBlock;
    private Encoded<byte[]> lastResult;

    Compressor(BlockCompressor inner, BufferCodec codec, BufferCompression compression) {
      this.inner = inner;
      this.codec = codec;
      this.compression = compression;
    }

    @Override
    public synchronized Encoded<byte[]> compress(DataBlock block) {
      if (block == lastBlock) {
        return lastResult;
      }
      Encoded<byte[]> in = inner.compress(block);
      byte[] frame = codec.compress(in.data(), 0, in.data().length);
      lastBlock = block;
      lastResult = new Encoded<>(frame, GeneralMiniBlock.wrap(compression, (CompressiveEncoding) in.encoding()));
      return lastResult;
    }
  }

  static final class Decompressor implements BlockDecompressor {
    private final BufferCodec codec;
    private final BlockDecompressor inner;
    private final CompressiveEncoding innerEncoding;

    Decompressor(BufferCodec codec, BlockDecompressor inner, CompressiveEncoding innerEncoding) {
      this.codec = codec;
      this.inner = inner;
      this.innerEncoding = innerEncoding;
    }

    @Override
    public DataBlock decompress(byte[] data, long numValues) {
      long budget = GeneralFormat.blockBudget(innerEncoding, numValues);
      return inner.decompress(codec.decompress(data, 0, data.length, budget), numValues);
    }
  }
}
