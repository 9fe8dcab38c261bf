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
class WriteParallelismTest {
  @Test
  void aJoinerRunsQueuedPartsWhileItWaits() {
    assumeTrue(WriteParallelism.ENABLED, "parts run on the joining thread only");
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      CountDownLatch release = new CountDownLatch(1);
      // every pool thread busy until the last part, queued behind them, releases it
      java.util.List<WriteParallelism.Part<Integer>> blocked = occupyPool(release);
      WriteParallelism.start(() -> {
        release.countDown();
        return 0;
      });
      for (WriteParallelism.Part<Integer> p : blocked) {
        assertEquals(1, p.join(), "released by the queued part, which the joiner ran");
      }
    });
  }

  @Test
  void nestedPartsFinish() {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      for (int i = 0; i < 2000; i++) {
        int k = i;
        WriteParallelism.Part<Integer> outer = WriteParallelism.start(() -> {
          WriteParallelism.Part<Integer> inner = WriteParallelism.start(() -> k * 3);
          return inner.join() + 1;
        });
        WriteParallelism.Part<Integer> side = WriteParallelism.start(() -> k);
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
      try (WriteParallelism.Partner partner = WriteParallelism.Partner.start()) {
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
      if (WriteParallelism.ENABLED) {
        Assertions.assertTrue(onPartner > 0, "the partner took up no half in " + steps + " steps");
      } else {
        assertEquals(0, onPartner);
      }
    });
  }

  @Test
  void aHalfsExceptionReachesTheCaller() {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      try (WriteParallelism.Partner partner = WriteParallelism.Partner.start()) {
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
      try (WriteParallelism.Partner partner = WriteParallelism.Partner.start()) {
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
    assumeTrue(WriteParallelism.ENABLED, "parts run on the joining thread only");
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      CountDownLatch release = new CountDownLatch(1);
      java.util.List<WriteParallelism.Part<Integer>> blocked = occupyPool(release);
      Thread caller = Thread.currentThread();
      try (WriteParallelism.Partner partner = WriteParallelism.Partner.start()) {
        for (int s = 0; s < 100; s++) {
          partner.run(h -> assertEquals(caller, Thread.currentThread(), "half " + h));
        }
      } finally {
        release.countDown();
      }
      for (WriteParallelism.Part<Integer> p : blocked) {
        assertEquals(1, p.join());
      }
    });
  }

  /**
   * Parts that keep every pool thread busy until {@code release} opens (each then returns 1),
   * once all of them have started.
   */
  private static java.util.List<WriteParallelism.Part<Integer>> occupyPool(CountDownLatch release) throws InterruptedException {
    int poolThreads = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    CountDownLatch running = new CountDownLatch(poolThreads);
    java.util.List<WriteParallelism.Part<Integer>> blocked = new java.util.ArrayList<>();
    for (int t = 0; t < poolThreads; t++) {
      blocked.add(WriteParallelism.start(() -> {
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
