package io.lancecodec.layout.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The packed chunk counts answer entries, prefix sums and searches exactly as the plain array
 * does, on every boundary of their running-sum groups, for equal, varied and wide counts and a
 * short last entry.
 */
class PackedCountsTest {
  @ParameterizedTest(name = "n={0}, spread={1}")
  @CsvSource({"0, 0", "1, 0", "2, 5", "15, 3", "16, 3", "17, 3", "33, 0", "64, 1000", "65, 1000", "1000, 7", "1000, 0", "300, 4000000000"})
  void sameAnswersAsThePlainArray(int n, long spread) {
    Random rnd = new Random(n * 31L + spread);
    long[] v = new long[n];
    for (int k = 0; k < n; k++) {
      v[k] = 100 + (spread == 0 ? 0 : Math.floorMod(rnd.nextLong(), spread));
    }
    if (n > 1) {
      v[n - 1] = 3; // a page's short tail chunk
    }
    PackedCounts p = new PackedCounts(v, n);
    long[] prefix = new long[n + 1];
    for (int k = 0; k < n; k++) {
      prefix[k + 1] = prefix[k] + v[k];
      assertEquals(v[k], p.get(k), "entry " + k);
    }
    for (int k = 0; k <= n; k++) {
      assertEquals(prefix[k], p.prefix(k), "prefix " + k);
    }
    long total = prefix[n];
    for (int t = 0; t < 2000; t++) {
      long x = total == 0 ? t : Math.floorMod(rnd.nextLong(), total + 50);
      if (t < n + 1) {
        x = prefix[t]; // exactly on an entry's start: ties go to the largest k
      }
      int want = 0;
      for (int k = 0; k <= n; k++) {
        if (prefix[k] <= x) {
          want = k;
        }
      }
      assertEquals(want, p.search(x), "search " + x);
    }
  }
}
