package io.lancecodec.spi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The encoding options of one field as typed values: its {@code lance-encoding:*} metadata over
 * the writer's defaults over the {@code LANCE_ENCODING_*} environment, parsed and checked once by
 * the runtime when a writer opens (a bad value fails there, naming the key, the value and the
 * choices). Plugins and layouts only read them; nothing here is parsed again per page. Immutable.
 */
public final class FieldOptions {
  /** The metadata key prefix of every option. */
  public static final String PREFIX = "lance-encoding:";

  /** off, on or auto ({@code lance-encoding:bss}, {@code lance-encoding:alp}). */
  public enum Mode {
    OFF,
    ON,
    AUTO
  }

  /**
   * What the field's fixed-width leaf values are as numbers, from its Arrow type (the innermost
   * primitive under fixed-size lists); blocks carry only widths. Set by the runtime's writer.
   */
  public enum NumberKind {
    /** Not a number of 8 to 64 bits: booleans, decimals, fixed-size binary, strings, or unknown. */
    OTHER,
    SIGNED_INTEGER,
    UNSIGNED_INTEGER,
    FLOAT;

    public boolean integer() {
      return this == SIGNED_INTEGER || this == UNSIGNED_INTEGER;
    }
  }

  /** A structural policy the field forces ({@code lance-encoding:structural-encoding}). */
  public enum StructuralEncoding {
    MINIBLOCK("miniblock"),
    FULLZIP("fullzip"),
    SPARSE("sparse");

    private final String option;

    StructuralEncoding(String option) {
      this.option = option;
    }

    /** The option value that names it. */
    public String option() {
      return option;
    }
  }

  /** The options of a field that sets none. */
  public static final FieldOptions DEFAULT = builder().build();

  private final String compression;
  private final boolean compressionNone;
  private final Integer compressionLevel;
  private final Double rleThreshold;
  private final Mode bss;
  private final Mode alp;
  private final StructuralEncoding structuralEncoding;
  private final int dictDivisor;
  private final double dictSizeRatio;
  private final String dictValuesCompression;
  private final Integer dictValuesCompressionLevel;
  private final int repetitionIndexDepth;
  private final int dictTooSmall;
  private final int miniBlockMaxValues;
  private final int dictMaxCardinality;
  private final boolean dictExtended;
  private final boolean blob;
  private final boolean chunkedCompression;
  private final Mode fslLeaf;
  private final NumberKind numberKind;
  private final Map<String, String> extra;

  private FieldOptions(Builder b) {
    this.compression = b.compression;
    this.compressionNone = b.compressionNone;
    this.compressionLevel = b.compressionLevel;
    this.rleThreshold = b.rleThreshold;
    this.bss = b.bss;
    this.alp = b.alp;
    this.structuralEncoding = b.structuralEncoding;
    this.dictDivisor = b.dictDivisor;
    this.dictSizeRatio = b.dictSizeRatio;
    this.dictValuesCompression = b.dictValuesCompression;
    this.dictValuesCompressionLevel = b.dictValuesCompressionLevel;
    this.repetitionIndexDepth = b.repetitionIndexDepth;
    this.dictTooSmall = b.dictTooSmall;
    this.miniBlockMaxValues = b.miniBlockMaxValues;
    this.dictMaxCardinality = b.dictMaxCardinality;
    this.dictExtended = b.dictExtended;
    this.blob = b.blob;
    this.chunkedCompression = b.chunkedCompression;
    this.fslLeaf = b.fslLeaf;
    this.numberKind = b.numberKind;
    this.extra = Map.copyOf(b.extra);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.compression = compression;
    b.compressionNone = compressionNone;
    b.compressionLevel = compressionLevel;
    b.rleThreshold = rleThreshold;
    b.bss = bss;
    b.alp = alp;
    b.structuralEncoding = structuralEncoding;
    b.dictDivisor = dictDivisor;
    b.dictSizeRatio = dictSizeRatio;
    b.dictValuesCompression = dictValuesCompression;
    b.dictValuesCompressionLevel = dictValuesCompressionLevel;
    b.repetitionIndexDepth = repetitionIndexDepth;
    b.dictTooSmall = dictTooSmall;
    b.miniBlockMaxValues = miniBlockMaxValues;
    b.dictMaxCardinality = dictMaxCardinality;
    b.dictExtended = dictExtended;
    b.blob = blob;
    b.chunkedCompression = chunkedCompression;
    b.fslLeaf = fslLeaf;
    b.numberKind = numberKind;
    b.extra.putAll(extra);
    return b;
  }

