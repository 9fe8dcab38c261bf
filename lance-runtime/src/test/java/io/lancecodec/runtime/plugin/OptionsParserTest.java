package io.lancecodec.runtime.plugin;

import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.layout.legacy.LegacyLayoutPlugin;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FieldOptions.Mode;
import io.lancecodec.spi.FieldOptions.StructuralEncoding;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Options are parsed once, typed, checked against the spec's choices and the plugins' declarations. */
class OptionsParserTest {
  /** A plugin that declares a scheme and a key of its own, as a third-party codec would. */
  static class Declaring implements CodecPlugin {
    @Override
    public String name() {
      return "declaring";
    }

    @Override
    public Set<FileVersion> fileVersions() {
      return Set.of(FileVersion.V2_1);
    }

    @Override
    public Set<Class<? extends com.google.protobuf.Message>> decodes() {
      return Set.of();
    }

    @Override
    public Set<String> compressionSchemes() {
      return Set.of("zstd", "lz4");
    }

    @Override
    public Map<String, Set<String>> optionKeys() {
      return Map.of("declaring-effort", Set.of("low", "high"), "declaring-note", Set.of());
    }
  }

  static final Plugins REGISTRY = new Plugins(List.of(new BitpackPlugin(), new Declaring()), List.of(new LegacyLayoutPlugin()));

