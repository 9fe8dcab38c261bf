package io.lancecodec.bench.corpus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** End-of-trial clean-up shared by the benchmarks: readers, allocator, then their scratch files. */
public final class Cleanup {
  private Cleanup() {}

  /**
   * Closes the non-null resources in order (readers before the allocator they borrowed from),
   * then deletes {@code dir} and everything in it when it is not null.
   */
  public static void closeThenDelete(Path dir, AutoCloseable... resources) throws Exception {
    for (AutoCloseable r : resources) {
      if (r != null) {
        r.close();
      }
    }
    if (dir != null) {
      deleteTree(dir);
    }
  }

  /** Deletes a directory tree, deepest entries first. */
  public static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
