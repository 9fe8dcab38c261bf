package io.lancecodec.runtime;

import io.lancecodec.testkit.NestedData;
import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.layout.legacy.LegacyLayoutPlugin;
import io.lancecodec.runtime.plugin.OptionsParser;
import io.lancecodec.spi.LanceCodecException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Writer-wide option defaults: checked when set, and a field's own metadata wins over them. */
class WriterOptionsTest {
  @Test
  void writerDefaultsAreCheckedAndFieldsWin() {
    CodecRegistry registry = CodecRegistry.of(List.of(new BitpackPlugin()), List.of(new LegacyLayoutPlugin()));
    WriterOptions w = WriterOptions.defaults().withRegistry(registry).withFieldDefault("lance-encoding:rle-threshold", "0.3");
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> w.withFieldDefault("lance-encoding:bss", "sometimes"));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
    assertThrows(LanceCodecException.class, () -> w.withFieldDefault("compression", "none"), "keys need the lance-encoding: prefix");
    assertThrows(LanceCodecException.class, () -> w.withPageBytesPerColumn(0));
    OptionsParser parser = new OptionsParser(registry.internals(), Map.of());
    assertEquals(0.3, w.optionsFor(parser, Map.of(), "f").rleThreshold().getAsDouble());
    assertEquals(0.7, w.optionsFor(parser, Map.of("lance-encoding:rle-threshold", "0.7"), "f").rleThreshold().getAsDouble());
  }

  /**
   * Durability is kept through every other option and changes no byte of the file: a buffered
   * close writes what a synced one writes, under the name only once complete.
   */
  @Test
  void durabilityIsAnOptionThatChangesNoByte(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    WriterOptions synced = WriterOptions.defaults();
    assertEquals(WriterOptions.Durability.SYNC, synced.durability());
    WriterOptions buffered = synced.withDurability(WriterOptions.Durability.OS_BUFFERED)
        .withVersion(io.lancecodec.spi.FileVersion.V2_2).withPageBytesPerColumn(1 << 16)
        .withFieldDefault("lance-encoding:rle-threshold", "0.2").withEnvironment(Map.of());
    assertEquals(WriterOptions.Durability.OS_BUFFERED, buffered.durability());
    assertThrows(NullPointerException.class, () -> synced.withDurability(null));
    org.apache.arrow.vector.types.pojo.Schema schema = new org.apache.arrow.vector.types.pojo.Schema(List.of(NestedData.i32("a")));
    byte[][] files = new byte[2][];
    try (org.apache.arrow.memory.BufferAllocator alloc = new org.apache.arrow.memory.RootAllocator()) {
      for (int k = 0; k < 2; k++) {
        java.nio.file.Path f = dir.resolve("f" + k + ".lance");
        try (org.apache.arrow.vector.VectorSchemaRoot root = org.apache.arrow.vector.VectorSchemaRoot.create(schema, alloc)) {
          org.apache.arrow.vector.IntVector v = (org.apache.arrow.vector.IntVector) root.getVector(0);
          for (int i = 0; i < 5000; i++) {
            v.setSafe(i, i * 7);
          }
          root.setRowCount(5000);
          WriterOptions o = (k == 0 ? synced : synced.withDurability(WriterOptions.Durability.OS_BUFFERED));
          try (LanceFileWriter w = LanceFileWriter.open(f, schema, o)) {
            w.write(root);
            assertEquals(false, java.nio.file.Files.exists(f), "the file has its name only once closed");
          }
        }
        files[k] = java.nio.file.Files.readAllBytes(f);
      }
    }
    org.junit.jupiter.api.Assertions.assertArrayEquals(files[0], files[1]);
  }
}
