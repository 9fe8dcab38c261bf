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
        throw rethrown(e.getCause(), "part of a page");
      }
    }
  }

  /** {@code failure} to throw as it was thrown, or wrapped when it is a checked exception. */
  private static RuntimeException rethrown(Throwable failure, String what) {
    if (failure instanceof RuntimeException re) {
      return re;
    }
    if (failure instanceof Error err) {
      throw err;
    }
    return LanceCodecException.internal(what + " failed: " + failure);
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

  /**
   * A pool thread that stays with the caller through a loop of short steps, each of two halves
   * that are independent of each other (the passes of a learning loop, say, a tenth of a
   * millisecond each): the caller runs half 0 of a step and the partner half 1. Between steps
   * the partner spins instead of parking, since waking a parked thread on a virtual machine
   * costs about as much as the half it would do. Only when the caller has been away for
   * {@link #IDLE_NANOS} (preempted, on a machine with more runnable threads than cores) does the
   * partner park, and the caller's next step wakes it; it leaves after {@link #PARK_NANOS}
   * parked, as soon as other parts wait in the pool's queue, and at {@link #close}. A half the
   * partner has not taken up when the caller finishes its own half runs on the caller, so a busy
   * or absent partner costs time, never a wait. What is computed never depends on which thread
   * ran a half.
   */
  public static final class Partner implements AutoCloseable {
    /**
     * How long the partner spins without a step before it parks, in time and in spins: a
     * safepoint or a collection stops both threads for a while, which must not look idle.
     */
    static final long IDLE_NANOS = 1_000_000;

    static final int IDLE_SPINS = 10_000;

    /** How long a parked partner waits for a step before it leaves. */
    static final long PARK_NANOS = 5_000_000;

    private final java.util.concurrent.atomic.AtomicInteger claim = new java.util.concurrent.atomic.AtomicInteger();
    private volatile int step;
    private volatile int done;
    private volatile boolean closed;
    private volatile boolean parked;
    private volatile Thread thread;
    private java.util.function.IntConsumer body;
    private Throwable failure;
    private int steps;

    private Partner() {}

    /** A partner on the pool, or one that never comes when parts are disabled. */
    public static Partner start() {
      Partner p = new Partner();
      if (ENABLED) {
        Pool.POOL.execute(p::serve);
      }
      return p;
    }

    /**
     * Runs {@code half.accept(0)} here and {@code half.accept(1)} on the partner if it takes it
     * up in time, else here too; returns when both are done. A half's exception is rethrown; when
     * half 0 fails, half 1 is not started, or finished first if the partner has started it.
     */
    public void run(java.util.function.IntConsumer half) {
      int s = ++steps;
      body = half;
      claim.set(s);
      step = s; // publishes body: the partner reads step before body
      // The partner writes parked before it reads step, this thread step before parked: one of
      // the two sees the other's write, so a partner never sleeps through a step.
      if (parked) {
        java.util.concurrent.locks.LockSupport.unpark(thread);
      }
      try {
        half.accept(0);
      } catch (RuntimeException | Error e) {
        // the partner's half must not outlive the step (the caller may reuse what it writes)
        if (!claim.compareAndSet(s, 0)) {
          awaitPartner(s);
        }
        throw e;
      }
      if (claim.compareAndSet(s, 0)) {
        half.accept(1);
        return;
      }
      Throwable f = awaitPartner(s);
      if (f != null) {
        throw rethrown(f, "half of a step");
      }
    }

    /** Waits for the partner to finish step {@code s}; its half's exception, if any. */
    private Throwable awaitPartner(int s) {
      while (done != s) {
        Thread.onSpinWait();
      }
      Throwable f = failure;
      failure = null;
      return f;
    }

    private void serve() {
      thread = Thread.currentThread();
      int seen = 0;
      long idleSince = System.nanoTime();
      int idleSpins = 0;
      while (!closed) {
        int s = step;
        if (s != seen) {
          seen = s;
          if (claim.compareAndSet(s, -s)) {
            try {
              body.accept(1);
            } catch (Throwable t) {
              failure = t;
            }
            done = s;
          }
          idleSince = System.nanoTime();
          idleSpins = 0;
        } else if (!Pool.POOL.getQueue().isEmpty()) {
          return;
        } else if (++idleSpins > IDLE_SPINS && System.nanoTime() - idleSince > IDLE_NANOS) {
          if (!sleepUntilStep(seen)) {
            return;
          }
          idleSince = System.nanoTime();
          idleSpins = 0;
        } else {
          Thread.onSpinWait();
        }
      }
    }

    /** Parks until a step after {@code seen} or for {@link #PARK_NANOS}; whether a step came. */
    private boolean sleepUntilStep(int seen) {
      parked = true;
      try {
        long deadline = System.nanoTime() + PARK_NANOS;
        for (long left = PARK_NANOS; step == seen && !closed && left > 0; left = deadline - System.nanoTime()) {
          java.util.concurrent.locks.LockSupport.parkNanos(this, left);
        }
      } finally {
        parked = false;
      }
      return step != seen && !closed;
    }

    /** Lets the partner go; later steps would run wholly on the caller. */
    @Override
    public void close() {
      closed = true;
      if (parked) {
        java.util.concurrent.locks.LockSupport.unpark(thread);
      }
    }
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
