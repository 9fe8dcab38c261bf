package io.lancecodec.testkit;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LittleEndian;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The standard data families every codec is tried on. Each makes a block of a {@link ValueKind}
 * from a seed, deterministically; a family that does not apply to a kind (special floats of an
 * integer, a real sample nobody keeps) makes none.
 */
public enum ValueFamily {
  /** Uniformly random values over the whole width (random bytes for strings). */
  RANDOM,
  /** Random values in a small range: the bit-packing and dictionary case. */
  SMALL_RANGE,
  /** Runs of equal values of random lengths. */
  RUNS,
  /** Ascending values with small random steps. */
  SORTED,
  /** NaN payloads, ±0.0, ±∞, subnormals and extremes among decimal values; floats only. */
  SPECIAL_FLOATS,
  /** No values at all. */
  EMPTY,
  /** A single value. */
  ONE_VALUE,
  /** 2^18 values: many chunks, pages past every codec's size budget. */
  LARGE,
  /** Real data kept in the kit: token ids (u32), mail subjects (strings), airport coordinates (floats). */
  CORPUS;

  static final int COUNT = 5_000;
  static final int LARGE_COUNT = 1 << 18;

  /** This family's block of {@code kind}, or empty when the family does not apply to it. */
  public Optional<DataBlock> block(ValueKind kind, long seed) {
    Random rnd = new Random(seed * 31 + ordinal());
    if (kind == ValueKind.STRING) {
      return strings(rnd);
    }
    return switch (this) {
      case RANDOM -> Optional.of(fixed(kind, COUNT, i -> rnd.nextLong()));
      case SMALL_RANGE -> Optional.of(fixed(kind, COUNT, i -> kind.isFloat() ? rnd.nextInt(100) / 4.0 : rnd.nextInt(100)));
      case RUNS -> {
        long[] v = new long[1];
        int[] left = {0};
        yield Optional.of(fixed(kind, COUNT, i -> {
          if (left[0]-- <= 0) {
            left[0] = rnd.nextInt(40);
            v[0] = rnd.nextInt(1000);
          }
          return kind.isFloat() ? v[0] / 8.0 : v[0];
        }));
      }
      case SORTED -> {
        long[] v = {rnd.nextInt(1000)};
        yield Optional.of(fixed(kind, COUNT, i -> kind.isFloat() ? (v[0] += rnd.nextInt(5)) / 100.0 : (v[0] += rnd.nextInt(5))));
      }
      case SPECIAL_FLOATS -> kind.isFloat() ? Optional.of(specialFloats(kind, rnd)) : Optional.empty();
      case EMPTY -> Optional.of(fixed(kind, 0, i -> 0L));
      case ONE_VALUE -> Optional.of(fixed(kind, 1, i -> kind.isFloat() ? 12.5 : 1234567L));
      case LARGE -> Optional.of(fixed(kind, LARGE_COUNT, i -> kind.isFloat() ? rnd.nextInt(1 << 20) / 1000.0 : rnd.nextInt(1 << 20)));
      case CORPUS -> corpus(kind);
    };
  }

  /** Values for element {@code i}: a long (integer kinds, truncated to the width) or a double (float kinds). */
  private interface ValueAt {
    Object value(int i);
  }

  private static DataBlock.FixedWidth fixed(ValueKind kind, int n, ValueAt values) {
    int bytes = kind.bits() / 8;
    byte[] d = new byte[n * bytes];
    for (int i = 0; i < n; i++) {
      Object o = values.value(i);
      long bits;
      if (kind.isFloat()) {
        double x = o instanceof Double dd ? dd : (double) (Long) o;
        bits = kind == ValueKind.F32 ? Float.floatToRawIntBits((float) x) : Double.doubleToRawLongBits(x);
      } else {
        bits = o instanceof Long l ? l : (long) (double) (Double) o;
      }
      put(d, i, bytes, bits);
    }
    return new DataBlock.FixedWidth(d, kind.bits(), n);
  }

  private static void put(byte[] d, int i, int bytes, long bits) {
    for (int b = 0; b < bytes; b++) {
      d[i * bytes + b] = (byte) (bits >>> (8 * b));
    }
  }

  private static DataBlock.FixedWidth specialFloats(ValueKind kind, Random rnd) {
    boolean f32 = kind == ValueKind.F32;
    long[] specials = f32
        ? new long[] {0x7FC00000L, 0x7FC00001L, 0xFFC00123L, 0x7F800001L, 0x80000000L, 0L, 0x7F800000L, 0xFF800000L, 1L,
            0x807FFFFFL, 0x7F7FFFFFL, 0x00800000L}
        : new long[] {0x7FF8000000000000L, 0x7FF8000000000001L, 0xFFF0000000000123L, 0x7FF0000000000001L, Long.MIN_VALUE, 0L,
            0x7FF0000000000000L, 0xFFF0000000000000L, 1L, 0x800FFFFFFFFFFFFFL, 0x7FEFFFFFFFFFFFFFL, 0x0010000000000000L};
    return rawSpecials(kind, rnd, specials);
  }