  static FieldOptions parse(Map<String, String> env, String... kv) {
    Map<String, String> m = new java.util.TreeMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(FieldOptions.PREFIX + kv[i], kv[i + 1]);
    }
    return new OptionsParser(REGISTRY, env).parse(m, "f");
  }

  static FieldOptions parse(String... kv) {
    return parse(Map.of(), kv);
  }

  @Test
  void everyKeyIsTyped() {
    FieldOptions o = parse("compression", "zstd", "compression-level", "7", "rle-threshold", "0.25", "bss", "ON", "alp", "off",
        "structural-encoding", "fullzip", "dict-divisor", "5", "dict-size-ratio", "0.5", "dict-values-compression", "none",
        "dict-values-compression-level", "3", "repetition-index-depth", "2", "blob", "", "declaring-effort", "high",
        "declaring-note", "anything");
    assertEquals("zstd", o.compression().orElseThrow());
    assertEquals(7, o.compressionLevel().getAsInt());
    assertEquals(0.25, o.rleThreshold().getAsDouble());
    assertEquals(Mode.ON, o.bss());
    assertEquals(Mode.OFF, o.alp());
    assertEquals(StructuralEncoding.FULLZIP, o.structuralEncoding().orElseThrow());
    assertEquals(5, o.dictDivisor());
    assertEquals(0.5, o.dictSizeRatio());
    assertTrue(o.forDictionaryValues("lz4").compressionNone(), "dictionary values: none over the layout's default");
    assertEquals(3, o.forDictionaryValues("lz4").compressionLevel().getAsInt());
    assertEquals(2, o.repetitionIndexDepth());
    assertTrue(o.blob());
    assertEquals("high", o.extra("declaring-effort").orElseThrow());
    assertEquals("anything", o.extra("declaring-note").orElseThrow());
  }

  @Test
  void defaultsAreTheSpecs() {
    FieldOptions o = parse();
    assertEquals(FieldOptions.DEFAULT, o);
    assertTrue(o.compression().isEmpty() && !o.compressionNone());
    assertTrue(o.rleThreshold().isEmpty(), "unset, so the codec's own rule applies");
    assertEquals(Mode.AUTO, o.bss());
    assertEquals(Mode.AUTO, o.alp());
    assertEquals(2, o.dictDivisor());
    assertEquals(0.8, o.dictSizeRatio());
    assertEquals(100, o.dictTooSmall());
    assertEquals(100_000, o.dictMaxCardinality());
    assertTrue(o.dictExtended());
    assertEquals(1, o.repetitionIndexDepth());
    assertFalse(o.blob());
    assertTrue(parse("compression", "none").compressionNone());
    assertTrue(parse("compression", "none").compression().isEmpty());
  }

  /** Each bad value: INVALID_ARGUMENT naming the key, the value and the choices. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "compression | zsdt | lance-encoding:compression must be one of lz4, none, zstd (the values the plugins on the class path accept), got 'zsdt'",
    "compression | fsst | lance-encoding:compression must be one of lz4, none, zstd (the values the plugins on the class path accept), got 'fsst'",
    "bss | of | lance-encoding:bss must be off, on or auto, got 'of'",
    "alp | maybe | lance-encoding:alp must be off, on or auto, got 'maybe'",
    "structural-encoding | zip | lance-encoding:structural-encoding must be miniblock, fullzip or sparse, got 'zip'",
    "compression-level | high | lance-encoding:compression-level must be an integer, got 'high'",
    "rle-threshold | 1.5 | lance-encoding:rle-threshold must be a number in [0, 1], got '1.5'",
    "rle-threshold | x | lance-encoding:rle-threshold must be a number, got 'x'",
    "dict-divisor | 1 | lance-encoding:dict-divisor must be an integer greater than 1, got '1'",
    "dict-size-ratio | 0 | lance-encoding:dict-size-ratio must be a number in (0, 1], got '0.0'",
    "dict-values-compression | snappy | lance-encoding:dict-values-compression must be one of lz4, none, zstd (the values the plugins on the class path accept), got 'snappy'",
    "repetition-index-depth | 3 | lance-encoding:repetition-index-depth must be 1 or 2, got '3'",
    "declaring-effort | medium | lance-encoding:declaring-effort must be one of high, low (the values the plugins on the class path accept), got 'medium'",
  })
  void badValuesNameKeyValueAndChoices(String key, String value, String message) {
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> parse(key, value));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
    assertEquals(message, e.getMessage());
  }

  /** Unknown keys are ignored (a newer writer's files may carry them), never an error. */
  @Test
  void unknownKeysAreIgnored() {
    assertEquals(FieldOptions.DEFAULT, parse("some-future-key", "x"));
  }

  /** The spec's precedence: field metadata, then the environment, then the default. */
  @Test
  void environmentFillsWhatTheFieldLeavesOpen() {
    Map<String, String> env = Map.of("LANCE_ENCODING_DICT_DIVISOR", "9", "LANCE_ENCODING_DICT_SIZE_RATIO", "0.3",
        "LANCE_ENCODING_DICT_VALUES_COMPRESSION", "zstd", "LANCE_ENCODING_DICT_VALUES_COMPRESSION_LEVEL", "4",
        "LANCE_ENCODING_DICT_TOO_SMALL", "7", "LANCE_ENCODING_DICT_MAX_CARDINALITY", "50", "LANCE_CODEC_DICT_EXTENDED", "0");
    FieldOptions fromEnv = parse(env);
    assertEquals(9, fromEnv.dictDivisor());
    assertEquals(0.3, fromEnv.dictSizeRatio());
    assertEquals("zstd", fromEnv.forDictionaryValues(null).compression().orElseThrow());
    assertEquals(4, fromEnv.forDictionaryValues(null).compressionLevel().getAsInt());
    assertEquals(7, fromEnv.dictTooSmall());
    assertEquals(50, fromEnv.dictMaxCardinality());
    assertFalse(fromEnv.dictExtended());
    FieldOptions field = parse(env, "dict-divisor", "3", "dict-size-ratio", "0.9", "dict-values-compression", "lz4");
    assertEquals(3, field.dictDivisor());
    assertEquals(0.9, field.dictSizeRatio());
    assertEquals("lz4", field.forDictionaryValues(null).compression().orElseThrow());
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> parse(Map.of("LANCE_ENCODING_DICT_DIVISOR", "two")));
    assertEquals("LANCE_ENCODING_DICT_DIVISOR must be an integer, got 'two'", e.getMessage());
  }

  /** A plugin may not take a key the spec defines, nor one another plugin declared. */
  @Test
  void pluginKeysDoNotCollide() {
    CodecPlugin specKey = new Declaring() {
      @Override
      public String name() {
        return "spec-key";
      }

      @Override
      public Set<String> compressionSchemes() {
        return Set.of();
      }

      @Override
      public Map<String, Set<String>> optionKeys() {
        return Map.of("bss", Set.of());
      }
    };
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> new Plugins(List.of(specKey), List.of()));
    assertEquals(LanceCodecException.Kind.PLUGIN_CONFLICT, e.kind());
    CodecPlugin sameScheme = new Declaring() {
      @Override
      public String name() {
        return "same-scheme";
      }

      @Override
      public Map<String, Set<String>> optionKeys() {
        return Map.of();
      }
    };
    LanceCodecException e2 =
        assertThrows(LanceCodecException.class, () -> new Plugins(List.of(new Declaring(), sameScheme), List.of()));
    assertTrue(e2.getMessage().contains("compression scheme lz4 is claimed by two plugins: declaring"), e2.getMessage());
  }
}
