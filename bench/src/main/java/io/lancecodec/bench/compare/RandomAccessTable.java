package io.lancecodec.bench.compare;

import io.lancecodec.bench.compare.Compare.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The paper's random-access table (Pace et al. 2025, "Lance: efficient random access in columnar
 * storage") from one comparison run: random-take rows/s per data type for lance-codec, the
 * reference and Parquet (default and the paper's tuned settings), and the search cache each keeps
 * in memory, per row and as a fraction of the data size.
 */
final class RandomAccessTable {
  /** The systems of the paper's table, in its column order. */
  static final List<String> SYSTEMS = List.of("ours-2.1", "ours-2.2", "ours-2.3", "ref-2.1", "ref-2.2", "parquet-default", "parquet-tuned");
  static final int TAKE1 = 3;
  static final int TAKE100 = 5;
  static final int SIZE = 0;
  static final int CACHE = 7;

  private RandomAccessTable() {}

  /** Data sets in run order, each with its rows by system. */
  static Map<String, Map<String, Row>> bySet(List<Row> rows) {
    Map<String, Map<String, Row>> out = new LinkedHashMap<>();
    for (Row r : rows) {
      out.computeIfAbsent(r.dataset, k -> new LinkedHashMap<>()).put(r.system, r);
    }
    return out;
  }

  static double median(Map<String, Row> set, String system, int metric) {
    Row r = set.get(system);
    return r == null ? Double.NaN : r.median(metric);
  }

  static String markdown(List<Row> rows, int reps) {
    Map<String, Map<String, Row>> sets = bySet(rows);
    StringBuilder sb = new StringBuilder();
    sb.append("## Random access (the paper's table)\n\n");
    sb.append("Rows/s of random `take` on this machine, the median of ").append(reps)
        .append(" interleaved repetition(s); every system gets the same seeded batches of random rows (ascending,"
            + " distinct; the reference as one-row ranges). The reference reports no search cache.\n");
    takeTable(sb, sets, TAKE100, "Batches of 100 rows per call");
    takeTable(sb, sets, TAKE1, "One row per call");
    sb.append("\n### Search cache: memory kept for random access\n\n");
    sb.append("Bytes per row, and in brackets as % of the data size (the column's raw Arrow bytes: values plus"
        + " 4-byte offsets for strings and lists). The paper's budget is 0.1 %. Ours ="
        + " `LanceFileReader.searchCacheBytes()`; Parquet = 20 B per page of offset index (offset, size, first row).\n\n");
    List<String> cacheSystems = List.of("ours-2.1", "ours-2.2", "ours-2.3", "parquet-default", "parquet-tuned");
    sb.append("| category | data set | rows | data B |");
    cacheSystems.forEach(s -> sb.append(' ').append(s).append(" |"));
    sb.append('\n').append("|---|---|").append("---:|".repeat(2 + cacheSystems.size())).append('\n');
    for (Map<String, Row> set : sets.values()) {
      Row any = set.values().iterator().next();
      sb.append("| ").append(any.category).append(" | ").append(any.dataset).append(" | ")
          .append(String.format(Locale.ROOT, "%,d", any.rows)).append(" | ")
          .append(String.format(Locale.ROOT, "%,d", any.rawBytes)).append(" |");
      for (String s : cacheSystems) {
        double c = median(set, s, CACHE);
        sb.append(' ').append(Double.isNaN(c) ? "—"
            : Compare.fmt(c / any.rows) + " (" + String.format(Locale.ROOT, "%.3f%%", 100 * c / any.rawBytes) + ")").append(" |");
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static void takeTable(StringBuilder sb, Map<String, Map<String, Row>> sets, int metric, String title) {
    sb.append("\n### ").append(title).append(" (rows/s)\n\n");
    sb.append("| category | data set | rows |");
    SYSTEMS.forEach(s -> sb.append(' ').append(s).append(" |"));
    sb.append(" ours-2.1 ×ref-2.1 | ours-2.2 ×ref-2.2 | ours-2.1 ×parquet-tuned | parquet-tuned ×parquet-default | ours-2.3 ×ours-2.2 |\n");
    sb.append("|---|---|").append("---:|".repeat(1 + SYSTEMS.size() + 5)).append('\n');
    for (Map<String, Row> set : sets.values()) {
      Row any = set.values().iterator().next();
      sb.append("| ").append(any.category).append(" | ").append(any.dataset).append(" | ")
          .append(String.format(Locale.ROOT, "%,d", any.rows)).append(" |");
      for (String s : SYSTEMS) {
        sb.append(' ').append(Compare.fmt(median(set, s, metric))).append(" |");
      }
      sb.append(' ').append(ratio(set, "ours-2.1", "ref-2.1", metric)).append(" |");
      sb.append(' ').append(ratio(set, "ours-2.2", "ref-2.2", metric)).append(" |");
      sb.append(' ').append(ratio(set, "ours-2.1", "parquet-tuned", metric)).append(" |");
      sb.append(' ').append(ratio(set, "parquet-tuned", "parquet-default", metric)).append(" |");
      sb.append(' ').append(ratio(set, "ours-2.3", "ours-2.2", metric)).append(" |\n");
    }
  }

  private static String ratio(Map<String, Row> set, String a, String b, int metric) {
    return Compare.fmt(paired(set, a, b, metric));
  }

  /** {@link Compare#pairedRatio} of two systems of one data set; NaN when either is missing. */
  private static double paired(Map<String, Row> set, String a, String b, int metric) {
    Row x = set.get(a);
    Row y = set.get(b);
    return x == null || y == null ? Double.NaN : Compare.pairedRatio(x, y, metric);
  }

  /** One line per data set and system of the paper's table. */
  static String csv(List<Row> rows, String comment) {
    StringBuilder sb = new StringBuilder();
    comment.lines().forEach(l -> sb.append("# ").append(l).append('\n'));
    sb.append("category,dataset,rows,data_bytes,system,file_bytes,take1_rows_per_s,take10_rows_per_s,take100_rows_per_s,"
        + "ref_system,take1_ratio_to_ref,take100_ratio_to_ref,search_cache_bytes,cache_bytes_per_row,cache_pct_of_data\n");
    for (Map<String, Row> set : bySet(rows).values()) {
      for (String s : SYSTEMS) {
        Row r = set.get(s);
        if (r == null) {
          continue;
        }
        String ref = s.startsWith("ours-") ? r.refSystem : "ref-2.1";
        double cache = r.median(CACHE);
        List<String> f = new ArrayList<>(List.of(r.category, r.dataset, Long.toString(r.rows), Long.toString(r.rawBytes), s,
            Compare.num(r.median(SIZE)), Compare.num(r.median(TAKE1)), Compare.num(r.median(4)), Compare.num(r.median(TAKE100)),
            ref, Compare.num(paired(set, s, ref, TAKE1)), Compare.num(paired(set, s, ref, TAKE100)),
            Compare.num(cache), Compare.num(cache / r.rows), Compare.num(100 * cache / r.rawBytes)));
        sb.append(String.join(",", f)).append('\n');
      }
    }
    return sb.toString();
  }
}
