package io.lancecodec.runtime.plugin;

import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FieldOptions.Mode;
import io.lancecodec.spi.FieldOptions.StructuralEncoding;
import io.lancecodec.spi.LanceCodecException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns {@code lance-encoding:*} metadata and the {@code LANCE_ENCODING_*} environment into
 * {@link FieldOptions}, once per field when a writer opens, with the spec's precedence: field
 * metadata, then the writer's defaults, then the environment, then the built-in default. A bad
 * value fails there, naming the key, the value and the choices; a compression scheme must be one
 * some plugin on the class path declares, so a typo never silently turns compression off. Keys
 * neither the spec nor a plugin knows are logged and ignored: files from newer writers may carry
 * them.
 */
public final class OptionsParser {
  private static final System.Logger LOG = System.getLogger(OptionsParser.class.getName());

  /** The keys of the spec (and ours, repetition-index-depth) that the runtime parses itself. */
  public static final Set<String> SPEC_KEYS = Set.of(
      "compression", "compression-level", "rle-threshold", "bss", "alp", "structural-encoding",
      "dict-divisor", "dict-size-ratio", "dict-values-compression", "dict-values-compression-level",
      "repetition-index-depth", "packed", "blob", "fsl-leaf");

  private final Set<String> schemes;
  private final Set<String> chunkedSchemes;
  private final Map<String, Set<String>> pluginKeys;
  private final Map<String, String> environment;

  public OptionsParser(Plugins registry, Map<String, String> environment) {
    this.schemes = new TreeSet<>(registry.compressionSchemes());
    this.schemes.add("none");
    this.chunkedSchemes = Set.copyOf(registry.chunkedSchemes());
    this.pluginKeys = registry.optionKeys();
    this.environment = Map.copyOf(environment);
  }

  /** The process environment's variables that options read, and nothing else. */
  public static Map<String, String> processEnvironment() {
    Map<String, String> out = new TreeMap<>();
    for (String name : List.of(
        "LANCE_ENCODING_DICT_DIVISOR", "LANCE_ENCODING_DICT_SIZE_RATIO", "LANCE_ENCODING_DICT_VALUES_COMPRESSION",
        "LANCE_ENCODING_DICT_VALUES_COMPRESSION_LEVEL", "LANCE_ENCODING_DICT_TOO_SMALL",
        "LANCE_ENCODING_DICT_MAX_CARDINALITY", "LANCE_CODEC_DICT_EXTENDED", "LANCE_MINIBLOCK_MAX_VALUES")) {
      String v = System.getenv(name);
      if (v != null) {
        out.put(name, v);
      }
    }
    return out;
  }

  /** The options of one field from its {@code lance-encoding:*} entries (other keys are skipped). */
  public FieldOptions parse(Map<String, String> metadata, String field) {
    Map<String, String> m = new TreeMap<>();
    if (metadata != null) {
      metadata.forEach((k, v) -> {
        if (k.startsWith(FieldOptions.PREFIX)) {
          m.put(k.substring(FieldOptions.PREFIX.length()), v);
        }
      });
    }
    FieldOptions.Builder b = FieldOptions.builder();
    for (Map.Entry<String, String> e : m.entrySet()) {
      String key = e.getKey();
      String value = e.getValue().trim();
      switch (key) {
        case "compression":
          b.compression(scheme(key, value));
          break;
        case "compression-level":
          b.compressionLevel(integer(key, value));
          break;
        case "rle-threshold":
          b.rleThreshold(number(key, value));
          break;
        case "bss":
          b.bss(mode(key, value));
          break;
        case "alp":
          b.alp(mode(key, value));
          break;
        case "fsl-leaf":
          b.fslLeaf(mode(key, value));
          break;
        case "structural-encoding":
          b.structuralEncoding(structural(key, value));
          break;
        case "dict-divisor":
          b.dictDivisor(integer(key, value));
          break;
        case "dict-size-ratio":
          b.dictSizeRatio(number(key, value));
          break;
        case "dict-values-compression":
          b.dictValuesCompression(scheme(key, value));
          break;
        case "dict-values-compression-level":
          b.dictValuesCompressionLevel(integer(key, value));
          break;
        case "repetition-index-depth":
          b.repetitionIndexDepth(integer(key, value));
          break;
        case "blob":
          b.blob(true);
          break;
        case "packed":
          // shapes the field's columns (read where they are laid out), not their encoding
          break;
        default:
          Set<String> allowed = pluginKeys.get(key);
          if (allowed == null) {
            LOG.log(System.Logger.Level.WARNING, "field ''{0}'': ignoring {1}{2}, which neither the spec nor a plugin on the class path knows",
                field, FieldOptions.PREFIX, key);
          } else if (!allowed.isEmpty() && !allowed.contains(value)) {
            throw choices(key, e.getValue(), allowed);
          } else {
            b.extra(key, value);
          }
      }
    }
    environment(b, m);
    String dictScheme = m.getOrDefault("dict-values-compression", environment.get("LANCE_ENCODING_DICT_VALUES_COMPRESSION"));
    if (dictScheme != null && chunkedSchemes.contains(dictScheme.trim())) {
      // a dictionary's items are a block, which a chunked scheme does not compress: the values would be stored plain
      throw LanceCodecException.invalidArgument("field '" + field + "': " + FieldOptions.PREFIX + "dict-values-compression="
          + dictScheme.trim() + " compresses mini-block chunks only, not a dictionary's items");
    }
    FieldOptions out = b.build();
    if (out.compression().isPresent() && chunkedSchemes.contains(out.compression().get())) {
      if (out.structuralEncoding().orElse(null) == StructuralEncoding.FULLZIP) {
        throw LanceCodecException.invalidArgument("field '" + field + "': " + FieldOptions.PREFIX + "compression="
            + out.compression().get() + " compresses whole mini-block chunks and cannot be used with "
            + FieldOptions.PREFIX + "structural-encoding=fullzip");
      }
      out = out.toBuilder().chunkedCompression(true).build();
    }
    return out;
  }

