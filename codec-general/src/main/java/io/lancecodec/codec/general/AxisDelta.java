package io.lancecodec.codec.general;

import io.lancecodec.format.UnsignedBlockGrammar;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.FixedSizeList;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.PerValueDecompressor;

/**
 * Axis delta of the unstable 2.3 grammar ({@code AxisDelta{axis_length, inner_stride, values}}):
 * each tensor, one fixed-size-list row of E elements of T bits (T in 8/16/32/64), is cut into
 * spans of {@code axis_length * inner_stride} elements; in a span the first {@code inner_stride}
 * elements are kept and every later one is stored as its difference from the element
 * {@code inner_stride} places before, modulo 2^T. It shrinks nothing by itself: it turns smooth
 * integer tensors into small numbers that the General frame around it compresses better.
 *
 * <p>Because the span divides E, the rows of a block laid end to end are a whole number of spans:
 * the transforms walk spans and never look at row boundaries, and no state crosses them.
 */
final class AxisDelta {
  private AxisDelta() {}

  /** Rows of at most this many bits, as for the fixed-size-list rows the runtime reads. */
  static final long MAX_ROW_BITS = 1L << 27;

  /** Fixed-size-list nesting deeper than this is refused, as the runtime does. */
  static final int MAX_LEVELS = 16;

  /**
   * A tensor: its fixed-size-list dimensions, outer to inner, and the bits of one element. Rows
   * are the elements back to back, little endian, so a row takes {@code elements() * bits / 8}
   * bytes.
   */
  record Shape(long[] dims, int bits) {
    long elements() {
      long e = 1;
      for (long d : dims) {
        e *= d;
      }
      return e;
    }

    int rowBytes() {
      return (int) (elements() * (bits / 8));
    }

    long rowBits() {
      return elements() * bits;
    }

    /** {@code FixedSizeList{d0, FixedSizeList{d1, ... Flat{bits}}}}, no validity at any layer. */
    CompressiveEncoding encoding() {
      CompressiveEncoding e = CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
      for (int l = dims.length - 1; l >= 0; l--) {
        e = CompressiveEncoding.newBuilder()
            .setFixedSizeList(FixedSizeList.newBuilder().setItemsPerValue(dims[l]).setHasValidity(false).setValues(e))
            .build();
      }
      return e;
    }

    boolean sameAs(Shape other) {
      return other != null && bits == other.bits && java.util.Arrays.equals(dims, other.dims);
    }

    @Override
    public String toString() {
      return java.util.Arrays.toString(dims) + " x " + bits + " bits";
    }
  }

  /**
   * The shape of a written block this codec can transform: fixed-size lists at any depth, no item
   * validity at any level, over a fixed-width leaf of 8, 16, 32 or 64 bits holding every row's
   * elements; null for anything else (the offer is then simply not made).
   */
  static Shape shapeOf(DataBlock block) {
    java.util.List<Long> dims = new java.util.ArrayList<>();
    DataBlock b = block;
    long product = 1;
    while (b instanceof DataBlock.FixedSizeList fsl) {
      long d = fsl.dimension();
      if (d <= 0 || d > MAX_ROW_BITS || dims.size() >= MAX_LEVELS) {
        return null;
      }
      product *= d;
      if (product > MAX_ROW_BITS) {
        return null;
      }
      dims.add(d);
      b = fsl.child();
    }
    if (dims.isEmpty() || !(b instanceof DataBlock.FixedWidth leaf) || !elementBits(leaf.bitsPerValue())
        || product * leaf.bitsPerValue() > MAX_ROW_BITS || block.numValues() < 0
        || leaf.numValues() < block.numValues() * product) {
      return null;
    }
    long[] d = new long[dims.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = dims.get(i);
    }
    return new Shape(d, leaf.bitsPerValue());
  }

  /** The leaf bytes of a block {@link #shapeOf} accepted: every row's elements, row after row. */
  static byte[] leafBytes(DataBlock block) {
    DataBlock b = block;
    while (b instanceof DataBlock.FixedSizeList fsl) {
      b = fsl.child();
    }
    return ((DataBlock.FixedWidth) b).data();
  }

  static boolean elementBits(long bits) {
    return bits == 8 || bits == 16 || bits == 32 || bits == 64;
  }

