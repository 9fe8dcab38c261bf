package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;

/**
 * General compression of a whole block buffer (2.2 levels and dictionary items): the inner
 * block compressor's bytes become one frame. The reference writes Flat (the raw values) or
 * Variable (its block form) inside; any block encoding decodes, since the inner decoder is
 * opened through the registry.
 */
final class GeneralBlock {
  private GeneralBlock() {}

  /** One frame of what {@code inner} makes of a block. */
  static final class Compressor implements BlockCompressor {
    private final io.lancecodec.spi.Compressor<Encoded<byte[]>> inner;
    private final BufferCodec codec;
    private final BufferCompression compression;

    Compressor(io.lancecodec.spi.Compressor<Encoded<byte[]>> inner, BufferCodec codec, BufferCompression compression) {
      this.inner = inner;
      this.codec = codec;
      this.compression = compression;
    }

    @Override
    public Encoded<byte[]> compress(DataBlock block) {
      return wrap(inner.compress(block));
    }

    /** The frame of an inner result already at hand (the inner proposal's). */
    Encoded<byte[]> wrap(Encoded<byte[]> in) {
      byte[] frame = codec.compress(in.data(), 0, in.data().length);
      return new Encoded<>(frame, GeneralMiniBlock.wrap(compression, (CompressiveEncoding) in.encoding()));
    }
  }

  static final class Decompressor implements BlockDecompressor {
    private final BufferCodec codec;
    private final BlockDecompressor inner;

    Decompressor(BufferCodec codec, BlockDecompressor inner) {
      this.codec = codec;
      this.inner = inner;
    }

    @Override
    public DataBlock decompress(byte[] data, long numValues) {
      long budget = GeneralFormat.budget(inner.maxBytes(numValues), GeneralFormat.MAX_BLOCK_OUTPUT);
      return inner.decompress(codec.decompress(data, 0, data.length, budget), numValues);
    }

    /**
     * The frame is decompressed from where it lies and the inner decoder writes the levels itself:
     * by default a copy of the frame was decompressed into a block the inner decoder then unpacked
     * into a second one (half of what a scan of token lines allocated).
     */
    @Override
    public void decompressLevels(byte[] src, int off, int len, int numValues, short[] dst, int dstOff) {
      levels(codec, inner, src, off, len, numValues, dst, dstOff);
    }
  }

  /** {@link BlockDecompressor#decompressLevels} of a frame of {@code codec} around {@code inner}'s buffer (2.2 and 2.3). */
  static void levels(BufferCodec codec, BlockDecompressor inner, byte[] src, int off, int len, int numValues, short[] dst, int dstOff) {
    if (off < 0 || len < 0 || len > src.length - off) {
      throw LanceCodecException.corrupt("level buffer [" + off + ", +" + len + ") outside its " + src.length + " bytes");
    }
    long budget = GeneralFormat.budget(inner.maxBytes(numValues), GeneralFormat.MAX_BLOCK_OUTPUT);
    byte[] frame = codec.decompress(src, off, len, budget);
    inner.decompressLevels(frame, 0, frame.length, numValues, dst, dstOff);
  }
}
