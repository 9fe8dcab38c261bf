package io.lancecodec.codec.bitpack;

import static net.bytebuddy.jar.asm.Opcodes.ALOAD;
import static net.bytebuddy.jar.asm.Opcodes.GETSTATIC;
import static net.bytebuddy.jar.asm.Opcodes.GOTO;
import static net.bytebuddy.jar.asm.Opcodes.IADD;
import static net.bytebuddy.jar.asm.Opcodes.IF_ICMPLE;
import static net.bytebuddy.jar.asm.Opcodes.LADD;
import static net.bytebuddy.jar.asm.Opcodes.LRETURN;
import static net.bytebuddy.jar.asm.Opcodes.ICONST_0;
import static net.bytebuddy.jar.asm.Opcodes.IF_ICMPGE;
import static net.bytebuddy.jar.asm.Opcodes.ILOAD;
import static net.bytebuddy.jar.asm.Opcodes.INVOKESTATIC;
import static net.bytebuddy.jar.asm.Opcodes.INVOKEVIRTUAL;
import static net.bytebuddy.jar.asm.Opcodes.ISTORE;
import static net.bytebuddy.jar.asm.Opcodes.LAND;
import static net.bytebuddy.jar.asm.Opcodes.LLOAD;
import static net.bytebuddy.jar.asm.Opcodes.LOR;
import static net.bytebuddy.jar.asm.Opcodes.LSHL;
import static net.bytebuddy.jar.asm.Opcodes.LSTORE;
import static net.bytebuddy.jar.asm.Opcodes.LUSHR;
import static net.bytebuddy.jar.asm.Opcodes.RETURN;

import static io.lancecodec.spi.kernel.KernelClasses.pushInt;
import static io.lancecodec.spi.kernel.KernelClasses.shift;

