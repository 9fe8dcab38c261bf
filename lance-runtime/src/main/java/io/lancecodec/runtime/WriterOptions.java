package io.lancecodec.runtime;

import io.lancecodec.runtime.plugin.OptionsParser;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Options of a {@link LanceFileWriter}: the file version (default 2.1, as the reference's
 * writer defaults to), the buffered bytes per column after which a page is cut (8 MiB like the
 * reference), the plugin registry to encode with, {@code lance-encoding:*} options applied to
 * every field whose own metadata does not set the same key (field metadata wins), and the
 * environment variables the spec's options read ({@code LANCE_ENCODING_DICT_*},
 * {@code LANCE_MINIBLOCK_MAX_VALUES}; the process's by default), and how durable a closed file
 * is ({@link Durability}).
 */
public record WriterOptions(
    FileVersion version, long pageBytesPerColumn, CodecRegistry registry, Map<String, String> fieldDefaults,
    Map<String, String> environment, Durability durability) {
  public static final long DEFAULT_PAGE_BYTES = 8L * 1024 * 1024;

  /**
   * What {@link LanceFileWriter#close()} guarantees once it returns. Either way the file appears
   * under its name only complete (written to a temporary name, then renamed atomically), so a
   * reader never sees a partial file.
   */
  public enum Durability {
    /** The file's bytes are forced to the storage device before the rename (the default): a crash after close keeps it. */
    SYNC,
    /**
     * Flushing is left to the operating system, as the reference's writer does: cheaper for many
     * small files, but a power loss soon after close may lose the file (or leave it empty under
     * its name on file systems that reorder the rename before the data).
     */
    OS_BUFFERED
  }

  public WriterOptions {
    Objects.requireNonNull(durability, "durability");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(registry, "registry");
    if (pageBytesPerColumn <= 0) {
      throw LanceCodecException.invalidArgument("pageBytesPerColumn must be positive, got " + pageBytesPerColumn);
    }
    fieldDefaults = Map.copyOf(fieldDefaults);
    for (String key : fieldDefaults.keySet()) {
      if (!key.startsWith(FieldOptions.PREFIX)) {
        throw LanceCodecException.invalidArgument(
            "writer option '" + key + "' is not a " + FieldOptions.PREFIX + "* key");
      }
    }
    environment = Map.copyOf(environment);
    // bad values fail here, once, rather than at the first page
    new OptionsParser(registry.internals(), environment).parse(fieldDefaults, "writer defaults");
  }

  public static WriterOptions defaults() {
    return new WriterOptions(FileVersion.V2_1, DEFAULT_PAGE_BYTES, CodecRegistry.discover(), Map.of(),
        OptionsParser.processEnvironment(), Durability.SYNC);
  }

  public WriterOptions withVersion(FileVersion v) {
    return new WriterOptions(v, pageBytesPerColumn, registry, fieldDefaults, environment, durability);
  }

  public WriterOptions withPageBytesPerColumn(long bytes) {
    return new WriterOptions(version, bytes, registry, fieldDefaults, environment, durability);
  }

  public WriterOptions withRegistry(CodecRegistry r) {
    return new WriterOptions(version, pageBytesPerColumn, r, fieldDefaults, environment, durability);
  }

  /**
   * Replaces the environment the options read, e.g. {@code Map.of("LANCE_MINIBLOCK_MAX_VALUES",
   * "1024")}; variables other than the spec's are ignored.
   */
  public WriterOptions withEnvironment(Map<String, String> variables) {
    return new WriterOptions(version, pageBytesPerColumn, registry, fieldDefaults, variables, durability);
  }

  /** How durable a closed file is; {@link Durability#SYNC} by default. */
  public WriterOptions withDurability(Durability d) {
    return new WriterOptions(version, pageBytesPerColumn, registry, fieldDefaults, environment, d);
  }

  /** Sets a default {@code lance-encoding:*} option for all fields, e.g. ("lance-encoding:compression", "zstd"). */
  public WriterOptions withFieldDefault(String key, String value) {
    Map<String, String> m = new TreeMap<>(fieldDefaults);
    m.put(key, value);
    return new WriterOptions(version, pageBytesPerColumn, registry, m, environment, durability);
  }

  /** The options of one field: its metadata over the writer-wide defaults over the environment. */
  FieldOptions optionsFor(OptionsParser parser, Map<String, String> fieldMetadata, String field) {
    Map<String, String> m = new TreeMap<>(fieldDefaults);
    if (fieldMetadata != null) {
      m.putAll(fieldMetadata);
    }
    return parser.parse(m, field);
  }
}
