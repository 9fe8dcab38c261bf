package io.lancecodec.runtime;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The temporary files of {@link LanceFileWriter}: {@code .<target name>.<digits>.partial} beside
 * the target, locked (an exclusive {@link FileLock}, released by the operating system when the
 * writing process dies) for as long as their writer lives. A writer that is killed leaves its
 * partial file behind; a later writer opened in that directory deletes every partial file whose
 * lock it can take and that has not been touched for {@link #STALE_AFTER_MILLIS} (the grace
 * covers the moment between a file's creation and its lock). Files of live writers, in this
 * process or another, keep their locks and are left alone; so are files on file systems without
 * locks. A process looks through a directory at most once per {@link #STALE_AFTER_MILLIS}: no
 * file turns stale sooner, and listing the directory was an eighth of a small file's write
 * (200,000 timestamps, 0.8 ms), so a dead writer's file goes within twice that time instead.
 */
final class PartialFiles {
  /** How long a lockable partial file must have been left untouched before it is deleted. */
  static final long STALE_AFTER_MILLIS = 2000;

  private static final Pattern NAME = Pattern.compile("\\..+\\.[0-9]+\\.partial");

  private PartialFiles() {}

  /** A partial file and the channel it was created with. */
  record Created(Path path, FileChannel channel) {}

  /**
   * A new partial file for {@code target}, created beside it and opened for writing in one call.
   * Created with the process's default permissions, as any file a program writes: through
   * {@code Files.createTempFile} (then opened a second time) every file written, once renamed,
   * was readable by its owner only.
   */
  static Created create(Path target) throws IOException {
    Path dir = target.getParent();
    String prefix = "." + target.getFileName() + ".";
    for (int attempt = 0; ; attempt++) {
      // the name only has to be new: creation is exclusive, a taken one is drawn again
      Path p = dir.resolve(prefix + Long.toUnsignedString(ThreadLocalRandom.current().nextLong()) + ".partial");
      try {
        return new Created(p, FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
      } catch (FileAlreadyExistsException e) {
        if (attempt == 99) {
          throw e;
        }
      }
    }
  }

  /** The exclusive lock that marks a partial file as live, or null where locks are not supported. */
  static FileLock lock(FileChannel channel) {
    try {
      return channel.tryLock();
    } catch (IOException | OverlappingFileLockException | UnsupportedOperationException e) {
      return null;
    }
  }

  /** When this process last looked through each directory ({@link System#nanoTime}). */
  private static final java.util.concurrent.ConcurrentHashMap<Path, Long> SWEPT = new java.util.concurrent.ConcurrentHashMap<>();

  /** Directories remembered at most: past it the memory starts over (and each is looked through again). */
  private static final int SWEPT_MAX = 4096;

  /**
   * {@link #sweep}s {@code dir} unless this process did in the last {@link #STALE_AFTER_MILLIS};
   * returns how many files it deleted.
   */
  static int deleteStale(Path dir) {
    Path key = dir.toAbsolutePath();
    long now = System.nanoTime();
    Long last = SWEPT.get(key);
    if (last != null && now - last < STALE_AFTER_MILLIS * 1_000_000L) {
      return 0;
    }
    if (SWEPT.size() >= SWEPT_MAX) {
      SWEPT.clear();
    }
    SWEPT.put(key, now);
    return sweep(dir);
  }

  /** Deletes the stale partial files of dead writers in {@code dir}; returns how many. */
  static int sweep(Path dir) {
    int deleted = 0;
    long before = System.currentTimeMillis() - STALE_AFTER_MILLIS;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, ".*.partial")) {
      for (Path f : files) {
        if (NAME.matcher(f.getFileName().toString()).matches() && deleteIfStale(f, before)) {
          deleted++;
        }
      }
    } catch (IOException | RuntimeException e) {
      // cleaning is a courtesy: a directory that cannot be listed keeps its partial files
    }
    return deleted;
  }

  private static boolean deleteIfStale(Path f, long before) {
    try {
      if (Files.getLastModifiedTime(f).toMillis() > before) {
        return false;
      }
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
        FileLock lock = ch.tryLock();
        if (lock == null) {
          return false; // a live writer in another process
        }
        Files.deleteIfExists(f);
        return true;
      }
    } catch (OverlappingFileLockException e) {
      return false; // a live writer in this process
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
