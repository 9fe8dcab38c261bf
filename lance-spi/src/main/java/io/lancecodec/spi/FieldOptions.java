package io.lancecodec.spi;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The {@code lance-encoding:*} keys of a field, parsed once into typed values. Unknown keys are
 * kept (a newer writer may know them); a known key with a malformed value is INVALID_ARGUMENT
 * naming the key, so a typo never silently turns compression off.
 */
public record FieldOptions(Map<String, String> raw) {
  public static final String PREFIX = "lance-encoding:";
  public static final FieldOptions DEFAULT = new FieldOptions(Map.of());

  public FieldOptions {
    raw = Map.copyOf(raw);
  }

  /** Keeps only the {@code lance-encoding:*} entries of a field's metadata. */
  public static FieldOptions fromMetadata(Map<String, String> metadata) {
    if (metadata == null || metadata.isEmpty()) {
      return DEFAULT;
    }
    Map<String, String> keep = new TreeMap<>();
    metadata.forEach(
        (k, v) -> {
          if (k.startsWith(PREFIX)) {
            keep.put(k, v);
          }
        });
    FieldOptions options = new FieldOptions(keep);
    options.validate();
    return options;
  }

  private void validate() {
    compressionLevel();
    rleThreshold();
    structuralEncoding();
    dictDivisor();
    dictSizeRatio();
    repetitionIndexDepth();
  }

  /**
   * How many list levels the mini-block repetition index of a page addresses (our key
   * {@code lance-encoding:repetition-index-depth}, 1 or 2; default 1 like the reference). Depth
   * 2 adds, per chunk, the inner lists its trailing row starts there (docs/random-access.md), so
   * {@code rows[i][j]} can be found without the chunks of row i before list j; it applies to
   * pages with at least two list levels.
   */
  public int repetitionIndexDepth() {
    Optional<String> v = get("repetition-index-depth");
    if (v.isEmpty()) {
      return 1;
    }
    String t = v.get().trim();
    if (!t.equals("1") && !t.equals("2")) {
      throw LanceCodecException.invalidArgument(PREFIX + "repetition-index-depth must be 1 or 2, got '" + v.get() + "'");
    }
    return Integer.parseInt(t);
  }

  public Optional<String> get(String key) {
    return Optional.ofNullable(raw.get(PREFIX + key));
  }

  /** General compression scheme requested ("zstd", "lz4", "fsst", ...), absent for none. */
  public Optional<String> compression() {
    return get("compression").filter(s -> !s.equals("none"));
  }

  public OptionalInt compressionLevel() {
    Optional<String> v = get("compression-level");
    if (v.isEmpty()) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(v.get().trim()));
    } catch (NumberFormatException e) {
      throw LanceCodecException.invalidArgument(
          PREFIX + "compression-level must be an integer, got '" + v.get() + "'");
    }
  }

  /** Runs / values below which RLE is used; default 0.5 like the reference. */
  public double rleThreshold() {
    Optional<String> v = get("rle-threshold");
    if (v.isEmpty()) {
      return 0.5;
    }
    try {
      double d = Double.parseDouble(v.get().trim());
      if (!(d >= 0.0 && d <= 1.0)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw LanceCodecException.invalidArgument(
          PREFIX + "rle-threshold must be a number in [0, 1], got '" + v.get() + "'");
    }
  }

  /** Value budget divisor of dictionary encoding: at most numValues / divisor entries (default 2). */
  public int dictDivisor() {
    String v = get("dict-divisor").orElse(env("LANCE_ENCODING_DICT_DIVISOR"));
    if (v == null) {
      return 2;
    }
    try {
      int d = Integer.parseInt(v.trim());
      if (d <= 1) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw LanceCodecException.invalidArgument(PREFIX + "dict-divisor must be an integer greater than 1, got '" + v + "'");
    }
  }

  /** Dictionary pages must stay below this fraction of the plain size (default 0.8). */
  public double dictSizeRatio() {
    String v = get("dict-size-ratio").orElse(env("LANCE_ENCODING_DICT_SIZE_RATIO"));
    if (v == null) {
      return 0.8;
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (!(d > 0.0 && d <= 1.0)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw LanceCodecException.invalidArgument(PREFIX + "dict-size-ratio must be a number in (0, 1], got '" + v + "'");
    }
  }

  /**
   * Options for compressing dictionary values: dict-values-compression(-level) seen as
   * compression(-level); field metadata first, then the environment, then {@code defaultScheme}
   * (null for none).
   */
  public FieldOptions forDictionaryValues(String defaultScheme) {
    Map<String, String> m = new TreeMap<>();
    String scheme = get("dict-values-compression").orElse(env("LANCE_ENCODING_DICT_VALUES_COMPRESSION"));
    if (scheme == null) {
      scheme = defaultScheme;
    }
    if (scheme != null) {
      m.put(PREFIX + "compression", scheme);
    }
    String level = get("dict-values-compression-level").orElse(env("LANCE_ENCODING_DICT_VALUES_COMPRESSION_LEVEL"));
    if (level != null) {
      m.put(PREFIX + "compression-level", level);
    }
    FieldOptions o = new FieldOptions(m);
    o.validate();
    return o;
  }

  private static String env(String name) {
    return System.getenv(name);
  }

  /** "miniblock" or "fullzip" when the user forces a structural layout. */
  public Optional<String> structuralEncoding() {
    Optional<String> v = get("structural-encoding");
    if (v.isPresent()
        && !v.get().equals("miniblock")
        && !v.get().equals("fullzip")
        && !v.get().equals("sparse")) {
      throw LanceCodecException.invalidArgument(
          PREFIX + "structural-encoding must be miniblock, fullzip or sparse, got '" + v.get() + "'");
    }
    return v;
  }
}
