package io.lancecodec.codec.pcodec;

/**
 * Arithmetic of one float type, on values held exactly in {@code double}s. pco computes its
 * float-mult heuristics and joins in the number's own precision, so every operation here rounds
 * to that precision: f32 computes in {@code float}, f16 in {@code float} rounded back to binary16.
 */
abstract class FloatKind {
  final NumberType type;
  /** Mantissa bits without the implicit one. */
  final int precision;
  final int exponentBias;

  private FloatKind(NumberType type, int exponentBias) {
    this.type = type;
    this.precision = type.precisionBits();
    this.exponentBias = exponentBias;
  }

  static final FloatKind F16_KIND = new FloatKind(NumberType.F16, 15) {
    @Override
    double fromRaw(long raw) {
      return F16.toFloat((int) raw);
    }

    @Override
    long toRaw(double v) {
      return F16.fromFloat((float) v);
    }

    @Override
    double narrow(float v) {
      return F16.toFloat(F16.fromFloat(v));
    }

    @Override
    double mul(double a, double b) {
      return narrow((float) a * (float) b);
    }

    @Override
    double div(double a, double b) {
      return narrow((float) a / (float) b);
    }

    @Override
    double add(double a, double b) {
      return narrow((float) a + (float) b);
    }

    @Override
    double sub(double a, double b) {
      return narrow((float) a - (float) b);
    }

    @Override
    double fromF64(double x) {
      return narrow((float) x);
    }

    @Override
    double fromUnsigned(long l) {
      return narrow((float) l);
    }

    @Override
    double maxForSampling() {
      return F16.toFloat(0x77FF);
    }
  };

  static final FloatKind F32_KIND = new FloatKind(NumberType.F32, 127) {
    @Override
    double fromRaw(long raw) {
      return Float.intBitsToFloat((int) raw);
    }

    @Override
    long toRaw(double v) {
      return Float.floatToRawIntBits((float) v) & 0xFFFFFFFFL;
    }

    @Override
    double narrow(float v) {
      return v;
    }

    @Override
    double mul(double a, double b) {
      return (float) a * (float) b;
    }

    @Override
    double div(double a, double b) {
      return (float) a / (float) b;
    }

    @Override
    double add(double a, double b) {
      return (float) a + (float) b;
    }

    @Override
    double sub(double a, double b) {
      return (float) a - (float) b;
    }

    @Override
    double fromF64(double x) {
      return (float) x;
    }

    @Override
    double fromUnsigned(long l) {
      return (float) l;
    }

    @Override
    double maxForSampling() {
      return Float.MAX_VALUE * 0.5f;
    }
  };

  static final FloatKind F64_KIND = new FloatKind(NumberType.F64, 1023) {
    @Override
    double fromRaw(long raw) {
      return Double.longBitsToDouble(raw);
    }

    @Override
    long toRaw(double v) {
      return Double.doubleToRawLongBits(v);
    }

    @Override
    double narrow(float v) {
      return v;
    }

    @Override
    double mul(double a, double b) {
      return a * b;
    }

    @Override
    double div(double a, double b) {
      return a / b;
    }

    @Override
    double add(double a, double b) {
      return a + b;
    }

    @Override
    double sub(double a, double b) {
      return a - b;
    }

    @Override
    double fromF64(double x) {
      return x;
    }

    @Override
    double fromUnsigned(long l) {
      if (l >= 0) {
        return (double) l;
      }
      // Halve with the lost bit kept sticky so the conversion still rounds to nearest.
      return (double) ((l >>> 1) | (l & 1)) * 2.0;
    }

    @Override
    double maxForSampling() {
      return Double.MAX_VALUE * 0.5;
    }
  };

  static FloatKind of(NumberType type) {
    switch (type) {
      case F16:
        return F16_KIND;
      case F32:
        return F32_KIND;
      case F64:
        return F64_KIND;
      default:
        throw new IllegalArgumentException("not a float type: " + type);
    }
  }

  abstract double fromRaw(long raw);

  abstract long toRaw(double v);

