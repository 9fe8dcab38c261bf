package io.lancecodec.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed seed corpus is what {@link SeedFiles} writes today: every seed reads in full (a
 * seed that fails would only teach the fuzzer an error path), and regenerating gives the same
 * bytes, so the corpus follows the writer (a writer change fails here; regenerate the corpus with
 * the command in {@link SeedFiles}).
 */
class SeedFilesTest {

  @TempDir Path dir;

  @Test
  void committedSeedsAreTheWritersFilesAndReadInFull() throws Exception {
    List<Path> written = SeedFiles.write(dir);
    assertTrue(written.size() >= 10);
    for (Path p : written) {
      try (LanceFileReader r = LanceFileReader.open(p)) {
        assertEquals(64, r.numRows(), p.toString());
      }
      assertCommitted(p, "FileFuzzTestInputs/wholeFile");
    }
    for (Path p : io.lancecodec.runtime.PageFuzzTest.writeSeeds(written, Files.createDirectories(dir.resolve("pages")))) {
      assertCommitted(p, "../runtime/PageFuzzTestInputs/page");
    }
  }

  @Test
  void committedCodecSeedsAreWhatTheEncodersWriteToday() throws Exception {
    List<Path> written = new java.util.ArrayList<>(SeedFiles.writeAlp(Files.createDirectories(dir.resolve("alp"))));
    written.addAll(SeedFiles.writePco(Files.createDirectories(dir.resolve("pco"))));
    written.addAll(DecompressorSeeds.write(Files.createDirectories(dir.resolve("decompress"))));
    for (Path p : written) {
      String target = switch (p.getParent().getFileName().toString()) {
        case "alp" -> "AlpFuzzTestInputs/chunk";
        case "pco" -> "PcoFuzzTestInputs/standalone";
        default -> "DecompressorFuzzTestInputs/decompress";
      };
      assertCommitted(p, target);
    }
  }

  /** The seed just written is committed, byte for byte, among the target's inputs. */
  private static void assertCommitted(Path written, String inputs) throws Exception {
    Path committed = Fuzz.inputs(inputs).resolve(written.getFileName());
    assertTrue(Files.exists(committed), "seed " + committed + " is not committed; write it with SeedFiles");
    assertArrayEquals(Files.readAllBytes(committed), Files.readAllBytes(written), committed + " differs from what is written today");
  }
}
