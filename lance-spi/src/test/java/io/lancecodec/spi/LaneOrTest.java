package io.lancecodec.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LittleEndian#orOfLanes} folded by {@link LittleEndian#foldLanes} is the OR of the values
 * of a range, whatever its start and length in values (the word loop, the four-word loop and the
 * byte tail all take part), against the OR taken value by value.
 */
class LaneOrTest {
  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void foldedLanesAreTheOrOfTheValues(int bits) {
    Random r = new Random(bits);
    int w = bits / 8;
    for (int trial = 0; trial < 2000; trial++) {
      int n = r.nextInt(80);
      int start = r.nextInt(20);
      byte[] d = new byte[(start + n + r.nextInt(3)) * w];
      int topBit = r.nextInt(bits);
      for (int i = 0; i < d.length / w; i++) {
        long v = r.nextLong() & (topBit == 63 ? -1L : (1L << (topBit + 1)) - 1);
        LittleEndian.putUnsigned(d, i * w, w, v);
      }
      long want = 0;
      for (int i = start; i < start + n; i++) {
        want |= LittleEndian.getUnsigned(d, i * w, w);
      }
      long got = LittleEndian.foldLanes(LittleEndian.orOfLanes(d, start * w, (start + n) * w), bits);
      assertEquals(want, got, "values [" + start + ", " + (start + n) + ") of " + bits + " bits");
    }
  }
}
