package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lancecodec.codec.bitpack.KernelGenerator.Kernel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kernels {@link KernelGenerator} writes at run time pack to exactly the bytes of the plain
 * row-by-row packer ({@link PlainPack}, pinned by {@link FastLanesPinnedBytesTest}) and unpack
 * those bytes back, for every shape, at unaligned offsets and without touching bytes outside
 * their range.
 */
class KernelGeneratorTest {
  private static final int[] ELEMENT_BITS = {8, 16, 32, 64};
  private static final byte GUARD = 0x5A;
  private static final KernelGenerator KERNELS = new KernelGenerator();

  static Stream<Arguments> shapes() {
    return Arrays.stream(ELEMENT_BITS).boxed()
        .flatMap(bits -> IntStream.rangeClosed(0, bits).mapToObj(width -> Arguments.of(bits, width)));
  }

  @ParameterizedTest(name = "u{0} width {1}")
  @MethodSource("shapes")
  void packAndUnpackMatchPlainPack(int bits, int width) {
    Kernel pack = KERNELS.packer(bits, width);
    Kernel unpack = KERNELS.unpacker(bits, width);
    long max = width == 64 ? -1L : (1L << width) - 1;
    check(pack, unpack, bits, width, new long[1024]);
    long[] all = new long[1024];
    Arrays.fill(all, max);
    check(pack, unpack, bits, width, all);
    for (int seed = 1; seed <= 3; seed++) {
      check(pack, unpack, bits, width, random(seed, max));
    }
  }

  /** Racing threads may each write a class, but all of them get the one kernel that won. */
  @Test
  void eightThreadsGeneratingOneShapeShareACorrectKernel() throws Exception {
    KernelGenerator fresh = new KernelGenerator();
    int threads = 8;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Kernel[]>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long[] in = random(100 + t, (1L << 17) - 1);
        results.add(pool.submit(() -> {
          start.await();
          Kernel[] kernels = {fresh.packer(32, 17), fresh.unpacker(32, 17)};
          check(kernels[0], kernels[1], 32, 17, in);
          return kernels;
        }));
      }
      Kernel[] first = results.get(0).get();
      for (Future<Kernel[]> r : results) {
        Kernel[] kernels = r.get();
        assertSame(first[0], kernels[0]);
        assertSame(first[1], kernels[1]);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Every class is defined, verified (the JVM's default -Xverify) and run once. */
  @Test
  void everyKernelGenerates() {
    KernelGenerator fresh = new KernelGenerator();
    int made = 0;
    for (int bits : ELEMENT_BITS) {
      for (int width = 0; width <= bits; width++) {
        byte[] values = new byte[128 * bits];
        byte[] packed = new byte[128 * width];
        fresh.packer(bits, width).run(values, 0, packed, 0);
        fresh.unpacker(bits, width).run(packed, 0, values, 0);
        made += 2;
      }
    }
    assertEquals(2 * (9 + 17 + 33 + 65), made);
  }

  @Test
  void otherShapesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> KERNELS.unpacker(24, 3));
    assertThrows(IllegalArgumentException.class, () -> KERNELS.packer(32, 33));
    assertThrows(IllegalArgumentException.class, () -> KERNELS.unpacker(8, -1));
  }

  private static long[] random(long seed, long max) {
    Random rnd = new Random(seed);
    long[] v = new long[1024];
    for (int i = 0; i < v.length; i++) {
      v[i] = rnd.nextLong() & max;
    }
    return v;
  }

  private static void check(Kernel pack, Kernel unpack, int bits, int width, long[] in) {
    String shape = "u" + bits + " width " + width;
    long[] words = new long[1024];
    PlainPack.pack(bits, width, in, words);
    int packedBytes = 128 * width;
    int srcOff = 5;
    int dstOff = 3;
    byte[] plain = new byte[srcOff + packedBytes];
    Words.write(words, 1024 / bits * width, bits, plain, srcOff);

    byte[] values = new byte[srcOff + 128 * bits];
    Words.write(in, 1024, bits, values, srcOff);
    byte[] packed = guarded(dstOff + packedBytes + 5);
    pack.run(values, srcOff, packed, dstOff);
    assertArrayEquals(Arrays.copyOfRange(plain, srcOff, plain.length),
        Arrays.copyOfRange(packed, dstOff, dstOff + packedBytes), shape);
    assertGuarded(packed, dstOff, packedBytes, shape);

    byte[] out = guarded(dstOff + 128 * bits + 5);
    unpack.run(plain, srcOff, out, dstOff);
    long[] back = new long[1024];
    Words.read(out, dstOff, bits, back, 1024);
    assertArrayEquals(in, back, shape);
    assertGuarded(out, dstOff, 128 * bits, shape);
  }

  private static byte[] guarded(int length) {
    byte[] b = new byte[length];
    Arrays.fill(b, GUARD);
    return b;
  }

  private static void assertGuarded(byte[] b, int off, int len, String shape) {
    for (int i = 0; i < b.length; i++) {
      if (i < off || i >= off + len) {
        assertEquals(GUARD, b[i], shape + ": wrote byte " + i + " outside its range");
      }
    }
  }
}
