package io.lancecodec.codec.pcodec;

import io.lancecodec.spi.LanceCodecException;
import java.util.Arrays;

/**
 * Entry point: pco standalone compression of primitive arrays, one method triple per number type.
 *
 * <p>{@code compressX} writes a standalone file (format 4.1, standalone version 3, as pco 1.0)
 * at level 0..12 (8 is pco's default). {@code decompressX} returns a new array; it refuses files
 * with more than {@link #DEFAULT_MAX_NUMBERS} numbers, so hostile input cannot make it allocate
 * or loop without bound; a caller who knows how many numbers to expect at most passes that as
 * {@code maxNumbers} (a few bytes of pco can legitimately hold millions of equal numbers).
 * {@code decompressXInto} fills a caller's array with exactly {@code count} numbers. Unsigned
 * types use the signed Java array of the same width, f16 its raw binary16 bits in a
 * {@code short[]}. Every malformed input fails with a CORRUPT
 * {@link LanceCodecException}.
 */
public final class Pco {
  /** Cap of the allocating decoders: 2^27 numbers (1 GiB of f64). */
  public static final int DEFAULT_MAX_NUMBERS = 1 << 27;

  /** pco's default level. */
  public static final int DEFAULT_LEVEL = PcoFormat.DEFAULT_LEVEL;

  private Pco() {}

  private static void checkRange(int arrayLength, int off, int n) {
    if (off < 0 || n < 0 || off > arrayLength - n) {
      throw LanceCodecException.invalidArgument(
          "pcodec: range [" + off + ", " + off + " + " + n + ") outside an array of " + arrayLength);
    }
  }

  private static void checkMaxNumbers(int maxNumbers) {
    if (maxNumbers < 0) {
      throw LanceCodecException.invalidArgument("pcodec: a limit of " + maxNumbers + " numbers");
    }
  }

  private static void checkDecodedCount(long got, int count) {
    LanceCodecException.check(got == count, "pcodec: the input holds " + got + " numbers, expected " + count);
  }

  public static byte[] compressF64(double[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.F64;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(Double.doubleToRawLongBits(v[from + i]));
      }
    }, cfg);
  }

  public static double[] decompressF64(byte[] src, int off, int len) {
    return decompressF64(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressF64(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static double[] decompressF64(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Doubles sink = new NumberSink.Doubles(NumberType.F64, new double[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressF64Into(byte[] src, int off, int len, double[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Doubles sink = new NumberSink.Doubles(NumberType.F64, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressF32(float[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.F32;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(Float.floatToRawIntBits(v[from + i]));
      }
    }, cfg);
  }

  public static float[] decompressF32(byte[] src, int off, int len) {
    return decompressF32(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressF32(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static float[] decompressF32(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Floats sink = new NumberSink.Floats(NumberType.F32, new float[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressF32Into(byte[] src, int off, int len, float[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Floats sink = new NumberSink.Floats(NumberType.F32, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressF16(short[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.F16;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static short[] decompressF16(byte[] src, int off, int len) {
    return decompressF16(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressF16(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static short[] decompressF16(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Shorts sink = new NumberSink.Shorts(NumberType.F16, new short[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressF16Into(byte[] src, int off, int len, short[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Shorts sink = new NumberSink.Shorts(NumberType.F16, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressI64(long[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.I64;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static long[] decompressI64(byte[] src, int off, int len) {
    return decompressI64(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressI64(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static long[] decompressI64(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Longs sink = new NumberSink.Longs(NumberType.I64, new long[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressI64Into(byte[] src, int off, int len, long[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Longs sink = new NumberSink.Longs(NumberType.I64, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressU64(long[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.U64;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static long[] decompressU64(byte[] src, int off, int len) {
    return decompressU64(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressU64(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static long[] decompressU64(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Longs sink = new NumberSink.Longs(NumberType.U64, new long[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressU64Into(byte[] src, int off, int len, long[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Longs sink = new NumberSink.Longs(NumberType.U64, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressI32(int[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.I32;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static int[] decompressI32(byte[] src, int off, int len) {
    return decompressI32(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressI32(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static int[] decompressI32(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Ints sink = new NumberSink.Ints(NumberType.I32, new int[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressI32Into(byte[] src, int off, int len, int[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Ints sink = new NumberSink.Ints(NumberType.I32, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressU32(int[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.U32;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static int[] decompressU32(byte[] src, int off, int len) {
    return decompressU32(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressU32(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static int[] decompressU32(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Ints sink = new NumberSink.Ints(NumberType.U32, new int[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressU32Into(byte[] src, int off, int len, int[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Ints sink = new NumberSink.Ints(NumberType.U32, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressI16(short[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.I16;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static short[] decompressI16(byte[] src, int off, int len) {
    return decompressI16(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressI16(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static short[] decompressI16(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Shorts sink = new NumberSink.Shorts(NumberType.I16, new short[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressI16Into(byte[] src, int off, int len, short[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Shorts sink = new NumberSink.Shorts(NumberType.I16, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressU16(short[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.U16;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static short[] decompressU16(byte[] src, int off, int len) {
    return decompressU16(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressU16(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static short[] decompressU16(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Shorts sink = new NumberSink.Shorts(NumberType.U16, new short[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressU16Into(byte[] src, int off, int len, short[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Shorts sink = new NumberSink.Shorts(NumberType.U16, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressI8(byte[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.I8;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static byte[] decompressI8(byte[] src, int off, int len) {
    return decompressI8(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressI8(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static byte[] decompressI8(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Bytes sink = new NumberSink.Bytes(NumberType.I8, new byte[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressI8Into(byte[] src, int off, int len, byte[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Bytes sink = new NumberSink.Bytes(NumberType.I8, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }

  public static byte[] compressU8(byte[] v, int off, int n, int level) {
    checkRange(v.length, off, n);
    NumberType type = NumberType.U8;
    PcoConfig cfg = PcoConfig.level(level);
    return PcoEncoder.compress(type, n, (ordered, start, count) -> {
      int from = off + start;
      for (int i = 0; i < count; i++) {
        ordered[i] = type.toOrdered(v[from + i]);
      }
    }, cfg);
  }

  public static byte[] decompressU8(byte[] src, int off, int len) {
    return decompressU8(src, off, len, DEFAULT_MAX_NUMBERS);
  }

  /** As {@link #decompressU8(byte[], int, int)}, refusing (CORRUPT) input that holds more than {@code maxNumbers} numbers. */
  public static byte[] decompressU8(byte[] src, int off, int len, int maxNumbers) {
    checkRange(src.length, off, len);
    checkMaxNumbers(maxNumbers);
    NumberSink.Bytes sink = new NumberSink.Bytes(NumberType.U8, new byte[0], 0, maxNumbers, true);
    PcoDecoder.decode(src, off, len, sink);
    return Arrays.copyOf(sink.out, sink.pos);
  }

  public static void decompressU8Into(byte[] src, int off, int len, byte[] dst, int dstOff, int count) {
    checkRange(src.length, off, len);
    checkRange(dst.length, dstOff, count);
    NumberSink.Bytes sink = new NumberSink.Bytes(NumberType.U8, dst, dstOff, count, false);
    checkDecodedCount(PcoDecoder.decode(src, off, len, sink), count);
  }
}
