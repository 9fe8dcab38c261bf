package io.lancecodec.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Run ends against a value-by-value walk: short and long runs, runs to the limit, differences in any byte of a value. */
class RunsTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 8})
  void endsWhereTheFirstDifferentValueIs(int width) {
    Random rnd = new Random(width * 101L);
    for (int trial = 0; trial < 300; trial++) {
      int n = 1 + rnd.nextInt(3000);
      byte[] d = new byte[n * width];
      int i = 0;
      while (i < n) {
        int len = 1 + (rnd.nextBoolean() ? rnd.nextInt(4) : rnd.nextInt(600));
        byte[] v = new byte[width];
        rnd.nextBytes(v);
        if (i > 0 && rnd.nextBoolean()) {
          // the next run differs from the last in one byte only
          System.arraycopy(d, (i - 1) * width, v, 0, width);
          v[rnd.nextInt(width)] ^= (byte) (1 + rnd.nextInt(255));
        }
        for (int k = i; k < Math.min(n, i + len); k++) {
          System.arraycopy(v, 0, d, k * width, width);
        }
        i += len;
      }
      for (int start = 0; start < n; start += 1 + rnd.nextInt(50)) {
        int limit = start + 1 + rnd.nextInt(n - start);
        int want = start + 1;
        while (want < limit && java.util.Arrays.equals(d, want * width, want * width + width, d, start * width, start * width + width)) {
          want++;
        }
        assertEquals(want, Runs.end(d, start, limit, width), "width " + width + " start " + start + " limit " + limit);
      }
    }
  }
}