import io.lancecodec.spi.kernel.KernelClasses;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicReferenceArray;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Writes, on first use, one class per (element width T, bit width W, direction) whose method
 * packs or unpacks a FastLanes chunk (see {@link FastLanes}) with every shift, mask and offset a
 * constant, and keeps it. Writing the 248 methods at run time replaces 27k lines of committed
 * generated source with the same loads, shifts, masks and stores, so the JIT sees the same code.
 *
 * <p>Why one long moves 64 / T values at once: lane l of row r holds input {@code 16 * ORDER[r /
 * 8] + 128 * (r % 8) + l}, so each row is 128 consecutive bytes of the input, and packed word k
 * of lane l sits at {@code lanes * k + l}, so each word index is 128 consecutive bytes of the
 * packed chunk. Byte g of a row and byte g of a word therefore belong to the same lanes, and the
 * kernel walks g = 0, 8, .., 120, treating the 64 / T lanes in those 8 bytes as one long: 16
 * steps of T rows, whatever T is. Row r's bits start at {@code r * W} in its lane's stream: word
 * {@code r * W / T}, bit {@code r * W % T}, split over the next word when that bit plus W passes
 * T.
 *
 * <p>Shifting a long shifts every T-bit field by the same amount and spills bits across field
 * borders, which a mask repeated in every field then drops. Unpacking shifts right, so a field's
 * bottom receives the field above's low bits, which the W-bit mask drops; a split value masks the
 * low half (from word k) and the high half (word k + 1, shifted left) to their own bits before the
 * OR. Packing shifts left, so for a split value the mask keeps each field's bits from the offset
 * up and drops what the field below pushed in; a value that fits its word whole needs no mask,
 * since below 2^W shifted by at most T - W it cannot reach the next field. The high half of a
 * split value is the value shifted right by the bits that fit, masked to the rest. A packed word
 * is stored once no later row writes into it. Packing wants values below 2^W and 1024 of them
 * (the caller zero-pads), width 0 writes nothing and unpacking width 0 zero-fills.
 *
 * <p>The same machinery writes fused decode kernels, one class per (T, W), for the encoding trees
 * where fusing measured at least 1.2x the composition: 2.3 Delta over packed u32 or u64 deltas
 * ({@link #delta}, used by {@link Fused23}), which sums while it extracts, in logical order. Every
 * kind is cached in its own array, written once per shape and JVM: a thread that loses the race
 * to define a shape keeps the winner's instance.
 */
final class KernelGenerator {
  /** A generated kernel: 1024 values at {@code s[so]} to packed words at {@code d[dof]}, or back. */
  interface Kernel {
    void run(byte[] s, int so, byte[] d, int dof);
  }

  /**
   * A fused kernel: the first {@code (1024 / T) * blocks} values (logical order) of a group of
   * T-bit words packed at width W at {@code s[so]}, each added to {@code acc} and the running sum
   * stored as a T-bit word at {@code d[dof]}, value by value; returns the sum. For T = 32 it is a
   * long, so the caller sees an overflow of 32 bits after the group; for T = 64 it wraps, which
   * the caller sees as a sum below the one it passed (W at most 53: a group adds less than 2^63).
   */
  interface DeltaKernel {
    long run(byte[] s, int so, byte[] d, int dof, long acc, int blocks);
  }

  /**
   * The view every kernel reads and writes 8 bytes through, with GETSTATIC: a static final field
   * the JIT folds, so each access compiles to a plain little-endian load or store.
   */
  static final VarHandle L = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final String HOST = "io/lancecodec/codec/bitpack/KernelGenerator";
  private static final String VAR_HANDLE = "java/lang/invoke/VarHandle";

  // locals of run(s, so, d, dof): the loop's g, i (in) and o (out), then longs of two slots each
  private static final int S = 1, SO = 2, D = 3, DOF = 4, G = 5, I = 6, O = 7, V = 8;

  /** Shapes per direction: widths 0..T for T = 8, 16, 32 and 64. */
  private static final int SHAPES = 9 + 17 + 33 + 65;

  private final AtomicReferenceArray<Kernel> packers = new AtomicReferenceArray<>(SHAPES);
  private final AtomicReferenceArray<Kernel> unpackers = new AtomicReferenceArray<>(SHAPES);

  /** Fused delta kernels by T and width: u32 widths 1..32 at 1..32, u64 widths 1..64 at 34..97 (width 0 needs no kernel). */
  private final AtomicReferenceArray<DeltaKernel> deltas = new AtomicReferenceArray<>(98);

  Kernel packer(int bits, int width) {
    return kernel(packers, true, bits, width);
  }

  Kernel unpacker(int bits, int width) {
    return kernel(unpackers, false, bits, width);
  }

  /** {@code bits}: 32 or 64; {@code 1 <= width <= bits}. */
  DeltaKernel delta(int bits, int width) {
    if ((bits != 32 && bits != 64) || width < 1 || width > bits) {
      throw new IllegalArgumentException("fused delta kernel of u" + bits + " width " + width);
    }
    int i = (bits == 64 ? 33 : 0) + width;
    DeltaKernel k = deltas.get(i);
    return k != null ? k : KernelClasses.publish(deltas, i, (DeltaKernel) instance(KernelClasses.define(
        MethodHandles.lookup(), "Delta" + bits + "w" + width, DeltaKernel.class, "([BI[BIJI)J",
        (cw, self, mv) -> fused(cw, self, mv, bits, width))));
  }

  private static Kernel kernel(AtomicReferenceArray<Kernel> kernels, boolean pack, int bits, int width) {
    int i = index(bits, width);
    Kernel k = kernels.get(i);
    return k != null ? k : KernelClasses.publish(kernels, i, generate(pack, bits, width));
  }

  private static int index(int bits, int width) {
    int first;
    switch (bits) {
      case 8:
        first = 0;
        break;
      case 16:
        first = 9;
        break;
      case 32:
        first = 26;
        break;
      case 64:
        first = 59;
        break;
      default:
        throw new IllegalArgumentException("element width " + bits);
    }
    if (width < 0 || width > bits) {
      throw new IllegalArgumentException("width " + width);
    }
    return first + width;
  }

  private static Kernel generate(boolean pack, int bits, int width) {
    return (Kernel) instance(KernelClasses.define(MethodHandles.lookup(), (pack ? "Pack" : "Unpack") + bits + "w" + width,
        Kernel.class, "([BI[BI)V", (cw, self, mv) -> {
      if (pack) {
        pack(mv, bits, width);
      } else {
        unpack(mv, bits, width);
      }
    }));
  }

  /** A kernel class's instance, made here: the class is package-private, in this package. */
  private static Object instance(Class<?> type) {
    try {
      return type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("generated kernel " + type.getName(), e);
    }
  }

  private static void unpack(MethodVisitor mv, int bits, int width) {
    if (width == 0) {
      // Arrays.fill(d, dof, dof + 128 * T, (byte) 0)
      mv.visitVarInsn(ALOAD, D);
      mv.visitVarInsn(ILOAD, DOF);
      mv.visitVarInsn(ILOAD, DOF);
      pushInt(mv, 128 * bits);
      mv.visitInsn(IADD);
      mv.visitInsn(ICONST_0);
      mv.visitMethodInsn(INVOKESTATIC, "java/util/Arrays", "fill", "([BIIB)V", false);
      mv.visitInsn(RETURN);
      return;
    }
    loop(mv, () -> {
      int loaded = -1;
      for (int r = 0; r < bits; r++) {
        int k = r * width / bits;
        int bit = r * width % bits;
        boolean split = bit + width > bits;
        while (loaded < (split ? k + 1 : k)) {
          loaded++;
          get(mv, S, I, 128 * loaded);
          mv.visitVarInsn(LSTORE, word(loaded));
        }
        address(mv, D, O, bits / 8 * row(r));
        mv.visitVarInsn(LLOAD, word(k));
        shift(mv, LUSHR, bit);
        if (split) {
          int lowLen = bits - bit;
          mask(mv, bits, lowBits(lowLen));
          mv.visitVarInsn(LLOAD, word(k + 1));
          shift(mv, LSHL, lowLen);
          mask(mv, bits, lowBits(width) & ~lowBits(lowLen));
          mv.visitInsn(LOR);
        } else if (width < bits) {
          mask(mv, bits, lowBits(width));
        }
        set(mv);
      }
    });
  }

  private static void pack(MethodVisitor mv, int bits, int width) {
    if (width == 0) {
      mv.visitInsn(RETURN);
      return;
    }
    loop(mv, () -> {
      int stored = 0;
      boolean[] started = new boolean[width + 1];
      for (int r = 0; r < bits; r++) {
        int k = r * width / bits;
        int bit = r * width % bits;
        get(mv, S, I, bits / 8 * row(r));
        mv.visitVarInsn(LSTORE, V);
        mv.visitVarInsn(LLOAD, V);
        boolean split = bit + width > bits;
        if (bit != 0) {
          shift(mv, LSHL, bit);
          // a value below 2^W that fits in its field cannot push bits into the field above
          if (split) {
            mask(mv, bits, lowBits(bits) & ~lowBits(bit));
          }
        }
        accumulate(mv, started, k);
        if (split) {
          int lowLen = bits - bit;
          mv.visitVarInsn(LLOAD, V);
          shift(mv, LUSHR, lowLen);
          mask(mv, bits, lowBits(width - lowLen));
          accumulate(mv, started, k + 1);
        }
        // words below the next row's first word are complete
        int next = r + 1 < bits ? (r + 1) * width / bits : width;
        for (; stored < next; stored++) {
          address(mv, D, O, 128 * stored);
          mv.visitVarInsn(LLOAD, word(stored));
          set(mv);
        }
      }
    });
  }

  /**
   * The fused delta kernel over a group of T-bit words packed at width W ({@link DeltaKernel}).
   * Values are visited in logical order, one row of every lane at a time: with {@code lanes =
   * 1024 / T}, block b holds values {@code lanes * b ..} (consecutive), which are row {@code 8 *
   * ORDER[lanes * (b % (128 / lanes)) / 16] + b / (128 / lanes)} of all lanes, and those lanes'
   * words of a row are 128 consecutive bytes. So each block is a loop over 16 longs (two lanes
   * each for T = 32, one for T = 64) with the row's word, shift and masks constant. A prefix sum
   * needs the logical order, which the unpack kernels' transposed order does not give.
   *
   * <p>Each block (32 for T = 32, 64 for T = 64) is its own static method {@code b0 ..}, {@code
   * long b(s, so, d, dof, acc)}, which {@code run} calls in turn while {@code b < blocks} (a short
   * last group stops early). C2 inlines them all into one body, as if unrolled; written as one
   * 3-4 KiB method instead, C1 gave up on it (out of virtual registers), so it ran interpreted
   * until C2 came round.
   */
  private static void fused(ClassWriter cw, String self, MethodVisitor mv, int bits, int width) {
    String desc = "([BI[BIJ)J";
    // run(s, so, d, dof, acc, blocks): acc in slots 5-6, blocks in 7
    Label end = new Label();
    for (int b = 0; b < bits; b++) {
      mv.visitVarInsn(ILOAD, 7);
      pushInt(mv, b);
      mv.visitJumpInsn(IF_ICMPLE, end);
      mv.visitVarInsn(ALOAD, 1);
      mv.visitVarInsn(ILOAD, 2);
      mv.visitVarInsn(ALOAD, 3);
      mv.visitVarInsn(ILOAD, 4);
      mv.visitVarInsn(LLOAD, 5);
      mv.visitMethodInsn(INVOKESTATIC, self, "b" + b, desc, false);
      mv.visitVarInsn(LSTORE, 5);
      MethodVisitor bm = cw.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC, "b" + b, desc, null, null);
      bm.visitCode();
      block(bm, bits, width, b);
      bm.visitMaxs(0, 0);
      bm.visitEnd();
    }
    mv.visitLabel(end);
    mv.visitVarInsn(LLOAD, 5);
    mv.visitInsn(LRETURN);
  }

  /** Block b of the fused delta kernel: {@code static long b(s, so, d, dof, acc)} returns the sum. */
  private static void block(MethodVisitor mv, int bits, int width, int b) {
    int s = 0;
    int so = 1;
    int d = 2;
    int dof = 3;
    int acc = 4;
    int j = 6;
    int in = 7;
    int o = 8;
    int x = 9;
    int lo = 11;
    int lanes = 1024 / bits;
    int perRow = 128 / lanes; // blocks per row index a: 4 for T = 32, 8 for T = 64
    int row = 8 * FastLanes.ORDER[lanes * (b % perRow) / 16] + b / perRow;
    int k = row * width / bits;
    int bit = row * width % bits;
    Label top = new Label();
    Label done = new Label();
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, j);
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, j);
    pushInt(mv, 128);
    mv.visitJumpInsn(IF_ICMPGE, done);
    // in = so + j; o = dof + j
    mv.visitVarInsn(ILOAD, so);
    mv.visitVarInsn(ILOAD, j);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, in);
    mv.visitVarInsn(ILOAD, dof);
    mv.visitVarInsn(ILOAD, j);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, o);
    // x = the lanes' values, as the unpack kernel extracts them
    get(mv, s, in, 128 * k);
    shift(mv, LUSHR, bit);
    if (bit + width > bits) {
      int lowLen = bits - bit;
      mask(mv, bits, lowBits(lowLen));
      get(mv, s, in, 128 * (k + 1));
      shift(mv, LSHL, lowLen);
      mask(mv, bits, lowBits(width) & ~lowBits(lowLen));
      mv.visitInsn(LOR);
    } else if (width < bits) {
      mask(mv, bits, lowBits(width));
    }
    mv.visitVarInsn(LSTORE, x);
    if (bits == 64) {
      // acc += x; d[o + 128 b] = acc
      mv.visitVarInsn(LLOAD, acc);
      mv.visitVarInsn(LLOAD, x);
      mv.visitInsn(LADD);
      mv.visitVarInsn(LSTORE, acc);
      address(mv, d, o, 128 * b);
      mv.visitVarInsn(LLOAD, acc);
      set(mv);
    } else {
      // lo = acc + first; acc += first + second (the pair's sum off the chain: one dependent add per two values)
      mv.visitVarInsn(LLOAD, acc);
      low32(mv, x);
      mv.visitInsn(LADD);
      mv.visitVarInsn(LSTORE, lo);
      mv.visitVarInsn(LLOAD, acc);
      low32(mv, x);
      high32(mv, x);
      mv.visitInsn(LADD);
      mv.visitInsn(LADD);
      mv.visitVarInsn(LSTORE, acc);
      // d[o + 128 b] = lo | acc << 32
      address(mv, d, o, 128 * b);
      mv.visitVarInsn(LLOAD, lo);
      mv.visitLdcInsn(0xFFFFFFFFL);
      mv.visitInsn(LAND);
      mv.visitVarInsn(LLOAD, acc);
      shift(mv, LSHL, 32);
      mv.visitInsn(LOR);
      set(mv);
    }
    mv.visitIincInsn(j, 8);
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(done);
    mv.visitVarInsn(LLOAD, acc);
    mv.visitInsn(LRETURN);
  }

  private static void low32(MethodVisitor mv, int x) {
    mv.visitVarInsn(LLOAD, x);
    mv.visitLdcInsn(0xFFFFFFFFL);
    mv.visitInsn(LAND);
  }

  private static void high32(MethodVisitor mv, int x) {
    mv.visitVarInsn(LLOAD, x);
    shift(mv, LUSHR, 32);
  }

  /**
   * {@code for (g = 0; g < 128; g += 8) { i = so + g; o = dof + g; body }}: step g takes byte g of
   * every 128-byte row of values and of packed words.
   */
  private static void loop(MethodVisitor mv, Runnable body) {
    Label top = new Label();
    Label end = new Label();
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, G);
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, G);
    pushInt(mv, 128);
    mv.visitJumpInsn(IF_ICMPGE, end);
    mv.visitVarInsn(ILOAD, SO);
    mv.visitVarInsn(ILOAD, G);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, I);
    mv.visitVarInsn(ILOAD, DOF);
    mv.visitVarInsn(ILOAD, G);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, O);
    body.run();
    mv.visitIincInsn(G, 8);
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(end);
    mv.visitInsn(RETURN);
  }

  /** The input index of lane 0's value in row r: where the row's 128 bytes start, in values. */
  private static int row(int r) {
    return 16 * FastLanes.ORDER[r / 8] + 128 * (r % 8);
  }

  /** The slot of packed word k's long (the row's value has slot V in the packers). */
  private static int word(int k) {
    return V + 2 + 2 * k;
  }

  /** Pushes {@code L, array, index + offset}, the start of a VarHandle get or set. */
  private static void address(MethodVisitor mv, int array, int index, int offset) {
    mv.visitFieldInsn(GETSTATIC, HOST, "L", "Ljava/lang/invoke/VarHandle;");
    mv.visitVarInsn(ALOAD, array);
    mv.visitVarInsn(ILOAD, index);
    if (offset != 0) {
      pushInt(mv, offset);
      mv.visitInsn(IADD);
    }
  }

  // VarHandle.get and set are signature polymorphic: the descriptor is the call site's, as javac
  // writes for (long) L.get(s, i) and L.set(d, o, w); an exact match keeps the JIT's fast path
  private static void get(MethodVisitor mv, int array, int index, int offset) {
    address(mv, array, index, offset);
    mv.visitMethodInsn(INVOKEVIRTUAL, VAR_HANDLE, "get", "([BI)J", false);
  }

  private static void set(MethodVisitor mv) {
    mv.visitMethodInsn(INVOKEVIRTUAL, VAR_HANDLE, "set", "([BIJ)V", false);
  }

  /** ORs the part of word k on the stack into word k, or starts the word with it. */
  private static void accumulate(MethodVisitor mv, boolean[] started, int k) {
    if (started[k]) {
      mv.visitVarInsn(LLOAD, word(k));
      mv.visitInsn(LOR);
    }
    started[k] = true;
    mv.visitVarInsn(LSTORE, word(k));
  }

  /** ANDs the long on the stack with {@code m} repeated in every T-bit field. */
  private static void mask(MethodVisitor mv, int bits, long m) {
    long r = 0;
    for (int f = 0; f < 64; f += bits) {
      r |= m << f;
    }
    mv.visitLdcInsn(r);
    mv.visitInsn(LAND);
  }

  private static long lowBits(int n) {
    return n == 64 ? -1L : (1L << n) - 1;
  }
}
