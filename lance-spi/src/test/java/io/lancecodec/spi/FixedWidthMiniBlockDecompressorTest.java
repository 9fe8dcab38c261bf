package io.lancecodec.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The default whole-chunk decode refuses a decoded size no chunk has before allocating it (a fuzzing find). */
class FixedWidthMiniBlockDecompressorTest {
  /** A decompressor of the given width that must never be asked to decode. */
  static FixedWidthMiniBlockDecompressor claiming(int bits) {
    return new FixedWidthMiniBlockDecompressor() {
      @Override
      public int bitsPerValue() {
        return bits;
      }

      @Override
      public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
        throw new AssertionError("decoded into " + dst.length + " bytes");
      }
    };
  }

  @Test
  void aClaimedWidthOfMillionsOfBitsIsRefusedBeforeAllocating() {
    MiniBlockBuffers chunk = MiniBlockBuffers.of(new byte[10]);
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> claiming(932_848).decompress(chunk, 14_392, new DecodeBuffers()));
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind());
    assertTrue(e.getMessage().contains("more than a chunk holds"), e.getMessage());
    assertThrows(LanceCodecException.class, () -> claiming(64).decompress(chunk, -1, new DecodeBuffers()));
    // at the limit the chunk is decoded (here: the stub's error, not a refusal)
    int values = (int) (FixedWidthMiniBlockDecompressor.MAX_DECODED_CHUNK_BYTES / 1024);
    assertThrows(AssertionError.class, () -> claiming(8 * 1024).decompress(chunk, values, new DecodeBuffers()));
  }
}
