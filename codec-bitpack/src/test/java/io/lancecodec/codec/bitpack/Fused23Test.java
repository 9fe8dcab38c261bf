package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.Delta;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fused Delta decode ({@link Fused23}, kernels from {@link KernelGenerator}) against its
 * composition as the oracle: the same bytes for every width of a bit-packed u32 leaf, inline and
 * out-of-line (packed and raw tails), full and partial groups and blocks; and for payloads the
 * composition rejects (overflow, a leaf's bad length or width) the same CORRUPT error, since the
 * fused path hands those back to it.
 */
class Fused23Test {
  /** Lengths around every boundary: blocks of 32, groups of 1024, out-of-line tails both ways. */
  private static final int[] LENGTHS = {1, 2, 31, 32, 33, 64, 1000, 1023, 1024, 1025, 1056, 2048, 2081, 3000};

  static Stream<Arguments> deltaWidths() {
    return Stream.of(32, 64).flatMap(bits -> IntStream.rangeClosed(0, bits).boxed()
        .flatMap(w -> Stream.of(Arguments.of(bits, w, true), Arguments.of(bits, w, false))));
  }

  private static Leaf23.Plan leaf(int bits, boolean inline, long[] v, int n) {
    long or = 0;
    for (int i = 0; i < n; i++) {
      or |= v[i];
    }
    return inline ? new Leaf23.Plan(Leaf23.Kind.INLINE, bits, 0, 0, 0, 0, false)
        : new Leaf23.Plan(Leaf23.Kind.OUT_OF_LINE, bits, 0, Seq.width(or), 0, 0, false);
  }

  private static DataBlock.FixedWidth decode(BlockDecompressor d, byte[] payload, long n) {
    return (DataBlock.FixedWidth) d.decompress(payload, n);
  }

  /** Deltas below 2^width (the first at its maximum) that keep the sum within the bits. */
  private static long[] deltas(Random rnd, int bits, int width, int m, long base) {
    long[] d = new long[m];
    long acc = base;
    long max = width == 0 ? 0 : width == 64 ? -1L : (1L << width) - 1;
    long room = bits == 64 ? -1L : 0xFFFFFFFFL;
    for (int i = 0; i < m; i++) {
      long step = i == 0 ? max : rnd.nextLong() & max;
      if (Long.compareUnsigned(step, room - acc) > 0) {
        step = Long.compareUnsigned(1, room - acc) > 0 ? 0 : rnd.nextInt(2);
      }
      d[i] = step;
      acc += step;
    }
    return d;
  }

  private static Delta delta(int bits, long base, Leaf23.Plan leaf) {
    return Delta.newBuilder().setUncompressedBitsPerValue(bits).setBase(base).setDeltas(leaf.encoding()).build();
  }

  @ParameterizedTest(name = "u{0} width {1} inline {2}")
  @MethodSource("deltaWidths")
  void deltaMatchesComposition(int bits, int width, boolean inline) {
    Random rnd = new Random(1000L * width + bits + (inline ? 1 : 0));
    int wb = bits / 8;
    for (int n : LENGTHS) {
      long base = width >= bits - 2 ? rnd.nextInt(16) : rnd.nextInt(1 << 20);
      long[] d = deltas(rnd, bits, width, n - 1, base);
      Leaf23.Plan leaf = leaf(bits, inline, d, n - 1);
      Delta msg = delta(bits, base, leaf);
      byte[] payload = leaf.payload(d, n - 1);
      byte[] want = decode(new Delta23(msg, Decoders23.INSTANCE, false), payload, n).data();
      byte[] got = decode(new Delta23(msg, Decoders23.INSTANCE, true), payload, n).data();
      assertArrayEquals(want, got, "n " + n);
      // the fused path itself took the block (it hands back only u64 groups wider than 53 bits)
      byte[] direct = new byte[wb * n];
      boolean took = Fused23.delta(Decoders23.INSTANCE.block(leaf.encoding()), payload, n, base, direct);
      if (bits == 32 || width <= 53) {
        assertTrue(took, "n " + n);
        assertArrayEquals(want, direct, "n " + n);
      }
      long acc = base;
      for (int i = 0; i < n; i++) {
        acc += i == 0 ? 0 : d[i - 1];
        assertEquals(acc, LittleEndian.getUnsigned(got, wb * i, wb), "value " + i + " of " + n);
      }
    }
  }

  @Test
  void deltaOverflowIsTheCompositionsError() {
    Random rnd = new Random(7);
    for (int bits : new int[] {32, 64}) {
      for (boolean inline : new boolean[] {true, false}) {
        for (int at : new int[] {0, 31, 40, 1023, 1500, 1998}) {
          int n = 2000;
          long base = (bits == 64 ? -1L : 0xFFFFFFFFL) - 5000;
          long[] d = new long[n - 1];
          for (int i = 0; i < d.length; i++) {
            d[i] = rnd.nextInt(2);
          }
          d[at] = 6000; // the running sum passes the largest value at value at + 1
          Leaf23.Plan leaf = leaf(bits, inline, d, n - 1);
          Delta msg = delta(bits, base, leaf);
          byte[] payload = leaf.payload(d, n - 1);
          sameError(() -> decode(new Delta23(msg, Decoders23.INSTANCE, false), payload, n),
              () -> decode(new Delta23(msg, Decoders23.INSTANCE, true), payload, n), "overflows");
        }
      }
    }
  }

  @Test
  void badLeafLengthsAreTheCompositionsError() {
    Random rnd = new Random(8);
    for (int bits : new int[] {32, 64}) {
      int wb = bits / 8;
      for (boolean inline : new boolean[] {true, false}) {
        int n = 1500;
        long[] d = deltas(rnd, bits, 6, n - 1, 100);
        Leaf23.Plan leaf = leaf(bits, inline, d, n - 1);
        Delta msg = delta(bits, 100, leaf);
        byte[] payload = leaf.payload(d, n - 1);
        for (byte[] bad : new byte[][] {Arrays.copyOf(payload, payload.length - 1), Arrays.copyOf(payload, payload.length + wb),
            Arrays.copyOf(payload, 3)}) {
          sameError(() -> decode(new Delta23(msg, Decoders23.INSTANCE, false), bad, n),
              () -> decode(new Delta23(msg, Decoders23.INSTANCE, true), bad, n), "bitpack");
        }
        if (inline) {
          byte[] wide = payload.clone();
          LittleEndian.putUnsigned(wide, 0, wb, bits + 1); // a group width above T
          sameError(() -> decode(new Delta23(msg, Decoders23.INSTANCE, false), wide, n),
              () -> decode(new Delta23(msg, Decoders23.INSTANCE, true), wide, n), "width");
        }
      }
    }
  }

  @Test
  void kernelsAreGeneratedOncePerShape() {
    KernelGenerator g = new KernelGenerator();
    for (int bits : new int[] {32, 64}) {
      for (int w = 1; w <= bits; w++) {
        assertSame(g.delta(bits, w), g.delta(bits, w));
      }
    }
    assertThrows(IllegalArgumentException.class, () -> g.delta(32, 0));
    assertThrows(IllegalArgumentException.class, () -> g.delta(32, 33));
    assertThrows(IllegalArgumentException.class, () -> g.delta(16, 3));
  }

  /** Eight threads asking a fresh generator for one shape at once all get the same, correct kernel. */
  @Test
  void eightThreadsShareOneFusedKernel() throws Exception {
    KernelGenerator fresh = new KernelGenerator();
    int threads = 8;
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      long[] d = deltas(new Random(11), 64, 13, 1024, 5);
      byte[] packed = new byte[128 * 13];
      FastLanes.pack(64, 13, Seq.toBytes(d, 1024, 64), 0, 1024, packed, 0);
      byte[] want = new byte[8 * 1024];
      long acc = 5;
      for (int i = 0; i < 1024; i++) {
        acc += d[i];
        LittleEndian.putLong(want, 8 * i, acc);
      }
      java.util.List<java.util.concurrent.Future<KernelGenerator.DeltaKernel>> results = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(pool.submit(() -> {
          start.await();
          KernelGenerator.DeltaKernel k = fresh.delta(64, 13);
          byte[] out = new byte[8 * 1024];
          assertEquals(want.length, out.length);
          long sum = k.run(packed, 0, out, 0, 5, 64);
          assertArrayEquals(want, out);
          assertEquals(LittleEndian.getLong(want, 8 * 1023), sum);
          return k;
        }));
      }
      KernelGenerator.DeltaKernel first = results.get(0).get();
      for (java.util.concurrent.Future<KernelGenerator.DeltaKernel> r : results) {
        assertSame(first, r.get());
      }
      assertSame(first, fresh.delta(64, 13));
    } finally {
      pool.shutdownNow();
    }
  }

  private static void sameError(org.junit.jupiter.api.function.Executable oracle, org.junit.jupiter.api.function.Executable fused,
      String contains) {
    LanceCodecException want = assertThrows(LanceCodecException.class, oracle);
    LanceCodecException got = assertThrows(LanceCodecException.class, fused);
    assertEquals(LanceCodecException.Kind.CORRUPT, want.kind(), want.getMessage());
    assertEquals(want.kind(), got.kind());
    assertEquals(want.getMessage(), got.getMessage());
    assertTrue(want.getMessage().contains(contains), want.getMessage());
  }
}
