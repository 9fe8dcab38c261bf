package io.lancecodec.spark;

import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
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
 * target never list; the job commit moves the files into place, the abort deletes the staging
 * directory, so a failed job leaves no file visible. Into a directory that does not exist yet
 * the commit is one rename of the whole staging directory (atomic); into an existing one it is
 * one rename per file (each atomic), and an overwrite deletes the old files after the new ones
 * are in place.
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
    try {
      if (fresh && !Files.exists(target)) {
        try {
          Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
          return;
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
          // someone created the target meanwhile: fall back to moving file by file
        }
      }
      List<Path> old = truncate ? LanceFiles.listDirectory(target) : List.of();
      for (WriterCommitMessage m : messages) {
        if (m instanceof LanceCommitMessage c && c.file() != null) {
          Files.move(staging.resolve(c.file()), target.resolve(c.file()), StandardCopyOption.ATOMIC_MOVE);
        }
      }
      for (Path p : old) {
        Files.deleteIfExists(p);
      }
      deleteTree(staging);
    } catch (IOException e) {
      throw LanceCodecException.io("committing the write to " + target + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    if (staging != null) {
      deleteTree(staging);
    }
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      List<Path> all = new ArrayList<>();
      s.sorted(Comparator.reverseOrder()).forEach(all::add);
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      throw LanceCodecException.io("cannot delete " + dir + ": " + e.getMessage(), e instanceof IOException io ? io : null);
    }
  }
}
