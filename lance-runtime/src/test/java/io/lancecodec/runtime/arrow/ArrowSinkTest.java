package io.lancecodec.runtime.arrow;

import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sink a nested scan's fixed-width values are written to: growth keeps what came before. */
class ArrowSinkTest {
  static final org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();

  @Test
  void appendsGrowAndKeepEarlierBytes() {
    Random rnd = new Random(7);
    byte[] expected = new byte[100_000];
    int size = 0;
    try (ArrowSink sink = new ArrowSink(allocator)) {
      sink.reserve(10);
      while (size < expected.length - 5000) {
        int len = rnd.nextInt(4000);
        if (rnd.nextInt(5) == 0) {
          sink.appendZeros(len);
        } else {
          byte[] chunk = new byte[len + 3];
          rnd.nextBytes(chunk);
          sink.append(chunk, 3, len);
          System.arraycopy(chunk, 3, expected, size, len);
        }
        size += len;
        assertEquals(size, sink.size());
      }
      ArrowBuf b = sink.buffer();
      byte[] got = new byte[size];
      b.getBytes(0, got, 0, size);
      assertArrayEquals(Arrays.copyOf(expected, size), got);
    }
  }

  @Test
  void emptySinkStillHasABuffer() {
    try (ArrowSink sink = new ArrowSink(allocator)) {
      assertEquals(0, sink.size());
      assertTrue(sink.buffer().capacity() >= 1);
    }
  }
}
