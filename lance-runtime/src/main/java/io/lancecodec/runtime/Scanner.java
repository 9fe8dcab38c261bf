package io.lancecodec.runtime;

import io.lancecodec.spi.LanceCodecException;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A full scan in batches, decoding up to {@code readAhead} batches ahead on background threads
 * while the caller consumes the current one, so a scan uses more than one core. Batches come
 * back in order; each returned batch belongs to the caller. Closing the scanner releases batches
 * decoded ahead but not taken; a scan read to the end needs no close.
 */
public final class Scanner implements Iterator<VectorSchemaRoot>, AutoCloseable {
  /** Daemon threads shared by all scans; the read-ahead window bounds how many each scan uses. */
  private static final ExecutorService POOL =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "lance-codec-scan");
            t.setDaemon(true);
            return t;
          });

  private final LanceFileReader reader;
  private final List<String> columns;
  private final int batchSize;
  private final int readAhead;
  private final BufferAllocator allocator;
  private final ArrayDeque<Future<VectorSchemaRoot>> pending = new ArrayDeque<>();
  private long nextToSchedule;
  private long delivered;

  Scanner(LanceFileReader reader, List<String> columns, int batchSize, int readAhead, BufferAllocator allocator) {
    this.reader = reader;
    this.columns = columns;
    this.batchSize = batchSize;
    this.readAhead = readAhead;
    this.allocator = allocator;
  }

  @Override
  public boolean hasNext() {
    return delivered < reader.numRows();
  }

  @Override
  public VectorSchemaRoot next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    if (readAhead == 0) {
      long end = Math.min(reader.numRows(), delivered + batchSize);
      VectorSchemaRoot r = reader.readRange(delivered, end, columns, allocator);
      delivered = end;
      return r;
    }
    while (pending.size() <= readAhead && nextToSchedule < reader.numRows()) {
      long start = nextToSchedule;
      long end = Math.min(reader.numRows(), start + batchSize);
      pending.add(POOL.submit(() -> reader.readRange(start, end, columns, allocator)));
      nextToSchedule = end;
    }
    VectorSchemaRoot r = await(pending.poll());
    delivered += r.getRowCount();
    return r;
  }

  private static VectorSchemaRoot await(Future<VectorSchemaRoot> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LanceCodecException(LanceCodecException.Kind.IO, "scan interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new LanceCodecException(LanceCodecException.Kind.INTERNAL, "scan failed: " + e.getCause(), e.getCause());
    }
  }

  /** Waits for the batches decoded ahead and releases them. */
  @Override
  public void close() {
    while (!pending.isEmpty()) {
      Future<VectorSchemaRoot> f = pending.poll();
      try {
        f.get().close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException | CancellationException e) {
        // the batch never materialized; nothing to release
      }
    }
  }
}
