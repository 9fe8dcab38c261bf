package io.lancecodec.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** What the targets share (public for the target that lives in the runtime's package). */
public final class Fuzz {
  private Fuzz() {}

  /** The committed inputs of a target, relative to this package's test resources. */
  public static Path inputs(String relative) {
    return Path.of(System.getProperty("fuzz.inputs", "src/test/resources/io/lancecodec/fuzz")).resolve(relative);
  }

  /** Runs {@code target} over the committed inputs in {@code relative} (three rounds), ignoring findings. */
  public static void warmUp(Consumer<byte[]> target, String relative) {
    Path dir = inputs(relative);
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        byte[] b = Files.readAllBytes(f);
        for (int round = 0; round < 3; round++) {
          try {
            target.accept(b);
          } catch (RuntimeException | AssertionError e) {
            // a committed finding not fixed yet: the campaign will report it again
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
