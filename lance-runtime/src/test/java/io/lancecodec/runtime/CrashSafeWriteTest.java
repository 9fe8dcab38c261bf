package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The target path of a write shows nothing or a complete file, whatever happens to the writer:
 * a writing JVM killed with SIGKILL at random moments ({@link CrashWriterMain}), a writing thread
 * interrupted, a second writer opening beside a live one. Partial files of killed writers are
 * deleted by the next writer opened in the directory; a live writer's never are. The suite kills
 * {@link #SUITE_KILLS} times; {@code -Dcrash.kills=200} runs the long form (docs/reliability.md).
 */
class CrashSafeWriteTest extends WithAllocator {
  static final int SUITE_KILLS = 6;

  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  void killedWritersLeaveNothingOrACompleteFile() throws Exception {
    int kills = Integer.getInteger("crash.kills", SUITE_KILLS);
    Random rnd = new Random(41);
    FileVersion[] versions = {FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3};
    int complete = 0;
    int partials = 0;
    for (int k = 0; k < kills; k++) {
      Path d = Files.createDirectories(dir.resolve("kill-" + k));
      Process p = new ProcessBuilder(javaCommand(d, "t.lance", versions[k % 3]))
          .redirectError(dir.resolve("kill-" + k + ".err").toFile()).start();
      BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String first = lines.readLine();
      assertEquals("started", first, "the writer process did not start");
      // a drain thread, so the child never blocks on a full pipe
      Thread drain = new Thread(() -> {
        try {
          while (lines.readLine() != null) {
            // discard
          }
        } catch (java.io.IOException e) {
          // the pipe closes when the process is killed
        }
      });
      drain.setDaemon(true);
      drain.start();
      Thread.sleep(rnd.nextInt(2500));
      p.destroyForcibly(); // SIGKILL on Unix: no shutdown hooks, no finally blocks
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the killed writer did not exit");
      Path target = d.resolve("t.lance");
      if (Files.exists(target)) {
        assertWhole(target);
        complete++;
      }
      // what a killed writer leaves is at most its partial file; the next writer deletes it
      for (Path f : list(d)) {
        assertTrue(f.equals(target) || f.getFileName().toString().endsWith(".partial"), "unexpected file " + f);
        if (!f.equals(target)) {
          partials++;
          Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 10_000));
        }
      }
      try (LanceFileWriter w = LanceFileWriter.open(d.resolve("next.lance"), CrashWriterMain.SCHEMA, WriterOptions.defaults())) {
        w.abort();
      }
      for (Path f : list(d)) {
        assertFalse(f.getFileName().toString().endsWith(".partial"), "partial file left after the next open: " + f);
      }
    }
    System.out.println("[crash] " + kills + " kills: " + complete + " found a complete file, " + (kills - complete)
        + " nothing; " + partials + " partial files left by the killed writers, all deleted by the next writer");
    assertTrue(partials > 0, "no kill hit a write in progress: the test did not test");
  }

  /**
   * A written file has the permissions any new file of the process gets (its umask), as the
   * reference's files do; it was once readable by its owner only, as a temporary file is.
   */
  @Test
  void aWrittenFileHasTheProcesssDefaultPermissions() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path d = Files.createDirectories(dir.resolve("perms"));
    Path plain = Files.createFile(d.resolve("plain"));
    try (LanceFileWriter w = LanceFileWriter.open(d.resolve("t.lance"), CrashWriterMain.SCHEMA, WriterOptions.defaults());
        VectorSchemaRoot root = VectorSchemaRoot.create(CrashWriterMain.SCHEMA, allocator)) {
      CrashWriterMain.fill(root, 0);
      w.write(root);
    }
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(d.resolve("t.lance")));
  }

  /**
   * A process looks through a directory for dead writers' files at most once per stale interval
   * (no file turns stale sooner); the next writer opened after it deletes what turned up since.
   */
  @Test
  void aDirectoryIsLookedThroughAtMostOncePerStaleInterval() throws Exception {
    Path d = Files.createDirectories(dir.resolve("throttle"));
    FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 10_000);
    Path first = Files.write(d.resolve(".t.lance.101.partial"), new byte[] {1});
    Files.setLastModifiedTime(first, old);
    assertEquals(1, PartialFiles.deleteStale(d));
    Path second = Files.write(d.resolve(".t.lance.102.partial"), new byte[] {2});
    Files.setLastModifiedTime(second, old);
    assertEquals(0, PartialFiles.deleteStale(d), "looked through again within the interval");
    assertTrue(Files.exists(second));
    Thread.sleep(PartialFiles.STALE_AFTER_MILLIS + 100);
    try (LanceFileWriter w = LanceFileWriter.open(d.resolve("next.lance"), CrashWriterMain.SCHEMA, WriterOptions.defaults())) {
      w.abort();
    }
    assertFalse(Files.exists(second), "a dead writer's file outlived the interval and the next open");
  }

  @Test
  void aLiveWritersPartialFileIsLeftAlone() throws Exception {
    Path d = Files.createDirectories(dir.resolve("live"));
    try (LanceFileWriter a = LanceFileWriter.open(d.resolve("a.lance"), CrashWriterMain.SCHEMA, WriterOptions.defaults());
        VectorSchemaRoot root = VectorSchemaRoot.create(CrashWriterMain.SCHEMA, allocator)) {
      CrashWriterMain.fill(root, 0);
      a.write(root);
      Path partial = list(d).get(0);
      Files.setLastModifiedTime(partial, FileTime.fromMillis(System.currentTimeMillis() - 10_000));
      try (LanceFileWriter b = LanceFileWriter.open(d.resolve("b.lance"), CrashWriterMain.SCHEMA, WriterOptions.defaults())) {
        b.write(root);
      }
      // b's open may not have looked (a's did, just now): look through the directory as it would
      assertEquals(0, PartialFiles.sweep(d));
      assertTrue(Files.exists(partial), "the live writer's partial file was deleted");
    }
    assertWhole(d.resolve("a.lance"), CrashWriterMain.BATCH_ROWS);
    assertEquals(List.of(d.resolve("a.lance"), d.resolve("b.lance")), list(d));
  }

  @Test
  void anInterruptedWriteFailsWithOneErrorAndLeavesNothing() throws Exception {
    Random rnd = new Random(43);
    int interrupted = 0;
    for (int k = 0; k < 8; k++) {
      Path d = Files.createDirectories(dir.resolve("interrupt-" + k));
      Path target = d.resolve("t.lance");
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread t = new Thread(() -> {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(CrashWriterMain.SCHEMA, allocator);
            LanceFileWriter w = LanceFileWriter.open(target, CrashWriterMain.SCHEMA,
                WriterOptions.defaults().withPageBytesPerColumn(16 << 10))) {
          for (int b = 0; b < CrashWriterMain.BATCHES; b++) {
            CrashWriterMain.fill(root, b * CrashWriterMain.BATCH_ROWS);
            w.write(root);
          }
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      t.start();
      Thread.sleep(rnd.nextInt(40));
      t.interrupt();
      t.join(60_000);
      Throwable e = failure.get();
      if (e == null) {
        assertWhole(target);
      } else {
        assertTrue(e instanceof LanceCodecException, "not a LanceCodecException: " + e);
        LanceCodecException l = (LanceCodecException) e;
        assertEquals(LanceCodecException.Kind.IO, l.kind(), l.getMessage());
        assertTrue(l.getMessage().contains("interrupted") && l.getMessage().contains("nothing was written"), l.getMessage());
        assertFalse(Files.exists(target), "a failed write left its target");
        interrupted++;
      }
      assertEquals(e == null ? List.of(target) : List.of(), list(d), "files left by the write");
    }
    assertTrue(interrupted > 0, "no write was interrupted: the test did not test");
  }

  /**
   * A disk that fills up at random offsets of the file (and once never): each failed write is one
   * IO error saying nothing was written and why, and leaves neither the target nor a partial file.
   */
  @Test
  void aFullDiskFailsTheWriteAndLeavesNothing() throws Exception {
    Path d = Files.createDirectories(dir.resolve("full"));
    Path target = d.resolve("t.lance");
    Random rnd = new Random(47);
    int failed = 0;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(CrashWriterMain.SCHEMA, allocator)) {
      for (int k = 0; k < 25; k++) {
        long capacity = k == 0 ? Long.MAX_VALUE : rnd.nextInt(600_000);
        LanceFileWriter.channelWrapper = c -> new FullDiskChannel(c, capacity);
        try (LanceFileWriter w = LanceFileWriter.open(target, CrashWriterMain.SCHEMA,
            WriterOptions.defaults().withPageBytesPerColumn(32 << 10))) {
          for (int b = 0; b < CrashWriterMain.BATCHES; b++) {
            CrashWriterMain.fill(root, b * CrashWriterMain.BATCH_ROWS);
            w.write(root);
          }
        } catch (LanceCodecException e) {
          failed++;
          assertEquals(LanceCodecException.Kind.IO, e.kind(), e.getMessage());
          assertTrue(e.getMessage().contains("failed, nothing was written: No space left on device"), e.getMessage());
          assertFalse(Files.exists(target), "a failed write left its target");
          assertEquals(List.of(), list(d), "files left by a failed write");
          continue;
        } finally {
          LanceFileWriter.channelWrapper = java.util.function.UnaryOperator.identity();
        }
        assertWhole(target);
        Files.delete(target);
      }
    }
    assertTrue(failed >= 20, failed + " of 25 writes failed");
  }

  private static List<String> javaCommand(Path d, String name, FileVersion version) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-Xshare:auto");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(CrashWriterMain.class.getName());
    cmd.add(d.toString());
    cmd.add(name);
    cmd.add(version.toString());
    return cmd;
  }

  private static void assertWhole(Path target) {
    assertWhole(target, CrashWriterMain.BATCHES * CrashWriterMain.BATCH_ROWS);
  }

  /** The file at {@code target} reads in full and holds exactly the rows the writer writes. */
  private static void assertWhole(Path target, int rows) {
    try (LanceFileReader r = LanceFileReader.open(target);
        VectorSchemaRoot all = r.readRange(0, r.numRows(), null, allocator)) {
      assertEquals(rows, all.getRowCount(), target + ": rows");
      IntVector i = (IntVector) all.getVector(0);
      VarCharVector s = (VarCharVector) all.getVector(1);
      for (int row = 0; row < rows; row++) {
        if (i.get(row) != row || !CrashWriterMain.text(row).equals(new String(s.get(row), StandardCharsets.UTF_8))) {
          throw new AssertionError(target + ": row " + row + " is wrong");
        }
      }
    }
  }

  private static List<Path> list(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.sorted().toList();
    }
  }
}