  /**
   * The tensor under an axis delta: one or more fixed-size-list layers without validity ending in
   * {@code Flat{8|16|32|64}}, every count checked as the runtime checks fixed-size lists.
   */
  static Shape parseTensor(CompressiveEncoding values, String who) {
    java.util.List<Long> dims = new java.util.ArrayList<>();
    long product = 1;
    CompressiveEncoding v = values;
    while (v.hasFixedSizeList()) {
      FixedSizeList f = v.getFixedSizeList();
      long d = f.getItemsPerValue();
      if (d <= 0 || d > MAX_ROW_BITS || dims.size() >= MAX_LEVELS) {
        throw LanceCodecException.corrupt(who + ": fixed_size_list of " + Long.toUnsignedString(d) + " items at depth " + dims.size()
            + " (1 to " + MAX_ROW_BITS + " items, at most " + MAX_LEVELS + " layers)");
      }
      if (f.getHasValidity()) {
        throw LanceCodecException.corrupt(who + ": fixed_size_list at depth " + dims.size()
            + " has item validity, which a tensor under axis delta cannot have");
      }
      product *= d;
      if (product > MAX_ROW_BITS) {
        throw LanceCodecException.corrupt(who + ": " + product + " elements per tensor, over " + MAX_ROW_BITS);
      }
      dims.add(d);
      if (!f.hasValues()) {
        throw LanceCodecException.corrupt(who + ": fixed_size_list at depth " + (dims.size() - 1) + " without values");
      }
      v = f.getValues();
    }
    if (dims.isEmpty()) {
      throw LanceCodecException.corrupt(who + ": values must be fixed_size_list layers, not " + UnsignedBlockGrammar.caseName(v));
    }
    if (!v.hasFlat()) {
      throw LanceCodecException.corrupt(who + ": the fixed-size-list leaf must be flat, not " + UnsignedBlockGrammar.caseName(v));
    }
    long bits = v.getFlat().getBitsPerValue();
    if (!elementBits(bits)) {
      throw LanceCodecException.corrupt(who + ": flat leaf of " + Long.toUnsignedString(bits) + " bits (expected 8, 16, 32 or 64)");
    }
    if (product * bits > MAX_ROW_BITS) {
      throw LanceCodecException.corrupt(who + ": tensors of " + product + " x " + bits + " bits, over " + MAX_ROW_BITS + " bits");
    }
    long[] d = new long[dims.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = dims.get(i);
    }
    return new Shape(d, (int) bits);
  }

  /** {@code AxisDelta{axis_length, inner_stride, values = shape's fixed-size lists}}. */
  static CompressiveEncoding encoding(Shape shape, int axisLength, int innerStride) {
    return CompressiveEncoding.newBuilder()
        .setAxisDelta(io.lancecodec.format.pb.v23.AxisDelta.newBuilder()
            .setAxisLength(axisLength).setInnerStride(innerStride).setValues(shape.encoding()))
        .build();
  }

  static Decompressor open(io.lancecodec.format.pb.v23.AxisDelta a) {
    if (!a.hasValues()) {
      throw LanceCodecException.corrupt("axis_delta: values missing");
    }
    Shape shape = parseTensor(a.getValues(), "axis_delta");
    long axis = a.getAxisLength();
    long stride = a.getInnerStride();
    long e = shape.elements();
    // uint64 fields arrive as longs: a negative one is above 2^63, so no less wrong than zero
    if (axis <= 0 || stride <= 0) {
      throw LanceCodecException.corrupt("axis_delta: axis_length " + Long.toUnsignedString(axis) + " and inner_stride "
          + Long.toUnsignedString(stride) + " must both be positive");
    }
    // both at most E (at most 2^27) before multiplying, so the product cannot overflow
    if (axis > e || stride > e || e % (axis * stride) != 0) {
      throw LanceCodecException.corrupt("axis_delta: spans of axis_length " + axis + " x inner_stride " + stride
          + " do not divide the " + e + " elements of a " + shape + " tensor");
    }
    return new Decompressor(shape, (int) axis, (int) stride);
  }

  static EncodingSummary describe(io.lancecodec.format.pb.v23.AxisDelta a, Decoders children) {
    String params = Long.toUnsignedString(a.getAxisLength()) + ", " + Long.toUnsignedString(a.getInnerStride());
    return a.hasValues() ? EncodingSummary.of("axis_delta", params, children.describe(a.getValues()))
        : EncodingSummary.of("axis_delta", params);
  }