  /** Environment fallbacks for what the field does not set itself. */
  private void environment(FieldOptions.Builder b, Map<String, String> field) {
    String v;
    if (!field.containsKey("dict-divisor") && (v = environment.get("LANCE_ENCODING_DICT_DIVISOR")) != null) {
      b.dictDivisor(integer("LANCE_ENCODING_DICT_DIVISOR", v.trim()));
    }
    if (!field.containsKey("dict-size-ratio") && (v = environment.get("LANCE_ENCODING_DICT_SIZE_RATIO")) != null) {
      b.dictSizeRatio(number("LANCE_ENCODING_DICT_SIZE_RATIO", v.trim()));
    }
    if (!field.containsKey("dict-values-compression")
        && (v = environment.get("LANCE_ENCODING_DICT_VALUES_COMPRESSION")) != null) {
      b.dictValuesCompression(scheme("LANCE_ENCODING_DICT_VALUES_COMPRESSION", v.trim()));
    }
    if (!field.containsKey("dict-values-compression-level")
        && (v = environment.get("LANCE_ENCODING_DICT_VALUES_COMPRESSION_LEVEL")) != null) {
      b.dictValuesCompressionLevel(integer("LANCE_ENCODING_DICT_VALUES_COMPRESSION_LEVEL", v.trim()));
    }
    if ((v = environment.get("LANCE_ENCODING_DICT_TOO_SMALL")) != null) {
      b.dictTooSmall(integer("LANCE_ENCODING_DICT_TOO_SMALL", v.trim()));
    }
    if ((v = environment.get("LANCE_ENCODING_DICT_MAX_CARDINALITY")) != null) {
      b.dictMaxCardinality(integer("LANCE_ENCODING_DICT_MAX_CARDINALITY", v.trim()));
    }
    if ((v = environment.get("LANCE_MINIBLOCK_MAX_VALUES")) != null) {
      b.miniBlockMaxValues(integer("LANCE_MINIBLOCK_MAX_VALUES", v.trim()));
    }
    if ((v = environment.get("LANCE_CODEC_DICT_EXTENDED")) != null) {
      String t = v.trim();
      if (!t.equals("0") && !t.equals("1")) {
        throw LanceCodecException.invalidArgument("LANCE_CODEC_DICT_EXTENDED must be 0 or 1, got '" + v + "'");
      }
      b.dictExtended(t.equals("1"));
    }
  }

  private String scheme(String key, String value) {
    if (!schemes.contains(value)) {
      throw choices(key, value, schemes);
    }
    return value;
  }

  private static LanceCodecException choices(String key, String value, Set<String> allowed) {
    String name = key.startsWith("LANCE_") ? key : FieldOptions.PREFIX + key;
    return LanceCodecException.invalidArgument(name + " must be one of " + String.join(", ", new TreeSet<>(allowed))
        + " (the values the plugins on the class path accept), got '" + value + "'");
  }

  private static int integer(String key, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw LanceCodecException.invalidArgument(name(key) + " must be an integer, got '" + value + "'");
    }
  }

  private static double number(String key, String value) {
    try {
      return Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw LanceCodecException.invalidArgument(name(key) + " must be a number, got '" + value + "'");
    }
  }

  private static Mode mode(String key, String value) {
    switch (value.toLowerCase(java.util.Locale.ROOT)) {
      case "off":
        return Mode.OFF;
      case "on":
        return Mode.ON;
      case "auto":
        return Mode.AUTO;
      default:
        throw LanceCodecException.invalidArgument(name(key) + " must be off, on or auto, got '" + value + "'");
    }
  }

  private static StructuralEncoding structural(String key, String value) {
    for (StructuralEncoding s : StructuralEncoding.values()) {
      if (s.option().equals(value)) {
        return s;
      }
    }
    throw LanceCodecException.invalidArgument(name(key) + " must be miniblock, fullzip or sparse, got '" + value + "'");
  }

  private static String name(String key) {
    return key.startsWith("LANCE_") ? key : FieldOptions.PREFIX + key;
  }
}
