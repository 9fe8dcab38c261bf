package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

import java.util.Arrays;

/**
 * Where decoded numbers go: a caller's array (fixed capacity) or a growing one (capped), each
 * batch converted from ordered latents to the Java representation of its number type. Growing
 * arrays follow the numbers actually decoded, never a count declared by the file.
 */
abstract class NumberSink {
  final NumberType type;
  final long limit;
  long count;

  NumberSink(NumberType type, long limit) {
    this.type = type;
    this.limit = limit;
  }

  /** Admits a chunk of {@code n} more numbers, or fails if the file holds too many. */
  void admit(long n) {
    check(count + n <= limit,
        "pcodec: the input holds more than " + limit + " numbers (chunk of " + n + " after " + count + ")");
  }

  abstract void accept(long[] ordered, int len);

  /**
   * Ordered latents of 8 and 16 bits to raw bits: unsigned numbers are their latents, signed ones
   * have the top bit flipped, floats (f16) are flipped or complemented by that bit. As
   * {@code o ^ (flip | (top bit clear ? complement : 0))}, with no branch on the sign.
   */
  static int raw16(long o, int topShift, int flip, int complement) {
    int x = (int) o;
    return x ^ (flip | (~(x << topShift >> 31) & complement));
  }

  static final class Doubles extends NumberSink {
    double[] out;
    int pos;
    private final boolean grow;

    Doubles(NumberType type, double[] out, int pos, long limit, boolean grow) {
      super(type, limit);
      this.out = out;
      this.pos = pos;
      this.grow = grow;
    }

    @Override
    void accept(long[] ordered, int len) {
      if (grow && pos + len > out.length) {
        out = Arrays.copyOf(out, Math.max(pos + len, 2 * out.length));
      }
      for (int i = 0; i < len; i++) {
        long o = ordered[i];
        out[pos + i] = Double.longBitsToDouble(o ^ (~(o >> 63) | Long.MIN_VALUE));
      }
      pos += len;
      count += len;
    }
  }

  static final class Floats extends NumberSink {
    float[] out;
    int pos;
    private final boolean grow;

    Floats(NumberType type, float[] out, int pos, long limit, boolean grow) {
      super(type, limit);
      this.out = out;
      this.pos = pos;
      this.grow = grow;
    }

    @Override
    void accept(long[] ordered, int len) {
      if (grow && pos + len > out.length) {
        out = Arrays.copyOf(out, Math.max(pos + len, 2 * out.length));
      }
      for (int i = 0; i < len; i++) {
        int o = (int) ordered[i];
        out[pos + i] = Float.intBitsToFloat(o ^ (~(o >> 31) | Integer.MIN_VALUE));
      }
      pos += len;
      count += len;
    }
  }

  static final class Longs extends NumberSink {
    long[] out;
    int pos;
    private final boolean grow;

    Longs(NumberType type, long[] out, int pos, long limit, boolean grow) {
      super(type, limit);
      this.out = out;
      this.pos = pos;
      this.grow = grow;
    }

    @Override
    void accept(long[] ordered, int len) {
      if (grow && pos + len > out.length) {
        out = Arrays.copyOf(out, Math.max(pos + len, 2 * out.length));
      }
      long flip = type.kind == NumberType.Kind.SIGNED ? Long.MIN_VALUE : 0;
      for (int i = 0; i < len; i++) {
        out[pos + i] = ordered[i] ^ flip;
      }
      pos += len;
      count += len;
    }
  }

  static final class Ints extends NumberSink {
    int[] out;
    int pos;
    private final boolean grow;

    Ints(NumberType type, int[] out, int pos, long limit, boolean grow) {
      super(type, limit);
      this.out = out;
      this.pos = pos;
      this.grow = grow;
    }

    @Override
    void accept(long[] ordered, int len) {
      if (grow && pos + len > out.length) {
        out = Arrays.copyOf(out, Math.max(pos + len, 2 * out.length));
      }
      int flip = type.kind == NumberType.Kind.SIGNED ? Integer.MIN_VALUE : 0;
      for (int i = 0; i < len; i++) {
        out[pos + i] = (int) ordered[i] ^ flip;
      }
      pos += len;
      count += len;
    }
  }

  /** u16, i16 and f16 (as raw binary16 bits). */
  static final class Shorts extends NumberSink {
    short[] out;
    int pos;
    private final boolean grow;

    Shorts(NumberType type, short[] out, int pos, long limit, boolean grow) {
      super(type, limit);
      this.out = out;
      this.pos = pos;
      this.grow = grow;
    }

    @Override
    void accept(long[] ordered, int len) {
      if (grow && pos + len > out.length) {
        out = Arrays.copyOf(out, Math.max(pos + len, 2 * out.length));
      }
      int topShift = 32 - type.bits;
      int flip = type.kind == NumberType.Kind.UNSIGNED ? 0 : (int) type.mid;
      int complement = type.isFloat() ? (int) type.mask : 0;
      for (int i = 0; i < len; i++) {
        out[pos + i] = (short) raw16(ordered[i], topShift, flip, complement);
      }
      pos += len;
      count += len;
    }
  }

  static final class Bytes extends NumberSink {
    byte[] out;
    int pos;
    private final boolean grow;

    Bytes(NumberType type, byte[] out, int pos, long limit, boolean grow) {
      super(type, limit);
      this.out = out;
      this.pos = pos;
      this.grow = grow;
    }

    @Override
    void accept(long[] ordered, int len) {
      if (grow && pos + len > out.length) {
        out = Arrays.copyOf(out, Math.max(pos + len, 2 * out.length));
      }
      int topShift = 32 - type.bits;
      int flip = type.kind == NumberType.Kind.UNSIGNED ? 0 : (int) type.mid;
      int complement = type.isFloat() ? (int) type.mask : 0;
      for (int i = 0; i < len; i++) {
        out[pos + i] = (byte) raw16(ordered[i], topShift, flip, complement);
      }
      pos += len;
      count += len;
    }
  }
}
