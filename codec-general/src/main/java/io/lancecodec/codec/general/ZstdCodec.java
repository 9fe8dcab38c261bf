package io.lancecodec.codec.general;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Zstandard frames as the reference writes them: the uncompressed length as a u64 LE, then one
 * zstd frame. For compatibility with early writers a buffer shorter than 8 bytes, or one that
 * begins with the zstd magic and has the frame-header reserved bit (0x10 of byte 4) clear, is a
 * bare zstd stream without the prefix. Contexts are per thread (zstd-jni contexts are not
 * thread-safe and costly to create per chunk).
 */
final class ZstdCodec implements BufferCodec {
  static final int PREFIX = 8;
  private static final int MAGIC = 0xFD2FB528;
  private static final int RESERVED_BIT = 0x10;
  /**
   * Largest expansion of a zstd frame: an RLE block of 4 bytes (3-byte header and the byte)
   * stands for at most 128 KiB, so output is below 32768 times the input (plus a frame header).
   */
  private static final long MAX_RATIO = 32 * 1024;

  private static final ThreadLocal<ZstdCompressCtx> CCTX = ThreadLocal.withInitial(ZstdCompressCtx::new);
  private static final ThreadLocal<ZstdDecompressCtx> DCTX = ThreadLocal.withInitial(ZstdDecompressCtx::new);

  private final int level;

  ZstdCodec(int level) {
    this.level = level;
  }

  @Override
  public String name() {
    return "zstd";
  }

  @Override
  public int maxFrameBytes(int len) {
    return (int) Math.min(Integer.MAX_VALUE - 16, com.github.luben.zstd.Zstd.compressBound(len) + PREFIX);
  }

  @Override
  public int compressInto(byte[] src, int off, int len, byte[] dst, int dstOff) {
    ZstdCompressCtx ctx = CCTX.get();
    ctx.reset();
    ctx.setLevel(level);
    LittleEndian.putLong(dst, dstOff, len);
    try {
      return PREFIX + ctx.compressByteArray(dst, dstOff + PREFIX, dst.length - dstOff - PREFIX, src, off, len);
    } catch (ZstdException e) {
      throw LanceCodecException.internal("general(zstd): compression failed: " + e.getMessage());
    }
  }

  /** True for the legacy framing without a length prefix (the reference's own rule). */
  static boolean isBareStream(byte[] src, int off, int len) {
    if (len < PREFIX) {
      return true;
    }
    return LittleEndian.getInt(src, off) == MAGIC && (src[off + 4] & RESERVED_BIT) == 0;
  }

  @Override
  public long declaredLength(byte[] src, int off, int len, long budget) {
    if (isBareStream(src, off, len)) {
      return -1;
    }
    long declared = LittleEndian.getLong(src, off);
    return BufferCodec.checkDeclared("zstd", declared, budget, (len - PREFIX) * MAX_RATIO + 64);
  }

  @Override
  public void decompressInto(byte[] src, int off, int len, byte[] dst, int dstOff, int declared) {
    int n;
    try {
      n = DCTX.get().decompressByteArray(dst, dstOff, declared, src, off + PREFIX, len - PREFIX);
    } catch (ZstdException e) {
      throw BufferCodec.corrupt("zstd", "frame of " + len + " bytes does not decode to the declared " + declared + " bytes", e);
    }
    if (n != declared) {
      throw LanceCodecException.corrupt(
          "general(zstd): frame decoded to " + n + " bytes, its prefix declares " + declared);
    }
  }

  @Override
  public byte[] decompress(byte[] src, int off, int len, long budget) {
    if (len > 0 && isBareStream(src, off, len)) {
      return decodeStream(src, off, len, budget);
    }
    return BufferCodec.super.decompress(src, off, len, budget);
  }

  /** The legacy bare stream: decoded incrementally, never past the budget. */
  static byte[] decodeStream(byte[] src, int off, int len, long budget) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    try (ZstdInputStreamNoFinalizer in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(src, off, len))) {
      while (true) {
        int r = in.read(buf);
        if (r < 0) {
          break;
        }
        if (out.size() + (long) r > budget) {
          throw LanceCodecException.corrupt(
              "general(zstd): bare zstd stream decodes past the budget of " + budget + " bytes");
        }
        out.write(buf, 0, r);
      }
    } catch (IOException | ZstdException e) {
      throw BufferCodec.corrupt("zstd", "bare zstd stream of " + len + " bytes is malformed", e);
    }
    return out.toByteArray();
  }
}