  /** The compression scheme asked for ({@code zstd}, {@code fsst}, ...); empty for none or unset. */
  public Optional<String> compression() {
    return Optional.ofNullable(compression);
  }

  /**
   * Whether the field asked for no compression at all ({@code compression=none}): unlike an unset
   * key, this also turns off what the writer would choose on its own (bit-packing, FSST).
   */
  public boolean compressionNone() {
    return compressionNone;
  }

  public OptionalInt compressionLevel() {
    return compressionLevel == null ? OptionalInt.empty() : OptionalInt.of(compressionLevel);
  }

  /**
   * Runs / values below which RLE applies, when the field sets it; empty leaves the choice to
   * the codec (the spec's default is 0.5).
   */
  public OptionalDouble rleThreshold() {
    return rleThreshold == null ? OptionalDouble.empty() : OptionalDouble.of(rleThreshold);
  }

  /** Byte-stream-split before general compression; default auto. */
  public Mode bss() {
    return bss;
  }

  /** ALP for floats in 2.3 files; default auto. */
  public Mode alp() {
    return alp;
  }

  public Optional<StructuralEncoding> structuralEncoding() {
    return Optional.ofNullable(structuralEncoding);
  }

  /** Dictionary encoding allows at most numValues / divisor entries (default 2). */
  public int dictDivisor() {
    return dictDivisor;
  }

  /** Dictionary pages must stay below this fraction of the plain size (default 0.8). */
  public double dictSizeRatio() {
    return dictSizeRatio;
  }

  /**
   * How many list levels a mini-block repetition index addresses (our key
   * {@code repetition-index-depth}, 1 or 2; default 1 like the reference). Depth 2 adds, per
   * chunk, the inner lists its trailing row starts there (docs/random-access.md), so
   * {@code rows[i][j]} can be found without the chunks of row i before list j.
   */
  public int repetitionIndexDepth() {
    return repetitionIndexDepth;
  }

  /**
   * Values in one mini-block chunk, at most (LANCE_MINIBLOCK_MAX_VALUES, default
   * {@link MiniBlocks#MAX_VALUES}, {@link MiniBlocks#MIN_VALUES_WRITE} to {@link MiniBlocks#MAX_VALUES_WRITE}). Full chunks hold a
   * power of two, so compressors use the largest power of two not above it; codecs whose chunks
   * have a fixed count above it (bit-packing's 1024) decline the page.
   */
  public int miniBlockMaxValues() {
    return miniBlockMaxValues;
  }

  /** Pages of fewer values are never dictionary encoded (LANCE_ENCODING_DICT_TOO_SMALL, default 100). */
  public int dictTooSmall() {
    return dictTooSmall;
  }

  /** Most entries of a dictionary (LANCE_ENCODING_DICT_MAX_CARDINALITY, default 100000). */
  public int dictMaxCardinality() {
    return dictMaxCardinality;
  }

  /**
   * Whether dictionaries are also tried where the reference writes none, kept only when they save
   * enough (ours: LANCE_CODEC_DICT_EXTENDED=0 turns it off, for byte-identical reference output).
   */
  public boolean dictExtended() {
    return dictExtended;
  }

  /**
   * Whether the field's values are blobs ({@code lance-encoding:blob}, any value): stored outside
   * their pages, one read per value, with only their positions and sizes in the page.
   */
  public boolean blob() {
    return blob;
  }

  /**
   * Whether the asked scheme compresses whole chunks of similar values (a plugin's
   * {@link CodecPlugin#chunkedSchemes()}, e.g. pcodec), so that the layout keeps the values in
   * dense mini-blocks: no dictionary, no full zip for wide values, no sparse page for mostly-null
   * ones unless the field asks for sparse itself. Set by the runtime's option parser.
   */
  public boolean chunkedCompression() {
    return chunkedCompression;
  }

