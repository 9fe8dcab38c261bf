package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.LanceCodecException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ShortBuffer;

/**
 * One group of 1024 16-bit levels unpacked per thread, read out as shorts: decoders of level
 * buffers convert from here into the read's array, so they stay stateless and thread-safe
 * without an output block per chunk.
 */
final class LevelScratch {
  final byte[] bytes = new byte[2048];
  final ShortBuffer shorts = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer();

  private static final ThreadLocal<LevelScratch> PER_THREAD = ThreadLocal.withInitial(LevelScratch::new);

  private LevelScratch() {}

  static LevelScratch get() {
    return PER_THREAD.get();
  }

  /** The bounds a level decoder checks before writing: its source slice (CORRUPT) and the room at {@code dstOff} (INTERNAL). */
  static void check(String codec, byte[] src, int off, int len, int numValues, short[] dst, int dstOff) {
    if (off < 0 || len < 0 || len > src.length - off) {
      throw LanceCodecException.corrupt(codec + ": buffer [" + off + ", +" + len + ") outside its " + src.length + " bytes");
    }
    if (numValues < 0 || dstOff < 0 || numValues > dst.length - dstOff) {
      throw LanceCodecException.internal(codec + ": " + numValues + " levels do not fit at " + dstOff);
    }
  }
}
