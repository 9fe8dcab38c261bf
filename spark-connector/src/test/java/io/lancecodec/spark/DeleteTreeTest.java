package io.lancecodec.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's abort deletes its staging directory while tasks that have not stopped yet may still
 * add files to it: the directory is gone afterwards all the same (a task adding a file after it
 * went fails on its own).
 */
class DeleteTreeTest {
  @TempDir Path tmp;

  @Test
  void aTreeStillGrowingIsDeleted() throws Exception {
    for (int round = 0; round < 500; round++) {
      Path dir = Files.createDirectories(tmp.resolve("staging-" + round).resolve("sub"));
      for (int i = 0; i < 20; i++) {
        Files.createFile(dir.resolve("f" + i));
      }
      Path top = dir.getParent();
      CountDownLatch started = new CountDownLatch(1);
      Thread task = new Thread(() -> {
        started.countDown();
        // as a task's writer does: a partial file, then its rename to the task's file, a few times
        for (int i = 0; i < 5; i++) {
          try {
            Path partial = Files.createFile(top.resolve(".late-" + i + ".partial"));
            Files.move(partial, top.resolve("late-" + i + ".lance"));
          } catch (Exception gone) {
            return;
          }
        }
      });
      task.start();
      started.await();
      LanceWrite.deleteTree(top);
      task.join();
      // the writer stops at its first failure; anything it made before the directory went is gone with it
      assertFalse(Files.exists(top), "round " + round);
    }
  }
}
