package io.lancecodec.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** The targets, and what they share (public for the target that lives in the runtime's package). */
public final class Fuzz {
  private Fuzz() {}

  /** A target: its class's simple name, its committed inputs (relative, see {@link #inputs}) and its body. */
  public record Target(String name, String inputs, Consumer<byte[]> run) {}

  /** Every target; {@code bench/fuzz.sh} names one of them. */
  public static final List<Target> TARGETS = List.of(
      new Target("FileFuzzTest", "FileFuzzTestInputs/wholeFile", FileFuzzTest::fuzzerTestOneInput),
      new Target("PageFuzzTest", "../runtime/PageFuzzTestInputs/page", io.lancecodec.runtime.PageFuzzTest::fuzzerTestOneInput),
      new Target("DecompressorFuzzTest", "DecompressorFuzzTestInputs/decompress", DecompressorFuzzTest::fuzzerTestOneInput),
      new Target("AlpFuzzTest", "AlpFuzzTestInputs/chunk", AlpFuzzTest::fuzzerTestOneInput),
      new Target("PcoFuzzTest", "PcoFuzzTestInputs/standalone", PcoFuzzTest::fuzzerTestOneInput));

  static Target target(String name) {
    return TARGETS.stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no fuzz target " + name + "; there are "
            + TARGETS.stream().map(Target::name).toList()));
  }

  /** A content key of a seed, so that seed writers keep one of several identical inputs. */
  public static String digest(byte[] bytes) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

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
