package io.lancecodec.spark;

import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files a path names: the file itself; for a directory, the files of its commit log's latest
 * version (see {@link CommitLog}), or, in a directory without one, its {@code *.lance} files in
 * name order.
 */
final class LanceFiles {
  static final String EXTENSION = ".lance";
  /** Staging directories of writes in progress and the commit log sit inside the directory under this prefix. */
  static final String HIDDEN_PREFIX = "_";

  private LanceFiles() {}

  static Path path(String text) {
    if (text.startsWith("file:")) {
      return Paths.get(java.net.URI.create(text));
    }
    return Paths.get(text);
  }

  static List<Path> list(String text) {
    Path p = path(text);
    if (Files.isRegularFile(p)) {
      return List.of(p);
    }
    if (!Files.isDirectory(p)) {
      throw LanceCodecException.invalidArgument("no such file or directory: " + p);
    }
    return new CommitLog(p).visible().orElseGet(() -> listDirectory(p));
  }

  /** The directory's Lance files; hidden names (a writer's {@code .partial} files, staging) are skipped. */
  static List<Path> listDirectory(Path dir) {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(LanceFiles::visible).sorted().forEach(out::add);
    } catch (IOException e) {
      throw LanceCodecException.io("cannot list " + dir + ": " + e.getMessage(), e);
    }
    return out;
  }

  static boolean visible(Path p) {
    String name = p.getFileName().toString();
    return name.endsWith(EXTENSION) && !name.startsWith(".") && !name.startsWith(HIDDEN_PREFIX) && Files.isRegularFile(p);
  }
}
