package io.lancecodec.codec.alp;

import static net.bytebuddy.jar.asm.Opcodes.ALOAD;
import static net.bytebuddy.jar.asm.Opcodes.GETSTATIC;
import static net.bytebuddy.jar.asm.Opcodes.GOTO;
import static net.bytebuddy.jar.asm.Opcodes.IADD;
import static net.bytebuddy.jar.asm.Opcodes.ICONST_0;
import static net.bytebuddy.jar.asm.Opcodes.IF_ICMPGE;
import static net.bytebuddy.jar.asm.Opcodes.ILOAD;
import static net.bytebuddy.jar.asm.Opcodes.INVOKESTATIC;
import static net.bytebuddy.jar.asm.Opcodes.INVOKEVIRTUAL;
import static net.bytebuddy.jar.asm.Opcodes.ISTORE;
import static net.bytebuddy.jar.asm.Opcodes.RETURN;

import static io.lancecodec.spi.kernel.KernelClasses.pushInt;
import static io.lancecodec.spi.kernel.KernelClasses.shift;

import io.lancecodec.spi.kernel.KernelClasses;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicReferenceArray;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Writes, on first use, one class per word size T (64 for float64, 32 for float32) and bit width W
 * whose method decodes a whole FOR chunk of 1024 values: unpack, frame of reference and ALP's scale
 * in one pass, with every shift, mask and output offset a constant. It is the loop of {@link
 * FusedDecode}'s exact FOR paths unrolled over the T rows of a lane: each packed word is loaded
 * once and kept in a register for the rows it holds (the loop loads a word per value), and no row
 * tests whether its value straddles two words. Why it is kept (measured against the loop and
 * the composition): bench/README.md, section "ALP", "Generated FOR kernels".
 *
 * <p>Value (row r, lane l) is the bits of {@code 1.5 * 2^(M) | p} read as a float of T bits
 * (M = 52 or 23 mantissa bits) plus {@code shifted = base - 1.5 * 2^M}, times {@code m1}, times
 * {@code m2}: for {@code W <= M - 1} and {@code base} in {@code [-2^(M-1), 2^(M+1)]} that is {@code
 * float(base + p) * m1 * m2}, rounded as the spec's formula rounds it (see {@link FusedDecode}).
 * The divide path passes {@code m1 = m2 = 1}, which leave {@code float(base + p)} for its division
 * pass. A thread that loses the race to define a shape keeps the winner's instance.
 */
final class AlpKernels {
  /** A full float64 FOR chunk: 128 * W packed bytes at {@code b[p]} to 1024 doubles at {@code out[oo]}. */
  interface For64 {
    void run(byte[] b, int p, double shifted, double m1, double m2, double[] out, int oo);
  }

  /** {@link For64} for float32: 32-bit words, float arithmetic. */
  interface For32 {
    void run(byte[] b, int p, float shifted, float m1, float m2, float[] out, int oo);
  }

  /** Widths the biased conversion is exact for, and so the widest a kernel is written for. */
  static final int MAX_WIDTH_64 = FusedDecode.EXACT_BITS_64;
  static final int MAX_WIDTH_32 = FusedDecode.EXACT_BITS_32;

  /** The little-endian views the kernels load through (GETSTATIC of a static final: folded). */
  static final VarHandle L = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle I = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private static final String HOST = "io/lancecodec/codec/alp/AlpKernels";
  private static final AtomicReferenceArray<For64> FOR64 = new AtomicReferenceArray<>(MAX_WIDTH_64 + 1);
  private static final AtomicReferenceArray<For32> FOR32 = new AtomicReferenceArray<>(MAX_WIDTH_32 + 1);

  private AlpKernels() {}

  /** {@code 1 <= width <= MAX_WIDTH_64}. */
  static For64 for64(int width) {
    For64 k = FOR64.get(check(width, MAX_WIDTH_64));
    return k != null ? k : KernelClasses.publish(FOR64, width, (For64) define(SHAPE_64, width));
  }

  /** {@code 1 <= width <= MAX_WIDTH_32}. */
  static For32 for32(int width) {
    For32 k = FOR32.get(check(width, MAX_WIDTH_32));
    return k != null ? k : KernelClasses.publish(FOR32, width, (For32) define(SHAPE_32, width));
  }

  private static int check(int width, int max) {
    if (width < 1 || width > max) {
      throw new IllegalArgumentException("ALP kernel width " + width + " (1.." + max + ")");
    }
    return width;
  }

  /**
   * What differs between the two word sizes: {@code run}'s descriptor, the view, the bias and the
   * opcodes. {@code run}'s locals are this, b, p, shifted, m1, m2, out, oo (floats of
   * {@code slot} slots each), then the lane loop's g, its input and output indexes, and the packed
   * words ({@code slot} slots each).
   */
  private static final class Shape {
    final int bits;
    final String desc;
    final String view;
    final String getDesc;
    final long bias;
    final int slot;
    final int ushr, shl, and, or, wordLoad, wordStore, fload, fadd, fmul, fastore;
    final String toFloat;
    final String toFloatDesc;

