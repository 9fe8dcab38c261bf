package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With a second core the writer encodes a large page's values alone there while it tries the
 * dictionary (DensePages); on one core it encodes them afterwards, told the dictionary's size to
 * beat, so a codec may stop early. Either way the file must be the same, byte for byte: two
 * JVMs write the same columns ({@link SpeculativeWriteMain}), one with
 * {@code -Dlancecodec.write.parallel=true} and one with {@code false}.
 */
class SpeculativeWriteTest {
  @TempDir Path dir;

  @Test
  void oneCoreAndTwoCoresWriteTheSameFiles() throws Exception {
    List<String> parallel = run("true");
    List<String> serial = run("false");
    assertEquals("parallel true", parallel.get(0));
    assertEquals("parallel false", serial.get(0));
    assertEquals(4, parallel.size(), "three files: " + parallel);
    assertEquals(parallel.subList(1, 4), serial.subList(1, 4));
  }

  /** The child's output lines; its files go to a directory of their own. */
  private List<String> run(String parallel) throws IOException, InterruptedException {
    Path out = Files.createDirectories(dir.resolve("parallel-" + parallel));
    Path err = dir.resolve("parallel-" + parallel + ".err");
    Process p = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Dlancecodec.write.parallel=" + parallel,
        "-cp", System.getProperty("java.class.path"),
        SpeculativeWriteMain.class.getName(), out.toString())
        .redirectError(err.toFile()).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the writer did not finish");
    assertEquals(0, p.exitValue(), () -> "the writer failed: " + read(err));
    return text.lines().toList();
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
