package io.lancecodec.runtime;

import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * One Arrow allocator and one temporary directory per test class; closing the allocator at the
 * end fails the class when a test leaked Arrow memory.
 */
abstract class WithAllocator {
  static BufferAllocator allocator;
  @TempDir static Path dir;

  @BeforeAll
  static void open() {
    allocator = new RootAllocator();
  }

  @AfterAll
  static void close() {
    allocator.close();
  }
}
