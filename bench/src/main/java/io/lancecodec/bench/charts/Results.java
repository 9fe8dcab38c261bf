package io.lancecodec.bench.charts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what {@code bin/lance-codec bench} wrote, so charts can be drawn again from a results file
 * without measuring again: the comparison's {@code compare-*.csv}, and the leaderboard's
 * {@code leaderboard-*.csv} or (for runs from before it wrote a CSV) its Markdown table.
 */
public final class Results {
  private Results() {}

  /** One row of the comparison's CSV: one metric of one system on one data set. */
  public record Measure(String dataset, String system, long rows, String metric, double median, double min, double max,
      int samples, String refSystem, double ratio) {}

  /**
   * A comparison run. {@code name} is the file's stem ({@code compare-<time>}); {@code machine} is
   * what the run's header says of the machine (system, cpus, JDK), or empty.
   */
  public record CompareRun(String name, String machine, List<Measure> measures) {
    /** Data sets in the order the run measured them. */
    public List<String> datasets() {
      return measures.stream().map(Measure::dataset).distinct().toList();
    }

    /** Systems in the order the run lists them. */
    public List<String> systems() {
      return measures.stream().map(Measure::system).distinct().toList();
    }
  }

  /** One scored offer of the leaderboard; speeds in MB/s of raw bytes. */
  public record Offer(String codec, String fileVersion, String options, String offer, long bytes, double ratio,
      double encodeMBps, double decodeMBps, boolean selected) {}

  /** A leaderboard run: {@code data} says which column it scored; {@code machine} may be empty. */
  public record LeaderboardRun(String name, String data, String machine, List<Offer> offers) {}

  static final String COMPARE_HEADER = "dataset,system,rows,metric,median,min,max,samples,ref_system,ratio_to_ref";

  /** Header of the leaderboard's CSV; {@code Leaderboard} writes it, {@link #leaderboard} reads it. */
  public static final String LEADERBOARD_HEADER = "codec,plugin,file_version,field_options,offer,encoding,bytes,ratio,"
      + "bits_per_value,encode_MBps,decode_MBps,bytes_per_random_value,random_value_us,round_trip,selected";

  /** "Linux amd64, 2 cpus, JDK 17.0.15" out of the comparison's first header line. */
  private static final Pattern COMPARE_MACHINE = Pattern.compile("^lance-codec bench[^:]*: \\S+, (.*?); loadavg");

  public static boolean isCompareCsv(List<String> lines) {
    return lines.stream().filter(l -> !l.startsWith("#")).findFirst().map(COMPARE_HEADER::equals).orElse(false);
  }

  public static boolean isLeaderboardCsv(List<String> lines) {
    return lines.stream().filter(l -> !l.startsWith("#")).findFirst().map(LEADERBOARD_HEADER::equals).orElse(false);
  }

  public static CompareRun compare(Path csv) throws IOException {
    return compare(stem(csv), Files.readAllLines(csv));
  }