  abstract double narrow(float v);

  abstract double mul(double a, double b);

  abstract double div(double a, double b);

  abstract double add(double a, double b);

  abstract double sub(double a, double b);

  /** The reference's {@code F::from_f64}. */
  abstract double fromF64(double x);

  /** An unsigned latent as a number of this type, rounded. */
  abstract double fromUnsigned(long l);

  /** Half the type's largest finite value: bigger numbers are not sampled for mode choice. */
  abstract double maxForSampling();

  long signBit() {
    return type.mid;
  }

  long ordered(double v) {
    return type.toOrdered(toRaw(v));
  }

  double fromOrdered(long ordered) {
    return fromRaw(type.fromOrdered(ordered));
  }

  boolean isFiniteNonzero(long raw) {
    long abs = raw & (type.mask >>> 1);
    long infBits = ((1L << (type.bits - 1 - precision)) - 1) << precision;
    return abs != 0 && abs < infBits;
  }

  /** Normal: neither zero, subnormal, infinite nor NaN. */
  boolean isNormal(double v) {
    long exp = (toRaw(v) >>> precision) & ((1L << (type.bits - 1 - precision)) - 1);
    return exp != 0 && exp != (1L << (type.bits - 1 - precision)) - 1;
  }

  double abs(double v) {
    return fromRaw(toRaw(v) & (type.mask >>> 1));
  }

  /** Unbiased exponent read from the bits, as the reference computes it (zero gives -bias). */
  int exponent(double v) {
    return (int) ((toRaw(v) & (type.mask >>> 1)) >>> precision) - exponentBias;
  }

  int trailingZeros(double v) {
    long raw = toRaw(v);
    return raw == 0 ? type.bits : Long.numberOfTrailingZeros(raw);
  }

  /** 2^power built from the exponent bits; only meaningful within the normal range. */
  double exp2(int power) {
    return fromRaw(((long) (exponentBias + power) << precision) & type.mask);
  }

  /** Rounds half away from zero, like Rust's {@code round}. */
  double round(double x) {
    return roundHalfAway(x);
  }

  /**
   * Rust's {@code round} without branches on the value, which are unpredictable on real data:
   * the integer part toward zero (keeping the sign of zero), plus one away from zero exactly when
   * the dropped fraction is at least one half ({@code floor(2 |fraction|)} is 0 or 1, exactly).
   * Magnitudes from 2^52 on are integers already; NaN and infinities stay as they are.
   */
  static double roundHalfAway(double x) {
    if (!(Math.abs(x) < 0x1p52)) {
      return x;
    }
    double t = Math.copySign((double) (long) x, x);
    return t + Math.copySign(Math.floor(2 * Math.abs(x - t)), x);
  }

  /**
   * The float-mult latent of an integer-valued float: integers below 2^(precision+1) map to
   * themselves, larger magnitudes continue by their bit patterns, negatives mirror below MID.
   */
  long intFloatToLatent(double v) {
    long raw = toRaw(v);
    long absRaw = raw & (type.mask >>> 1);
    long gpi = 1L << (precision + 1);
    long gpiRaw = toRaw((double) gpi);
    double abs = fromRaw(absRaw);
    long absInt = abs < (double) gpi ? (long) abs : gpi + (absRaw - gpiRaw);
    long mid = type.mid;
    return ((raw & signBit()) == 0 ? mid + absInt : mid - 1 - absInt) & type.mask;
  }

  /** Raw bits of the integer-valued float for a float-mult latent (inverse of the above). */
  long intFloatRawFromLatent(long l) {
    long mid = type.mid;
    boolean negative = Long.compareUnsigned(l, mid) < 0;
    long absInt = negative ? mid - 1 - l : l - mid;
    long gpi = 1L << (precision + 1);
    long absRaw = Long.compareUnsigned(absInt, gpi) < 0 ? toRaw((double) absInt) : toRaw((double) gpi) + (absInt - gpi);
    absRaw &= type.mask;
    return negative ? absRaw ^ signBit() : absRaw;
  }
}
