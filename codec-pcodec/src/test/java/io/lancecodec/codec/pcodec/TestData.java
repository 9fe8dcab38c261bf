package io.lancecodec.codec.pcodec;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Test numbers as raw bits per number type, and a raw-bits round trip through our codec. */
final class TestData {
  private TestData() {}

  /** Collects decoded numbers as raw bits, zero-extended. */
  static final class RawSink extends NumberSink {
    long[] out = new long[16];
    int pos;

    RawSink(NumberType type) {
      super(type, Pco.DEFAULT_MAX_NUMBERS);
    }

    @Override
    void accept(long[] ordered, int len) {
      if (pos + len > out.length) {
        out = Arrays.copyOf(out, Math.max(pos + len, 2 * out.length));
      }
      for (int i = 0; i < len; i++) {
        out[pos + i] = type.fromOrdered(ordered[i]);
      }
      pos += len;
      count += len;
    }
  }

  static long[] decodeRaw(NumberType type, byte[] file) {
    RawSink sink = new RawSink(type);
    PcoDecoder.decode(file, 0, file.length, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  static long[] masked(NumberType type, long[] raw) {
    long[] r = new long[raw.length];
    for (int i = 0; i < raw.length; i++) {
      r[i] = raw[i] & type.mask;
    }
    return r;
  }

  /** Raw bits of a number of a float type from a double (rounded to the type). */
  static long floatRaw(NumberType type, double v) {
    switch (type) {
      case F16:
        return F16.fromFloat((float) v);
      case F32:
        return Float.floatToRawIntBits((float) v) & 0xFFFFFFFFL;
      default:
        return Double.doubleToRawLongBits(v);
    }
  }

  static final String[] SHAPES = {
    "random", "runs", "sorted", "constant", "multiples", "walk", "smallRange", "quantized", "special", "decimals"
  };

  static long[] generate(NumberType type, String shape, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] v = new long[n];
    boolean fl = type.isFloat();
    switch (shape) {
      case "random":
        for (int i = 0; i < n; i++) {
          v[i] = fl ? floatRaw(type, (rnd.nextDouble() - 0.5) * 1e3) : rnd.nextLong();
        }
        break;
      case "runs": {
        long cur = rnd.nextLong();
        for (int i = 0; i < n; i++) {
          if (rnd.nextInt(20) == 0) {
            cur = fl ? floatRaw(type, rnd.nextInt(100) - 50.5) : rnd.nextLong();
          }
          v[i] = cur;
        }
        break;
      }
      case "sorted": {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
          d[i] = rnd.nextDouble() * 1000;
        }
        Arrays.sort(d);
        for (int i = 0; i < n; i++) {
          v[i] = fl ? floatRaw(type, d[i]) : (long) (d[i] * 1000) >>> Math.max(0, 30 - type.bits);
        }
        break;
      }
      case "constant": {
        long c = fl ? floatRaw(type, -3.25) : rnd.nextLong();
        Arrays.fill(v, c);
        break;
      }
      case "multiples":
        for (int i = 0; i < n; i++) {
          v[i] = fl ? floatRaw(type, rnd.nextInt(200) * 0.25) : (rnd.nextInt(1 << Math.min(20, type.bits - 4)) * 7L + (rnd.nextInt(10) == 0 ? 1 : 0));
        }
        break;
      case "walk": {
        long x = 1000;
        for (int i = 0; i < n; i++) {
          x += rnd.nextInt(21) - 10;
          v[i] = fl ? floatRaw(type, x / 8.0) : x;
        }
        break;
      }
      case "smallRange":
        for (int i = 0; i < n; i++) {
          v[i] = fl ? floatRaw(type, 1 + rnd.nextInt(16) / 16.0) : 100 + rnd.nextInt(16);
        }
        break;
      case "quantized":
        for (int i = 0; i < n; i++) {
          // Floats that are exactly halves (f64 from f32 from f16 precision) or ints with clear low bits.
          double d = F16.toFloat(F16.fromFloat((float) ((rnd.nextDouble() - 0.5) * 100)));
          v[i] = fl ? floatRaw(type, d) : (rnd.nextLong() << 12);
        }
        break;
      case "special":
        for (int i = 0; i < n; i++) {
          v[i] = special(type, rnd);
        }
        break;
      case "decimals":
        for (int i = 0; i < n; i++) {
          v[i] = fl ? floatRaw(type, Math.round(rnd.nextGaussian() * 1e4) / 100.0) : rnd.nextInt(1000) * 1000L + 3;
        }
        break;
      default:
        throw new IllegalArgumentException(shape);
    }
    return masked(type, v);
  }

  /** NaNs with payloads, signed zeros, infinities, subnormals, extremes, ordinary values. */
  static long special(NumberType type, SplittableRandom rnd) {
    int p = type.precisionBits();
    if (p == 0) {
      long[] ints = {0, 1, type.mask, type.mask >>> 1, type.mid, type.mid - 1, type.mid + 1};
      return ints[rnd.nextInt(ints.length)];
    }
    long sign = type.mid;
    long expAll = (type.mask >>> 1) & ~((1L << p) - 1);
    long mantissa = (rnd.nextLong() & ((1L << p) - 1));
    switch (rnd.nextInt(9)) {
      case 0:
        return expAll | (mantissa == 0 ? 1 : mantissa) | (rnd.nextBoolean() ? sign : 0);
      case 1:
        return rnd.nextBoolean() ? sign : 0;
      case 2:
        return expAll | (rnd.nextBoolean() ? sign : 0);
      case 3:
        return (mantissa == 0 ? 1 : mantissa) | (rnd.nextBoolean() ? sign : 0);
      case 4:
        return (expAll - (1L << p)) | ((1L << p) - 1) | (rnd.nextBoolean() ? sign : 0);
      case 5:
        return expAll | (1L << (p - 1)) | (rnd.nextBoolean() ? sign : 0);
      default:
        return floatRaw(type, (rnd.nextDouble() - 0.5) * 10);
    }
  }
}
