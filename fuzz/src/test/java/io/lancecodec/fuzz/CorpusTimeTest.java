package io.lancecodec.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The time half of the targets' property, which the regression replay does not check: after a
 * warm-up, every committed input of every target (seeds and findings) runs within 1 s, as the
 * campaigns demand (bench/fuzz.sh, libFuzzer's -timeout=1).
 */
class CorpusTimeTest {
  @TestFactory
  Stream<DynamicTest> everyCommittedInputRunsWithinOneSecond() throws Exception {
    Stream<DynamicTest> all = Stream.empty();
    for (Fuzz.Target t : Fuzz.TARGETS) {
      Path dir = Fuzz.inputs(t.inputs());
      assertTrue(Files.isDirectory(dir), dir.toString());
      Fuzz.warmUp(t.run(), t.inputs());
      List<Path> files;
      try (Stream<Path> s = Files.list(dir)) {
        files = s.sorted().toList();
      }
      all = Stream.concat(all, files.stream().map(f -> DynamicTest.dynamicTest(t.inputs() + "/" + f.getFileName(), () -> {
        byte[] b = Files.readAllBytes(f);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(1), () -> t.run().accept(b));
      })));
    }
    return all;
  }
}
