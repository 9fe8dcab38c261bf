package io.lancecodec.runtime.arrow;

import java.util.Arrays;
import java.util.Random;
import org.apache.arrow.memory.ArrowBuf;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sink a nested scan's fixed-width values are written to: growth keeps what came before. */
class ArrowSinkTest {
  static final org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();

  @Test
  void appendsGrowAndKeepEarlierBytes() {
    Random rnd = new Random(7);
    byte[] expected = new byte[100_000];
    int size = 0;
    try (ArrowSink sink = new ArrowSink(allocator)) {
      sink.reserve(10);
      while (size < expected.length - 5000) {
        int len = rnd.nextInt(4000);
        if (rnd.nextInt(5) == 0) {
          sink.appendZeros(len);
        } else {
          byte[] chunk = new byte[len + 3];
          rnd.nextBytes(chunk);
          sink.append(chunk, 3, len);
          System.arraycopy(chunk, 3, expected, size, len);
        }
        size += len;
        assertEquals(size, sink.size());
      }
      ArrowBuf b = sink.buffer();
      byte[] got = new byte[size];
      b.getBytes(0, got, 0, size);
      assertArrayEquals(Arrays.copyOf(expected, size), got);
    }
  }

  /**
   * Buffers of 1 MiB and more are allocated here, not by the pool, yet accounted by the caller's
   * allocator: counted while held (across growth from pooled to unpooled), released to zero when
   * the last reference goes, and refused past the allocator's limit with nothing left allocated.
   */
  @Test
  void largeBuffersAreAccountedAndFreed() {
    Random rnd = new Random(9);
    try (org.apache.arrow.memory.BufferAllocator child = allocator.newChildAllocator("sink", 0, 8L << 20)) {
      byte[] expected = new byte[3 << 20];
      rnd.nextBytes(expected);
      ArrowBuf kept;
      try (ArrowSink sink = new ArrowSink(child)) {
        for (int at = 0; at < expected.length; at += 65536) {
          sink.append(expected, at, 65536);
        }
        kept = sink.buffer().slice(0, expected.length);
        kept.getReferenceManager().retain();
        assertTrue(child.getAllocatedMemory() >= expected.length, "accounted: " + child.getAllocatedMemory());
      }
      byte[] got = new byte[expected.length];
      kept.getBytes(0, got, 0, got.length);
      assertArrayEquals(expected, got, "the vector's reference outlives the sink");
      kept.getReferenceManager().release();
      assertEquals(0, child.getAllocatedMemory());
      org.junit.jupiter.api.Assertions.assertThrows(org.apache.arrow.memory.OutOfMemoryException.class,
          () -> ArrowSink.allocate(child, 9L << 20));
      assertEquals(0, child.getAllocatedMemory());
      ArrowBuf direct = ArrowSink.allocate(child, ArrowSink.UNPOOLED_MIN);
      assertEquals(ArrowSink.UNPOOLED_MIN, child.getAllocatedMemory());
      direct.close();
      assertEquals(0, child.getAllocatedMemory());
    }
  }

  /**
   * A large buffer's block goes back to the process's read blocks when released and is handed to
   * the next request of about its size (no fresh pages for the next batch), never to one it would
   * hold at less than four fifths, and never while a reference to it is still held.
   */
  @Test
  void releasedLargeBlocksAreReusedForRequestsOfAboutTheirSize() {
    long size = (5L << 20) + (3 << 16); // a size no other test asks for
    ArrowBuf first = ArrowSink.allocate(allocator, size);
    long address = first.memoryAddress();
    ArrowBuf held = ArrowSink.allocate(allocator, size);
    assertTrue(held.memoryAddress() != address, "a block in use is not handed out twice");
    first.close();
    ArrowBuf tooSmall = ArrowSink.allocate(allocator, size / 2);
    assertTrue(tooSmall.memoryAddress() != address, "half the block's size gets a block of its own");
    // what the cache holds, besides the address: a broken cache could get the same address back from malloc
    long kept = ReadBlocks.held();
    ArrowBuf again = ArrowSink.allocate(allocator, size - 1000);
    assertEquals(address, again.memoryAddress(), "the released block serves a request of about its size");
    assertEquals(kept - ReadBlocks.blockSize(size), ReadBlocks.held(), "taken from the kept blocks");
    assertEquals(size - 1000, again.capacity());
    byte[] bytes = new byte[1 << 20];
    new Random(3).nextBytes(bytes);
    again.setBytes(again.capacity() - bytes.length, bytes);
    byte[] got = new byte[bytes.length];
    again.getBytes(again.capacity() - bytes.length, got);
    assertArrayEquals(bytes, got);
    for (ArrowBuf b : new ArrowBuf[] {again, held, tooSmall}) {
      b.close();
    }
  }

  /** Blocks past the limit the process keeps go back to malloc, the oldest first. */
  @Test
  void keptBlocksStayWithinTheLimit() {
    long size = ReadBlocks.LIMIT / 3 + 1;
    ReadBlocks.Block[] blocks = new ReadBlocks.Block[4];
    for (int i = 0; i < blocks.length; i++) {
      blocks[i] = ReadBlocks.take(ReadBlocks.blockSize(size));
    }
    for (ReadBlocks.Block b : blocks) {
      ReadBlocks.give(b);
    }
    long held = ReadBlocks.held();
    assertTrue(held <= ReadBlocks.LIMIT && held >= 2 * ReadBlocks.blockSize(size), "held " + held);
    ReadBlocks.Block newest = ReadBlocks.take(ReadBlocks.blockSize(size));
    assertTrue(newest.equals(blocks[3]) || newest.equals(blocks[2]), "the newest blocks are kept");
    assertEquals(held - newest.size(), ReadBlocks.held(), "taken from the kept blocks");
    ReadBlocks.give(newest);
  }

  @Test
  void emptySinkStillHasABuffer() {
    try (ArrowSink sink = new ArrowSink(allocator)) {
      assertEquals(0, sink.size());
      assertTrue(sink.buffer().capacity() >= 1);
    }
  }
}
