package io.lancecodec.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * A thread joining a part that a pool thread runs takes up the parts still queued meanwhile, so
 * a part queued behind the pool's busy threads cannot wait for the part being joined; nested
 * parts finish with their results.
 */
class ParallelismTest {
  @Test
  void aJoinerRunsQueuedPartsWhileItWaits() {
    assumeTrue(Parallelism.ENABLED, "parts run on the joining thread only");
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      CountDownLatch release = new CountDownLatch(1);
      // every pool thread busy until the last part, queued behind them, releases it
      java.util.List<Parallelism.Part<Integer>> blocked = occupyPool(release);
      Parallelism.start(() -> {
        release.countDown();
        return 0;
      });
      for (Parallelism.Part<Integer> p : blocked) {
        assertEquals(1, p.join(), "released by the queued part, which the joiner ran");
      }
    });
  }

  @Test
  void nestedPartsFinish() {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      for (int i = 0; i < 2000; i++) {
        int k = i;
        Parallelism.Part<Integer> outer = Parallelism.start(() -> {
          Parallelism.Part<Integer> inner = Parallelism.start(() -> k * 3);
          return inner.join() + 1;
        });
        Parallelism.Part<Integer> side = Parallelism.start(() -> k);
        assertEquals(k * 3 + 1, outer.join());
        assertEquals(k, side.join());
      }
    });
  }

  @Test
  void aPartnerStepRunsEachHalfOnce() {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      int steps = 2000;
      int[][] runs = new int[steps][2];
      boolean[] elsewhere = new boolean[steps];
      Thread caller = Thread.currentThread();
      try (Parallelism.Partner partner = Parallelism.Partner.start()) {
        for (int s = 0; s < steps; s++) {
          int step = s;
          partner.run(h -> {
            runs[step][h]++;
            if (h == 1) {
              elsewhere[step] = Thread.currentThread() != caller;
            }
            // about 20 microseconds of work, so that the partner can arrive
            long until = System.nanoTime() + 20_000;
            while (System.nanoTime() < until) {
              Thread.onSpinWait();
            }
          });
        }
      }
      int onPartner = 0;
      for (int s = 0; s < steps; s++) {
        assertEquals(1, runs[s][0], "half 0 of step " + s);
        assertEquals(1, runs[s][1], "half 1 of step " + s);
        onPartner += elsewhere[s] ? 1 : 0;
      }
      if (Parallelism.ENABLED) {
        Assertions.assertTrue(onPartner > 0, "the partner took up no half in " + steps + " steps");
      } else {
        assertEquals(0, onPartner);
      }
    });
  }

  @Test
  void aHalfsExceptionReachesTheCaller() {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      try (Parallelism.Partner partner = Parallelism.Partner.start()) {
        for (int s = 0; s < 200; s++) {
          int failing = s % 2;
          IllegalStateException e = Assertions.assertThrows(IllegalStateException.class, () -> partner.run(h -> {
            if (h == failing) {
              throw new IllegalStateException("half " + h);
            }
          }));
          assertEquals("half " + failing, e.getMessage());
          int[] ran = new int[2];
          partner.run(h -> ran[h]++);
          assertEquals(1, ran[0]);
          assertEquals(1, ran[1]);
        }
      }
    });
  }

  @Test
  void aFailedFirstHalfLeavesNoSecondHalfRunning() {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      try (Parallelism.Partner partner = Parallelism.Partner.start()) {
        for (int s = 0; s < 300; s++) {
          java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
          java.util.concurrent.atomic.AtomicInteger finished = new java.util.concurrent.atomic.AtomicInteger();
          Assertions.assertThrows(IllegalStateException.class, () -> partner.run(h -> {
            if (h == 0) {
              // long enough for the partner to take up half 1 on most steps
              long until = System.nanoTime() + 20_000;
              while (System.nanoTime() < until) {
                Thread.onSpinWait();
              }
              throw new IllegalStateException("half 0");
            }
            started.incrementAndGet();
            long until = System.nanoTime() + 50_000;
            while (System.nanoTime() < until) {
              Thread.onSpinWait();
            }
            finished.incrementAndGet();
          }));
          assertEquals(started.get(), finished.get(), "half 1 still running after step " + s + " failed");
        }
      }
    });
  }

  @Test
  void aBusyPoolLeavesTheHalvesToTheCaller() {
    assumeTrue(Parallelism.ENABLED, "parts run on the joining thread only");
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      CountDownLatch release = new CountDownLatch(1);
      java.util.List<Parallelism.Part<Integer>> blocked = occupyPool(release);
      Thread caller = Thread.currentThread();
      try (Parallelism.Partner partner = Parallelism.Partner.start()) {
        for (int s = 0; s < 100; s++) {
          partner.run(h -> assertEquals(caller, Thread.currentThread(), "half " + h));
        }
      } finally {
        release.countDown();
      }
      for (Parallelism.Part<Integer> p : blocked) {
        assertEquals(1, p.join());
      }
    });
  }

  /**
   * Each segment runs once: the caller's from 0 up to where the two ends met, in order, the pool
   * thread's from the top down to there; and, with {@link Parallelism#READS}, the pool
   * thread takes some of them when each lasts a few microseconds.
   */
  @Test
  void bothEndsRunEachSegmentOnceInTheirOrder() {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      Thread caller = Thread.currentThread();
      int byBack = 0;
      for (int trial = 0; trial < 500; trial++) {
        int count = 1 + trial % 13;
        int[] runs = new int[count];
        java.util.List<Integer> front = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.List<Integer> back = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        int split = Parallelism.fromBothEnds(count, (i, isFront) -> {
          assertEquals(isFront, Thread.currentThread() == caller, "segment " + i + " ran where its end says");
          synchronized (runs) {
            runs[i]++;
          }
          (isFront ? front : back).add(i);
          spin(5_000);
        });
        for (int i = 0; i < count; i++) {
          assertEquals(1, runs[i], "segment " + i + " of " + count);
        }
        for (int i = 0; i < front.size(); i++) {
          assertEquals(i, front.get(i), "the caller's segments");
        }
        for (int i = 0; i < back.size(); i++) {
          assertEquals(count - 1 - i, back.get(i), "the pool thread's segments");
        }
        assertEquals(front.size(), split);
        byBack += back.size();
      }
      if (Parallelism.READS) {
        Assertions.assertTrue(byBack > 0, "the pool thread took up no segment in 500 trials");
      } else {
        assertEquals(0, byBack);
      }
    });
  }

  /**
   * A failing segment, at either end, reaches the caller as it was thrown, and only once the
   * other end has left the segment it was in: nothing runs after the call has returned.
   */
  @Test
  void aSegmentsFailureReachesTheCallerAfterTheOtherEndStops() {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      for (int trial = 0; trial < 400; trial++) {
        int count = 8;
        int failing = trial % count;
        java.util.concurrent.atomic.AtomicInteger active = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean returned = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean late = new java.util.concurrent.atomic.AtomicBoolean();
        IllegalStateException e = Assertions.assertThrows(IllegalStateException.class, () -> Parallelism.fromBothEnds(count,
            (i, isFront) -> {
              active.incrementAndGet();
              try {
                late.compareAndSet(false, returned.get());
                spin(10_000);
                // whichever end runs it (the pool thread may take all of them while the
                // caller is descheduled, or none)
                if (i == failing) {
                  throw new IllegalStateException("segment " + i);
                }
              } finally {
                active.decrementAndGet();
              }
            }));
        returned.set(true);
        assertEquals("segment " + failing, e.getMessage());
        assertEquals(0, active.get(), "a segment still running after the failure was thrown");
        spin(20_000);
        Assertions.assertFalse(late.get(), "a segment started after the call returned");
      }
    });
  }

  private static void spin(long nanos) {
    long until = System.nanoTime() + nanos;
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }

  /**
   * Parts that keep every pool thread busy until {@code release} opens (each then returns 1),
   * once all of them have started.
   */
  private static java.util.List<Parallelism.Part<Integer>> occupyPool(CountDownLatch release) throws InterruptedException {
    int poolThreads = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    CountDownLatch running = new CountDownLatch(poolThreads);
    java.util.List<Parallelism.Part<Integer>> blocked = new java.util.ArrayList<>();
    for (int t = 0; t < poolThreads; t++) {
      blocked.add(Parallelism.start(() -> {
        running.countDown();
        try {
          return release.await(30, TimeUnit.SECONDS) ? 1 : 0;
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }));
    }
    running.await();
    return blocked;
  }
}
