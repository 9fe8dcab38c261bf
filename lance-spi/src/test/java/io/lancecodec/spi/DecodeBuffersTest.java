package io.lancecodec.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The most bytes one decoded block may take, asked before allocating, overflow included. */
class DecodeBuffersTest {
  @Test
  void sizesWithinTheLimitAreAdmitted() {
    DecodeBuffers b = new DecodeBuffers(1 << 20);
    assertEquals(1 << 20, DecodeBuffers.admit(b, 1 << 10, 1 << 10, "rows"));
    assertEquals(0, DecodeBuffers.admit(b, Long.MAX_VALUE, 0, "zero-width rows"));
    assertTrue(b.data(1 << 19).length >= 1 << 19);
    assertEquals(1 << 20, b.inner().maxBlockBytes(), "the inner buffers keep the limit");
    assertEquals(DecodeBuffers.DEFAULT_MAX_BLOCK_BYTES, new DecodeBuffers().maxBlockBytes());
  }

  @Test
  void sizesOverTheLimitFailAsOneUnsupportedError() {
    DecodeBuffers b = new DecodeBuffers(1 << 20);
    for (Runnable over : new Runnable[] {
        () -> DecodeBuffers.admit(b, (1 << 20) + 1, 1, "rows"),
        () -> DecodeBuffers.admit(b, 65_535, 18_192, "decoded fixed-size lists"),
        // a product that overflows a long is over any limit, not negative
        () -> DecodeBuffers.admit(b, Long.MAX_VALUE / 2, 4, "rows"),
        () -> DecodeBuffers.admit(b, -1, 4, "rows"),
        () -> b.data((1 << 20) + 1),
        () -> b.offsets(1L << 40),
        () -> DecodeBuffers.admit(null, DecodeBuffers.DEFAULT_MAX_BLOCK_BYTES + 1, 1, "rows")}) {
      LanceCodecException e = assertThrows(LanceCodecException.class, over::run);
      assertEquals(LanceCodecException.Kind.UNSUPPORTED, e.kind());
      assertTrue(e.getMessage().contains("bytes one decoded block may take"), e.getMessage());
    }
    assertThrows(LanceCodecException.class, () -> new DecodeBuffers(0));
  }
}
