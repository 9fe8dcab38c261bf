package io.lancecodec.codec.general;

import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import org.xerial.snappy.Snappy;

/**
 * Snappy, a lance-codec extension the reference does not know: one raw snappy block, whose
 * leading varint is the uncompressed length (so no extra prefix). The varint is parsed here, in
 * Java, and the block validated by the library before anything is decoded into a fresh array.
 */
final class SnappyCodec implements BufferCodec {
  /** Largest expansion of a snappy block: a 3-byte copy element emits at most 64 bytes. */
  private static final long MAX_RATIO = 32;

  @Override
  public String name() {
    return "snappy";
  }

  @Override
  public int maxFrameBytes(int len) {
    return Snappy.maxCompressedLength(len);
  }

  @Override
  public int compressInto(byte[] src, int off, int len, byte[] dst, int dstOff) {
    try {
      return Snappy.rawCompress(src, off, len, dst, dstOff);
    } catch (IOException e) {
      throw LanceCodecException.internal("general(snappy): compression failed: " + e.getMessage());
    }
  }

  @Override
  public long declaredLength(byte[] src, int off, int len, long budget) {
    long value = 0;
    for (int i = 0; i < 5; i++) {
      if (i >= len) {
        throw LanceCodecException.corrupt("general(snappy): block of " + len + " bytes ends inside its length varint");
      }
      int b = src[off + i] & 0xFF;
      value |= (long) (b & 0x7F) << (7 * i);
      if (b < 0x80) {
        return BufferCodec.checkDeclared("snappy", value, budget, len * MAX_RATIO + 16);
      }
    }
    throw LanceCodecException.corrupt("general(snappy): length varint longer than 5 bytes");
  }

  @Override
  public void decompressInto(byte[] src, int off, int len, byte[] dst, int dstOff, int declared) {
    try {
      if (!Snappy.isValidCompressedBuffer(src, off, len)) {
        throw LanceCodecException.corrupt("general(snappy): block of " + len + " bytes is malformed");
      }
      int n = Snappy.rawUncompress(src, off, len, dst, dstOff);
      if (n != declared) {
        throw LanceCodecException.corrupt(
            "general(snappy): block decoded to " + n + " bytes, its header declares " + declared);
      }
    } catch (IOException e) {
      throw BufferCodec.corrupt("snappy", "block of " + len + " bytes is malformed", e);
    }
  }
}
