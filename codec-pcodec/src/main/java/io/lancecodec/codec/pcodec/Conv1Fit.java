package io.lancecodec.codec.pcodec;

/**
 * Conv1 delta encoding's encoder side (facts from pcodec/pcodec {@code pco/src/delta/conv1.rs}):
 * fits {@code l[i] ~ bias + sum w[j] * l[i - order + j]} by ridge-regularised least squares on
 * latents centred at a pivot, solved with a Cholesky factorisation, then quantizes weights and
 * bias to integers scaled by 2^quantization, the largest scale that cannot overflow.
 */
final class Conv1Fit {
  private static final int DOT_BATCH = 512;
  private static final double REGULARIZATION = 0.1;

  private Conv1Fit() {}

  /** The config for these latents, or null when there are too few or the fit is unusable. */
  static DeltaEncoding choose(int order, long[] lat, int from, int to, int bits) {
    int n = to - from;
    if (n < order + 1) {
      return null;
    }
    long center = pivot(lat, from, to);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      long l = lat[from + i];
      v[i] = Long.compareUnsigned(l, center) < 0 ? -(double) (center - l) : (double) (l - center);
    }
    double[] beta = leastSquares(v, order);
    double totalWeight = 0;
    double totalAbsWeight = 0;
    for (int i = 0; i < order; i++) {
      totalAbsWeight += Math.abs(beta[i]);
      totalWeight += beta[i];
    }
    if (!Double.isFinite(totalWeight) || !Double.isFinite(totalAbsWeight)) {
      return null;
    }
    double floatBias = (1.0 - totalWeight) * (double) center + beta[order];
    int convBits = 2 * bits;
    double convMax = (double) ((1L << (convBits - 1)) - 1);
    double latentMax = (double) ((1L << bits) - 1);
    double ratio = convMax / (totalAbsWeight * latentMax + Math.abs(floatBias) + 1.0);
    int quantization = floorLog2(ratio) - 1;
    quantization = Math.min(quantization, Math.min(PcoFormat.MAX_CONV1_QUANTIZATION, convBits - 1));
    if (quantization < 0) {
      return null;
    }
    double factor = Math.scalb(1.0, quantization);
    long[] weights = new long[order];
    for (int i = 0; i < order; i++) {
      weights[i] = (long) roundHalfAway(beta[i] * factor);
    }
    long bias = (long) (floatBias * factor);
    DeltaEncoding enc = DeltaEncoding.conv1(quantization, bias, weights);
    for (long w : weights) {
      if (w < Integer.MIN_VALUE || w > Integer.MAX_VALUE) {
        return null;
      }
    }
    try {
      enc.validateConv1(bits);
    } catch (RuntimeException e) {
      return null;
    }
    return enc;
  }

  private static int floorLog2(double x) {
    if (!(x > 0) || Double.isInfinite(x)) {
      return x > 0 ? Integer.MAX_VALUE : Integer.MIN_VALUE;
    }
    return Math.getExponent(x) >= Double.MIN_EXPONENT
        ? Math.getExponent(x)
        : (int) Math.floor(Math.log(x) / Math.log(2.0));
  }

  static double roundHalfAway(double x) {
    if (!Double.isFinite(x)) {
      return x;
    }
    double t = x < 0 ? Math.ceil(x) : Math.floor(x);
    if (Math.abs(x - t) >= 0.5) {
      t += Math.signum(x);
    }
    return t;
  }

  /** The reference's median-of-three (or of medians, from 50 latents) pivot. */
  static long pivot(long[] lat, int from, int to) {
    int len = to - from;
    int[] idx = {len / 4, len / 2, (len * 3) / 4};
    if (len >= 8) {
      if (len >= 50) {
        for (int k = 0; k < 3; k++) {
          int[] t = {idx[k] - 1, idx[k], idx[k] + 1};
          sort3(lat, from, t);
          idx[k] = t[1];
        }
      }
      sort3(lat, from, idx);
    }
    return lat[from + idx[1]];
  }

  private static void sort2(long[] lat, int from, int[] ix, int a, int b) {
    if (Long.compareUnsigned(lat[from + ix[b]], lat[from + ix[a]]) < 0) {
      int t = ix[a];
      ix[a] = ix[b];
      ix[b] = t;
    }
  }

  private static void sort3(long[] lat, int from, int[] ix) {
    sort2(lat, from, ix, 0, 1);
    sort2(lat, from, ix, 1, 2);
    sort2(lat, from, ix, 0, 1);
  }

  /** Solves (X^T X + 0.1 I) beta = X^T y for features (order previous values, 1). */
  static double[] leastSquares(double[] v, int order) {
    int n = v.length;
    int h = order + 1;
    double[] dots = autocovDots(v, order);
    double initialSum = 0;
    for (int i = 0; i < n - order; i++) {
      initialSum += v[i];
    }
    double[][] xtx = new double[h][h];
    double[] xty = new double[h];
    for (int i = 0; i < order; i++) {
      xtx[i][0] = dots[i];
      xtx[0][i] = dots[i];
    }
    xtx[order][0] = initialSum;
    xtx[0][order] = initialSum;
    xty[0] = dots[order];
    for (int i = 1; i < order; i++) {
      for (int j = 1; j <= i; j++) {
        double dot = xtx[i - 1][j - 1] + (v[n - order + i - 1] * v[n - order + j - 1] - v[i - 1] * v[j - 1]);
        xtx[i][j] = dot;
        xtx[j][i] = dot;
      }
      double sum = xtx[order][i - 1] + (v[n - order + i - 1] - v[i - 1]);
      xtx[order][i] = sum;
      xtx[i][order] = sum;
    }
    for (int i = 1; i < order; i++) {
      xty[i] = xtx[order - 1][i - 1] + (v[n - order + i - 1] * v[n - 1] - v[i - 1] * v[order - 1]);
    }
    xtx[order][order] = n - order;
    xty[order] = xtx[order][order - 1] + (v[n - 1] - v[order - 1]);
    for (int i = 0; i < h; i++) {
      xtx[i][i] += REGULARIZATION;
    }
    double[][] l = cholesky(xtx);
    // Forward substitution with L, then backward substitution with L^T.
    for (int j = 0; j < h; j++) {
      double d = xty[j] / l[j][j];
      xty[j] = d;
      for (int i = j + 1; i < h; i++) {
        xty[i] = xty[i] - d * l[i][j];
      }
    }
    for (int j = h - 1; j >= 0; j--) {
      double d = xty[j] / l[j][j];
      xty[j] = d;
      for (int i = 0; i < j; i++) {
        xty[i] = xty[i] - d * l[j][i];
      }
    }
    return xty;
  }

  /** Dot products of v with itself shifted by 0..order, in the reference's summation order. */
  private static double[] autocovDots(double[] v, int order) {
    int n = v.length;
    double[] dots = new double[order + 1];
    int almostN = (n - order) / DOT_BATCH * DOT_BATCH;
    for (int start = 0; start < almostN; start += DOT_BATCH) {
      for (int sep = 0; sep <= order; sep++) {
        double d0 = 0;
        double d1 = 0;
        double d2 = 0;
        double d3 = 0;
        for (int i = start; i < start + DOT_BATCH; i += 4) {
          d0 += v[i] * v[i + sep];
          d1 += v[i + 1] * v[i + sep + 1];
          d2 += v[i + 2] * v[i + sep + 2];
          d3 += v[i + 3] * v[i + sep + 3];
        }
        dots[sep] += (d0 + d1) + (d2 + d3);
      }
    }
    for (int i = almostN; i < n - order; i++) {
      for (int sep = 0; sep <= order; sep++) {
        dots[sep] += v[i] * v[i + sep];
      }
    }
    return dots;
  }

  /** Cholesky-Crout: lower-triangular L with L L^T = m (m positive semi-definite). */
  private static double[][] cholesky(double[][] m) {
    int h = m.length;
    for (int j = 0; j < h; j++) {
      for (int i = 0; i < j; i++) {
        m[i][j] = 0;
      }
      double s = 0;
      for (int k = 0; k < j; k++) {
        s = Math.fma(m[j][k], m[j][k], s);
      }
      double diag = Math.sqrt(Math.max(m[j][j] - s, 0.0));
      m[j][j] = diag;
      double scale = diag == 0 ? 0 : 1.0 / diag;
      for (int i = j + 1; i < h; i++) {
        double t = 0;
        for (int k = 0; k < j; k++) {
          t = Math.fma(m[i][k], m[j][k], t);
        }
        m[i][j] = scale * (m[i][j] - t);
      }
    }
    return m;
  }

  /** Replaces latents from {@code order} on by centred prediction residuals; returns the state. */
  static long[] encode(DeltaEncoding enc, long[] lat, int from, int to, int bits) {
    long mask = bits == 64 ? -1L : (1L << bits) - 1;
    long mid = 1L << (bits - 1);
    int order = enc.order;
    int n = to - from;
    long[] state = new long[order];
    System.arraycopy(lat, from, state, 0, Math.min(order, n));
    // Backwards, so each prediction still sees the original latents before it.
    for (int i = n - 1; i >= order; i--) {
      long s = enc.bias;
      int base = from + i - order;
      for (int j = 0; j < order; j++) {
        s += enc.weights[j] * lat[base + j];
      }
      long prediction = (Math.max(s, 0) >> enc.quantization) & mask;
      lat[from + i] = (lat[from + i] - prediction + mid) & mask;
    }
    return state;
  }
}
