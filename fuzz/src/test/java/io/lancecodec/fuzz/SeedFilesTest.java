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
  static final Path CORPUS = Fuzz.inputs("FileFuzzTestInputs/wholeFile");

  @TempDir Path dir;

  @Test
  void committedSeedsAreTheWritersFilesAndReadInFull() throws Exception {
    List<Path> written = SeedFiles.write(dir);
    assertTrue(written.size() >= 10);
    for (Path p : written) {
      try (LanceFileReader r = LanceFileReader.open(p)) {
        assertEquals(64, r.numRows(), p.toString());
      }
      Path committed = CORPUS.resolve(p.getFileName());
      assertTrue(Files.exists(committed), "seed " + committed + " is not committed; write it with SeedFiles");
      assertArrayEquals(Files.readAllBytes(committed), Files.readAllBytes(p), committed + " differs from what the writer makes today");
    }
    for (Path p : io.lancecodec.runtime.PageFuzzTest.writeSeeds(written, Files.createDirectories(dir.resolve("pages")))) {
      Path committed = Fuzz.inputs("../runtime/PageFuzzTestInputs/page").resolve(p.getFileName());
      assertTrue(Files.exists(committed), "seed " + committed + " is not committed; write it with SeedFiles");
      assertArrayEquals(Files.readAllBytes(committed), Files.readAllBytes(p), committed + " differs from what the writer makes today");
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
      Path committed = Fuzz.inputs(target).resolve(p.getFileName());
      assertTrue(Files.exists(committed), "seed " + committed + " is not committed; write it with SeedFiles");
      assertArrayEquals(Files.readAllBytes(committed), Files.readAllBytes(p), committed + " differs from what the encoder makes today");
    }
  }
}
