package io.lancecodec.spark;

import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The versions of a table directory written by this connector. {@code _lance-codec-commits/}
 * in the directory holds one file per version, {@code v} and the version in 20 decimal digits
 * (so that names sort as numbers), each the complete list of the data files visible at that
 * version: UTF-8 text, the line {@value #HEADER}, then one file name per line, every line ending
 * with {@code \n}. A name is that of a Lance file directly in the directory ({@code *.lance}, not
 * hidden, no separator).
 *
 * <p>Readers see the highest version only, so a commit is the creation of one version file:
 * the data files are moved in first (no version lists them yet), then the version appears at once,
 * complete, created exclusively so that two jobs never both take the same number. A directory
 * without a version is read by listing its {@code *.lance} files, as directories written by other
 * tools are.
 */
final class CommitLog {
  static final String DIR = "_lance-codec-commits";
  static final String HEADER = "lance-codec-commit 1";
  static final String PREFIX = "v";
  static final int DIGITS = 20;
  /** Versions kept, the latest included: a short record of which files recent scans saw. */
  static final int KEEP = 10;
  /** Every failed attempt means another job committed, so this only stops a bug from looping forever. */
  private static final int MAX_ATTEMPTS = 10_000;

  private final Path table;
  private final Path dir;
  /** Cleared after the first file system that refuses hard links, which then takes the weaker move. */
  private boolean links = true;
  /** Runs after a version's contents are decided, before it is created: tests race two commits there. */
  Runnable beforeCreate = () -> {};
  /** Versions the last {@link #publish} tried to create (tests check that a race was lost and retried). */
  int attempts;

  CommitLog(Path table) {
    this.table = table;
    this.dir = table.resolve(DIR);
  }

  /** Makes this log take the rename that file systems without hard links get (tests). */
  void disableLinks() {
    links = false;
  }

  Path file(long version) {
    return dir.resolve(name(version));
  }

  static String name(long version) {
    return PREFIX + String.format("%0" + DIGITS + "d", version);
  }

  /** The version a log file's name holds, or -1 for any other name (temporary files start with a dot). */
  static long version(String name) {
    if (name.length() != PREFIX.length() + DIGITS || !name.startsWith(PREFIX)) {
      return -1;
    }
    for (int i = PREFIX.length(); i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') {
        return -1;
      }
    }
    long v;
    try {
      v = Long.parseLong(name.substring(PREFIX.length()));
    } catch (NumberFormatException e) {
      return -1;
    }
    return v > 0 ? v : -1;
  }

  /** The versions present, ascending; empty when there is no log. */
  List<Long> versions() {
    List<Long> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> s = Files.list(dir)) {
      s.map(p -> version(p.getFileName().toString())).filter(v -> v > 0).sorted().forEach(out::add);
    } catch (IOException | UncheckedIOException e) {
      throw LanceCodecException.io("cannot list the commit log " + dir + ": " + e.getMessage(), e);
    }
    return out;
  }

  /** The highest version, 0 when there is none. */
  long latest() {
    List<Long> v = versions();
    return v.isEmpty() ? 0 : v.get(v.size() - 1);
  }

  /** The data files of a version, as written, after checking the file strictly. */
  List<String> files(long version) {
    Path f = file(version);
    String text;
    try {
      byte[] bytes = Files.readAllBytes(f);
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw bad(f, "not UTF-8 text");
    } catch (NoSuchFileException e) {
      throw LanceCodecException.io("commit log file " + f + " (version " + version + ") does not exist", e);
    } catch (IOException e) {
      throw LanceCodecException.io("cannot read commit log file " + f + ": " + e.getMessage(), e);
    }
    // a truncated file (a crash with the move fallback, a copy cut short) misses its last newline
    if (!text.endsWith("\n")) {
      throw bad(f, "does not end with a newline (truncated?)");
    }
    String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
    if (!lines[0].equals(HEADER)) {
      throw bad(f, "first line is '" + lines[0] + "', not '" + HEADER + "' (unknown format or version)");
    }
    List<String> out = new ArrayList<>(lines.length - 1);
    Set<String> seen = new HashSet<>();
    for (int i = 1; i < lines.length; i++) {
      String problem = checkName(lines[i]);
      if (problem != null) {
        throw bad(f, "line " + (i + 1) + " '" + lines[i] + "' " + problem);
      }
      if (!seen.add(lines[i])) {
        throw bad(f, "line " + (i + 1) + " '" + lines[i] + "' is listed twice");
      }
      out.add(lines[i]);
    }
    return out;
  }

  private static LanceCodecException bad(Path f, String what) {
    return LanceCodecException.corrupt("commit log file " + f + " is not a valid lance-codec commit: " + what);
  }

  /**
   * Why a name cannot be in a version, or null: only files directly in the table directory, so a
   * log can never make a reader open a file outside it.
   */
  static String checkName(String name) {
    if (name.isEmpty()) {
      return "is empty";
    }
    if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0) {
      return "is not a plain file name (absolute path, subdirectory or '..')";
    }
    if (name.startsWith(".") || name.startsWith(LanceFiles.HIDDEN_PREFIX)) {
      return "names a hidden file";
    }
    if (!name.endsWith(LanceFiles.EXTENSION)) {
      return "does not end with " + LanceFiles.EXTENSION;
    }
    return null;
  }

  /**
   * The files readers see: those of the latest version, each checked to exist; empty when the
   * directory has no version.
   */
  Optional<List<Path>> visible() {
    long v = latest();
    if (v == 0) {
      return Optional.empty();
    }
    // an overwrite deletes the files it replaced once its version is in place: a missing file of a
    // version that is no longer the latest means that happened while we read, so read the new one
    for (int attempt = 0; ; attempt++) {
      List<Path> out = new ArrayList<>();
      Path missing = null;
      for (String name : files(v)) {
        Path p = table.resolve(name);
        if (!Files.isRegularFile(p)) {
          missing = p;
          break;
        }
        out.add(p);
      }
      if (missing == null) {
        // in name order, as listing gives them: the schema is the first file's
        out.sort(null);
        return Optional.of(out);
      }
      long now = latest();
      if (now == v || attempt >= 3) {
        throw LanceCodecException.corrupt("data file " + missing + " is missing: version " + v + " of the commit log ("
            + file(v) + ") lists it");
      }
      v = now;
    }
  }

  /**
   * Before a job moves its files into an existing directory without a version, version 1 is made
   * from what listing shows, so that readers switch to the log with the same files, and the files
   * moved in next stay invisible until a version lists them.
   */
  void ensureStarted() {
    if (latest() > 0) {
      return;
    }
    List<String> listed = new ArrayList<>();
    for (Path p : LanceFiles.listDirectory(table)) {
      listed.add(p.getFileName().toString());
    }
    // losing this race is fine: the winner listed the directory before any job's files moved in
    create(1, listed);
  }

  /**
   * Creates the next version: the latest one's files and {@code added} (append), or {@code added}
   * alone ({@code replace}, an overwrite). When another job takes the number first, the contents
   * are decided again on top of its version. Returns the version created.
   */
  long publish(Collection<String> added, boolean replace) {
    for (String name : added) {
      String problem = checkName(name);
      if (problem != null) {
        throw LanceCodecException.internal("cannot commit '" + name + "': it " + problem);
      }
    }
    attempts = 0;
    while (attempts < MAX_ATTEMPTS) {
      long latest = latest();
      Set<String> files = new TreeSet<>(added);
      if (!replace && latest > 0) {
        files.addAll(files(latest));
      }
      beforeCreate.run();
      attempts++;
      if (create(latest + 1, files)) {
        return latest + 1;
      }
    }
    throw LanceCodecException.io("could not commit to " + table + ": " + MAX_ATTEMPTS + " versions were taken by other jobs first", null);
  }

  /**
   * Creates a version file if no other has that number. Written in full under a temporary name,
   * then hard-linked to its own: link() fails when the name exists, so the version appears
   * complete and at most one job gets it. File systems without hard links take a rename that
   * first checks the name is free, which two jobs racing in the same instant may both pass.
   */
  boolean create(long version, Collection<String> files) {
    Path target = file(version);
    StringBuilder text = new StringBuilder(HEADER).append('\n');
    for (String f : files) {
      text.append(f).append('\n');
    }
    try {
      Files.createDirectories(dir);
      Path tmp = dir.resolve("." + name(version) + "." + UUID.randomUUID() + ".tmp");
      try {
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
          ByteBuffer b = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
          while (b.hasRemaining()) {
            ch.write(b);
          }
          // the version must not outlive its contents in a crash: it is the only record of the files
          ch.force(true);
        }
        if (links) {
          try {
            Files.createLink(target, tmp);
            return true;
          } catch (FileAlreadyExistsException e) {
            return false;
          } catch (UnsupportedOperationException | FileSystemException e) {
            links = false;
          }
        }
        try {
          Files.move(tmp, target);
          return true;
        } catch (FileAlreadyExistsException e) {
          return false;
        }
      } finally {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException e) {
          // the version is decided either way; readers skip a stray temporary file (a dot name)
        }
      }
    } catch (IOException e) {
      throw LanceCodecException.io("cannot create commit log file " + target + ": " + e.getMessage(), e);
    }
  }

  /**
   * After an overwrite's version is in place: deletes the data files that older versions list and
   * neither it nor any later version does. Files no version lists are left alone: they may be
   * another job's, moved in and about to be committed.
   */
  void deleteReplaced(long version) {
    Set<String> keep = new HashSet<>();
    List<Long> older = new ArrayList<>();
    for (long v : versions()) {
      if (v >= version) {
        keep.addAll(files(v));
      } else {
        older.add(v);
      }
    }
    for (long v : older) {
      for (String name : files(v)) {
        if (!keep.contains(name)) {
          try {
            Files.deleteIfExists(table.resolve(name));
          } catch (IOException e) {
            // best effort: a file left behind is invisible, no version lists it any more
          }
        }
      }
    }
  }

  /** Deletes the version files more than {@link #KEEP} behind {@code version}. */
  void prune(long version) {
    for (long v : versions()) {
      if (v <= version - KEEP) {
        try {
          Files.deleteIfExists(file(v));
        } catch (IOException e) {
          // best effort: an old version is never read while a newer one exists
        }
      }
    }
  }
}
