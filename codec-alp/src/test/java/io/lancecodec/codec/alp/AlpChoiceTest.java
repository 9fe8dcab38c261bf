package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What the encoder chooses: exponents, FOR or Delta, multiply or divide, ALP or ALP-RD, or nothing. */
class AlpChoiceTest {
  /** Mode byte of every chunk of a page. */
  static int[] modes(AlpPage page) {
    int[] modes = new int[page.numChunks()];
    int at = 0;
    for (int c = 0; c < modes.length; c++) {
      modes[c] = page.buffer(1)[at];
      at += page.chunks().get(c).bufferSizes()[1];
    }
    return modes;
  }

  static double[] decimals(int n, int scale, long seed) {
    Random rnd = new Random(seed);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = BigDecimal.valueOf(rnd.nextInt(100_000), scale).doubleValue();
    }
    return v;
  }

  @Test
  void twoDigitDecimalsScaleByAHundred() {
    AlpPage page = new AlpEncoder().encodePage(decimals(5000, 2, 1), 0, 5000);
    assertNotNull(page);
    int at = 0;
    for (int c = 0; c < page.numChunks(); c++) {
      byte[] h = page.buffer(1);
      int mode = h[at];
      assertEquals(0, mode & AlpFormat.MODE_RD);
      int e = h[at + 1];
      int f = h[at + 2];
      // the paper's tie rule prefers the largest e; the scale is what matters
      assertEquals(2, (mode & AlpFormat.MODE_DIV) != 0 ? e : e - f, "chunk " + c);
      assertEquals(17, h[at + 3], "values below 100000 need 17 bits");
      at += page.chunks().get(c).bufferSizes()[1];
    }
    // 17 bits per value, 12-byte headers, no exceptions
    assertEquals(5 * (128 * 17 + 12), page.encodedBytes());
  }

  @Test
  void float32DecimalsTakeTheDividePath() {
    // Multiplying by 10^e then 10^-f in float32 misses about one value in five of these;
    // one division by 100 misses none.
    double[] d = decimals(4096, 2, 2);
    float[] v = new float[d.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = Float.parseFloat(Double.toString(d[i]));
    }
    AlpPage page = new AlpEncoder().encodePage(v, 0, v.length);
    assertNotNull(page);
    for (int mode : modes(page)) {
      assertTrue((mode & AlpFormat.MODE_DIV) != 0, "mode " + mode);
    }
    assertEquals(0, page.buffer(2).length, "no exceptions");
  }

  @Test
  void slowlyGrowingSeriesUseDelta() {
    // a clock in tenths far from zero: FOR needs the whole range, Delta only the step
    double[] v = new double[3000];
    for (int i = 0; i < v.length; i++) {
      v[i] = BigDecimal.valueOf(17_000_000_000L + 10L * i + (i * 7 % 3), 1).doubleValue();
    }
    AlpPage page = new AlpEncoder().encodePage(v, 0, v.length);
    assertNotNull(page);
    for (int mode : modes(page)) {
      assertEquals(AlpFormat.MODE_DELTA, mode & (AlpFormat.MODE_DELTA | AlpFormat.MODE_RD));
    }
    // Every 32nd value of this series happens to survive the multiply chain that fails on 40%
    // of the rest: the sample picks it, the full chunk's exceptions send it to use_div.
    assertEquals(0, page.buffer(2).length, "no exceptions");
  }

  @Test
  void realDoublesGoAlpRd() {
    // uniform doubles have ~52 significant bits: no decimal scaling helps, but their high bits
    // (sign, exponent, top of the mantissa) repeat, which ALP-RD exploits
    Random rnd = new Random(3);
    double[] v = new double[4096];
    for (int i = 0; i < v.length; i++) {
      v[i] = 100 + rnd.nextDouble();
    }
    AlpPage page = new AlpEncoder().encodePage(v, 0, v.length);
    assertNotNull(page);
    for (int mode : modes(page)) {
      assertEquals(AlpFormat.MODE_RD, mode);
    }
    assertTrue(page.encodedBytes() < 7L * v.length, page.encodedBytes() + " bytes");
    double[] back = new double[v.length];
    new AlpDecoder().decodePage(page, back, 0);
    Chunks.assertBitsEqual(v, back);
  }

  @Test
  void rdSweepFindsTheCheapestSplit() {
    // the sweep stops early; the split it returns must still be the cheapest of all seven
    Random rnd = new Random(9);
    for (int kind = 0; kind < 5; kind++) {
      for (int n : new int[] {1024, 700, 40}) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
          v[i] = switch (kind) {
            case 0 -> rnd.nextDouble();
            case 1 -> 100 + rnd.nextDouble();
            case 2 -> 100 + rnd.nextInt(7) / 64.0 + rnd.nextDouble() * 1e-9;
            case 3 -> Double.longBitsToDouble(rnd.nextLong());
            default -> rnd.nextInt(5) * 1e300 + rnd.nextDouble();
          };
        }
        int best = Integer.MAX_VALUE;
        for (int d : AlpFormat.RD_RIGHT_WIDTHS) {
          java.util.Set<Long> lefts = new java.util.HashSet<>();
          for (double x : v) {
            lefts.add(Double.doubleToRawLongBits(x) >>> d);
          }
          best = Math.min(best, AlpRdEncoder.size(d, lefts.size(), n));
        }
        int want = best < 8 * n ? best : Integer.MAX_VALUE;
        assertEquals(want, new AlpRdEncoder().choose(v, 0, n), "kind " + kind + " n " + n);
      }
    }
  }

  @Test
  void incompressiblePagesAreRefused() {
    Random rnd = new Random(4);
    double[] bits64 = new double[3000];
    float[] bits32 = new float[3000];
    float[] uniform32 = new float[3000];
    for (int i = 0; i < 3000; i++) {
      bits64[i] = Double.longBitsToDouble(rnd.nextLong());
      bits32[i] = Float.intBitsToFloat(rnd.nextInt());
      uniform32[i] = rnd.nextFloat();
    }
    AlpEncoder encoder = new AlpEncoder();
    assertNull(encoder.encodePage(bits64, 0, 3000));
    assertNull(encoder.encodePage(bits32, 0, 3000));
    assertNull(encoder.encodePage(uniform32, 0, 3000), "float32 has no ALP-RD to fall back on");
    assertNull(encoder.encodePage(new double[0], 0, 0));
    float[] nans = new float[2000];
    java.util.Arrays.fill(nans, Float.NaN);
    assertNull(encoder.encodePage(nans, 0, 2000), "all exceptions is larger than raw");
  }

  @Test
  void chunkBudget() {
    double[] v = decimals(2048, 2, 5);
    AlpEncoder encoder = new AlpEncoder();
    AlpPage page = encoder.encodePage(v, 0, v.length);
    assertNotNull(page);
    int largest = 0;
    for (int c = 0; c < page.numChunks(); c++) {
      int sum = 0;
      for (int size : page.chunks().get(c).bufferSizes()) {
        sum += size;
      }
      largest = Math.max(largest, sum);
    }
    assertNotNull(encoder.encodePage(v, 0, v.length, largest));
    assertNull(encoder.encodePage(v, 0, v.length, largest - 1));
  }

  @Test
  void entropyGate() {
    double[] constant = new double[100];
    java.util.Arrays.fill(constant, 3.25);
    assertEquals(0.0, AlpEntropyGate.meanBytePositionEntropy(constant, 0, 100));
    assertTrue(AlpEntropyGate.passes(AlpEntropyGate.meanBytePositionEntropy(constant, 0, 100)));
    Random rnd = new Random(6);
    double[] noise = new double[100];
    for (int i = 0; i < noise.length; i++) {
      noise[i] = Double.longBitsToDouble(rnd.nextLong());
    }
    // 64 distinct random bytes per position: close to log2(64) = 6 bits
    double h = AlpEntropyGate.meanBytePositionEntropy(noise, 0, 100);
    assertTrue(h > 5.5 && h <= 6.0, "entropy " + h);
    assertFalse(AlpEntropyGate.passes(h));
    // two values alternating in every byte: exactly one bit per position
    float[] two = new float[64];
    for (int i = 0; i < two.length; i++) {
      two[i] = Float.intBitsToFloat(i % 2 == 0 ? 0x01010101 : 0x02020202);
    }
    assertEquals(1.0, AlpEntropyGate.meanBytePositionEntropy(two, 0, 64));
    assertFalse(AlpEntropyGate.passes(4.6));
    assertTrue(AlpEntropyGate.passes(4.599));
  }

  @Test
  void samplerFirstLevelKeepsFrequentWinners() {
    AlpSampler sampler = new AlpSampler();
    double[] v = decimals(8 * 1024, 3, 7);
    sampler.bind(v);
    AlpSampler.RowGroup plan = sampler.firstLevel(0, v.length);
    assertFalse(plan.preferRd);
    assertTrue(plan.candidates.length >= 1 && plan.candidates.length <= AlpFormat.MAX_COMBINATIONS);
    int c = plan.candidates[0];
    assertFalse(AlpSampler.divides(c), "the reference's list holds multiply candidates");
    assertEquals(3, AlpSampler.exponent(c) - AlpSampler.factor(c));
    Random rnd = new Random(8);
    double[] noise = new double[4096];
    for (int i = 0; i < noise.length; i++) {
      noise[i] = rnd.nextDouble();
    }
    sampler.bind(noise);
    assertTrue(sampler.firstLevel(0, noise.length).preferRd);
  }
}
