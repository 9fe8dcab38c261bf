package io.lancecodec.spi;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Independent parts of writing one page (the second half of a page's FSST codes, the level
 * compressors chosen while the values are compressed) handed to another core. What is written
 * never depends on it: a part computes exactly what the caller would have computed, and the
 * caller puts the parts together in a fixed order. On by default when the JVM has more than one
 * processor; {@code -Dlancecodec.write.parallel=false} or the environment variable
 * {@code LANCE_CODEC_WRITE_PARALLEL=0} keeps every write on the calling thread.
 *
 * <p>The pool has one daemon thread per processor beyond the first. A part no pool thread has
 * started yet when the caller needs it runs on the caller, so a busy pool (many writers, or one
 * writer's parts waiting on each other) costs time, never a deadlock; and a caller waiting for a
 * part a pool thread runs takes up queued parts meanwhile, so a part may split itself in two
 * (packing a page's halves) and have the waiting caller do the half it queued.
 */
public final class WriteParallelism {
  private WriteParallelism() {}

  /** Whether parts are handed to the pool at all. */
  public static final boolean ENABLED = enabled();

  private static boolean enabled() {
    String prop = System.getProperty("lancecodec.write.parallel");
    if (prop != null) {
      return Boolean.parseBoolean(prop.trim());
    }
    String env = System.getenv("LANCE_CODEC_WRITE_PARALLEL");
    if (env != null) {
      return !(env.trim().equals("0") || env.trim().equalsIgnoreCase("false"));
    }
    return Runtime.getRuntime().availableProcessors() > 1;
  }

  private static final class Pool {
    static final ThreadPoolExecutor POOL = create();

    private static ThreadPoolExecutor create() {
      int threads = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
      ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "lance-codec-write");
        t.setDaemon(true);
        return t;
      });
      pool.allowCoreThreadTimeOut(true);
      return pool;
    }
  }

  /** A part started by {@link #start}; {@link #join} returns its result. */
  public static final class Part<T> {
    private final FutureTask<T> task;

    private Part(FutureTask<T> task) {
      this.task = task;
    }

    /**
     * The part's result, computed here if no pool thread has taken it up; its exception (a
     * {@link LanceCodecException}, say) is rethrown as it was thrown.
     */
    public T join() {
      // runs the task only if it has not started; otherwise returns at once
      task.run();
      // While a pool thread works on it, this thread takes up parts still queued (ones that
      // part splits off for itself, say) instead of idling: a part queued behind the only pool
      // thread would otherwise run after it, on that same thread. It waits only while there is
      // nothing to take up, and wakes when a part is queued or one finishes.
      while (ENABLED && !task.isDone()) {
        Runnable queued = Pool.POOL.getQueue().poll();
        if (queued != null) {
          queued.run();
          continue;
        }
        synchronized (SIGNAL) {
          if (!task.isDone() && Pool.POOL.getQueue().isEmpty()) {
            try {
              SIGNAL.wait();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw LanceCodecException.internal("interrupted while waiting for a part of a page");
            }
          }
        }
      }
      try {
        return task.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw LanceCodecException.internal("interrupted while waiting for a part of a page");
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof RuntimeException re) {
          throw re;
        }
        if (c instanceof Error err) {
          throw err;
        }
        throw LanceCodecException.internal("part of a page failed: " + c);
      }
    }
  }

  /** Starts {@code work} on the pool (or, when disabled, leaves it to {@link Part#join}). */
  public static <T> Part<T> start(Supplier<T> work) {
    FutureTask<T> task = new Task<>(work);
    if (ENABLED) {
      Pool.POOL.execute(task);
      signal();
    }
    return new Part<>(task);
  }

  /** Work on {@code [from, to)} of a range split in two; {@code half} is 0 for the first, 1 for the second. */
  @FunctionalInterface
  public interface Half {
    void run(int half, int from, int to);
  }

  /**
   * Runs {@code body} over {@code [0, count)}: when {@code large} (and parts are enabled), the
   * second half as a part on the pool while this thread does the first, then waits for it;
   * otherwise the whole range at once as half 0.
   */
  public static void inHalves(boolean large, int count, Half body) {
    if (!ENABLED || !large) {
      body.run(0, 0, count);
      return;
    }
    int mid = count / 2;
    Part<Boolean> second = start(() -> {
      body.run(1, mid, count);
      return true;
    });
    body.run(0, 0, mid);
    second.join();
  }

  /** What joining threads wait on: a part was queued or has finished. */
  private static final Object SIGNAL = new Object();

  private static void signal() {
    synchronized (SIGNAL) {
      SIGNAL.notifyAll();
    }
  }

  /** A part's task, which wakes the joining threads when it finishes. */
  private static final class Task<T> extends FutureTask<T> {
    Task(Supplier<T> work) {
      super(work::get);
    }

    @Override
    protected void done() {
      signal();
    }
  }
}
