package io.lancecodec.spark;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The data source options, parsed once on the driver and shipped to the tasks (everything here is
 * serializable; the codec registry is looked up again on each executor, from the class loader
 * that holds the connector and the codec jars there).
 *
 * <ul>
 *   <li>{@code path}: one {@code .lance} file or a directory of them (required);
 *   <li>{@code version}: file version written, 2.1 (default), 2.2 or 2.3;
 *   <li>{@code batch-size}: rows per Arrow batch, read and write (default 8192);
 *   <li>{@code page-bytes}: buffered bytes per column after which the writer cuts a page (default 8 MiB);
 *   <li>{@code split-bytes}: target on-disk bytes (of the columns read) per input partition
 *       (default {@code spark.sql.files.maxPartitionBytes}, 128 MiB);
 *   <li>{@code lance-encoding:KEY}: a writer-wide default for every column, e.g.
 *       {@code lance-encoding:compression=zstd};
 *   <li>{@code COLUMN.lance-encoding:KEY}: the same for one column (a dotted path for a field
 *       inside a struct), over the writer-wide default;
 *   <li>{@code fixed-size-list}: {@code col:dim,...}, array columns to write as Arrow fixed-size
 *       lists (vectors); a column read from a fixed-size list carries this in its metadata and is
 *       written back the same way without the option;
 *   <li>{@code without-plugins}: plugin names to ignore, as if their jars were missing
 *       (diagnostics: what a trimmed class path would do).
 * </ul>
 */
final class LanceOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  static final String PATH = "path";
  static final String VERSION = "version";
  static final String BATCH_SIZE = "batch-size";
  static final String PAGE_BYTES = "page-bytes";
  static final String SPLIT_BYTES = "split-bytes";
  static final String FIXED_SIZE_LIST = "fixed-size-list";
  static final String WITHOUT_PLUGINS = "without-plugins";
  static final int DEFAULT_BATCH_SIZE = 8192;

  final String path;
  final FileVersion version;
  final int batchSize;
  final long pageBytes;
  /** 0: take Spark's spark.sql.files.maxPartitionBytes. */
  final long splitBytes;
  final Map<String, String> fieldDefaults;
  /** Column path to its {@code lance-encoding:*} keys. */
  final Map<String, Map<String, String>> columnOptions;
  final Map<String, Integer> fixedSizeLists;
  final String[] withoutPlugins;
  /** The options as given, for merging with per-scan or per-write ones. */
  final Map<String, String> raw;

  LanceOptions(Map<String, String> caseSensitive) {
    this.raw = new TreeMap<>(caseSensitive);
    Map<String, String> lower = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    lower.putAll(caseSensitive);
    this.path = lower.get(PATH);
    String v = lower.get(VERSION);
    this.version = v == null ? FileVersion.V2_1 : FileVersion.parse(v.strip());
    this.batchSize = (int) positive(lower, BATCH_SIZE, DEFAULT_BATCH_SIZE);
    this.pageBytes = positive(lower, PAGE_BYTES, WriterOptions.DEFAULT_PAGE_BYTES);
    this.splitBytes = lower.containsKey(SPLIT_BYTES) ? positive(lower, SPLIT_BYTES, 0) : 0;
    Map<String, String> defaults = new TreeMap<>();
    Map<String, Map<String, String>> perColumn = new TreeMap<>();
    for (Map.Entry<String, String> e : caseSensitive.entrySet()) {
      String key = e.getKey();
      int at = key.indexOf(FieldOptions.PREFIX);
      if (at == 0) {
        defaults.put(key, e.getValue());
      } else if (at > 1 && key.charAt(at - 1) == '.') {
        perColumn.computeIfAbsent(key.substring(0, at - 1), k -> new TreeMap<>()).put(key.substring(at), e.getValue());
      }
    }
    this.fieldDefaults = defaults;
    this.columnOptions = perColumn;
    Map<String, Integer> fsl = new TreeMap<>();
    String fslText = lower.get(FIXED_SIZE_LIST);
    if (fslText != null && !fslText.isBlank()) {
      for (String item : fslText.split(",")) {
        int colon = item.lastIndexOf(':');
        if (colon <= 0) {
          throw LanceCodecException.invalidArgument("option " + FIXED_SIZE_LIST + ": '" + item + "' is not COLUMN:DIMENSION");
        }
        try {
          int dim = Integer.parseInt(item.substring(colon + 1).strip());
          if (dim <= 0) {
            throw new NumberFormatException();
          }
          fsl.put(item.substring(0, colon).strip(), dim);
        } catch (NumberFormatException ex) {
          throw LanceCodecException.invalidArgument("option " + FIXED_SIZE_LIST + ": '" + item + "' needs a positive dimension");
        }
      }
    }
    this.fixedSizeLists = fsl;
    String without = lower.get(WITHOUT_PLUGINS);
    this.withoutPlugins = without == null || without.isBlank() ? new String[0] : without.strip().split("\\s*,\\s*");
  }

  private static long positive(Map<String, String> options, String key, long fallback) {
    String text = options.get(key);
    if (text == null) {
      return fallback;
    }
    try {
      long value = Long.parseLong(text.strip());
      if (value <= 0 || (key.equals(BATCH_SIZE) && value > Integer.MAX_VALUE)) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw LanceCodecException.invalidArgument("option " + key + " must be a positive integer, got '" + text + "'");
    }
  }

  String requirePath() {
    if (path == null || path.isBlank()) {
      throw LanceCodecException.invalidArgument("the lance-codec data source needs a path (load(path) / save(path) or option \"path\")");
    }
    return path;
  }

  private static final Map<ClassLoader, CodecRegistry> REGISTRIES = new ConcurrentHashMap<>();

  /**
   * The plugins visible where this runs: the context class loader is the one Spark adds
   * {@code --jars}/{@code --packages} to, so codec jars shipped that way are found.
   */
  CodecRegistry registry() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = LanceOptions.class.getClassLoader();
    }
    CodecRegistry r = REGISTRIES.computeIfAbsent(loader, CodecRegistry::discover);
    return withoutPlugins.length == 0 ? r : r.without(withoutPlugins);
  }

  WriterOptions writerOptions() {
    WriterOptions w = WriterOptions.defaults().withRegistry(registry()).withVersion(version).withPageBytesPerColumn(pageBytes);
    for (Map.Entry<String, String> e : fieldDefaults.entrySet()) {
      w = w.withFieldDefault(e.getKey(), e.getValue());
    }
    return w;
  }
}
