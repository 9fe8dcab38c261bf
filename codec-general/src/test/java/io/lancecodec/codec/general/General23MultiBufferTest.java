package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import java.util.Arrays;
import java.util.OptionalInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * 2.3 General around a fixed-width encoding whose chunks have several buffers (ALP has four): a
 * scan's {@code decodeInto} and a plain {@code decompress} both frame-decode every buffer before
 * the inner decoder sees the chunk, as the writer framed them.
 */
class General23MultiBufferTest {
  /** 16-bit values stored as two buffers, the low bytes then the high bytes. */
  static final class Split implements FixedWidthMiniBlockDecompressor {
    @Override
    public int bitsPerValue() {
      return 16;
    }

    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      return numValues;
    }

    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      chunk.expect(2, "split");
      if (chunk.size(0) != numValues || chunk.size(1) != numValues) {
        throw LanceCodecException.corrupt("split: buffers of " + chunk.size(0) + " and " + chunk.size(1) + " bytes");
      }
      for (int i = from; i < to; i++) {
        dst[dstOffset + 2 * (i - from)] = chunk.bytes()[chunk.offset(0) + i];
        dst[dstOffset + 2 * (i - from) + 1] = chunk.bytes()[chunk.offset(1) + i];
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Scheme.class, names = {"ZSTD", "LZ4"})
  void everyBufferIsAFrame(Scheme scheme) {
    int n = 700;
    byte[] values = new byte[2 * n];
    byte[] low = new byte[n];
    byte[] high = new byte[n];
    for (int i = 0; i < n; i++) {
      values[2 * i] = low[i] = (byte) (i % 7);
      values[2 * i + 1] = high[i] = (byte) (i / 100);
    }
    BufferCodec codec = scheme.codec(OptionalInt.empty());
    MiniBlockBuffers framed = MiniBlockBuffers.of(codec.compress(low, 0, n), codec.compress(high, 0, n));
    FixedWidthMiniBlockDecompressor d =
        (FixedWidthMiniBlockDecompressor) GeneralMiniBlock.decompressor(codec, new Split(), true);
    byte[] dst = new byte[2 * n + 3];
    d.decodeInto(framed, n, 0, n, dst, 3);
    assertArrayEquals(values, Arrays.copyOfRange(dst, 3, dst.length));
    byte[] part = new byte[2 * 10];
    d.decodeInto(framed, n, 345, 355, part, 0);
    assertArrayEquals(Arrays.copyOfRange(values, 690, 710), part);
    DataBlock.FixedWidth whole = (DataBlock.FixedWidth) d.decompress(framed, n, null);
    assertArrayEquals(values, Arrays.copyOf(whole.data(), 2 * n));
    // a frame that decodes to more than the inner decoder allows is refused before it is inflated
    MiniBlockBuffers tooLong = MiniBlockBuffers.of(codec.compress(values, 0, 2 * n), codec.compress(high, 0, n));
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> d.decodeInto(tooLong, n, 0, n, dst, 0));
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
  }
}
