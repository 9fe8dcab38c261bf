package io.lancecodec.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.lancecodec.codec.pcodec.Pco;
import io.lancecodec.spi.LanceCodecException;
import java.util.Arrays;

/**
 * pco standalone files (codec-pcodec's {@link Pco}) from arbitrary bytes. Input: a selector byte
 * (low 4 bits: the number type, in the order of {@link #TYPES}; high 4 bits: the level to
 * re-encode at, modulo 13), then the file. The property: it decodes or fails with one CORRUPT
 * {@link LanceCodecException} (also when it holds more than {@link #MAX_NUMBERS} numbers), within
 * the time and memory limits; what decodes (up to
 * {@link #REENCODE_MAX} numbers) re-encodes at that level and decodes to the same numbers, bit
 * for bit.
 */
public class PcoFuzzTest {
  static final String[] TYPES = {"u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f16", "f32", "f64"};
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

  public static void fuzzerTestOneInput(byte[] in) {
    if (in.length < 1) {
      return;
    }
    String type = TYPES[(in[0] & 0x0F) % TYPES.length];
    int level = ((in[0] & 0xFF) >>> 4) % 13;
    int len = in.length - 1;
    try {
      switch (type) {
        case "u8", "i8" -> {
          boolean u = type.equals("u8");
          byte[] v = u ? Pco.decompressU8(in, 1, len, MAX_NUMBERS) : Pco.decompressI8(in, 1, len, MAX_NUMBERS);
          if (v.length <= REENCODE_MAX) {
            byte[] c = u ? Pco.compressU8(v, 0, v.length, level) : Pco.compressI8(v, 0, v.length, level);
            same(Arrays.equals(v, u ? Pco.decompressU8(c, 0, c.length) : Pco.decompressI8(c, 0, c.length)), type);
          }
        }
        case "u16", "i16", "f16" -> {
          short[] v = switch (type) {
            case "u16" -> Pco.decompressU16(in, 1, len, MAX_NUMBERS);
            case "i16" -> Pco.decompressI16(in, 1, len, MAX_NUMBERS);
            default -> Pco.decompressF16(in, 1, len, MAX_NUMBERS);
          };
          if (v.length <= REENCODE_MAX) {
            byte[] c = switch (type) {
              case "u16" -> Pco.compressU16(v, 0, v.length, level);
              case "i16" -> Pco.compressI16(v, 0, v.length, level);
              default -> Pco.compressF16(v, 0, v.length, level);
            };
            short[] back = switch (type) {
              case "u16" -> Pco.decompressU16(c, 0, c.length);
              case "i16" -> Pco.decompressI16(c, 0, c.length);
              default -> Pco.decompressF16(c, 0, c.length);
            };
            same(Arrays.equals(v, back), type);
          }
        }
        case "u32", "i32" -> {
          boolean u = type.equals("u32");
          int[] v = u ? Pco.decompressU32(in, 1, len, MAX_NUMBERS) : Pco.decompressI32(in, 1, len, MAX_NUMBERS);
          if (v.length <= REENCODE_MAX) {
            byte[] c = u ? Pco.compressU32(v, 0, v.length, level) : Pco.compressI32(v, 0, v.length, level);
            same(Arrays.equals(v, u ? Pco.decompressU32(c, 0, c.length) : Pco.decompressI32(c, 0, c.length)), type);
          }
        }
        case "u64", "i64" -> {
          boolean u = type.equals("u64");
          long[] v = u ? Pco.decompressU64(in, 1, len, MAX_NUMBERS) : Pco.decompressI64(in, 1, len, MAX_NUMBERS);
          if (v.length <= REENCODE_MAX) {
            byte[] c = u ? Pco.compressU64(v, 0, v.length, level) : Pco.compressI64(v, 0, v.length, level);
            same(Arrays.equals(v, u ? Pco.decompressU64(c, 0, c.length) : Pco.decompressI64(c, 0, c.length)), type);
          }
        }
        case "f32" -> {
          float[] v = Pco.decompressF32(in, 1, len, MAX_NUMBERS);
          if (v.length <= REENCODE_MAX) {
            byte[] c = Pco.compressF32(v, 0, v.length, level);
            float[] back = Pco.decompressF32(c, 0, c.length);
            boolean eq = back.length == v.length;
            for (int i = 0; eq && i < v.length; i++) {
              eq = Float.floatToRawIntBits(v[i]) == Float.floatToRawIntBits(back[i]);
            }
            same(eq, type);
          }
        }
        default -> {
          double[] v = Pco.decompressF64(in, 1, len, MAX_NUMBERS);
          if (v.length <= REENCODE_MAX) {
            byte[] c = Pco.compressF64(v, 0, v.length, level);
            double[] back = Pco.decompressF64(c, 0, c.length);
            boolean eq = back.length == v.length;
            for (int i = 0; eq && i < v.length; i++) {
              eq = Double.doubleToRawLongBits(v[i]) == Double.doubleToRawLongBits(back[i]);
            }
            same(eq, type);
          }
        }
      }
    } catch (LanceCodecException e) {
      if (e.kind() != LanceCodecException.Kind.CORRUPT) {
        throw new AssertionError("not CORRUPT: " + e.kind() + " " + e.getMessage(), e);
      }
    }
  }

  private static void same(boolean equal, String type) {
    if (!equal) {
      throw new AssertionError(type + " numbers re-encoded do not decode to themselves");
    }
  }
}