  /** Special values written as raw bit patterns, so a NaN's payload is what the block holds. */
  private static DataBlock.FixedWidth rawSpecials(ValueKind kind, Random rnd, long[] specials) {
    int bytes = kind.bits() / 8;
    int n = 3_000;
    byte[] d = new byte[n * bytes];
    for (int i = 0; i < n; i++) {
      long bits;
      if (rnd.nextInt(8) == 0) {
        bits = specials[rnd.nextInt(specials.length)];
      } else {
        double x = rnd.nextInt(100_000) / 100.0;
        bits = kind == ValueKind.F32 ? Float.floatToRawIntBits((float) x) : Double.doubleToRawLongBits(x);
      }
      put(d, i, bytes, bits);
    }
    return new DataBlock.FixedWidth(d, kind.bits(), n);
  }

  private Optional<DataBlock> corpus(ValueKind kind) {
    return switch (kind) {
      case U32 -> {
        byte[] raw = resource("tokens-cl100k-4096.u32");
        yield Optional.of(new DataBlock.FixedWidth(raw, 32, raw.length / 4));
      }
      case F64, F32 -> {
        List<String> lines = lines("airports-latlon.csv");
        List<Double> values = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
          for (String cell : line.split(",")) {
            values.add(Double.parseDouble(cell));
          }
        }
        yield Optional.of(fixed(kind, values.size(), values::get));
      }
      default -> Optional.empty();
    };
  }

  private Optional<DataBlock> strings(Random rnd) {
    List<byte[]> values = new ArrayList<>();
    switch (this) {
      case RANDOM -> {
        for (int i = 0; i < COUNT; i++) {
          byte[] b = new byte[rnd.nextInt(40)];
          rnd.nextBytes(b);
          values.add(b);
        }
      }
      case SMALL_RANGE -> {
        String[] words = {"alpha", "beta", "gamma", "delta", "", "epsilon", "zeta"};
        for (int i = 0; i < COUNT; i++) {
          values.add(words[rnd.nextInt(words.length)].getBytes(StandardCharsets.UTF_8));
        }
      }
      case RUNS -> {
        while (values.size() < COUNT) {
          byte[] v = ("run-" + rnd.nextInt(50)).getBytes(StandardCharsets.UTF_8);
          for (int k = rnd.nextInt(40); k >= 0 && values.size() < COUNT; k--) {
            values.add(v);
          }
        }
      }
      case SORTED -> {
        for (int i = 0; i < COUNT; i++) {
          values.add(String.format("key-%08d", i * 3 + rnd.nextInt(3)).getBytes(StandardCharsets.UTF_8));
        }
      }
      case EMPTY -> {
      }
      case ONE_VALUE -> values.add("only one".getBytes(StandardCharsets.UTF_8));
      case LARGE -> {
        for (int i = 0; i < LARGE_COUNT / 4; i++) {
          values.add(("row " + rnd.nextInt(1 << 20) + " of a large page").getBytes(StandardCharsets.UTF_8));
        }
      }
      case CORPUS -> {
        for (String line : lines("mail-subjects-500.txt")) {
          values.add(line.getBytes(StandardCharsets.UTF_8));
        }
      }
      case SPECIAL_FLOATS -> {
        return Optional.empty();
      }
    }
    return Optional.of(strings(values));
  }

  /** Strings as the writer hands them to codecs: 32-bit offsets from 0, then the bytes. */
  public static DataBlock.VariableWidth strings(List<byte[]> values) {
    byte[] offsets = new byte[4 * (values.size() + 1)];
    int total = 0;
    for (byte[] v : values) {
      total += v.length;
    }
    byte[] data = new byte[total];
    int at = 0;
    for (int i = 0; i < values.size(); i++) {
      System.arraycopy(values.get(i), 0, data, at, values.get(i).length);
      at += values.get(i).length;
      LittleEndian.putInt(offsets, 4 * (i + 1), at);
    }
    return new DataBlock.VariableWidth(offsets, 32, data, values.size());
  }

  private static byte[] resource(String name) {
    try (InputStream in = ValueFamily.class.getResourceAsStream("corpus/" + name)) {
      if (in == null) {
        throw new IllegalStateException("codec-testkit resource corpus/" + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> lines(String name) {
    String text = new String(resource(name), StandardCharsets.UTF_8);
    return Arrays.asList(text.split("\n"));
  }
}
