package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The 2312-byte table form: exact bytes, round trips, code order of learnt tables. */
class SymbolTableTest {
  @Test
  void derivedConstants() {
    assertEquals(2312, FsstFormat.TABLE_BYTES);
    byte[] magic = new byte[8];
    LittleEndian.putLong(magic, 0, FsstFormat.MAGIC);
    // bytes 4..7 spell "TSSF" in file order, i.e. the ASCII "FSST" read as a little-endian word
    assertArrayEquals(new byte[] {0, 0, 0, 0, 'T', 'S', 'S', 'F'}, magic);
  }

  @Test
  void exactBytes() {
    SymbolTable t =
        new SymbolTable(true, 0x2A, 3, new long[] {'a' | 'b' << 8, 0x6867666564636261L, 'z'}, new int[] {2, 8, 1});
    byte[] b = t.serialize();
    assertEquals(2312, b.length);
    // header: n=3, terminator=0x2A, suffix limit=3, switch=1, magic
    assertArrayEquals(new byte[] {3, 0x2A, 3, 1, 'T', 'S', 'S', 'F'}, Arrays.copyOf(b, 8));
    assertArrayEquals(new byte[] {'a', 'b', 0, 0, 0, 0, 0, 0}, Arrays.copyOfRange(b, 8, 16));
    assertArrayEquals("abcdefgh".getBytes(java.nio.charset.StandardCharsets.US_ASCII), Arrays.copyOfRange(b, 16, 24));
    assertArrayEquals(new byte[] {'z', 0, 0, 0, 0, 0, 0, 0}, Arrays.copyOfRange(b, 24, 32));
    assertArrayEquals(new byte[] {2, 8, 1}, Arrays.copyOfRange(b, 32, 35));
    for (int i = 35; i < b.length; i++) {
      assertEquals(0, b[i], "zero fill at " + i);
    }
    assertEquals(t, SymbolTable.parse(b));
  }

  @Test
  void switchedOffTable() {
    byte[] b = SymbolTable.uncompressed().serialize();
    assertArrayEquals(new byte[] {0, 0, 0, 0, 'T', 'S', 'S', 'F'}, Arrays.copyOf(b, 8));
    SymbolTable t = SymbolTable.parse(b);
    assertFalse(t.compressed());
    assertEquals(0, t.size());
  }

  /**
   * Learning counts the sample in two halves, the second on a pool thread when one comes, and
   * reuses the counters of finished builds: neither may change a table. Builds on several threads
   * at once (sharing the pool and the spare counters) give the table a lone build gives.
   */
  @Test
  void learntTablesDoNotDependOnThreads() throws Exception {
    List<String> real = TestBlocks.realStrings();
    List<SymbolTableBuilder.Sample> samples = new java.util.ArrayList<>();
    for (int from = 0; from + 400 <= real.size(); from += real.size() / 5) {
      samples.add(SymbolTableBuilder.sample(TestBlocks.block(TestBlocks.utf8(real.subList(from, from + 400)), 32)));
    }
    samples.add(SymbolTableBuilder.sample(TestBlocks.block(TestBlocks.utf8(real), 32)));
    assertTrue(samples.get(samples.size() - 1).size() >= 2 * SymbolTableBuilder.TWO_HALVES_MIN_BYTES, "a sample counted in halves");
    List<byte[]> alone = new java.util.ArrayList<>();
    for (SymbolTableBuilder.Sample sample : samples) {
      alone.add(SymbolTableBuilder.build(sample).serialize());
    }
    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<?>> runs = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int first = t;
        runs.add(threads.submit(() -> {
          for (int round = 0; round < 10; round++) {
            int i = (first + round) % samples.size();
            assertArrayEquals(alone.get(i), SymbolTableBuilder.build(samples.get(i)).serialize(), "sample " + i);
          }
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> run : runs) {
        run.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void learntTableRoundTripsAndIsOrderedByLength() {
    DataBlock.VariableWidth in = TestBlocks.block(TestBlocks.utf8(TestBlocks.realStrings()), 32);
    SymbolTable t = FsstPage.plan(in).table;
    assertTrue(t.compressed());
    assertEquals(255, t.size());
    assertEquals(t, SymbolTable.parse(t.serialize()));
    // lengths: 2, 3, ..., 8, then 1 (the reference's code order)
    int prevRank = -1;
    for (int i = 0; i < t.size(); i++) {
      int rank = t.length(i) == 1 ? 9 : t.length(i);
      assertTrue(rank >= prevRank, "code " + i + " has length " + t.length(i) + " after a longer group");
      prevRank = rank;
      assertEquals(0, t.symbol(i) & ~SymbolMatcher.MASK[t.length(i)], "bytes above the length are zero");
    }
    // the first suffixLimit codes are the 2-byte symbols that start a longer symbol
    for (int i = 0; i < t.size() && t.length(i) == 2; i++) {
      boolean extended = false;
      for (int k = 0; k < t.size(); k++) {
        extended |= t.length(k) > 2 && (t.symbol(k) & 0xFFFF) == t.symbol(i);
      }
      assertEquals(i < t.suffixLimit(), extended, "2-byte code " + i);
    }
  }
}
