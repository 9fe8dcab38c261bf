package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

/** Joins a batch's primary and secondary latents into the numbers' ordered latents, in place. */
final class ModeJoin {
  private ModeJoin() {}

  static void join(Mode mode, NumberType type, long[] primary, long[] secondary, int len) {
    long mask = type.mask;
    switch (mode.kind) {
      case PcoFormat.MODE_CLASSIC:
        return;
      case PcoFormat.MODE_INT_MULT: {
        long base = mode.base;
        for (int i = 0; i < len; i++) {
          primary[i] = (primary[i] * base + secondary[i]) & mask;
        }
        return;
      }
      case PcoFormat.MODE_FLOAT_QUANT:
        joinFloatQuant(mode.k, type, primary, secondary, len);
        return;
      case PcoFormat.MODE_FLOAT_MULT:
        joinFloatMult(mode.base, type, primary, secondary, len);
        return;
      case PcoFormat.MODE_DICT: {
        long[] dict = mode.dict;
        for (int i = 0; i < len; i++) {
          long idx = primary[i];
          check(idx < dict.length, "pcodec: dict index " + idx + " outside the dict of " + dict.length);
          primary[i] = dict[(int) idx];
        }
        return;
      }
      default:
        throw new IllegalStateException("mode " + mode.kind);
    }
  }

  /**
   * Primary holds the high bits, secondary the low k bits; for negative numbers the low bits are
   * stored complemented so that exactly quantized numbers of either sign have secondary 0.
   */
  private static void joinFloatQuant(int k, NumberType type, long[] primary, long[] secondary, int len) {
    long mask = type.mask;
    long signCutoff = type.mid >>> k;
    long lowMax = (1L << k) - 1;
    for (int i = 0; i < len; i++) {
      long y = primary[i];
      long m = secondary[i];
      // low = y < signCutoff (unsigned) ? lowMax - m : m, with the comparison as the borrow of
      // y - signCutoff, since signs of real data are often unpredictable.
      long below = ((~y & signCutoff) | (~(y ^ signCutoff) & (y - signCutoff))) >> 63;
      long low = m + (below & (lowMax - 2 * m));
      primary[i] = ((y << k) + low) & mask;
    }
  }

  /**
   * The number is {@code mult * base} computed in the number's own precision, moved by the
   * secondary latent in ULPs (stored with MID as zero).
   */
  private static void joinFloatMult(long baseOrdered, NumberType type, long[] primary, long[] secondary, int len) {
    long mask = type.mask;
    long mid = type.mid;
    switch (type) {
      case F64: {
        double base = Double.longBitsToDouble(type.fromOrdered(baseOrdered));
        long gpi = 1L << 53;
        long gpiBits = Double.doubleToRawLongBits((double) gpi);
        for (int i = 0; i < len; i++) {
          long l = primary[i];
          // Top bit set: a non-negative multiple l - MID; clear: a negative one, mirrored
          // (MAX - l). Signs are handled without branches: they are often unpredictable.
          long absInt = l ^ ((l >> 63) ^ Long.MAX_VALUE);
          long absBits = absInt < gpi ? Double.doubleToRawLongBits((double) absInt) : gpiBits + (absInt - gpi);
          double mult = Double.longBitsToDouble(absBits ^ (~l & Long.MIN_VALUE));
          long p = Double.doubleToRawLongBits(mult * base);
          long product = p ^ ((p >> 63) | Long.MIN_VALUE);
          primary[i] = product + secondary[i] + mid;
        }
        return;
      }
      case F32: {
        float base = Float.intBitsToFloat((int) type.fromOrdered(baseOrdered));
        int gpi = 1 << 24;
        int gpiBits = Float.floatToRawIntBits((float) gpi);
        for (int i = 0; i < len; i++) {
          int l = (int) primary[i];
          int absInt = l ^ ((l >> 31) ^ Integer.MAX_VALUE);
          int absBits = absInt < gpi ? Float.floatToRawIntBits((float) absInt) : gpiBits + (absInt - gpi);
          float mult = Float.intBitsToFloat(absBits ^ (~l & Integer.MIN_VALUE));
          int p = Float.floatToRawIntBits(mult * base);
          long product = (p ^ ((p >> 31) | Integer.MIN_VALUE)) & 0xFFFFFFFFL;
          primary[i] = (product + secondary[i] + mid) & mask;
        }
        return;
      }
      default: {
        float base = F16.toFloat((int) type.fromOrdered(baseOrdered));
        FloatKind kind = FloatKind.F16_KIND;
        for (int i = 0; i < len; i++) {
          float mult = F16.toFloat((int) kind.intFloatRawFromLatent(primary[i]));
          long product = type.toOrdered(F16.fromFloat(mult * base));
          primary[i] = (product + secondary[i] + mid) & mask;
        }
      }
    }
  }
}
