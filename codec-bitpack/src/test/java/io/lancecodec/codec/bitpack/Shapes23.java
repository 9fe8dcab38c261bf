package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LittleEndian;
import java.util.Random;

/** Seeded u32/u64 sequences of the shapes generic blocks meet, as long[] and as blocks. */
final class Shapes23 {
  static final String[] SHAPES = {
    "random", "small", "sorted", "constant", "one", "arithmetic", "runny", "fewDistinct", "nearMax", "sortedRunny"
  };

  private Shapes23() {}

  static long[] make(String shape, int bits, int n, long seed) {
    Random rnd = new Random(seed);
    long mask = bits == 64 ? -1L : 0xFFFFFFFFL;
    long[] v = new long[shape.equals("one") ? Math.min(n, 1) : n];
    long acc = rnd.nextInt(1000);
    long[] distinct = {rnd.nextLong() & mask, rnd.nextLong() & mask, 7, rnd.nextLong() & mask, 0};
    for (int i = 0; i < v.length; i++) {
      switch (shape) {
        case "random":
          v[i] = rnd.nextLong() & mask;
          break;
        case "small":
          v[i] = rnd.nextInt(1 << (1 + rnd.nextInt(12)));
          break;
        case "sorted":
          acc += rnd.nextInt(50);
          v[i] = acc;
          break;
        case "constant":
          v[i] = 0xDEADBEEFL;
          break;
        case "one":
          v[i] = rnd.nextLong() & mask;
          break;
        case "arithmetic":
          v[i] = 3 + 17L * i;
          break;
        case "runny":
          v[i] = i > 0 && rnd.nextInt(30) != 0 ? v[i - 1] : rnd.nextInt(1 << 20);
          break;
        case "fewDistinct":
          v[i] = distinct[rnd.nextInt(distinct.length)];
          break;
        case "nearMax":
          v[i] = mask - rnd.nextInt(100);
          break;
        default: // sortedRunny
          if (rnd.nextInt(20) == 0) {
            acc += 1 + rnd.nextInt(5);
          }
          v[i] = acc;
      }
    }
    return v;
  }

  static DataBlock.FixedWidth block(long[] v, int bits) {
    byte[] d = new byte[v.length * bits / 8];
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putUnsigned(d, i * bits / 8, bits / 8, v[i]);
    }
    return new DataBlock.FixedWidth(d, bits, v.length);
  }

  static long[] values(DataBlock.FixedWidth fw) {
    return Seq.toLongs(fw);
  }
}