  /**
   * Compression of the leaf values of fixed-size lists in 2.3 ({@code lance-encoding:fsl-leaf}):
   * auto keeps it where it is smaller than the flat rows, on keeps it whenever a leaf codec
   * offers one (tests, and users who know their data), off keeps the leaf Flat, as 2.2 does
   * (general compression of whole rows, {@code compression=zstd}, is not a leaf codec and still
   * applies).
   */
  public Mode fslLeaf() {
    return fslLeaf;
  }

  /** What the leaf values are as numbers; {@link NumberKind#OTHER} when the writer did not say. */
  public NumberKind numberKind() {
    return numberKind;
  }

  /** A plugin-declared key's value (key without the prefix), empty when unset. */
  public Optional<String> extra(String key) {
    return Optional.ofNullable(extra.get(key));
  }

  /**
   * The options for compressing this field's dictionary values: its dict-values-compression
   * (already over the environment's) as compression, else {@code defaultScheme} (null for none).
   */
  public FieldOptions forDictionaryValues(String defaultScheme) {
    Builder b = builder();
    String scheme = dictValuesCompression != null ? dictValuesCompression : defaultScheme;
    if (scheme != null) {
      b.compression(scheme);
    }
    b.compressionLevel = dictValuesCompressionLevel;
    return b.build();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldOptions f && f.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /** The options that differ from the defaults, as their keys and values. */
  @Override
  public String toString() {
    Map<String, Object> m = new TreeMap<>();
    if (compression != null || compressionNone) {
      m.put("compression", compressionNone ? "none" : compression);
    }
    putIf(m, "compression-level", compressionLevel);
    putIf(m, "rle-threshold", rleThreshold);
    putIf(m, "bss", bss == Mode.AUTO ? null : bss);
    putIf(m, "alp", alp == Mode.AUTO ? null : alp);
    putIf(m, "structural-encoding", structuralEncoding == null ? null : structuralEncoding.option());
    putIf(m, "dict-divisor", dictDivisor == 2 ? null : dictDivisor);
    putIf(m, "dict-size-ratio", dictSizeRatio == 0.8 ? null : dictSizeRatio);
    putIf(m, "dict-values-compression", dictValuesCompression);
    putIf(m, "dict-values-compression-level", dictValuesCompressionLevel);
    putIf(m, "repetition-index-depth", repetitionIndexDepth == 1 ? null : repetitionIndexDepth);
    putIf(m, "LANCE_ENCODING_DICT_TOO_SMALL", dictTooSmall == 100 ? null : dictTooSmall);
    putIf(m, "LANCE_MINIBLOCK_MAX_VALUES", miniBlockMaxValues == MiniBlocks.MAX_VALUES ? null : miniBlockMaxValues);
    putIf(m, "LANCE_ENCODING_DICT_MAX_CARDINALITY", dictMaxCardinality == 100_000 ? null : dictMaxCardinality);
    putIf(m, "LANCE_CODEC_DICT_EXTENDED", dictExtended ? null : 0);
    putIf(m, "blob", blob ? true : null);
    putIf(m, "fsl-leaf", fslLeaf == Mode.AUTO ? null : fslLeaf);
    putIf(m, "number-kind", numberKind == NumberKind.OTHER ? null : numberKind);
    m.putAll(extra);
    return m.toString();
  }

  private static void putIf(Map<String, Object> m, String key, Object value) {
    if (value != null) {
      m.put(key, value);
    }
  }

  /** Builds options from typed values; range checks here are the same the runtime's parser makes. */
  public static final class Builder {
    private String compression;
    private boolean compressionNone;
    private Integer compressionLevel;
    private Double rleThreshold;
    private Mode bss = Mode.AUTO;
    private Mode alp = Mode.AUTO;
    private StructuralEncoding structuralEncoding;
    private int dictDivisor = 2;
    private double dictSizeRatio = 0.8;
    private String dictValuesCompression;
    private Integer dictValuesCompressionLevel;
    private int repetitionIndexDepth = 1;
    private int dictTooSmall = 100;
    private int miniBlockMaxValues = MiniBlocks.MAX_VALUES;
    private int dictMaxCardinality = 100_000;
    private boolean dictExtended = true;
    private boolean blob;
    private boolean chunkedCompression;
    private Mode fslLeaf = Mode.AUTO;
    private NumberKind numberKind = NumberKind.OTHER;
    private final Map<String, String> extra = new TreeMap<>();

    private Builder() {}

    /** A scheme name, or "none" to turn off compression the writer would otherwise choose. */
    public Builder compression(String scheme) {
      Objects.requireNonNull(scheme, "scheme");
      compressionNone = scheme.equals("none");
      compression = compressionNone ? null : scheme;
      return this;
    }

    public Builder compressionLevel(int level) {
      compressionLevel = level;
      return this;
    }

    public Builder rleThreshold(double threshold) {
      if (!(threshold >= 0.0 && threshold <= 1.0)) {
        throw bad("rle-threshold", String.valueOf(threshold), "a number in [0, 1]");
      }
      rleThreshold = threshold;
      return this;
    }

    public Builder bss(Mode mode) {
      bss = Objects.requireNonNull(mode, "mode");
      return this;
    }

    public Builder alp(Mode mode) {
      alp = Objects.requireNonNull(mode, "mode");
      return this;
    }

    public Builder structuralEncoding(StructuralEncoding encoding) {
      structuralEncoding = Objects.requireNonNull(encoding, "encoding");
      return this;
    }

    public Builder dictDivisor(int divisor) {
      if (divisor <= 1) {
        throw bad("dict-divisor", String.valueOf(divisor), "an integer greater than 1");
      }
      dictDivisor = divisor;
      return this;
    }

    public Builder dictSizeRatio(double ratio) {
      if (!(ratio > 0.0 && ratio <= 1.0)) {
        throw bad("dict-size-ratio", String.valueOf(ratio), "a number in (0, 1]");
      }
      dictSizeRatio = ratio;
      return this;
    }

    public Builder dictValuesCompression(String scheme) {
      dictValuesCompression = Objects.requireNonNull(scheme, "scheme");
      return this;
    }

    public Builder dictValuesCompressionLevel(int level) {
      dictValuesCompressionLevel = level;
      return this;
    }

    public Builder repetitionIndexDepth(int depth) {
      if (depth != 1 && depth != 2) {
        throw bad("repetition-index-depth", String.valueOf(depth), "1 or 2");
      }
      repetitionIndexDepth = depth;
      return this;
    }

    public Builder dictTooSmall(int values) {
      if (values < 0) {
        throw LanceCodecException.invalidArgument("LANCE_ENCODING_DICT_TOO_SMALL must not be negative, got " + values);
      }
      dictTooSmall = values;
      return this;
    }

    public Builder miniBlockMaxValues(int values) {
      if (values < MiniBlocks.MIN_VALUES_WRITE || values > MiniBlocks.MAX_VALUES_WRITE) {
        throw LanceCodecException.invalidArgument("LANCE_MINIBLOCK_MAX_VALUES must be between " + MiniBlocks.MIN_VALUES_WRITE + " and "
            + MiniBlocks.MAX_VALUES_WRITE + ", got " + values);
      }
      miniBlockMaxValues = values;
      return this;
    }

    public Builder dictMaxCardinality(int entries) {
      if (entries < 1) {
        throw LanceCodecException.invalidArgument("LANCE_ENCODING_DICT_MAX_CARDINALITY must be positive, got " + entries);
      }
      dictMaxCardinality = entries;
      return this;
    }

    public Builder dictExtended(boolean on) {
      dictExtended = on;
      return this;
    }

    public Builder blob(boolean on) {
      blob = on;
      return this;
    }

    /** Marks the compression scheme as one that needs dense mini-blocks ({@link #chunkedCompression()}). */
    public Builder chunkedCompression(boolean on) {
      chunkedCompression = on;
      return this;
    }

    public Builder fslLeaf(Mode mode) {
      fslLeaf = Objects.requireNonNull(mode, "mode");
      return this;
    }

    public Builder numberKind(NumberKind kind) {
      numberKind = Objects.requireNonNull(kind, "kind");
      return this;
    }

    /** A plugin-declared key (without the prefix). */
    public Builder extra(String key, String value) {
      extra.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    public FieldOptions build() {
      return new FieldOptions(this);
    }

    private static LanceCodecException bad(String key, String value, String choices) {
      return LanceCodecException.invalidArgument(PREFIX + key + " must be " + choices + ", got '" + value + "'");
    }
  }
}
