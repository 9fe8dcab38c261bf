package io.lancecodec.cli;

import io.lancecodec.runtime.LanceFileReader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;

/** {@code inspect}: version, schema, and per column every page's rows, layout, compression and bytes. */
final class Inspect {
  private Inspect() {}

  /** Per top-level field, the pages of all its leaf columns, column after column. */
  static List<List<LanceFileReader.PageSummary>> pages(LanceFileReader reader) {
    List<List<LanceFileReader.PageSummary>> out = new ArrayList<>();
    for (int f = 0; f < reader.schema().getFields().size(); f++) {
      out.add(new ArrayList<>());
    }
    for (LanceFileReader.ColumnSummary c : reader.columnSummaries()) {
      out.get(c.field()).addAll(c.pages());
    }
    return out;
  }

  static void run(Path path, boolean json, PrintStream out) {
    try (LanceFileReader reader = LanceFileReader.open(path)) {
      List<Field> fields = reader.schema().getFields();
      List<List<LanceFileReader.PageSummary>> pages = pages(reader);
      long cache = reader.searchCacheBytes();
      double pct = reader.fileSize() == 0 ? 0 : 100.0 * cache / reader.fileSize();
      if (json) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"file\":").append(Json.quote(path.toString()))
            .append(",\"version\":").append(Json.quote(reader.version().toString()))
            .append(",\"rows\":").append(reader.numRows())
            .append(",\"file_bytes\":").append(reader.fileSize())
            .append(",\"search_cache_bytes\":").append(cache)
            .append(",\"columns\":[");
        for (int c = 0; c < fields.size(); c++) {
          Field f = fields.get(c);
          if (c > 0) {
            sb.append(',');
          }
          long bytes = 0;
          for (LanceFileReader.PageSummary p : pages.get(c)) {
            bytes += Math.max(0, p.bytes());
          }
          sb.append("{\"name\":").append(Json.quote(f.getName()))
              .append(",\"type\":").append(Json.quote(TypeNames.of(f)))
              .append(",\"nullable\":").append(f.isNullable())
              .append(",\"metadata\":{");
          boolean first = true;
          for (Map.Entry<String, String> e : new TreeMap<>(f.getMetadata() == null ? Map.of() : f.getMetadata()).entrySet()) {
            if (!first) {
              sb.append(',');
            }
            first = false;
            sb.append(Json.quote(e.getKey())).append(':').append(Json.quote(e.getValue()));
          }
          sb.append("},\"bytes\":").append(bytes).append(",\"pages\":[");
          for (int p = 0; p < pages.get(c).size(); p++) {
            LanceFileReader.PageSummary pg = pages.get(c).get(p);
            if (p > 0) {
              sb.append(',');
            }
            sb.append("{\"rows\":").append(pg.rows()).append(",\"bytes\":").append(pg.bytes())
                .append(",\"layout\":").append(Json.quote(pg.layout()))
                .append(",\"encoding\":").append(Json.quote(pg.description())).append('}');
          }
          sb.append("]}");
        }
        sb.append("]}");
        out.println(sb);
        return;
      }
      out.println("file:          " + path);
      out.println("version:       " + reader.version());
      out.println("rows:          " + reader.numRows());
      out.println("file size:     " + reader.fileSize() + " bytes");
      out.println("search cache:  " + cache + " bytes (" + String.format(Locale.ROOT, "%.2f", pct) + "% of the file)");
      out.println("schema:");
      for (Field f : fields) {
        StringBuilder line = new StringBuilder("  " + f.getName() + ": " + TypeNames.of(f) + (f.isNullable() ? "" : " not null"));
        if (f.getMetadata() != null && !f.getMetadata().isEmpty()) {
          line.append("  {");
          boolean first = true;
          for (Map.Entry<String, String> e : new TreeMap<>(f.getMetadata()).entrySet()) {
            line.append(first ? "" : ", ").append(e.getKey()).append('=').append(e.getValue());
            first = false;
          }
          line.append('}');
        }
        out.println(line);
      }
      out.println("columns:");
      for (int c = 0; c < fields.size(); c++) {
        long bytes = 0;
        for (LanceFileReader.PageSummary p : pages.get(c)) {
          bytes += Math.max(0, p.bytes());
        }
        out.println("  " + fields.get(c).getName() + ": " + pages.get(c).size() + (pages.get(c).size() == 1 ? " page, " : " pages, ")
            + bytes + " bytes");
        for (int p = 0; p < pages.get(c).size(); p++) {
          LanceFileReader.PageSummary pg = pages.get(c).get(p);
          out.println("    page " + p + ": " + pg.rows() + " rows, " + pg.bytes() + " bytes, " + pg.description());
        }
      }
    }
  }
}
