package io.lancecodec.runtime.arrow;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Reserving room for values is a hint only: the appended values and offsets do not depend on it. */
class ArrowVariableSinkTest {
  static final org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();

  @Test
  void reservedValuesDoNotChangeWhatIsAppended() {
    for (int width : new int[] {4, 8}) {
      for (long hint : new long[] {-5, 0, 3, 700, 5000, Long.MAX_VALUE}) {
        Random rnd = new Random(11);
        try (ArrowVariableSink sink = new ArrowVariableSink(allocator, width)) {
          sink.reserveValues(hint);
          long size = 0;
          int count = 0;
          for (int step = 0; step < 20; step++) {
            int n = rnd.nextInt(300);
            byte[] offs = new byte[(n + 1) * 4];
            int end = 3;
            LittleEndian.putInt(offs, 0, end);
            for (int i = 1; i <= n; i++) {
              end += rnd.nextInt(9);
              LittleEndian.putInt(offs, 4 * i, end);
            }
            byte[] data = new byte[end];
            rnd.nextBytes(data);
            sink.reserveValues(hint);
            sink.append(new DataBlock.VariableWidth(offs, 32, data, n));
            for (int i = 1; i <= n; i++) {
              long want = size + LittleEndian.getInt(offs, 4 * i) - 3;
              assertEquals(want, LittleEndian.getUnsigned(sink.offsets(), (count + i) * width, width));
            }
            byte[] got = new byte[end - 3];
            sink.data().getBytes(size, got);
            assertArrayEquals(Arrays.copyOfRange(data, 3, end), got, "the bytes of step " + step);
            size += end - 3;
            count += n;
            assertEquals(size, sink.size());
            assertEquals(count, sink.count());
          }
        }
      }
    }
  }
}
