package io.lancecodec.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.LanceCodecException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit log without Spark: the data files are empty placeholders, the log does not open them. */
class CommitLogTest {
  @TempDir Path tmp;

  private static void touch(Path dir, String... names) throws Exception {
    Files.createDirectories(dir);
    for (String n : names) {
      Files.write(dir.resolve(n), new byte[0]);
    }
  }

  private static Set<String> visible(Path dir) {
    Set<String> out = new TreeSet<>();
    for (Path p : LanceFiles.list(dir.toString())) {
      out.add(p.getFileName().toString());
    }
    return out;
  }

  private static Set<String> set(List<String> names) {
    return new TreeSet<>(names);
  }

  /** A log started on a directory holding a.lance, as a first commit into it does. */
  private Path started(String name) throws Exception {
    Path dir = tmp.resolve(name);
    touch(dir, "a.lance");
    new CommitLog(dir).ensureStarted();
    assertEquals(1, new CommitLog(dir).latest());
    return dir;
  }

  @Test
  void twoAppendsRacingForTheSameVersionBothLand() throws Exception {
    Path dir = started("race");
    touch(dir, "b1.lance", "b2.lance", "c1.lance");
    CyclicBarrier bothDecided = new CyclicBarrier(2);
    CommitLog b = new CommitLog(dir);
    CommitLog c = new CommitLog(dir);
    for (CommitLog log : List.of(b, c)) {
      // both have read version 1 and decided their version 2 before either creates it
      log.beforeCreate = () -> {
        if (log.attempts == 0) {
          await(bothDecided);
        }
      };
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Long> fb = pool.submit(() -> b.publish(List.of("b1.lance", "b2.lance"), false));
      Future<Long> fc = pool.submit(() -> c.publish(List.of("c1.lance"), false));
      Set<Long> versions = Set.of(fb.get(10, TimeUnit.SECONDS), fc.get(10, TimeUnit.SECONDS));
      assertEquals(Set.of(2L, 3L), versions);
    } finally {
      pool.shutdownNow();
    }
    assertEquals(Set.of(1, 2), Set.of(b.attempts, c.attempts), "one lost the race for version 2 and retried");
    CommitLog log = new CommitLog(dir);
    assertEquals(3, log.latest());
    assertEquals(Set.of("a.lance", "b1.lance", "b2.lance", "c1.lance"), set(log.files(3)));
    Set<String> v2 = set(log.files(2));
    assertTrue(v2.equals(Set.of("a.lance", "b1.lance", "b2.lance")) || v2.equals(Set.of("a.lance", "c1.lance")), v2.toString());
    assertEquals(Set.of("a.lance", "b1.lance", "b2.lance", "c1.lance"), visible(dir));
  }

  @Test
  void manyConcurrentAppendsLoseNoFile() throws Exception {
    Path dir = started("many");
    int threads = 4;
    int each = 25;
    Set<String> want = new TreeSet<>(Set.of("a.lance"));
    for (int t = 0; t < threads; t++) {
      for (int k = 0; k < each; k++) {
        String n = "t" + t + "-" + k + ".lance";
        touch(dir, n);
        want.add(n);
      }
    }
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          start.await();
          CommitLog log = new CommitLog(dir);
          for (int k = 0; k < each; k++) {
            log.publish(List.of("t" + thread + "-" + k + ".lance"), false);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    CommitLog log = new CommitLog(dir);
    assertEquals(1 + threads * each, log.latest(), "one version per commit");
    assertEquals(want, set(log.files(log.latest())));
  }

  @Test
  void anAppendCommittedFirstIsReplacedByTheOverwrite() throws Exception {
    Path dir = started("append-first");
    touch(dir, "o.lance", "c.lance");
    CountDownLatch decided = new CountDownLatch(1);
    CountDownLatch appended = new CountDownLatch(1);
    CommitLog overwrite = new CommitLog(dir);
    overwrite.beforeCreate = () -> {
      if (overwrite.attempts == 0) {
        decided.countDown();
        await(appended);
      }
    };
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Long> fo = pool.submit(() -> overwrite.publish(List.of("o.lance"), true));
      await(decided);
      assertEquals(2, new CommitLog(dir).publish(List.of("c.lance"), false));
      appended.countDown();
      long v = fo.get(10, TimeUnit.SECONDS);
      assertEquals(3, v);
      assertEquals(2, overwrite.attempts, "the overwrite lost version 2 and took 3");
      overwrite.deleteReplaced(v);
    } finally {
      pool.shutdownNow();
    }
    assertEquals(Set.of("a.lance", "c.lance"), set(new CommitLog(dir).files(2)));
    assertEquals(Set.of("o.lance"), visible(dir));
    assertFalse(Files.exists(dir.resolve("a.lance")));
    assertFalse(Files.exists(dir.resolve("c.lance")));
  }

