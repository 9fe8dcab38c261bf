package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * The most bytes one read may allocate is the limit of the Arrow allocator it is given: a read,
 * take or scan batch that needs more fails with one INVALID_ARGUMENT naming the limit, and leaves
 * nothing allocated.
 */
class ReadMemoryLimitTest extends WithAllocator {
  @Test
  void aReadOverTheAllocatorsLimitFailsCleanly() throws Exception {
    Path f = dir.resolve("limit.lance");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(CrashWriterMain.SCHEMA, allocator);
        LanceFileWriter w = LanceFileWriter.open(f, CrashWriterMain.SCHEMA, WriterOptions.defaults())) {
      for (int b = 0; b < 10; b++) {
        CrashWriterMain.fill(root, b * CrashWriterMain.BATCH_ROWS);
        w.write(root);
      }
    }
    try (LanceFileReader r = LanceFileReader.open(f);
        BufferAllocator small = allocator.newChildAllocator("small", 0, 64 << 10)) {
      List<Runnable> reads = List.of(
          () -> r.readRange(0, r.numRows(), null, small).close(),
          () -> r.take(java.util.stream.LongStream.range(0, 15_000).map(i -> i * 7919 % 20_000).toArray(), null, small).close(),
          () -> r.readRange(0, 10_000, List.of("s"), small).close(),
          () -> {
            try (Scanner s = r.scan(null, 15_000, small)) {
              s.next().close();
            }
          });
      for (Runnable read : reads) {
        LanceCodecException e = assertThrows(LanceCodecException.class, read::run);
        assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains("allocator allows (65536 bytes"), e.getMessage());
        assertEquals(0, small.getAllocatedMemory(), "memory left allocated after a refused read");
      }
      // within the limit the same allocator reads
      try (VectorSchemaRoot few = r.readRange(0, 100, null, small)) {
        assertEquals(100, few.getRowCount());
      }
    }
  }
}
