package io.lancecodec.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.bench.compare.Engines.Reader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DuckDB as a system: what it stores and reads back through Arrow is the source, in order, with no buffer leaked. */
class DuckDbTest {
  @Test
  void roundTripsThroughArrow(@TempDir Path dir) throws Exception {
    try (BufferAllocator alloc = new RootAllocator()) {
      List<String> ints = new ArrayList<>();
      List<String> words = new ArrayList<>();
      List<String> floats = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        ints.add(Integer.toString((i * 7919) % 30011 - 15000));
        words.add(i % 3 == 0 ? "" : "word-" + (i * 31 % 97) + "é");
        floats.add(Double.toString(i * 0.25 - 100));
      }
      List<Data> sets = List.of(
          Data.fromStrings("ints", "test", ints, Data.Kind.INT16, alloc),
          Data.fromStrings("words", "test", words, Data.Kind.UTF8, alloc),
          Data.fromStrings("floats", "test", floats, Data.Kind.FLOAT64, alloc),
          Data.vectors(40, alloc));
      try {
        DuckDb duck = new DuckDb(alloc, 64 << 10, 256 << 10, 8 << 20);
        for (Data d : sets) {
          Path file = dir.resolve(d.name + ".duckdb");
          long size = duck.write(d, file);
          if (DuckDb.hasStrings(d.kind)) {
            assertEquals(-1, size, d.name + ": strings get no size");
          } else {
            assertTrue(size > 0 && size < 4L * d.rawBytes, d.name + ": " + size + " bytes for " + d.rawBytes + " raw");
          }
          assertEquals(size, duck.write(d, file), d.name + ": the size is measured once");
          try (Reader r = duck.open(d, file)) {
            assertEquals(d.hashAll(), r.scan(true), d.name + ": scan");
            long[] rows = {0, 3, 17, d.rows - 1};
            assertEquals(d.hashRows(rows), r.take(rows, true), d.name + ": take");
            assertEquals(d.hashRows(new long[] {5}), r.take(new long[] {5}, true), d.name + ": take of one row");
          }
        }
      } finally {
        sets.forEach(Data::close);
      }
    }
  }
}
