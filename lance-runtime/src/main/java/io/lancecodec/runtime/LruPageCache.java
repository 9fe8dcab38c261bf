package io.lancecodec.runtime;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.PageCache;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * A least-recently-used cache of decoded page state under a byte budget. Loads run outside the
 * lock, so two threads missing the same key may both load it (the first to finish is kept, both
 * results are correct); a value heavier than the whole budget is returned but never kept. One
 * instance may be shared by several readers.
 */
public final class LruPageCache implements PageCache {
  /** Budget of a reader opened without one: enough for the dictionaries of a few large pages. */
  public static final long DEFAULT_BUDGET = 64L << 20;

  private record Entry(Object value, long weight) {}

  private final long budget;
  private final LinkedHashMap<Object, Entry> map = new LinkedHashMap<>(16, 0.75f, true);
  private long used;
  private long hits;
  private long misses;
  private long evictions;

  public LruPageCache(long budgetBytes) {
    if (budgetBytes < 0) {
      throw LanceCodecException.invalidArgument("cache budget must not be negative, got " + budgetBytes);
    }
    this.budget = budgetBytes;
  }

  @Override
  public <T> T get(Object key, Supplier<T> loader, ToLongFunction<? super T> weigher) {
    synchronized (this) {
      Entry e = map.get(key);
      if (e != null) {
        hits++;
        @SuppressWarnings("unchecked")
        T v = (T) e.value();
        return v;
      }
      misses++;
    }
    T value = loader.get();
    long weight = Math.max(0, weigher.applyAsLong(value));
    if (weight > budget) {
      return value;
    }
    synchronized (this) {
      Entry raced = map.get(key);
      if (raced != null) {
        @SuppressWarnings("unchecked")
        T v = (T) raced.value();
        return v;
      }
      map.put(key, new Entry(value, weight));
      used += weight;
      for (Iterator<Map.Entry<Object, Entry>> it = map.entrySet().iterator(); used > budget && it.hasNext(); ) {
        Map.Entry<Object, Entry> eldest = it.next();
        if (eldest.getKey().equals(key)) {
          continue;
        }
        used -= eldest.getValue().weight();
        it.remove();
        evictions++;
      }
    }
    return value;
  }

  public long budgetBytes() {
    return budget;
  }

  /** Bytes of the values held now. */
  public synchronized long usedBytes() {
    return used;
  }

  public synchronized int entries() {
    return map.size();
  }

  public synchronized long hits() {
    return hits;
  }

  public synchronized long misses() {
    return misses;
  }

  public synchronized long evictions() {
    return evictions;
  }

  /** Drops every value (readers keep working and load again on use). */
  public synchronized void clear() {
    map.clear();
    used = 0;
  }

  @Override
  public synchronized String toString() {
    return used + " of " + budget + " bytes in " + map.size() + " entries (" + hits + " hits, " + misses + " misses, "
        + evictions + " evictions)";
  }
}
