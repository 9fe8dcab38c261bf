package io.lancecodec.codec.alp;

/**
 * The pre-gate of {@code lance-encoding:alp=auto}: the mean, over the byte positions of a value,
 * of the Shannon entropy of that byte across the page's first 64 values. Each position's entropy
 * is floored to a thousandth of a bit first, as the runtime's BytePositionEntropy statistic keeps
 * it. Pages below {@link AlpFormat#ENTROPY_GATE_BITS} bits enter the ALP candidate scan.
 */
public final class AlpEntropyGate {
  private AlpEntropyGate() {}

  /** Whether a page with this mean byte-position entropy is worth the ALP candidate scan. */
  public static boolean passes(double meanEntropyBits) {
    return meanEntropyBits < AlpFormat.ENTROPY_GATE_BITS;
  }

  /** The statistic over little-endian values of {@code width} bytes at {@code data[off..]}. */
  public static double meanBytePositionEntropy(byte[] data, int off, int width, long numValues) {
    int n = (int) Math.min(numValues, AlpFormat.ENTROPY_SAMPLE);
    if (n <= 0 || width <= 0) {
      return 0.0;
    }
    int[] counts = new int[256];
    double sum = 0;
    for (int pos = 0; pos < width; pos++) {
      java.util.Arrays.fill(counts, 0);
      for (int i = 0; i < n; i++) {
        counts[data[off + i * width + pos] & 0xFF]++;
      }
      sum += floorMillibits(entropy(counts, n));
    }
    return sum / width;
  }

  /** The statistic over float64 values, read as their raw little-endian bytes. */
  public static double meanBytePositionEntropy(double[] v, int off, int n) {
    int k = Math.min(n, AlpFormat.ENTROPY_SAMPLE);
    byte[] b = new byte[k * 8];
    for (int i = 0; i < k; i++) {
      io.lancecodec.spi.LittleEndian.putLong(b, i * 8, Double.doubleToRawLongBits(v[off + i]));
    }
    return meanBytePositionEntropy(b, 0, 8, k);
  }

  /** The statistic over float32 values, read as their raw little-endian bytes. */
  public static double meanBytePositionEntropy(float[] v, int off, int n) {
    int k = Math.min(n, AlpFormat.ENTROPY_SAMPLE);
    byte[] b = new byte[k * 4];
    for (int i = 0; i < k; i++) {
      io.lancecodec.spi.LittleEndian.putInt(b, i * 4, Float.floatToRawIntBits(v[off + i]));
    }
    return meanBytePositionEntropy(b, 0, 4, k);
  }

  private static double entropy(int[] counts, int n) {
    double h = 0;
    for (int c : counts) {
      if (c > 0) {
        double p = (double) c / n;
        h -= p * (Math.log(p) / Math.log(2));
      }
    }
    return h;
  }

  private static double floorMillibits(double bits) {
    return Math.floor(bits * 1000.0) / 1000.0;
  }
}
