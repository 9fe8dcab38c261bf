package io.lancecodec.spi;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Independent parts of writing one page (the second half of a page's FSST codes, the level
 * compressors chosen while the values are compressed), or of decoding one block (the last
 * windows of a large block of FSST codes), handed to another core. What is written or read
 * never depends on it: a part computes exactly what the caller would have computed, and the
 * caller puts the parts together in a fixed order. On by default when the JVM has more than one
 * processor; {@code -Dlancecodec.write.parallel=false} or the environment variable
 * {@code LANCE_CODEC_WRITE_PARALLEL=0} keeps every write on the calling thread, and
 * {@code -Dlancecodec.read.parallel=false} or {@code LANCE_CODEC_READ_PARALLEL=0} every read.
 *
 * <p>The pool has one daemon thread per processor beyond the first. A part no pool thread has
 * started yet when the caller needs it runs on the caller, so a busy pool (many writers, or one
 * writer's parts waiting on each other) costs time, never a deadlock; and a caller waiting for a
 * part a pool thread runs takes up queued parts meanwhile, so a part may split itself in two
 * (packing a page's halves) and have the waiting caller do the half it queued.
 */
public final class Parallelism {
  private Parallelism() {}

  /** Whether parts of writes are handed to the pool at all. */
  public static final boolean ENABLED = enabled("lancecodec.write.parallel", "LANCE_CODEC_WRITE_PARALLEL");

  /**
   * Whether reads hand parts to the pool ({@link #fromBothEnds}); an engine that already runs one
   * scan per core may turn this off.
   */
  public static final boolean READS = enabled("lancecodec.read.parallel", "LANCE_CODEC_READ_PARALLEL");

  private static boolean enabled(String property, String variable) {
    String prop = System.getProperty(property);
    if (prop != null) {
      return Boolean.parseBoolean(prop.trim());
    }
    String env = System.getenv(variable);
    if (env != null) {
      return !(env.trim().equals("0") || env.trim().equalsIgnoreCase("false"));
    }
    return Runtime.getRuntime().availableProcessors() > 1;
  }

  private static final class Pool {
    static final ThreadPoolExecutor POOL = create();

    private static ThreadPoolExecutor create() {
      int threads = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
      ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new SpinningQueue(), r -> {
        Thread t = new Thread(r, "lance-codec-part");
        t.setDaemon(true);
        return t;
      });
      pool.allowCoreThreadTimeOut(true);
      return pool;
    }
  }

  /**
   * The pool's queue, on which an idle pool thread polls for {@link #SPIN_NANOS} before it parks.
   * Parts come in bursts (a scan's blocks, a write's pages), and on a virtual machine waking a
   * parked thread costs the caller about 14 µs inside {@code execute} and the part about 30 µs
   * before it starts, as long as a large block's whole second half takes to decode. A part
   * queued while a pool thread spins starts at once, and queuing it wakes nobody.
   */
  private static final class SpinningQueue extends LinkedBlockingQueue<Runnable> {
    @Override
    public Runnable take() throws InterruptedException {
      Runnable r = spin();
      return r != null ? r : super.take();
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
      Runnable r = spin();
      return r != null ? r : super.poll(timeout, unit);
    }

    private Runnable spin() {
      long end = System.nanoTime() + SPIN_NANOS;
      do {
        Runnable r = poll();
        if (r != null) {
          return r;
        }
        Thread.onSpinWait();
      } while (System.nanoTime() - end < 0);
      return null;
    }
  }

  /** How long an idle pool thread polls for the next part before it parks. */
  private static final long SPIN_NANOS = 200_000;

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

  /** One segment of work split in order; {@code front} is true on the calling thread. */
  @FunctionalInterface
  public interface Segment {
    void run(int index, boolean front);
  }

  /**
   * Runs {@code body} once for every index of {@code [0, count)}: this thread from 0 upward and,
   * when {@link #READS} and a pool thread comes free in time, that thread from {@code count - 1}
   * downward, until the two meet. So a pool thread that wakes late (tens of microseconds on a
   * virtual machine) or never just leaves more segments to the caller, which never waits for it
   * to start. Returns, once no segment runs any more, the lowest index the pool thread ran
   * ({@code count} if it ran none): the caller ran those below it in order, the pool thread those
   * from it up, from the top down. A failure of either is rethrown here, after the other has left
   * the segment it was in (the segments write into arrays the caller hands on).
   */
  public static int fromBothEnds(int count, Segment body) {
    if (!READS || count < 2) {
      for (int i = 0; i < count; i++) {
        body.run(i, true);
      }
      return count;
    }
    Meeting m = new Meeting(count, body);
    Pool.POOL.execute(m);
    signal();
    Throwable failure = null;
    try {
      for (int i; (i = m.claim(true)) >= 0; ) {
        body.run(i, true);
      }
    } catch (RuntimeException | Error e) {
      failure = e;
      m.close();
    }
    int split = m.awaitBack();
    if (failure == null) {
      failure = m.failure;
    }
    if (failure != null) {
      throw rethrown(failure, "part of a read");
    }
    return split;
  }

  /** The two ends of {@link #fromBothEnds}. */
  private static final class Meeting implements Runnable {
    private final Segment body;
    private final int count;
    /** The next index from the front (low half) and one past the next from the back (high half). */
    private final AtomicLong ends;
    /** Segments the pool thread has finished or abandoned (it stops at its first failure). */
    private volatile int backDone;
    private volatile Throwable failure;

    Meeting(int count, Segment body) {
      this.body = body;
      this.count = count;
      this.ends = new AtomicLong((long) count << 32);
    }

    /** The next index for the front or the back, or -1 once the two ends have met. */
    int claim(boolean front) {
      while (true) {
        long e = ends.get();
        int f = (int) e;
        int b = (int) (e >>> 32);
        if (f >= b) {
          return -1;
        }
        if (ends.compareAndSet(e, front ? e + 1 : e - (1L << 32))) {
          return front ? f : b - 1;
        }
      }
    }

    /** Leaves nothing more to claim. */
    void close() {
      while (true) {
        long e = ends.get();
        long b = e >>> 32;
        if (ends.compareAndSet(e, b << 32 | b)) {
          return;
        }
      }
    }

    @Override
    public void run() {
      int done = 0;
      try {
        for (int i; (i = claim(false)) >= 0; ) {
          body.run(i, false);
          backDone = ++done;
        }
      } catch (RuntimeException | Error e) {
        failure = e;
        close();
        backDone = done + 1;
      }
    }

    /**
     * Once the front has nothing left to claim: waits until the back has left every segment it
     * claimed (at most one is in progress, spun on briefly, then slept on), returns where the
     * back's segments start.
     */
    int awaitBack() {
      int split = (int) (ends.get() >>> 32);
      int claimed = count - split;
      for (int spins = 0; backDone < claimed; spins++) {
        if (spins < SPINS) {
          Thread.onSpinWait();
        } else {
          java.util.concurrent.locks.LockSupport.parkNanos(10_000);
        }
      }
      return split;
    }
  }

  /** Spins (one PAUSE each: 10 to 40 ns on x86) before a caller waiting on a segment in progress sleeps instead. */
  private static final int SPINS = 5_000;

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