  @Test
  void anAppendCommittedAfterTheOverwriteKeepsItsFiles() throws Exception {
    Path dir = started("overwrite-first");
    // c.lance is the append's file, moved in but not committed when the overwrite cleans up
    touch(dir, "o.lance", "c.lance");
    CountDownLatch decided = new CountDownLatch(1);
    CountDownLatch overwritten = new CountDownLatch(1);
    CommitLog append = new CommitLog(dir);
    append.beforeCreate = () -> {
      if (append.attempts == 0) {
        decided.countDown();
        await(overwritten);
      }
    };
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Long> fa = pool.submit(() -> append.publish(List.of("c.lance"), false));
      await(decided);
      CommitLog overwrite = new CommitLog(dir);
      assertEquals(2, overwrite.publish(List.of("o.lance"), true));
      overwrite.deleteReplaced(2);
      overwritten.countDown();
      assertEquals(3, fa.get(10, TimeUnit.SECONDS));
      assertEquals(2, append.attempts);
    } finally {
      pool.shutdownNow();
    }
    assertFalse(Files.exists(dir.resolve("a.lance")), "replaced by the overwrite");
    assertEquals(Set.of("o.lance", "c.lance"), visible(dir), "the append lands on top of the overwrite");
  }

  @Test
  void withoutHardLinksTheMoveStillRefusesATakenVersion() throws Exception {
    Path dir = tmp.resolve("no-links");
    CommitLog log = new CommitLog(dir);
    assertTrue(log.create(1, List.of("a.lance")));
    CommitLog moves = new CommitLog(dir);
    moves.disableLinks();
    assertFalse(moves.create(1, List.of("b.lance")));
    assertTrue(moves.create(2, List.of("b.lance")));
    assertEquals(List.of("a.lance"), log.files(1));
    assertEquals(List.of("b.lance"), log.files(2));
    try (var s = Files.list(dir.resolve(CommitLog.DIR))) {
      assertEquals(2, s.count(), "no temporary file is left");
    }
  }

  @Test
  void aDirectoryWithoutVersionsIsListed() throws Exception {
    Path dir = tmp.resolve("plain");
    touch(dir, "b.lance", "a.lance", "notes.txt", "_hidden.lance");
    assertEquals(new TreeSet<>(Set.of("a.lance", "b.lance")), visible(dir));
    // a log directory with no version in it yet (a first commit under way, or crashed before it)
    Files.createDirectories(dir.resolve(CommitLog.DIR));
    Files.write(dir.resolve(CommitLog.DIR).resolve(".v00000000000000000001.x.tmp"), "junk".getBytes(StandardCharsets.UTF_8));
    Files.write(dir.resolve(CommitLog.DIR).resolve("v1"), "junk".getBytes(StandardCharsets.UTF_8));
    assertEquals(new TreeSet<>(Set.of("a.lance", "b.lance")), visible(dir));
    assertEquals(List.of(dir.resolve("a.lance"), dir.resolve("b.lance")), LanceFiles.list(dir.toString()), "in name order");
  }

  @Test
  void readersSeeTheHighestVersionOnly() throws Exception {
    Path dir = tmp.resolve("versions");
    touch(dir, "a.lance", "b.lance", "c.lance");
    CommitLog log = new CommitLog(dir);
    log.create(1, List.of("a.lance"));
    log.create(2, List.of("b.lance", "a.lance"));
    log.create(7, List.of("c.lance"));
    assertEquals(Set.of("c.lance"), visible(dir));
    log.prune(7 + CommitLog.KEEP - 2);
    assertEquals(List.of(7L), log.versions(), "only the versions more than KEEP behind go");
  }

  private static void write(Path dir, String text) throws Exception {
    Files.createDirectories(dir.resolve(CommitLog.DIR));
    Files.write(new CommitLog(dir).file(1), text.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void aCorruptOrHostileVersionIsOneClearError() throws Exception {
    String[][] cases = {
        {"lance-codec-commit 2\na.lance\n", "first line is 'lance-codec-commit 2'"},
        {"a.lance\n", "first line is 'a.lance'"},
        {"", "does not end with a newline"},
        {"lance-codec-commit 1\na.lance", "does not end with a newline"},
        {"lance-codec-commit 1\n../x.lance\n", "line 2 '../x.lance' is not a plain file name"},
        {"lance-codec-commit 1\n/tmp/x.lance\n", "line 2 '/tmp/x.lance' is not a plain file name"},
        {"lance-codec-commit 1\na.lance\nsub/x.lance\n", "line 3 'sub/x.lance' is not a plain file name"},
        {"lance-codec-commit 1\n..\n", "line 2 '..' names a hidden file"},
        {"lance-codec-commit 1\n_lance-codec-commits.lance\n", "names a hidden file"},
        {"lance-codec-commit 1\nx.parquet\n", "line 2 'x.parquet' does not end with .lance"},
        {"lance-codec-commit 1\n\n", "line 2 '' is empty"},
        {"lance-codec-commit 1\na.lance\na.lance\n", "line 3 'a.lance' is listed twice"},
        {"lance-codec-commit 1\n\u00e9.lance\n", "not UTF-8 text"},
    };
    for (String[] c : cases) {
      Path dir = tmp.resolve("bad-" + Integer.toHexString(c[0].hashCode()));
      touch(dir, "a.lance");
      write(dir, c[0]);
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> LanceFiles.list(dir.toString()), c[0]);
      assertEquals(LanceCodecException.Kind.CORRUPT, e.kind());
      assertTrue(e.getMessage().startsWith("commit log file " + new CommitLog(dir).file(1) + " is not a valid lance-codec commit: "), e.getMessage());
      assertTrue(e.getMessage().contains(c[1]), c[1] + " in: " + e.getMessage());
    }
  }

  @Test
  void aVersionNamingAMissingFileIsOneClearError() throws Exception {
    Path dir = tmp.resolve("missing");
    touch(dir, "a.lance");
    write(dir, "lance-codec-commit 1\na.lance\ngone.lance\n");
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> LanceFiles.list(dir.toString()));
    assertEquals("data file " + dir.resolve("gone.lance") + " is missing: version 1 of the commit log ("
        + new CommitLog(dir).file(1) + ") lists it", e.getMessage());
  }

  private static void await(CyclicBarrier b) {
    try {
      b.await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void await(CountDownLatch l) {
    try {
      assertTrue(l.await(10, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
