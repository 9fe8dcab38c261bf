package io.lancecodec.runtime.shred;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.lancecodec.runtime.arrow.Leaf;
import io.lancecodec.spi.DataBlock;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * A page's value array goes back for reuse only when the writer says the page is written, and is
 * then handed to one later page of its exact size: never to a page while an earlier one still
 * holds it.
 */
class PageRecycleTest {
  /** Bytes no other test's pages have, so that the shared slots hold what this test gave. */
  private static final int VALUES = 75_013;

  @Test
  void aPageArrayIsReusedOnlyAfterRecycle() {
    Schema schema = new Schema(List.of(new Field("i", FieldType.notNullable(new ArrowType.Int(32, true)), null)));
    ColumnAccumulator acc = new ColumnAccumulator(Leaf.of(schema).get(0).physical());
    try (BufferAllocator alloc = new RootAllocator(); IntVector v = new IntVector("i", alloc)) {
      byte[] first = page(acc, v, 1);
      byte[] second = page(acc, v, 2);
      assertNotSame(first, second, "the first page was not recycled: its array is still the caller's");
      acc.recycle();
      byte[] third = page(acc, v, 3);
      assertSame(second, third, "a recycled page array of the same size is reused");
      assertArrayEquals(expected(3), third, "and holds the new page's values only");
    }
  }

  private static byte[] page(ColumnAccumulator acc, IntVector v, int seed) {
    v.allocateNew(VALUES);
    for (int i = 0; i < VALUES; i++) {
      v.set(i, i * seed);
    }
    v.setValueCount(VALUES);
    acc.append(v);
    return ((DataBlock.FixedWidth) acc.drain().values()).data();
  }

  private static byte[] expected(int seed) {
    byte[] b = new byte[VALUES * 4];
    java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(java.util.stream.IntStream.range(0, VALUES).map(i -> i * seed).toArray());
    return b;
  }
}
