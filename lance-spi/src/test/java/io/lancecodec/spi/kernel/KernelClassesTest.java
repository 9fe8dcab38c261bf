package io.lancecodec.spi.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandles;
import java.util.concurrent.atomic.AtomicReferenceArray;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * A kernel class written through {@link KernelClasses}: defined in the caller's package, its
 * one method runs what the body wrote, every int constant {@code pushInt} can push comes back
 * as itself, and a lookup without package access gets one clear error.
 */
class KernelClassesTest {
  /** Package-private, as codecs keep their kernel interfaces: the generated class must reach it. */
  interface Adder {
    long run(long a, long b);
  }

  interface Constant {
    int run();
  }

  @Test
  void theKernelRunsInTheCallersPackage() throws Exception {
    Class<?> type = KernelClasses.define(MethodHandles.lookup(), "Adder", Adder.class, "(JJ)J", (cw, self, mv) -> {
      mv.visitVarInsn(Opcodes.LLOAD, 1);
      mv.visitVarInsn(Opcodes.LLOAD, 3);
      mv.visitInsn(Opcodes.LADD);
      mv.visitInsn(Opcodes.LRETURN);
    });
    assertEquals(KernelClassesTest.class.getPackageName(), type.getPackageName());
    assertTrue(type.getSimpleName().startsWith("Adder_"), type.getName());
    Adder add = (Adder) type.getDeclaredConstructor().newInstance();
    assertEquals(5L, add.run(2, 3));
    assertEquals(Long.MIN_VALUE, add.run(Long.MAX_VALUE, 1));
    Class<?> again = KernelClasses.define(MethodHandles.lookup(), "Adder", Adder.class, "(JJ)J", (cw, self, mv) -> {
      mv.visitVarInsn(Opcodes.LLOAD, 1);
      mv.visitInsn(Opcodes.LRETURN);
    });
    assertNotSame(type, again, "each definition is a class of its own name");
  }

  @Test
  void everyIntConstantIsPushedAsItself() throws Exception {
    int[] values = {-1, 0, 5, 6, -2, 127, 128, -128, -129, 32767, 32768, -32768, -32769, Integer.MAX_VALUE, Integer.MIN_VALUE};
    for (int v : values) {
      Class<?> type = KernelClasses.define(MethodHandles.lookup(), "Constant", Constant.class, "()I", (cw, self, mv) -> {
        KernelClasses.pushInt(mv, v);
        mv.visitInsn(Opcodes.IRETURN);
      });
      assertEquals(v, ((Constant) type.getDeclaredConstructor().newInstance()).run(), "constant " + v);
    }
  }

  @Test
  void shiftsByZeroWriteNothing() throws Exception {
    for (int by : new int[] {0, 1, 31}) {
      Class<?> type = KernelClasses.define(MethodHandles.lookup(), "Shift", Constant.class, "()I", (cw, self, mv) -> {
        KernelClasses.pushInt(mv, -1);
        KernelClasses.shift(mv, Opcodes.IUSHR, by);
        mv.visitInsn(Opcodes.IRETURN);
      });
      assertEquals(-1 >>> by, ((Constant) type.getDeclaredConstructor().newInstance()).run(), "shift " + by);
    }
  }

  /** The first kernel published for a shape is the one every later publisher gets back. */
  @Test
  void theFirstPublishedKernelWins() {
    AtomicReferenceArray<String> cache = new AtomicReferenceArray<>(2);
    String first = new String("first");
    assertSame(first, KernelClasses.publish(cache, 1, first));
    assertSame(first, KernelClasses.publish(cache, 1, new String("second")));
    assertSame(first, cache.get(1));
    assertNull(cache.get(0));
  }

  @Test
  void aLookupWithoutPackageAccessIsRefused() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> KernelClasses.define(
        MethodHandles.publicLookup(), "Adder", Adder.class, "(JJ)J", (cw, self, mv) -> mv.visitInsn(Opcodes.LRETURN)));
    assertTrue(e.getMessage().contains("package access"), e.getMessage());
  }
}
