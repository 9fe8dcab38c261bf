package io.lancecodec.spi;

import java.util.Random;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fixed-width statistics agree with a value-by-value count for every element width, at sizes
 * around the word boundaries the collector reads by, over runs, random values and full-width
 * values, pages whose run lengths change along the page (seeded); pages of a megabyte and more
 * are counted in halves on two cores. The width of every group of 1024 values comes out of the
 * same pass.
 */
class StatsCollectorTest {
  @Test
  void fixedWidthStatsMatchValueByValueCount() {
    Random rnd = new Random(11);
    for (int bits : new int[] {8, 16, 32, 64}) {
      for (int n : new int[] {0, 1, 2, 3, 4, 5, 7, 8, 9, 1023, 1024, 1025, 4099, 70_001, 1_100_003}) {
        for (String shape : new String[] {"runs", "long-runs", "random", "full", "constant", "long-then-short", "short-then-long", "alternating"}) {
          int wb = bits / 8;
          byte[] d = new byte[n * wb];
          long v = 0;
          for (int i = 0; i < n; i++) {
            switch (shape) {
              case "runs":
                if (rnd.nextInt(5) == 0) {
                  v = rnd.nextInt(50);
                }
                break;
              case "random":
                v = rnd.nextLong() >>> (64 - Math.min(bits, 1 + rnd.nextInt(bits)));
                break;
              case "long-runs":
                // long runs take the collector's run-by-run path after its first 1024 values
                if (rnd.nextInt(200) == 0) {
                  v = rnd.nextLong() >>> (64 - bits);
                }
                break;
              case "long-then-short":
                if (i < 1500 ? rnd.nextInt(300) == 0 : rnd.nextInt(2) == 0) {
                  v = rnd.nextLong() >>> (64 - bits);
                }
                break;
              case "short-then-long":
                // a sorted column that starts with short runs: the later stretches are walked by run
                if (i < 1500 ? rnd.nextInt(3) == 0 : rnd.nextInt(300) == 0) {
                  v = rnd.nextLong() >>> (64 - bits);
                }
                break;
              case "alternating":
                // stretches of long and short runs that do not line up with the collector's
                if ((i / 1700) % 2 == 0 ? rnd.nextInt(100) == 0 : rnd.nextInt(4) == 0) {
                  v = rnd.nextLong() >>> (64 - bits);
                }
                break;
              case "full":
                v = -1L - rnd.nextInt(3);
                break;
              default:
                v = 7;
            }
            LittleEndian.putUnsigned(d, i * wb, wb, v);
          }
          Stats.FixedWidth s = (Stats.FixedWidth) Stats.of(new DataBlock.FixedWidth(d, bits, n));
          long or = 0;
          long runs = n == 0 ? 0 : 1;
          for (int i = 0; i < n; i++) {
            long x = LittleEndian.getUnsigned(d, i * wb, wb);
            or |= x;
            if (i > 0 && x != LittleEndian.getUnsigned(d, (i - 1) * wb, wb)) {
              runs++;
            }
          }
          byte[] groupWidths = new byte[(n + Stats.GROUP - 1) / Stats.GROUP];
          for (int g = 0; g < groupWidths.length; g++) {
            long groupOr = 0;
            for (int i = g * Stats.GROUP; i < Math.min(n, (g + 1) * Stats.GROUP); i++) {
              groupOr |= LittleEndian.getUnsigned(d, i * wb, wb);
            }
            groupWidths[g] = (byte) (64 - Long.numberOfLeadingZeros(groupOr));
          }
          String what = bits + " bits, " + n + " values, " + shape;
          assertArrayEquals(groupWidths, s.groupWidths(), what);
          assertEquals(64 - Long.numberOfLeadingZeros(or), s.maxBitWidth(), what);
          assertEquals(runs, s.runCount(), what);
          assertEquals(n, s.numValues(), what);
        }
      }
    }
  }
}
