package io.lancecodec.codec.bitpack;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Constant;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;

/**
 * The registry as codec-bitpack's own tests can have it: this module cannot depend on
 * lance-runtime (which depends on it for its tests), so the runtime's two leaves the bitpack
 * composites nest (2.3 Flat and Constant) are stood in for here, to the same contract: Flat takes
 * exactly its values' bytes, Constant takes no payload and the empty one only zero values. The
 * real leaves with these codecs are tested through the registry in lance-runtime's
 * GenericBlock*Test.
 */
final class Decoders23 implements Decoders {
  static final Decoders23 INSTANCE = new Decoders23();

  @Override
  public BlockDecompressor block(Message compressiveEncoding) {
    CompressiveEncoding e = (CompressiveEncoding) compressiveEncoding;
    switch (e.getCompressionCase()) {
      case FLAT:
        return flat(e.getFlat());
      case CONSTANT:
        return constant(e.getConstant());
      case COMPRESSION_NOT_SET:
        throw LanceCodecException.corrupt("empty CompressiveEncoding");
      default:
        Message node = (Message) e.getField(e.getDescriptorForType().findFieldByNumber(e.getCompressionCase().getNumber()));
        if (!Bitpack23.owns(node)) {
          throw LanceCodecException.unsupported("test registry: " + e.getCompressionCase());
        }
        return Bitpack23.openBlock(node, this);
    }
  }

  private static BlockDecompressor flat(Flat f) {
    int bits = (int) f.getBitsPerValue();
    return new BlockDecompressor() {
      @Override
      public int bitsPerValue() {
        return bits;
      }

      @Override
      public DataBlock decompress(byte[] data, long n) {
        LanceCodecException.check(n * bits / 8 == data.length, "flat: wrong length");
        return new DataBlock.FixedWidth(data, bits, n);
      }
    };
  }

  private static BlockDecompressor constant(Constant c) {
    byte[] v = c.hasValue() ? c.getValue().toByteArray() : null;
    return new BlockDecompressor() {
      @Override
      public int bitsPerValue() {
        return v == null ? 0 : 8 * v.length;
      }

      @Override
      public boolean consumesPayload() {
        return false;
      }

      @Override
      public DataBlock decompress(byte[] data, long n) {
        LanceCodecException.check(data.length == 0, "constant: payload");
        if (v == null) {
          LanceCodecException.check(n == 0, "constant: empty");
          return new DataBlock.FixedWidth(new byte[0], 64, 0);
        }
        byte[] out = new byte[(int) n * v.length];
        for (int i = 0; i < out.length; i += v.length) {
          System.arraycopy(v, 0, out, i, v.length);
        }
        return new DataBlock.FixedWidth(out, 8 * v.length, n);
      }
    };
  }

  @Override
  public MiniBlockDecompressor miniBlock(Message compressiveEncoding) {
    throw new UnsupportedOperationException();
  }

  @Override
  public PerValueDecompressor perValue(Message compressiveEncoding) {
    throw new UnsupportedOperationException();
  }

  @Override
  public EncodingSummary describe(Message compressiveEncoding) {
    throw new UnsupportedOperationException();
  }
}
