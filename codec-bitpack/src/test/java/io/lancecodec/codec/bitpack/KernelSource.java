package io.lancecodec.codec.bitpack;

/** Pieces of Java source shared by {@link PackGenerator} and {@link UnpackGenerator}. */
final class KernelSource {
  /** The row-group order of the FastLanes layout. */
  static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};
  static final int[] ELEMENT_BITS = {8, 16, 32, 64};

  private KernelSource() {}

  /**
   * The body of {@code static void NAME(int bits, int width, byte[] src, int srcOff, byte[] dst,
   * int dstOff)}: a switch on the element width calling {@code NAME<bits>}.
   */
  static void elementSwitch(StringBuilder sb, String name) {
    sb.append("    switch (bits) {\n");
    for (int bits : ELEMENT_BITS) {
      sb.append("      case ").append(bits).append(":\n");
      sb.append("        ").append(name).append(bits).append("(width, src, srcOff, dst, dstOff);\n");
      sb.append("        return;\n");
    }
    sb.append("      default:\n");
    sb.append("        throw new IllegalArgumentException(\"element width \" + bits);\n");
    sb.append("    }\n  }\n\n");
  }

  /**
   * {@code private static void NAME<bits>(int width, ...)}: a switch on the bit width calling
   * {@code PREFIX<bits>_<width>}, width 0 included unless {@code zeroReturns} (then it does nothing).
   */
  static void widthSwitch(StringBuilder sb, String name, String prefix, int bits, boolean zeroReturns) {
    sb.append("  private static void ").append(name).append(bits).append("(int width, byte[] s, int so, byte[] d, int dof) {\n");
    sb.append("    switch (width) {\n");
    if (zeroReturns) {
      sb.append("      case 0:\n");
      sb.append("        return;\n");
    }
    for (int width = zeroReturns ? 1 : 0; width <= bits; width++) {
      sb.append("      case ").append(width).append(":\n");
      sb.append("        ").append(prefix).append(bits).append('_').append(width).append("(s, so, d, dof);\n");
      sb.append("        return;\n");
    }
    sb.append("      default:\n");
    sb.append("        throw new IllegalArgumentException(\"width \" + width);\n");
    sb.append("    }\n  }\n\n");
  }

  /** {@code m} (at most T bits) repeated in every T-bit field of a long, as a Java literal. */
  static String replicate(int bits, long m) {
    long r = 0;
    for (int f = 0; f < 64; f += bits) {
      r |= m << f;
    }
    return "0x" + Long.toHexString(r) + "L";
  }

  static long lowBits(int n) {
    return n == 64 ? -1L : (1L << n) - 1;
  }

  /** {@code " + c"}, or nothing for 0. */
  static String offset(int c) {
    return c == 0 ? "" : " + " + c;
  }
}
