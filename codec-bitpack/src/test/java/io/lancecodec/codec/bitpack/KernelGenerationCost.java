package io.lancecodec.codec.bitpack;

/**
 * Prints the one-time cost of writing kernels in a fresh JVM: the first one (which also loads
 * and warms Byte Buddy's ASM), then all 124 unpackers of a second generator, then the fused
 * delta kernels (one, then all 32). With the argument {@code fused-first} the first kernel is a
 * fused one, as in a JVM whose first read is a 2.3 Delta block. Not a test, since the times
 * depend on the machine; run it with the module's test classpath.
 */
public final class KernelGenerationCost {
  private KernelGenerationCost() {}

  public static void main(String[] args) {
    boolean fusedFirst = args.length > 0 && args[0].equals("fused-first");
    long t0 = System.nanoTime();
    if (fusedFirst) {
      new KernelGenerator().delta(32, 7);
    } else {
      new KernelGenerator().unpacker(32, 17);
    }
    long t1 = System.nanoTime();
    KernelGenerator all = new KernelGenerator();
    for (int bits = 8; bits <= 64; bits *= 2) {
      for (int width = 0; width <= bits; width++) {
        all.unpacker(bits, width);
      }
    }
    long t2 = System.nanoTime();
    all.delta(32, 7);
    long t3 = System.nanoTime();
    for (int width = 1; width <= 32; width++) {
      all.delta(32, width);
    }
    long t4 = System.nanoTime();
    System.out.printf("first kernel (%s): %.1f ms%n", fusedFirst ? "fused delta width 7" : "u32 width 17 unpack", (t1 - t0) / 1e6);
    System.out.printf("all 124 unpack kernels after it: %.1f ms%n", (t2 - t1) / 1e6);
    System.out.printf("one fused delta kernel after them (width 7): %.1f ms%n", (t3 - t2) / 1e6);
    System.out.printf("the other 31 fused delta kernels: %.1f ms%n", (t4 - t3) / 1e6);
  }
}
