package io.lancecodec.runtime;

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
}
