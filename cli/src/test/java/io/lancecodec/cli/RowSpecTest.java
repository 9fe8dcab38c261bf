package io.lancecodec.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class RowSpecTest {
  private static long[] expand(RowSpec spec, int chunk) {
    List<Long> all = new ArrayList<>();
    for (Iterator<long[]> it = spec.chunks(chunk); it.hasNext(); ) {
      long[] c = it.next();
      assertTrue(c.length > 0 && c.length <= chunk, "chunk size " + c.length);
      for (long r : c) {
        all.add(r);
      }
    }
    return all.stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void contractExample() {
    RowSpec spec = RowSpec.parse("0:10,57,1000:1003");
    assertEquals(List.of(new RowSpec.Segment(0, 10), new RowSpec.Segment(57, 58), new RowSpec.Segment(1000, 1003)), spec.segments());
    assertEquals(14, spec.size());
    assertEquals(1002, spec.maxRow());
    assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 57, 1000, 1001, 1002}, expand(spec, 4));
  }

  @Test
  void orderIsKeptAndRepeatsPrintAgain() {
    assertArrayEquals(new long[] {5, 3, 5, 1, 2, 1}, expand(RowSpec.parse("5,3,5,1:3,1"), 2));
    assertArrayEquals(new long[] {7, 7}, expand(RowSpec.parse("7, 7"), 8192));
  }

  @Test
  void emptyRangeSelectsNothing() {
    RowSpec spec = RowSpec.parse("4:4");
    assertEquals(0, spec.size());
    assertEquals(-1, spec.maxRow());
    assertArrayEquals(new long[0], expand(spec, 3));
    assertArrayEquals(new long[] {1}, expand(RowSpec.parse("4:4,1,9:9"), 3));
  }

  @Test
  void largeRangesStayLazy() {
    RowSpec spec = RowSpec.parse("0:5000000000");
    assertEquals(5_000_000_000L, spec.size());
    Iterator<long[]> it = spec.chunks(8192);
    assertEquals(8192, it.next().length);
    assertEquals(8192, it.next()[0]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"5:2", "abc", "-1", "1:", ":3", "", " ", "1,,2", "1,", "1:2:3", "0x10", "1.5", "99999999999999999999",
      "3:-1", "a:b", "9223372036854775807"})
  void invalidSpecsAreUsageErrors(String text) {
    UsageException e = assertThrows(UsageException.class, () -> RowSpec.parse(text));
    assertTrue(e.getMessage().contains("--rows"), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void messagesNameTheProblem() {
    assertTrue(assertThrows(UsageException.class, () -> RowSpec.parse("5:2")).getMessage().contains("ends before it starts"));
    assertTrue(assertThrows(UsageException.class, () -> RowSpec.parse("abc")).getMessage().contains("'abc' is not a row index"));
    assertTrue(assertThrows(UsageException.class, () -> RowSpec.parse("-4")).getMessage().contains("negative"));
  }
}
