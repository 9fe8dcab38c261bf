package io.lancecodec.spark;

import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;

/**
 * A job writing one Lance file per task. Tasks write into a staging directory the readers of the
 * target never list; the job commit makes the files visible in one step, the abort deletes the
 * staging directory, so a failed job leaves no file visible. Into a directory that does not exist
 * yet the commit is one rename of the whole staging directory, which already holds version 1 of
 * the {@link CommitLog}; into an existing one the files are moved in (invisible to readers, which
 * see the log's latest version) and one new version listing them is created, after which an
 * overwrite deletes the files it replaced.
 */
final class LanceWrite implements WriteBuilder, SupportsTruncate, Write, BatchWrite {
  static final String STAGING = "lance-codec-staging-";

  private final StructType schema;
  private final LanceOptions options;
  private final String queryId;
  private boolean truncate;
  private Path target;
  private Path staging;
  /** Staging is the target-to-be: commit renames the directory itself. */
  private boolean fresh;

  /**
   * Runs in a commit into an existing directory after the data files are moved in and before the
   * version that shows them is created: tests read the directory there (a job's commit runs in
   * the driver, in their JVM). Null outside tests.
   */
  static volatile Runnable beforePublish;

  LanceWrite(StructType schema, LanceOptions options, String queryId) {
    this.schema = schema;
    this.options = options;
    this.queryId = queryId;
  }

  @Override
  public WriteBuilder truncate() {
    truncate = true;
    return this;
  }

  @Override
  public Write build() {
    // fail on the driver, before any task runs, for a bad option or an unwritable schema
    SparkSchemas.toArrow(schema, options);
    options.writerOptions();
    return this;
  }

  @Override
  public String description() {
    return "lance-codec write to " + options.path;
  }

  @Override
  public BatchWrite toBatch() {
    return this;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    target = LanceFiles.path(options.requirePath()).toAbsolutePath();
    try {
      if (Files.isRegularFile(target)) {
        throw LanceCodecException.invalidArgument("cannot write to " + target + ": a file; writes go to a directory of Lance files");
      }
      fresh = !Files.exists(target);
      if (fresh) {
        Files.createDirectories(target.getParent());
        staging = target.resolveSibling("." + target.getFileName() + "." + STAGING + queryId);
      } else {
        staging = target.resolve(LanceFiles.HIDDEN_PREFIX + STAGING + queryId);
      }
      Files.createDirectories(staging);
    } catch (IOException e) {
      throw LanceCodecException.io("cannot create the staging directory for " + target + ": " + e.getMessage(), e);
    }
    return new LanceDataWriterFactory(schema, options, staging.toString(), queryId);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    List<String> files = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof LanceCommitMessage c && c.file() != null) {
        files.add(c.file());
      }
    }
    try {
      if (fresh && !Files.exists(target)) {
        new CommitLog(staging).publish(files, true);
        try {
          Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
          return;
        } catch (FileSystemException e) {
          // the target appeared meanwhile (empty or not), or the file system cannot rename a
          // directory atomically: commit as into an existing directory, with the target's own log
          if (!(e instanceof AtomicMoveNotSupportedException) && !Files.isDirectory(target)) {
            throw e;
          }
          deleteTree(staging.resolve(CommitLog.DIR));
          Files.createDirectories(target);
        }
      }
      commitInto(files);
    } catch (IOException e) {
      throw LanceCodecException.io("committing the write to " + target + " failed: " + e.getMessage(), e);
    }
  }

  private void commitInto(List<String> files) throws IOException {
    CommitLog log = new CommitLog(target);
    log.ensureStarted();
    List<Path> moved = new ArrayList<>();
    long version;
    try {
      for (String f : files) {
        Path to = target.resolve(f);
        Files.move(staging.resolve(f), to, StandardCopyOption.ATOMIC_MOVE);
        moved.add(to);
      }
      Runnable hook = beforePublish;
      if (hook != null) {
        hook.run();
      }
      version = log.publish(files, truncate);
    } catch (IOException | RuntimeException e) {
      // no version lists them: invisible, but they would stay on disk for good
      for (Path p : moved) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException d) {
          e.addSuppressed(d);
        }
      }
      throw e;
    }
    try {
      deleteTree(staging);
      if (truncate) {
        log.deleteReplaced(version);
      }
      log.prune(version);
    } catch (LanceCodecException e) {
      // the job is committed; what is left behind (staging, files no version lists) readers never see
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    if (staging != null) {
      deleteTree(staging);
    }
  }

  /**
   * Deletes {@code dir} and everything in it. A task still running when its job is aborted may
   * add or move a file while the tree is walked (the directory is then not empty, or a listed
   * file gone): the walk is repeated, a few times, until the directory itself is deleted, after
   * which nothing can be added to it. Once, under load, an aborted append left its staging
   * directory behind this way.
   */
  static void deleteTree(Path dir) {
    for (int attempt = 1; ; attempt++) {
      if (!Files.exists(dir)) {
        return;
      }
      try (Stream<Path> s = Files.walk(dir)) {
        List<Path> all = new ArrayList<>();
        s.sorted(Comparator.reverseOrder()).forEach(all::add);
        for (Path p : all) {
          Files.deleteIfExists(p);
        }
        return;
      } catch (IOException | UncheckedIOException e) {
        IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
        boolean raced = io instanceof java.nio.file.DirectoryNotEmptyException || io instanceof java.nio.file.NoSuchFileException;
        if (!raced || attempt == DELETE_ATTEMPTS) {
          throw LanceCodecException.io("cannot delete " + dir + ": " + io.getMessage(), io);
        }
      }
    }
  }

  /** Walks of a tree that files are still added to before {@link #deleteTree} gives up. */
  private static final int DELETE_ATTEMPTS = 20;
}
