package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The LRU page cache alone (budget, order of eviction, values too heavy to keep) and under a
 * reader: dictionaries of many pages under a budget that holds only some of them, read back
 * correctly after eviction, and by many threads sharing one small cache.
 */
class PageCacheTest {
  static BufferAllocator allocator;
  @TempDir static Path dir;
  static Path file;
  static List<List<Object>> expected;
  static final int COLUMNS = 6;
  static final int ROWS = 40_000;

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    // six dictionary-encoded string columns, each with its own dictionary of ~1000 values
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < COLUMNS; c++) {
      fields.add(NestedData.str("c" + c));
    }
    Schema schema = new Schema(fields);
    file = dir.resolve("dicts.lance");
    expected = new ArrayList<>();
    Random rnd = new Random(99);
    try (LanceFileWriter w = LanceFileWriter.open(file, schema, WriterOptions.defaults());
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      for (int c = 0; c < COLUMNS; c++) {
        List<Object> col = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
          String v = rnd.nextInt(40) == 0 ? null : "column-" + c + "-value-" + rnd.nextInt(1000) + "-padding-to-make-it-longer";
          NestedData.set(batch.getVector(c), i, v);
        }
        batch.getVector(c).setValueCount(ROWS);
        for (int i = 0; i < ROWS; i++) {
          col.add(batch.getVector(c).getObject(i));
        }
        expected.add(col);
      }
      batch.setRowCount(ROWS);
      w.write(batch);
    }
  }

  @AfterAll
  static void tearDown() {
    allocator.close();
  }

  @Test
  void lruKeepsTheRecentlyUsedWithinBudget() {
    LruPageCache cache = new LruPageCache(100);
    AtomicInteger loads = new AtomicInteger();
    for (String k : new String[] {"a", "b", "c"}) {
      cache.get(k, () -> {
        loads.incrementAndGet();
        return k;
      }, v -> 40);
    }
    // a and b fit (80), c pushes out a, the least recently used
    assertEquals(80, cache.usedBytes());
    assertEquals(2, cache.entries());
    assertEquals(1, cache.evictions());
    cache.get("b", () -> "x", v -> 40);
    cache.get("a", () -> {
      loads.incrementAndGet();
      return "a";
    }, v -> 40);
    // b was used more recently than c, so c went
    assertEquals("b", cache.get("b", () -> "x", v -> 40));
    assertEquals("c2", cache.get("c", () -> "c2", v -> 40));
    assertEquals(4, loads.get());
    Object big = new Object();
    assertSame(big, cache.get("big", () -> big, v -> 101));
    assertTrue(cache.usedBytes() <= 100);
    assertEquals(2, cache.entries());
    assertTrue(assertThrowsInvalid(() -> new LruPageCache(-1)));
  }

  private static boolean assertThrowsInvalid(Runnable r) {
    try {
      r.run();
      return false;
    } catch (LanceCodecException e) {
      return e.kind() == LanceCodecException.Kind.INVALID_ARGUMENT;
    }
  }

  private static void check(LanceFileReader r, long[] rows, BufferAllocator al) {
    try (VectorSchemaRoot got = r.take(rows, null, al)) {
      for (int c = 0; c < COLUMNS; c++) {
        for (int i = 0; i < rows.length; i++) {
          assertEquals(expected.get(c).get((int) rows[i]), got.getVector(c).getObject(i), "column " + c + " row " + rows[i]);
        }
      }
    }
  }

  /** The size of one decoded dictionary, learned from a cache big enough for all. */
  private static long dictionaryBytes() {
    LruPageCache all = new LruPageCache(1L << 30);
    try (LanceFileReader r = LanceFileReader.open(file, CodecRegistry.discover(), all)) {
      for (String page : r.columnSummaries().stream().map(c -> c.pages().get(0).toString()).toList()) {
        assertTrue(page.contains("dictionary"), page);
      }
      check(r, new long[] {1, 2, 3}, allocator);
      assertEquals(COLUMNS, all.entries());
      return all.usedBytes() / COLUMNS;
    }
  }

  @Test
  void budgetIsRespectedAndEvictedDictionariesReloadCorrectly() {
    long one = dictionaryBytes();
    long budget = 2 * one + one / 2;
    LruPageCache cache = new LruPageCache(budget);
    try (LanceFileReader r = LanceFileReader.open(file, CodecRegistry.discover(), cache)) {
      Random rnd = new Random(4);
      for (int round = 0; round < 10; round++) {
        long[] rows = rnd.longs(20, 0, ROWS).toArray();
        check(r, rows, allocator);
        assertTrue(cache.usedBytes() <= budget, cache.toString());
        assertEquals(2, cache.entries(), cache.toString());
      }
      // every take decodes six dictionaries and two stay: evictions, and reloads that read the file
      assertTrue(cache.evictions() >= 10 * (COLUMNS - 2), cache.toString());
      r.readStats().reset();
      check(r, new long[] {5}, allocator);
      assertTrue(r.readStats().reads() >= COLUMNS + (COLUMNS - 2), r.readStats().toString());
      assertTrue(r.searchCacheBytes() < one, "dictionaries are not in the search cache: " + r.searchCacheBytes());
    }
  }

  @Test
  void manyThreadsShareOneSmallCache() throws Exception {
    long one = dictionaryBytes();
    LruPageCache cache = new LruPageCache(3 * one);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (LanceFileReader r = LanceFileReader.open(file, CodecRegistry.discover(), cache)) {
      List<Future<Integer>> jobs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long seed = t;
        jobs.add(pool.submit(() -> {
          Random rnd = new Random(seed);
          int rounds = 0;
          try (BufferAllocator child = allocator.newChildAllocator("t" + seed, 0, Long.MAX_VALUE)) {
            for (; rounds < 15; rounds++) {
              check(r, rnd.longs(10, 0, ROWS).toArray(), child);
              if (rnd.nextInt(5) == 0) {
                cache.clear();
              }
            }
          }
          return rounds;
        }));
      }
      for (Future<Integer> j : jobs) {
        assertEquals(15, j.get());
      }
      assertTrue(cache.usedBytes() <= 3 * one, cache.toString());
    } finally {
      pool.shutdown();
    }
  }

  /** Levels of a constant page (lists that are all null or empty) live in the page cache too. */
  @Test
  void constantPageLevelsAreCachedAndReloaded() {
    Field f = NestedData.list("l", NestedData.i32("item"));
    Schema schema = new Schema(List.of(f));
    Path path = dir.resolve("null-items.lance");
    List<Object> want = new ArrayList<>();
    Random rnd = new Random(8);
    try (LanceFileWriter w = LanceFileWriter.open(path, schema, WriterOptions.defaults());
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      for (int i = 0; i < 5000; i++) {
        // only null and empty lists: no item at all, so the page is constant with levels
        List<Object> items = rnd.nextInt(3) == 0 ? null : new ArrayList<>();
        NestedData.set(batch.getVector(0), i, items);
      }
      batch.setRowCount(5000);
      for (int i = 0; i < 5000; i++) {
        want.add(batch.getVector(0).getObject(i));
      }
      w.write(batch);
    }
    for (long budget : new long[] {LruPageCache.DEFAULT_BUDGET, 0}) {
      LruPageCache cache = new LruPageCache(budget);
      try (LanceFileReader r = LanceFileReader.open(path, CodecRegistry.discover(), cache)) {
        assertTrue(r.columnSummaries().get(0).pages().get(0).toString().contains("constant (all null)"), r.columnSummaries().get(0).pages().get(0).toString());
        assertTrue(r.searchCacheBytes() < 200, "levels are not in the search cache: " + r.searchCacheBytes());
        for (int round = 0; round < 3; round++) {
          long[] rows = rnd.longs(30, 0, 5000).toArray();
          try (VectorSchemaRoot got = r.take(rows, null, allocator)) {
            for (int i = 0; i < rows.length; i++) {
              assertEquals(want.get((int) rows[i]), got.getVector(0).getObject(i), "row " + rows[i]);
            }
          }
        }
        assertEquals(budget == 0 ? 0 : 1, cache.entries(), cache.toString());
        assertTrue(budget == 0 || cache.usedBytes() >= 5000, cache.toString());
      }
    }
  }
}