    Shape(int bits) {
      this.bits = bits;
      boolean wide = bits == 64;
      desc = wide ? "([BIDDD[DI)V" : "([BIFFF[FI)V";
      view = wide ? "L" : "I";
      getDesc = wide ? "([BI)J" : "([BI)I";
      bias = wide ? FusedDecode.BIAS_BITS_64 : FusedDecode.BIAS_BITS_32;
      slot = wide ? 2 : 1;
      ushr = wide ? Opcodes.LUSHR : Opcodes.IUSHR;
      shl = wide ? Opcodes.LSHL : Opcodes.ISHL;
      and = wide ? Opcodes.LAND : Opcodes.IAND;
      or = wide ? Opcodes.LOR : Opcodes.IOR;
      wordLoad = wide ? Opcodes.LLOAD : Opcodes.ILOAD;
      wordStore = wide ? Opcodes.LSTORE : Opcodes.ISTORE;
      fload = wide ? Opcodes.DLOAD : Opcodes.FLOAD;
      fadd = wide ? Opcodes.DADD : Opcodes.FADD;
      fmul = wide ? Opcodes.DMUL : Opcodes.FMUL;
      fastore = wide ? Opcodes.DASTORE : Opcodes.FASTORE;
      toFloat = wide ? "java/lang/Double" : "java/lang/Float";
      toFloatDesc = wide ? "(J)D" : "(I)F";
    }

    int shifted() {
      return 3;
    }

    int m1() {
      return 3 + slot;
    }

    int m2() {
      return 3 + 2 * slot;
    }

    int out() {
      return 3 + 3 * slot;
    }

    int oo() {
      return out() + 1;
    }

    int g() {
      return out() + 2;
    }

    int in() {
      return out() + 3;
    }

    int o() {
      return out() + 4;
    }

    int word(int k) {
      return out() + 5 + slot * k;
    }

    void constant(MethodVisitor mv, long v) {
      if (bits == 64) {
        mv.visitLdcInsn(v);
      } else {
        mv.visitLdcInsn((int) v);
      }
    }
  }

  private static final Shape SHAPE_64 = new Shape(64);
  private static final Shape SHAPE_32 = new Shape(32);

  private static Object define(Shape t, int width) {
    Class<?> type = KernelClasses.define(MethodHandles.lookup(), "For" + t.bits + "w" + width,
        t.bits == 64 ? For64.class : For32.class, t.desc, (cw, self, mv) -> body(mv, t, width));
    try {
      // made here: the class is package-private, in this package
      return type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("generated ALP kernel " + type.getName(), e);
    }
  }

  /**
   * {@code for (g = 0; g < 128; g += T / 8) { in = p + g; o = oo + g / (T / 8); rows }}: step g is
   * lane {@code g / (T / 8)}, whose packed word k lies at {@code in + 128 k} and whose value of row
   * r goes to {@code o + index(r, 0)}.
   */
  private static void body(MethodVisitor mv, Shape t, int width) {
    int step = t.bits / 8;
    Label top = new Label();
    Label end = new Label();
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, t.g());
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, t.g());
    pushInt(mv, 128);
    mv.visitJumpInsn(IF_ICMPGE, end);
    mv.visitVarInsn(ILOAD, 2);
    mv.visitVarInsn(ILOAD, t.g());
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, t.in());
    mv.visitVarInsn(ILOAD, t.oo());
    mv.visitVarInsn(ILOAD, t.g());
    pushInt(mv, Integer.numberOfTrailingZeros(step));
    mv.visitInsn(Opcodes.ISHR);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, t.o());
    rows(mv, t, width);
    mv.visitIincInsn(t.g(), step);
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(end);
    mv.visitInsn(RETURN);
  }

  private static void rows(MethodVisitor mv, Shape t, int width) {
    int bits = t.bits;
    long mask = (1L << width) - 1;
    int loaded = -1;
    for (int r = 0; r < bits; r++) {
      int k = r * width / bits;
      int bit = r * width % bits;
      boolean split = bit + width > bits;
      while (loaded < (split ? k + 1 : k)) {
        loaded++;
        // word = view.get(b, in + 128 * loaded)
        mv.visitFieldInsn(GETSTATIC, HOST, t.view, "Ljava/lang/invoke/VarHandle;");
        mv.visitVarInsn(ALOAD, 1);
        mv.visitVarInsn(ILOAD, t.in());
        if (loaded > 0) {
          pushInt(mv, 128 * loaded);
          mv.visitInsn(IADD);
        }
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/invoke/VarHandle", "get", t.getDesc, false);
        mv.visitVarInsn(t.wordStore, t.word(loaded));
      }
      // out[o + index(r, 0)] = (toFloat(BIAS | p) + shifted) * m1 * m2
      mv.visitVarInsn(ALOAD, t.out());
      mv.visitVarInsn(ILOAD, t.o());
      int at = BitPacking.index(r, 0);
      if (at != 0) {
        pushInt(mv, at);
        mv.visitInsn(IADD);
      }
      t.constant(mv, t.bias);
      mv.visitVarInsn(t.wordLoad, t.word(k));
      shift(mv, t.ushr, bit);
      if (split) {
        // the low bits - bit bits come from word k, alone after the shift
        mv.visitVarInsn(t.wordLoad, t.word(k + 1));
        shift(mv, t.shl, bits - bit);
        t.constant(mv, mask);
        mv.visitInsn(t.and);
        mv.visitInsn(t.or);
      } else if (bit + width < bits) {
        t.constant(mv, mask);
        mv.visitInsn(t.and);
      }
      mv.visitInsn(t.or);
      mv.visitMethodInsn(INVOKESTATIC, t.toFloat, t.bits == 64 ? "longBitsToDouble" : "intBitsToFloat",
          t.toFloatDesc, false);
      mv.visitVarInsn(t.fload, t.shifted());
      mv.visitInsn(t.fadd);
      mv.visitVarInsn(t.fload, t.m1());
      mv.visitInsn(t.fmul);
      mv.visitVarInsn(t.fload, t.m2());
      mv.visitInsn(t.fmul);
      mv.visitInsn(t.fastore);
    }
  }
}
