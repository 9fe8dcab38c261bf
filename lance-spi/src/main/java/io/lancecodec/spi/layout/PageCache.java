package io.lancecodec.spi.layout;

import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Decoded page state that is too bulky to keep for the life of a reader (a page's dictionary,
 * levels of a constant page): a layout asks for it by key on use, and the runtime keeps it while
 * its byte budget allows. Callers must not assume two calls return the same object.
 */
public interface PageCache {
  /**
   * The value cached under {@code key}, or {@code loader}'s result on a miss, which is kept when
   * {@code weigher} says it fits the budget. Keys compare by {@code equals}; a layout uses a key
   * object private to one page decoder.
   */
  <T> T get(Object key, Supplier<T> loader, ToLongFunction<? super T> weigher);

  /** A cache that keeps nothing: every get loads. */
  PageCache NONE =
      new PageCache() {
        @Override
        public <T> T get(Object key, Supplier<T> loader, ToLongFunction<? super T> weigher) {
          return loader.get();
        }
      };
}