  static CompareRun compare(String name, List<String> lines) {
    if (!isCompareCsv(lines)) {
      throw new IllegalArgumentException(name + ": not a comparison CSV (expected the header " + COMPARE_HEADER + ")");
    }
    String machine = "";
    List<Measure> out = new ArrayList<>();
    boolean header = true;
    int lineNo = 0;
    for (String line : lines) {
      lineNo++;
      if (line.startsWith("#")) {
        Matcher m = COMPARE_MACHINE.matcher(line.substring(1).strip());
        if (machine.isEmpty() && m.find()) {
          machine = m.group(1);
        }
        continue;
      }
      if (header || line.isBlank()) {
        header = false;
        continue;
      }
      String[] f = line.split(",", -1);
      if (f.length != 10) {
        throw new IllegalArgumentException(name + ":" + lineNo + ": expected 10 fields, got " + f.length);
      }
      try {
        out.add(new Measure(f[0], f[1], Long.parseLong(f[2]), f[3], number(f[4]), number(f[5]), number(f[6]),
            Integer.parseInt(f[7]), f[8], number(f[9])));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + ":" + lineNo + ": " + e.getMessage(), e);
      }
    }
    return new CompareRun(name, machine, out);
  }

  /** A leaderboard's CSV, or the Markdown table of one written before the leaderboard wrote CSV. */
  public static LeaderboardRun leaderboard(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    return file.getFileName().toString().endsWith(".md") ? leaderboardMarkdown(stem(file), lines)
        : leaderboardCsv(stem(file), lines);
  }

  /** The leaderboard's comment: "codec leaderboard TIME: DATA; N values, ...; machine: M; loadavg ...". */
  private static final Pattern LEADERBOARD_COMMENT = Pattern.compile("codec leaderboard \\S+: (.*?); [\\d,]+ values");
  private static final Pattern LEADERBOARD_MACHINE = Pattern.compile("machine: ([^;]*)");

  static LeaderboardRun leaderboardCsv(String name, List<String> lines) {
    if (!isLeaderboardCsv(lines)) {
      throw new IllegalArgumentException(name + ": not a leaderboard CSV (expected the header " + LEADERBOARD_HEADER + ")");
    }
    String[] about = {"", ""};
    List<Offer> out = new ArrayList<>();
    boolean header = true;
    int lineNo = 0;
    for (String line : lines) {
      lineNo++;
      if (line.startsWith("#")) {
        describe(line, about);
        continue;
      }
      if (header || line.isBlank()) {
        header = false;
        continue;
      }
      List<String> f = splitCsv(line);
      if (f.size() != 15) {
        throw new IllegalArgumentException(name + ":" + lineNo + ": expected 15 fields, got " + f.size());
      }
      if (f.get(6).isEmpty()) {
        continue; // an offer that failed or was not made: nothing to place
      }
      try {
        out.add(new Offer(f.get(0), f.get(2), f.get(3), f.get(4), Long.parseLong(f.get(6)), number(f.get(7)),
            number(f.get(9)), number(f.get(10)), Boolean.parseBoolean(f.get(14))));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + ":" + lineNo + ": " + e.getMessage(), e);
      }
    }
    return new LeaderboardRun(name, about[0], about[1], out);
  }

  static LeaderboardRun leaderboardMarkdown(String name, List<String> lines) {
    String[] about = {"", ""};
    Map<String, Integer> col = new LinkedHashMap<>();
    List<Offer> out = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("<!--")) {
        describe(line, about);
        continue;
      }
      if (!line.startsWith("|") || line.startsWith("|---")) {
        continue;
      }
      String[] cells = line.substring(1, line.length() - (line.endsWith("|") ? 1 : 0)).split("\\|", -1);
      for (int i = 0; i < cells.length; i++) {
        cells[i] = cells[i].strip();
      }
      if (col.isEmpty()) {
        for (int i = 0; i < cells.length; i++) {
          col.put(cells[i], i);
        }
        for (String need : List.of("codec (plugin)", "file version", "field options", "offer", "bytes", "ratio",
            "encode MB/s", "decode MB/s")) {
          if (!col.containsKey(need)) {
            throw new IllegalArgumentException(name + ": the leaderboard table has no column '" + need + "'");
          }
        }
        continue;
      }
      String bytes = cells[col.get("bytes")].replace(",", "");
      if (!bytes.matches("\\d+")) {
        continue;
      }
      String codec = cells[col.get("codec (plugin)")];
      boolean selected = codec.startsWith("**");
      codec = codec.replace("**", "").replaceFirst("\\s*\\(.*", "");
      String options = cells[col.get("field options")];
      out.add(new Offer(codec, cells[col.get("file version")], options.equals("—") ? "" : options, cells[col.get("offer")],
          Long.parseLong(bytes), number(cells[col.get("ratio")]), number(cells[col.get("encode MB/s")].replace(",", "")),
          number(cells[col.get("decode MB/s")].replace(",", "")), selected));
    }
    if (col.isEmpty()) {
      throw new IllegalArgumentException(name + ": no leaderboard table found");
    }
    return new LeaderboardRun(name, about[0], about[1], out);
  }

  private static void describe(String comment, String[] about) {
    Matcher m = LEADERBOARD_COMMENT.matcher(comment);
    if (about[0].isEmpty() && m.find()) {
      about[0] = m.group(1);
    }
    Matcher k = LEADERBOARD_MACHINE.matcher(comment);
    if (about[1].isEmpty() && k.find()) {
      about[1] = k.group(1).strip();
    }
  }

  /** One CSV line: fields in double quotes may hold commas and doubled quotes. */
  static List<String> splitCsv(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          f.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          f.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        out.add(f.toString());
        f.setLength(0);
      } else {
        f.append(c);
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("unterminated quote in CSV line: " + line);
    }
    out.add(f.toString());
    return out;
  }

  /** A CSV field: quoted when it holds a comma, a quote or a line break. */
  public static String csvField(String s) {
    return s.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r')
        ? '"' + s.replace("\"", "\"\"") + '"' : s;
  }

  /** A CSV line from fields. */
  public static String csvLine(String... fields) {
    return String.join(",", Arrays.stream(fields).map(Results::csvField).toList());
  }

  /** Empty and "—" are missing values (NaN). */
  static double number(String s) {
    String t = s.strip();
    return t.isEmpty() || t.equals("—") ? Double.NaN : Double.parseDouble(t);
  }

  static String stem(Path file) {
    String n = file.getFileName().toString();
    int dot = n.lastIndexOf('.');
    return dot > 0 ? n.substring(0, dot) : n;
  }

  /** A name as a file-name part: lower case, runs of other characters as one '-'. */
  public static String slug(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
  }
}
