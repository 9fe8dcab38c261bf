package io.lancecodec.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.lancecodec.codec.pcodec.Pco;
import io.lancecodec.spi.LanceCodecException;
import java.util.Arrays;
import java.util.List;

/**
 * pco standalone files (codec-pcodec's {@link Pco}) from arbitrary bytes. Input: a selector byte
 * (low 4 bits: the number type, in the order of {@link #CODECS}; high 4 bits: the level to
 * re-encode at, modulo 13), then the file. The property: it decodes or fails with one CORRUPT
 * {@link LanceCodecException} (also when it holds more than {@link #MAX_NUMBERS} numbers), within
 * the time and memory limits; what decodes (up to
 * {@link #REENCODE_MAX} numbers) re-encodes at that level and decodes to the same numbers, bit
 * for bit.
 */
public class PcoFuzzTest {
  static final int REENCODE_MAX = 4096;

  /**
   * Numbers one input may decode to: a few bytes of pco can legitimately describe 2^24 equal
   * numbers per chunk, which decode in linear time but not within the target's 1 s once
   * instrumented; callers bound that with the decoders' {@code maxNumbers}, as this target does.
   */
  static final int MAX_NUMBERS = 1 << 20;

  @FuzzTest(maxDuration = "30s")
  void standalone(byte[] input) {
    fuzzerTestOneInput(input);
  }

  /** One number type: its decoder (with a limit), its encoder, its array length, and bit-for-bit equality. */
  private record Type<T>(String name, Decode<T> decode, Encode<T> encode, java.util.function.ToIntFunction<T> length,
      java.util.function.BiPredicate<T, T> same) {
    void check(byte[] in, int level) {
      T v = decode.apply(in, 1, in.length - 1, MAX_NUMBERS);
      if (length.applyAsInt(v) <= REENCODE_MAX) {
        byte[] c = encode.apply(v, 0, length.applyAsInt(v), level);
        if (!same.test(v, decode.apply(c, 0, c.length, MAX_NUMBERS))) {
          throw new AssertionError(name + " numbers re-encoded at level " + level + " do not decode to themselves");
        }
      }
    }
  }

  private interface Decode<T> {
    T apply(byte[] src, int off, int len, int maxNumbers);
  }

  private interface Encode<T> {
    byte[] apply(T v, int off, int n, int level);
  }

  /** The number types, in selector order. Floats compare their raw bits (NaN payloads included). */
  private static final List<Type<?>> CODECS = List.of(
      new Type<byte[]>("u8", Pco::decompressU8, Pco::compressU8, a -> a.length, Arrays::equals),
      new Type<byte[]>("i8", Pco::decompressI8, Pco::compressI8, a -> a.length, Arrays::equals),
      new Type<short[]>("u16", Pco::decompressU16, Pco::compressU16, a -> a.length, Arrays::equals),
      new Type<short[]>("i16", Pco::decompressI16, Pco::compressI16, a -> a.length, Arrays::equals),
      new Type<int[]>("u32", Pco::decompressU32, Pco::compressU32, a -> a.length, Arrays::equals),
      new Type<int[]>("i32", Pco::decompressI32, Pco::compressI32, a -> a.length, Arrays::equals),
      new Type<long[]>("u64", Pco::decompressU64, Pco::compressU64, a -> a.length, Arrays::equals),
      new Type<long[]>("i64", Pco::decompressI64, Pco::compressI64, a -> a.length, Arrays::equals),
      new Type<short[]>("f16", Pco::decompressF16, Pco::compressF16, a -> a.length, Arrays::equals),
      new Type<float[]>("f32", Pco::decompressF32, Pco::compressF32, a -> a.length, PcoFuzzTest::sameBits),
      new Type<double[]>("f64", Pco::decompressF64, Pco::compressF64, a -> a.length, PcoFuzzTest::sameBits));

  /** The selector's low bits for a number type ({@code "f64"}, ...). */
  static int typeIndex(String name) {
    for (int i = 0; i < CODECS.size(); i++) {
      if (CODECS.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException(name);
  }

  public static void fuzzerTestOneInput(byte[] in) {
    if (in.length < 1) {
      return;
    }
    Type<?> type = CODECS.get((in[0] & 0x0F) % CODECS.size());
    int level = ((in[0] & 0xFF) >>> 4) % 13;
    try {
      type.check(in, level);
    } catch (LanceCodecException e) {
      if (e.kind() != LanceCodecException.Kind.CORRUPT) {
        throw new AssertionError("not CORRUPT: " + e.kind() + " " + e.getMessage(), e);
      }
    }
  }

  private static boolean sameBits(float[] a, float[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (Float.floatToRawIntBits(a[i]) != Float.floatToRawIntBits(b[i])) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameBits(double[] a, double[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (Double.doubleToRawLongBits(a[i]) != Double.doubleToRawLongBits(b[i])) {
        return false;
      }
    }
    return true;
  }
}