  /**
   * Undoes the differences of whole rows: the plain fixed-size-list rows, a FixedWidth block of
   * E*T-bit values, exactly what the runtime's plain fixed-size-list decoder returns for them.
   */
  static final class Decompressor implements PerValueDecompressor {
    private final Shape shape;
    private final int axisLength;
    private final int innerStride;
    private final long rowBits;

    Decompressor(Shape shape, int axisLength, int innerStride) {
      this.shape = shape;
      this.axisLength = axisLength;
      this.innerStride = innerStride;
      this.rowBits = shape.rowBits();
    }

    /**
     * The bits of one stored row. Deliberately not {@link #plainBits()}: that promises the rows
     * come back unchanged, and a reader would then copy them to its output without decoding.
     */
    long rowBits() {
      return rowBits;
    }

    @Override
    public DataBlock decompress(DataBlock block, DecodeBuffers reuse) {
      if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != rowBits) {
        throw LanceCodecException.corrupt("axis_delta: rows must be fixed-width values of " + rowBits + " bits (a " + shape
            + " tensor), got " + describeBlock(block));
      }
      long n = fw.numValues();
      long bytes = n * (rowBits / 8);
      if (bytes > GeneralFormat.MAX_PER_VALUE_OUTPUT) {
        throw LanceCodecException.corrupt("axis_delta: " + n + " tensors of " + rowBits / 8 + " bytes exceed a Java array");
      }
      byte[] out = reuse == null || reuse.holds(fw.data()) ? new byte[(int) bytes] : reuse.data(bytes);
      undo(fw.data(), 0, out, 0, (int) (bytes / (shape.bits() / 8)), shape.bits(), axisLength * innerStride, innerStride);
      return new DataBlock.FixedWidth(out, (int) rowBits, n);
    }
  }

  static String describeBlock(DataBlock b) {
    return b instanceof DataBlock.FixedWidth fw ? fw.bitsPerValue() + "-bit values" : b.getClass().getSimpleName() + " values";
  }

  /**
   * Differences {@code elements} elements of {@code bits} bits from {@code src[srcOff..]} into
   * {@code dst[dstOff..]}, spans of {@code span} elements with stride {@code stride}; the count
   * is a whole number of spans.
   */
  static void apply(byte[] src, int srcOff, byte[] dst, int dstOff, int elements, int bits, int span, int stride) {
    if (stride == 1) {
      switch (bits) {
        case 8 -> stepDiff8(src, srcOff, dst, dstOff, elements, span);
        case 16 -> stepDiff16(src, srcOff, dst, dstOff, elements, span);
        case 32 -> stepDiff32(src, srcOff, dst, dstOff, elements, span);
        case 64 -> stepDiff64(src, srcOff, dst, dstOff, elements, span);
        default -> throw LanceCodecException.internal("axis_delta: " + bits + "-bit elements");
      }
      return;
    }
    switch (bits) {
      case 8 -> diff8(src, srcOff, dst, dstOff, elements, span, stride);
      case 16 -> diff16(src, srcOff, dst, dstOff, elements, span, stride);
      case 32 -> diff32(src, srcOff, dst, dstOff, elements, span, stride);
      case 64 -> diff64(src, srcOff, dst, dstOff, elements, span, stride);
      default -> throw LanceCodecException.internal("axis_delta: " + bits + "-bit elements");
    }
  }

  /** The inverse of {@link #apply}: running sums with the same stride; {@code dst} may be {@code src}. */
  static void undo(byte[] src, int srcOff, byte[] dst, int dstOff, int elements, int bits, int span, int stride) {
    if (stride == 1) {
      switch (bits) {
        case 8 -> runningSum8(src, srcOff, dst, dstOff, elements, span);
        case 16 -> runningSum16(src, srcOff, dst, dstOff, elements, span);
        case 32 -> runningSum32(src, srcOff, dst, dstOff, elements, span);
        case 64 -> runningSum64(src, srcOff, dst, dstOff, elements, span);
        default -> throw LanceCodecException.internal("axis_delta: " + bits + "-bit elements");
      }
      return;
    }
    switch (bits) {
      case 8 -> sum8(src, srcOff, dst, dstOff, elements, span, stride);
      case 16 -> sum16(src, srcOff, dst, dstOff, elements, span, stride);
      case 32 -> sum32(src, srcOff, dst, dstOff, elements, span, stride);
      case 64 -> sum64(src, srcOff, dst, dstOff, elements, span, stride);
      default -> throw LanceCodecException.internal("axis_delta: " + bits + "-bit elements");
    }
  }

  // One loop nest per width keeps every element access a plain primitive load and store. Stride 1
  // (the common case) has loops of its own, compiled apart from the strided ones: the previous
  // element or the running sum stays in a register instead of being read back from memory just
  // written (a store-to-load round trip per element), and short spans cost no copy call each.
  // The strided sums read the element stride places back in the output, already reconstructed.

  private static void stepDiff8(byte[] src, int so, byte[] dst, int dOff, int elements, int span) {
    for (int base = 0; base < elements; base += span) {
      byte prev = 0;
      for (int p = so + base, q = dOff + base, end = p + span; p < end; p++, q++) {
        byte v = src[p];
        dst[q] = (byte) (v - prev);
        prev = v;
      }
    }
  }

  private static void diff8(byte[] src, int so, byte[] dst, int dOff, int elements, int span, int stride) {
    for (int base = 0; base < elements; base += span) {
      int s = so + base;
      int d = dOff + base;
      System.arraycopy(src, s, dst, d, stride);
      for (int j = stride; j < span; j++) {
        dst[d + j] = (byte) (src[s + j] - src[s + j - stride]);
      }
    }
  }

  private static void runningSum8(byte[] src, int so, byte[] dst, int dOff, int elements, int span) {
    for (int base = 0; base < elements; base += span) {
      byte acc = 0;
      for (int p = so + base, q = dOff + base, end = p + span; p < end; p++, q++) {
        acc = (byte) (acc + src[p]);
        dst[q] = acc;
      }
    }
  }

  private static void sum8(byte[] src, int so, byte[] dst, int dOff, int elements, int span, int stride) {
    for (int base = 0; base < elements; base += span) {
      int s = so + base;
      int d = dOff + base;
      System.arraycopy(src, s, dst, d, stride);
      for (int j = stride; j < span; j++) {
        dst[d + j] = (byte) (src[s + j] + dst[d + j - stride]);
      }
    }
  }

  private static void stepDiff16(byte[] src, int so, byte[] dst, int dOff, int elements, int span) {
    for (int base = 0; base < elements; base += span) {
      short prev = 0;
      for (int p = so + 2 * base, q = dOff + 2 * base, end = p + 2 * span; p < end; p += 2, q += 2) {
        short v = LittleEndian.getShort(src, p);
        LittleEndian.putShort(dst, q, (short) (v - prev));
        prev = v;
      }
    }
  }

  private static void diff16(byte[] src, int so, byte[] dst, int dOff, int elements, int span, int stride) {
    int sb = 2 * stride;
    for (int base = 0; base < elements; base += span) {
      int s = so + 2 * base;
      int d = dOff + 2 * base;
      int end = s + 2 * span;
      System.arraycopy(src, s, dst, d, sb);
      for (int p = s + sb, q = d + sb; p < end; p += 2, q += 2) {
        LittleEndian.putShort(dst, q, (short) (LittleEndian.getShort(src, p) - LittleEndian.getShort(src, p - sb)));
      }
    }
  }

  private static void runningSum16(byte[] src, int so, byte[] dst, int dOff, int elements, int span) {
    for (int base = 0; base < elements; base += span) {
      short acc = 0;
      for (int p = so + 2 * base, q = dOff + 2 * base, end = p + 2 * span; p < end; p += 2, q += 2) {
        acc = (short) (acc + LittleEndian.getShort(src, p));
        LittleEndian.putShort(dst, q, acc);
      }
    }
  }

  private static void sum16(byte[] src, int so, byte[] dst, int dOff, int elements, int span, int stride) {
    int sb = 2 * stride;
    for (int base = 0; base < elements; base += span) {
      int s = so + 2 * base;
      int d = dOff + 2 * base;
      int end = s + 2 * span;
      System.arraycopy(src, s, dst, d, sb);
      for (int p = s + sb, q = d + sb; p < end; p += 2, q += 2) {
        LittleEndian.putShort(dst, q, (short) (LittleEndian.getShort(src, p) + LittleEndian.getShort(dst, q - sb)));
      }
    }
  }

  private static void stepDiff32(byte[] src, int so, byte[] dst, int dOff, int elements, int span) {
    for (int base = 0; base < elements; base += span) {
      int prev = 0;
      for (int p = so + 4 * base, q = dOff + 4 * base, end = p + 4 * span; p < end; p += 4, q += 4) {
        int v = LittleEndian.getInt(src, p);
        LittleEndian.putInt(dst, q, v - prev);
        prev = v;
      }
    }
  }

  private static void diff32(byte[] src, int so, byte[] dst, int dOff, int elements, int span, int stride) {
    int sb = 4 * stride;
    for (int base = 0; base < elements; base += span) {
      int s = so + 4 * base;
      int d = dOff + 4 * base;
      int end = s + 4 * span;
      System.arraycopy(src, s, dst, d, sb);
      for (int p = s + sb, q = d + sb; p < end; p += 4, q += 4) {
        LittleEndian.putInt(dst, q, LittleEndian.getInt(src, p) - LittleEndian.getInt(src, p - sb));
      }
    }
  }

  private static void runningSum32(byte[] src, int so, byte[] dst, int dOff, int elements, int span) {
    for (int base = 0; base < elements; base += span) {
      int acc = 0;
      for (int p = so + 4 * base, q = dOff + 4 * base, end = p + 4 * span; p < end; p += 4, q += 4) {
        acc = (acc + LittleEndian.getInt(src, p));
        LittleEndian.putInt(dst, q, acc);
      }
    }
  }

  private static void sum32(byte[] src, int so, byte[] dst, int dOff, int elements, int span, int stride) {
    int sb = 4 * stride;
    for (int base = 0; base < elements; base += span) {
      int s = so + 4 * base;
      int d = dOff + 4 * base;
      int end = s + 4 * span;
      System.arraycopy(src, s, dst, d, sb);
      for (int p = s + sb, q = d + sb; p < end; p += 4, q += 4) {
        LittleEndian.putInt(dst, q, LittleEndian.getInt(src, p) + LittleEndian.getInt(dst, q - sb));
      }
    }
  }

  private static void stepDiff64(byte[] src, int so, byte[] dst, int dOff, int elements, int span) {
    for (int base = 0; base < elements; base += span) {
      long prev = 0;
      for (int p = so + 8 * base, q = dOff + 8 * base, end = p + 8 * span; p < end; p += 8, q += 8) {
        long v = LittleEndian.getLong(src, p);
        LittleEndian.putLong(dst, q, v - prev);
        prev = v;
      }
    }
  }

  private static void diff64(byte[] src, int so, byte[] dst, int dOff, int elements, int span, int stride) {
    int sb = 8 * stride;
    for (int base = 0; base < elements; base += span) {
      int s = so + 8 * base;
      int d = dOff + 8 * base;
      int end = s + 8 * span;
      System.arraycopy(src, s, dst, d, sb);
      for (int p = s + sb, q = d + sb; p < end; p += 8, q += 8) {
        LittleEndian.putLong(dst, q, LittleEndian.getLong(src, p) - LittleEndian.getLong(src, p - sb));
      }
    }
  }

  private static void runningSum64(byte[] src, int so, byte[] dst, int dOff, int elements, int span) {
    for (int base = 0; base < elements; base += span) {
      long acc = 0;
      for (int p = so + 8 * base, q = dOff + 8 * base, end = p + 8 * span; p < end; p += 8, q += 8) {
        acc = (acc + LittleEndian.getLong(src, p));
        LittleEndian.putLong(dst, q, acc);
      }
    }
  }

  private static void sum64(byte[] src, int so, byte[] dst, int dOff, int elements, int span, int stride) {
    int sb = 8 * stride;
    for (int base = 0; base < elements; base += span) {
      int s = so + 8 * base;
      int d = dOff + 8 * base;
      int end = s + 8 * span;
      System.arraycopy(src, s, dst, d, sb);
      for (int p = s + sb, q = d + sb; p < end; p += 8, q += 8) {
        LittleEndian.putLong(dst, q, LittleEndian.getLong(src, p) + LittleEndian.getLong(dst, q - sb));
      }
    }
  }
}
