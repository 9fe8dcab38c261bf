package io.lancecodec.spi.kernel;

import java.lang.invoke.MethodHandles;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * For codecs that write their kernels at run time (one class per shape: element width, bit width,
 * ...) with Byte Buddy's ASM, so the JIT sees every shift, mask and offset as a constant. This
 * writes the class around the kernel's one method and defines it in the codec's own package
 * through the codec's lookup, on the class or module path alike, so the method may read the
 * codec's package-private fields (a static final {@code VarHandle}, say, which GETSTATIC folds).
 *
 * <p>The SPI requires byte-buddy only statically: a codec that uses this class declares the
 * dependency itself (codec-bitpack and codec-alp do), and codecs that do not never load ASM.
 */
public final class KernelClasses {
  /** Writes the body of {@code run} on {@code mv}, and any other methods of class {@code self} on {@code cw}. */
  public interface Body {
    void write(ClassWriter cw, String self, MethodVisitor mv);
  }

  /** Gives each class its own name, so threads that race for a shape can both define theirs. */
  private static final AtomicInteger SERIAL = new AtomicInteger();

  private KernelClasses() {}

  /**
   * Defines a final class named {@code name} (plus a serial) in {@code lookup}'s package that
   * implements {@code iface} with one public method {@code run} of descriptor {@code desc}, whose
   * body {@code body} writes, and a no-argument constructor; the codec makes the instance ({@code
   * getDeclaredConstructor().newInstance()}: its own package, so no module needs opening, and no
   * method-handle machinery to spin up, which cost a fresh JVM 30 ms more for the first kernel).
   *
   * @param lookup a lookup with package access in the codec's package ({@code MethodHandles.lookup()})
   */
  public static Class<?> define(MethodHandles.Lookup lookup, String name, Class<?> iface, String desc, Body body) {
    String internal = lookup.lookupClass().getPackageName().replace('.', '/') + "/" + name + "_" + SERIAL.incrementAndGet();
    // Byte Buddy's own ASM writes the class directly: its type DSL did the same in 2-7 ms a class
    // but took 0.4 s to start in a fresh JVM, which every first read or write would pay. Java 17
    // class files whatever the JVM: the kernels need nothing newer. COMPUTE_FRAMES merges no
    // reference types as long as the locals are arrays and primitives, so ASM loads no class.
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
    cw.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, internal, null, "java/lang/Object",
        new String[] {iface.getName().replace('.', '/')});
    MethodVisitor init = cw.visitMethod(0, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "run", desc, null, null);
    mv.visitCode();
    body.write(cw, internal, mv);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    try {
      return lookup.defineClass(cw.toByteArray());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("generated kernel " + internal + ": the lookup has no package access", e);
    }
  }

  /**
   * Publishes {@code made} as the kernel at {@code cache[i]} unless another thread got there first,
   * and returns the one kept: a thread that loses the race drops its kernel for the winner's, so
   * every caller of a shape runs one class.
   */
  public static <K> K publish(AtomicReferenceArray<K> cache, int i, K made) {
    K won = cache.compareAndExchange(i, null, made);
    return won == null ? made : won;
  }

  /**
   * Whether decoders take generated fused kernels: on unless the system property {@code
   * lance.codec.fused} is {@code false} (read when a decoder is made; for A/B measurements, and so
   * the compositions the kernels replace stay tested).
   */
  public static boolean fusedEnabled() {
    return !"false".equals(System.getProperty("lance.codec.fused"));
  }

  /** Pushes the int constant {@code v} with the shortest instruction. */
  public static void pushInt(MethodVisitor mv, int v) {
    if (v >= -1 && v <= 5) {
      mv.visitInsn(Opcodes.ICONST_0 + v);
    } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
      mv.visitIntInsn(Opcodes.BIPUSH, v);
    } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      mv.visitIntInsn(Opcodes.SIPUSH, v);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  /** Shifts the value on the stack by the constant {@code by} with {@code opcode}; nothing for 0. */
  public static void shift(MethodVisitor mv, int opcode, int by) {
    if (by != 0) {
      pushInt(mv, by);
      mv.visitInsn(opcode);
    }
  }
}
