package io.lancecodec.codec.bitpack;

/**
 * Prints the one-time cost of writing kernels in a fresh JVM: the first one (which also loads
 * and warms Byte Buddy's ASM), then all 124 unpackers of a second generator. Not a test, since the times depend
 * on the machine; run it with the module's test classpath.
 */
public final class KernelGenerationCost {
  private KernelGenerationCost() {}

  public static void main(String[] args) {
    long t0 = System.nanoTime();
    new KernelGenerator().unpacker(32, 17);
    long t1 = System.nanoTime();
    KernelGenerator all = new KernelGenerator();
    for (int bits = 8; bits <= 64; bits *= 2) {
      for (int width = 0; width <= bits; width++) {
        all.unpacker(bits, width);
      }
    }
    long t2 = System.nanoTime();
    System.out.printf("first kernel (u32 width 17 unpack): %.1f ms%n", (t1 - t0) / 1e6);
    System.out.printf("all 124 unpack kernels after it: %.1f ms%n", (t2 - t1) / 1e6);
  }
}
