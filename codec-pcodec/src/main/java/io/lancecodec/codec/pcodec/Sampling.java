package io.lancecodec.codec.pcodec;

/**
 * Samples and statistics behind pco's mode and delta choices (facts from pcodec/pcodec
 * {@code pco/src/sampling.rs}): about 1 in 40 numbers (at least 10), drawn without replacement
 * by Floyd's algorithm from xoroshiro128++ seeded with 0, so choices are reproducible.
 */
final class Sampling {
  static final int MIN_SAMPLE = 10;
  private static final int SAMPLE_RATIO = 40;
  /** Primaries seen more than sample/256 times are assumed to be cheap to code anyway. */
  private static final double MEMORIZABLE_BINS = 256.0;
  private static final int DELTA_GROUP_N = 200;

  private Sampling() {}

  /** Sample size for n numbers, or -1 when n is too small to sample. */
  static int sampleN(int n) {
    return n >= MIN_SAMPLE ? MIN_SAMPLE + (n - MIN_SAMPLE) / SAMPLE_RATIO : -1;
  }

  /** Positions of the mode sample, in draw order. */
  static int[] modeSamplePositions(int n) {
    int target = sampleN(n);
    if (target < 0) {
      return null;
    }
    long[] visited = new long[(n + 63) >>> 6];
    int[] res = new int[target];
    // xoroshiro128++ seeded through SplitMix64 from 0, as rand_xoshiro's seed_from_u64(0).
    long sm = 0;
    sm += 0x9E3779B97F4A7C15L;
    long s0 = mix(sm);
    sm += 0x9E3779B97F4A7C15L;
    long s1 = mix(sm);
    int k = 0;
    for (int j = n - target; j < n; j++) {
      long r = Long.rotateLeft(s0 + s1, 17) + s0;
      long t1 = s1 ^ s0;
      s0 = Long.rotateLeft(s0, 49) ^ t1 ^ (t1 << 21);
      s1 = Long.rotateLeft(t1, 28);
      int t = (int) Long.remainderUnsigned(r, j + 1L);
      int idx = (visited[t >>> 6] & (1L << t)) != 0 ? j : t;
      visited[idx >>> 6] |= 1L << idx;
      res[k++] = idx;
    }
    return res;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Evenly spread runs of 200 consecutive latents, about n/40 in all, or null if n < 10. */
  static long[] deltaSample(long[] lat, int n) {
    int target = sampleN(n);
    if (target < 0) {
      return null;
    }
    int groupN = Math.min(DELTA_GROUP_N, n);
    int nGroups = (target + DELTA_GROUP_N - 1) / DELTA_GROUP_N;
    int nominal = nGroups * groupN;
    int stride = groupN + Math.max(0, n - nominal) / (Math.max(nGroups, 2) - 1);
    long[] sample = new long[nominal];
    for (int i = 0; i < nGroups; i++) {
      System.arraycopy(lat, stride * i, sample, i * groupN, groupN);
    }
    return sample;
  }

  /**
   * Average bits saved per sampled number by a mode, counting only numbers whose primary latent
   * is rare in the sample: frequent primaries would be cheap to code without the mode too.
   */
  static double estBitsSavedPerNum(long[] primaries, double[] bitsSaved, int len) {
    LongStats stats = new LongStats(len);
    for (int i = 0; i < len; i++) {
      stats.add(primaries[i], bitsSaved[i]);
    }
    int cutoff = Math.max(1, (int) (len / MEMORIZABLE_BINS));
    double sum = 0;
    for (int s = 0; s < stats.keys.length; s++) {
      if (stats.used[s] && stats.counts[s] <= cutoff) {
        sum += stats.sums[s];
      }
    }
    return sum / len;
  }

  /** Open-addressing map from a latent to its count and a sum, without boxing. */
  static final class LongStats {
    final long[] keys;
    final boolean[] used;
    final int[] counts;
    final double[] sums;
    private final int mask;

    LongStats(int expected) {
      int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
      keys = new long[cap];
      used = new boolean[cap];
      counts = new int[cap];
      sums = new double[cap];
      mask = cap - 1;
    }

    int add(long key, double value) {
      int s = (int) (mixKey(key) & mask);
      while (used[s] && keys[s] != key) {
        s = (s + 1) & mask;
      }
      used[s] = true;
      keys[s] = key;
      counts[s]++;
      sums[s] += value;
      return s;
    }

    private static long mixKey(long x) {
      x *= 0x9E3779B97F4A7C15L;
      return x ^ (x >>> 29);
    }
  }
}
