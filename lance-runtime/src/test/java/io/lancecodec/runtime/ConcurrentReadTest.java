package io.lancecodec.runtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** One reader shared by several threads doing takes and range reads gives the same answers. */
class ConcurrentReadTest {
  @TempDir Path dir;

  @Test
  void sharedReaderIsThreadSafe() throws Exception {
    Path file = dir.resolve("shared.lance");
    int n = 100_000;
    List<Object> expected;
    try (BufferAllocator al = new RootAllocator();
        VectorSchemaRoot root = TestData.root("s", ArrowType.Utf8.INSTANCE, true, 0.1, n, TestData.Shape.NARROW, 9, al)) {
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults().withPageBytesPerColumn(64 * 1024))) {
        for (int start = 0; start < n; start += 10_000) {
          try (VectorSchemaRoot part = root.slice(start, Math.min(10_000, n - start))) {
            w.write(part);
          }
        }
      }
      expected = TestData.values(root.getVector(0));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (BufferAllocator al = new RootAllocator(); LanceFileReader r = LanceFileReader.open(file)) {
      List<Future<Integer>> jobs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long seed = t;
        jobs.add(pool.submit(() -> {
          Random rnd = new Random(seed);
          int checked = 0;
          for (int round = 0; round < 20; round++) {
            long[] rows = new long[50];
            for (int i = 0; i < rows.length; i++) {
              rows[i] = rnd.nextInt(n);
            }
            try (BufferAllocator child = al.newChildAllocator("t" + seed, 0, Long.MAX_VALUE);
                VectorSchemaRoot got = r.take(rows, null, child)) {
              for (int i = 0; i < rows.length; i++) {
                assertEquals(expected.get((int) rows[i]), TestData.value(got.getVector(0), i));
                checked++;
              }
            }
            int start = rnd.nextInt(n - 5000);
            try (BufferAllocator child = al.newChildAllocator("r" + seed, 0, Long.MAX_VALUE);
                VectorSchemaRoot got = r.readRange(start, start + 5000, List.of("s"), child)) {
              assertEquals(expected.subList(start, start + 5000), TestData.values(got.getVector(0)));
              checked += 5000;
            }
          }
          return checked;
        }));
      }
      int total = 0;
      for (Future<Integer> f : jobs) {
        total += f.get();
      }
      assertEquals(8 * 20 * (50 + 5000), total);
      assertEquals(true, r.columnSummaries().get(0).pages().size() > 1, "the file has several pages");
      // scans that decode ahead on other threads give the same batches, and release what was
      // decoded ahead when closed early
      for (int readAhead : new int[] {1, 3}) {
        List<Object> scanned = new ArrayList<>();
        try (Scanner s = r.scan(List.of("s"), 7000, readAhead, al)) {
          while (s.hasNext()) {
            try (VectorSchemaRoot b = s.next()) {
              scanned.addAll(TestData.values(b.getVector(0)));
            }
          }
        }
        assertEquals(expected, scanned);
        try (Scanner s = r.scan(null, 1000, readAhead, al)) {
          s.next().close();
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
