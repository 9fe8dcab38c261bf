package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed generated packers and unpackers are exactly what the generators produce today. */
class GeneratedCodeTest {
  @Test
  void generatedUnpackersAreUpToDate() throws Exception {
    Path committed = Path.of("src/main/java/io/lancecodec/codec/bitpack/FastLanesUnpack.java");
    assertEquals(UnpackGenerator.generate(), Files.readString(committed, StandardCharsets.UTF_8),
        "FastLanesUnpack.java is stale: run UnpackGenerator.main");
  }

  @Test
  void generatedPackersAreUpToDate() throws Exception {
    Path committed = Path.of("src/main/java/io/lancecodec/codec/bitpack/FastLanesPack.java");
    assertEquals(PackGenerator.generate(), Files.readString(committed, StandardCharsets.UTF_8),
        "FastLanesPack.java is stale: run PackGenerator.main");
  }
}
