package io.lancecodec.spi;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The recycled page arrays: lent once, taken back once, by exact size, only when they were lent. */
class PageArraysTest {
  @Test
  void anArrayIsLentOnce() {
    byte[] a = PageArrays.forPage(PageArrays.MIN_BYTES + 17);
    PageArrays.giveBack(a);
    assertSame(a, PageArrays.forPage(a.length));
    assertNotSame(a, PageArrays.forPage(a.length), "lent again while its new owner has it");
  }

  @Test
  void givenBackTwiceIsKeptOnce() {
    byte[] a = PageArrays.forPage(PageArrays.MIN_BYTES + 19);
    PageArrays.giveBack(a);
    PageArrays.giveBack(a);
    assertSame(a, PageArrays.forPage(a.length));
    assertNotSame(a, PageArrays.forPage(a.length), "one array in two slots would have two owners");
  }

  @Test
  void arraysNotLentAreNeverTaken() {
    byte[] mine = new byte[PageArrays.MIN_BYTES + 23];
    PageArrays.giveBack(mine);
    assertNotSame(mine, PageArrays.forPage(mine.length), "a plugin's own array, perhaps shared, reused behind its back");
  }

  @Test
  void onlyTheExactSizeAndOnlyLargeArrays() {
    byte[] a = PageArrays.forPage(PageArrays.MIN_BYTES + 33);
    PageArrays.giveBack(a);
    assertNotSame(a, PageArrays.forPage(a.length + 1));
    assertSame(a, PageArrays.forPage(a.length));
    byte[] small = PageArrays.forPage(PageArrays.MIN_BYTES - 1);
    PageArrays.giveBack(small);
    assertNotSame(small, PageArrays.forPage(small.length));
  }
}
