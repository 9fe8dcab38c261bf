package io.lancecodec.codec.general;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4 frames as the reference writes them: the uncompressed length as a u32 LE, then one raw
 * LZ4 block (the block format, not the LZ4 frame format) from the default fast compressor.
 *
 * <p>Decoding uses only lz4-java's pure-Java <em>safe</em> implementation: the JNI and Unsafe
 * decompressors could read out of bounds on malformed input (CVE-2025-12183), and the decoder
 * always writes into a fresh array that must be filled exactly, which defeats the reused-buffer
 * disclosure of CVE-2025-66566. Encoding reads only arrays of ours, within their bounds, into
 * room for the largest frame: it uses the Unsafe compressor, which writes the same bytes as the
 * safe one (a test pins that) about 1.5 times as fast; the safe one was two thirds of writing a
 * page of 50,000 URLs, whose 18,451 dictionary items a 2.2 file stores in LZ4.
 */
final class Lz4Codec implements BufferCodec {
  static final int PREFIX = 4;
  /** Largest expansion of an LZ4 block: each extra length byte adds at most 255 output bytes. */
  private static final long MAX_RATIO = 255;

  private static final LZ4Compressor COMPRESSOR = LZ4Factory.unsafeInstance().fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.safeInstance().safeDecompressor();

  @Override
  public String name() {
    return "lz4";
  }

  @Override
  public int maxFrameBytes(int len) {
    return PREFIX + COMPRESSOR.maxCompressedLength(len);
  }

  @Override
  public int compressInto(byte[] src, int off, int len, byte[] dst, int dstOff) {
    LittleEndian.putInt(dst, dstOff, len);
    return PREFIX + COMPRESSOR.compress(src, off, len, dst, dstOff + PREFIX, dst.length - dstOff - PREFIX);
  }

  @Override
  public long declaredLength(byte[] src, int off, int len, long budget) {
    if (len < PREFIX) {
      throw LanceCodecException.corrupt(
          "general(lz4): frame of " + len + " bytes is shorter than its 4-byte length prefix");
    }
    long declared = LittleEndian.getInt(src, off) & 0xFFFFFFFFL;
    return BufferCodec.checkDeclared("lz4", declared, budget, (len - PREFIX) * MAX_RATIO + 16);
  }

  @Override
  public void decompressInto(byte[] src, int off, int len, byte[] dst, int dstOff, int declared) {
    int n;
    try {
      n = DECOMPRESSOR.decompress(src, off + PREFIX, len - PREFIX, dst, dstOff, declared);
    } catch (LZ4Exception | ArrayIndexOutOfBoundsException e) {
      throw BufferCodec.corrupt("lz4", "block of " + (len - PREFIX) + " bytes is malformed", e);
    }
    if (n != declared) {
      throw LanceCodecException.corrupt(
          "general(lz4): block decoded to " + n + " bytes, its prefix declares " + declared);
    }
  }
}
