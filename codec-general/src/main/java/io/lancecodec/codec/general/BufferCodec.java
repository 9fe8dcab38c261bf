package io.lancecodec.codec.general;

import io.lancecodec.spi.LanceCodecException;

/**
 * One general-compression scheme applied to one buffer ("frame"), in exactly the framing the
 * reference writes: zstd {@code [u64 LE length][zstd frame]}, lz4 {@code [u32 LE length][raw
 * lz4 block]}, snappy (lance-codec only) a raw snappy block, whose varint header is the length.
 *
 * <p>Decoding reads the declared length first and checks it against the caller's budget and
 * the scheme's largest possible ratio before allocating anything; the output is always a new,
 * zero-filled array that must be filled exactly, so no bytes of an earlier buffer can surface.
 * Implementations are stateless and thread-safe.
 */
sealed interface BufferCodec permits ZstdCodec, Lz4Codec, SnappyCodec {
  /** The scheme's name in messages, e.g. {@code "zstd"}. */
  String name();

  /** The most bytes a frame of {@code len} input bytes takes. */
  int maxFrameBytes(int len);

  /**
   * Writes one frame holding {@code src[off, off + len)} to {@code dst} from {@code dstOff},
   * which has room for {@link #maxFrameBytes}; returns the frame's size.
   */
  int compressInto(byte[] src, int off, int len, byte[] dst, int dstOff);

  /** One frame holding {@code src[off, off + len)}, in an array of its exact size. */
  default byte[] compress(byte[] src, int off, int len) {
    byte[] out = new byte[maxFrameBytes(len)];
    return java.util.Arrays.copyOf(out, compressInto(src, off, len, out, 0));
  }

  /**
   * The uncompressed length a frame declares, after checking it against {@code budget} and the
   * scheme's maximum ratio; {@code -1} when the frame carries no length (legacy bare zstd).
   */
  long declaredLength(byte[] src, int off, int len, long budget);

  /**
   * Decodes a frame whose declared length {@link #declaredLength} returned (not -1) into
   * {@code dst[dstOff, dstOff + declared)}; fails unless exactly that many bytes come out.
   */
  void decompressInto(byte[] src, int off, int len, byte[] dst, int dstOff, int declared);

  /** Decodes one frame into a new array of at most {@code budget} bytes. An empty frame is empty. */
  default byte[] decompress(byte[] src, int off, int len, long budget) {
    if (len == 0) {
      return new byte[0];
    }
    long declared = declaredLength(src, off, len, budget);
    byte[] out = new byte[(int) declared];
    decompressInto(src, off, len, out, 0, (int) declared);
    return out;
  }

  /** Shared length check: the limit, then the scheme's largest ratio. */
  static long checkDeclared(String scheme, long declared, long budget, long maxOut) {
    if (declared < 0 || declared > budget) {
      throw LanceCodecException.corrupt(
          "general(" + scheme + "): declared uncompressed length " + Long.toUnsignedString(declared)
              + " exceeds the budget of " + budget + " bytes");
    }
    if (declared > maxOut) {
      throw LanceCodecException.corrupt(
          "general(" + scheme + "): declared uncompressed length " + declared
              + " is more than this frame can expand to (" + maxOut + " bytes)");
    }
    if (declared > GeneralFormat.MAX_PER_VALUE_OUTPUT) {
      throw LanceCodecException.corrupt(
          "general(" + scheme + "): declared uncompressed length " + declared + " exceeds a Java array");
    }
    return declared;
  }

  static LanceCodecException corrupt(String scheme, String what, Throwable cause) {
    return new LanceCodecException(
        LanceCodecException.Kind.CORRUPT,
        "general(" + scheme + "): " + what
            + (cause == null || cause.getMessage() == null ? "" : " (" + cause.getMessage().lines().findFirst().orElse("") + ")"),
        cause);
  }
}
