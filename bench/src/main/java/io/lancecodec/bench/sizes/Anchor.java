package io.lancecodec.bench.sizes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference's numbers from the anchor file: every Markdown table row keyed by its first cell
 * (the column label) and the table's header cell. FSST cells read "median (min–max)"; the median
 * is the first number.
 */
final class Anchor {
  private static final Pattern NUMBER = Pattern.compile("^\\s*\\**([0-9][0-9,]*(?:\\.[0-9]+)?)");
  private final Map<String, Map<String, String>> cells = new HashMap<>();

  static Anchor read(Path file) throws IOException {
    Anchor a = new Anchor();
    if (file == null || !Files.isReadable(file)) {
      return a;
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    String[] header = null;
    for (String line : lines) {
      if (!line.startsWith("|")) {
        header = null;
        continue;
      }
      String[] parts = cells(line);
      if (header == null) {
        header = parts;
        continue;
      }
      if (parts.length > 0 && parts[0].startsWith("---")) {
        continue;
      }
      Map<String, String> row = a.cells.computeIfAbsent(parts[0], k -> new HashMap<>());
      for (int i = 1; i < parts.length && i < header.length; i++) {
        row.putIfAbsent(header[i], parts[i]);
      }
    }
    return a;
  }

  private static String[] cells(String line) {
    String body = line.strip();
    body = body.substring(1, body.endsWith("|") ? body.length() - 1 : body.length());
    String[] parts = body.split("\\|", -1);
    for (int i = 0; i < parts.length; i++) {
      parts[i] = parts[i].strip();
    }
    return parts;
  }

  /** The cell's (first) number, if the anchor has it. */
  OptionalDouble number(String label, String header) {
    String cell = text(label, header);
    if (cell == null) {
      return OptionalDouble.empty();
    }
    Matcher m = NUMBER.matcher(cell);
    return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1).replace(",", ""))) : OptionalDouble.empty();
  }

  String text(String label, String header) {
    Map<String, String> row = cells.get(label);
    return row == null ? null : row.get(header);
  }

  /** The reference's default file bytes (median for FSST columns) of a version, or -1. */
  long defaultBytes(String label, String version) {
    OptionalDouble d = number(label, version + " bytes");
    return d.isPresent() ? Math.round(d.getAsDouble()) : -1;
  }

  /** The reference's bytes/value of a variant ("default", "zstd", "lz4") and version, or NaN. */
  double bytesPerValue(String label, String variant, String version) {
    return number(label, variant + " " + version).orElse(Double.NaN);
  }

  /** The anchor's layout description for the default of a version, or null. */
  String layout(String label, String version) {
    return text(label, version + " default layout");
  }
}
