package io.lancecodec.bench.sizes;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.Scanner;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.FileVersion;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * The file-size table of issue #3: every column of the anchor's corpus written by our writer
 * and by the reference (org.lance:lance-core), 2.1 and 2.2, with no hint and with the
 * {@code lance-encoding:compression} hints zstd and lz4; file bytes, ratio and both encodings
 * (ours from our writer's pages, the reference's by reading its file with our reader). Every file
 * of ours is read back by our reader and by the reference and compared with the source values.
 *
 * <p>Run by {@code bench/sizes.sh}; see bench/README.md. The ratio's target is the reference's
 * file of the same run; where the reference wrote FSST (its size varies by a few percent from
 * write to write) it is the median of {@link #REF_FSST_WRITES} writes. The anchor's number (its
 * median for FSST) is shown beside it, and ours / anchor is a column of its own.
 */
public final class CorpusSizes {
  static final List<String> VARIANTS = List.of("default", "zstd", "lz4");

  /**
   * Variants measured only when named: {@code alp-on} sets {@code lance-encoding:alp=on} (2.3's
   * ALP without auto's entropy gate; 2.1/2.2 ignore the key, so their cells equal the default's).
   */
  static final List<String> EXTRA_VARIANTS = List.of("alp-on");
  static final List<FileVersion> VERSIONS = List.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3);

  /** One measured cell: a column, a variant and a version. */
  record Cell(
      CorpusColumn col,
      String variant,
      FileVersion version,
      long ours,
      long ref,
      long anchor,
      String oursEncoding,
      String refEncoding,
      String oursCheck,
      String refReadsOurs,
      long oursSearchCache) {
    long target() {
      return ref;
    }

    double ratio() {
      long t = target();
      return t > 0 ? (double) ours / t : Double.NaN;
    }

    double anchorRatio() {
      return anchor > 0 ? (double) ours / anchor : Double.NaN;
    }
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(System.getProperty("lance.codec.root", ".")).toAbsolutePath();
    Path shared = sharedDir(root);
    Path data = shared.resolve("data");
    Path anchorFile = shared.resolve("anchors/reference-lance-7.0.0.md");
    Path out = null;
    List<String> groups = Corpus.GROUPS;
    List<String> variants = VARIANTS;
    Pattern only = null;
    boolean ref = true;
    boolean verify = true;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--data" -> data = Path.of(need(args, ++i, a));
        case "--anchor" -> anchorFile = Path.of(need(args, ++i, a));
        case "--out" -> out = Path.of(need(args, ++i, a));
        case "--groups" -> groups = List.of(need(args, ++i, a).split(","));
        case "--variants" -> variants = List.of(need(args, ++i, a).split(","));
        case "--only" -> only = Pattern.compile(need(args, ++i, a));
        case "--no-ref" -> ref = false;
        case "--no-verify" -> verify = false;
        case "-h", "--help" -> {
          System.out.println("usage: bench/sizes.sh [--data DIR] [--anchor FILE] [--out DIR] [--groups "
              + String.join(",", Corpus.GROUPS) + "] [--variants default,zstd,lz4,alp-on] [--only REGEX] [--no-ref] [--no-verify]");
          return;
        }
        default -> throw new IllegalArgumentException("unknown argument '" + a + "' (try --help)");
      }
    }
    for (String v : variants) {
      if (!VARIANTS.contains(v) && !EXTRA_VARIANTS.contains(v)) {
        throw new IllegalArgumentException("unknown variant '" + v + "' (variants: " + VARIANTS + ", " + EXTRA_VARIANTS + ")");
      }
    }
    Anchor anchor = Anchor.read(anchorFile);
    Path tmp = Files.createTempDirectory("sizes");
    List<Cell> cells = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    String started = Instant.now().toString();
    try (BufferAllocator alloc = new RootAllocator()) {
      Corpus corpus = new Corpus(data, alloc);
      for (String g : groups) {
        List<CorpusColumn> cols;
        try {
          cols = corpus.load(g);
        } catch (Exception | OutOfMemoryError e) {
          errors.add("group " + g + ": " + e);
          System.err.println("group " + g + " failed: " + e);
          continue;
        }
        for (CorpusColumn col : cols) {
          if (only != null && !only.matcher(col.label()).find()) {
            continue;
          }
          long digest = col.digest();
          for (String variant : variants) {
            for (FileVersion version : VERSIONS) {
              try {
                // the reference writes no 2.3 pages: 2.3 is ours alone, set beside our 2.2
                Cell c = measure(col, digest, variant, version, ref && version != FileVersion.V2_3, verify, anchor, tmp, alloc);
                cells.add(c);
                System.err.printf(Locale.ROOT, "%-36s %-7s %s ours %,12d ref %,12d x%.3f %s/%s  %s%n", col.label(), variant,
                    version, c.ours, c.ref, c.ratio(), c.oursCheck, c.refReadsOurs, c.oursEncoding);
              } catch (Exception | OutOfMemoryError e) {
                errors.add(col.label() + " " + variant + " " + version + ": " + e);
                System.err.println(col.label() + " " + variant + " " + version + " failed: " + e);
              }
            }
          }
        }
        cols = null;
      }
    } finally {
      try (var files = Files.list(tmp)) {
        files.forEach(f -> f.toFile().delete());
      }
      Files.deleteIfExists(tmp);
    }
    String md = markdown(cells, started, data, anchorFile);
    if (!errors.isEmpty()) {
      md += "\n## Failures\n\n" + errors.stream().map(e -> "- " + e + "\n").reduce("", String::concat);
    }
    String csv = csv(cells);
    System.out.print(md);
    if (out != null) {
      Files.createDirectories(out);
      String stamp = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm'Z'").withZone(ZoneOffset.UTC).format(Instant.now());
      Files.writeString(out.resolve("sizes-" + stamp + ".md"), md, StandardCharsets.UTF_8);
      Files.writeString(out.resolve("sizes-" + stamp + ".csv"), csv, StandardCharsets.UTF_8);
      System.err.println("wrote " + out.resolve("sizes-" + stamp + ".md") + " and .csv");
    }
    if (!errors.isEmpty()) {
      System.exit(1);
    }
  }

  /** The first {@code shared/} beside the source tree or one of its parents (worktrees sit deeper). */
  static Path sharedDir(Path root) {
    for (Path p = root; p != null; p = p.getParent()) {
      Path s = p.resolveSibling("shared");
      if (Files.isDirectory(s.resolve("data"))) {
        return s;
      }
    }
    return root.resolveSibling("shared");
  }

  private static String need(String[] args, int i, String flag) {
    if (i >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[i];
  }

  static Map<String, String> hint(String variant) {
    if (variant.equals("alp-on")) {
      return Map.of("lance-encoding:alp", "on");
    }
    return variant.equals("default") ? Map.of() : Map.of("lance-encoding:compression", variant);
  }

  private static Cell measure(
      CorpusColumn col, long digest, String variant, FileVersion version, boolean withRef, boolean verify,
      Anchor anchor, Path tmp, BufferAllocator alloc) throws Exception {
    String v = version.toString();
    Path ours = tmp.resolve("ours.lance");
    Path theirs = tmp.resolve("ref.lance");
    Files.deleteIfExists(ours);
    Files.deleteIfExists(theirs);
    try (VectorSchemaRoot root = col.root(hint(variant), alloc)) {
      try (LanceFileWriter w = LanceFileWriter.open(ours, root.getSchema(), WriterOptions.defaults().withVersion(version))) {
        w.write(root);
      }
      if (withRef) {
        try (org.lance.file.LanceFileWriter w =
            org.lance.file.LanceFileWriter.open(theirs.toString(), alloc, null, Optional.of(v), Map.of())) {
          w.write(root);
        }
      }
    }
    long oursBytes = Files.size(ours);
    String oursEnc = describe(ours);
    OurRead read = readOurs(ours, alloc);
    String check = "-";
    String refReads = "-";
    if (verify) {
      check = read.digest() == digest ? "ok" : "MISMATCH";
      if (withRef) {
        refReads = digestRef(ours, alloc) == digest ? "ok" : "MISMATCH";
      }
    }
    long refBytes = withRef ? Files.size(theirs) : -1;
    String refEnc = withRef ? describe(theirs) : "";
    if (refEnc.contains("fsst")) {
      refBytes = refMedian(col, variant, v, refBytes, theirs, alloc);
    }
    long anchorBytes = -1;
    if (variant.equals("default")) {
      anchorBytes = anchor.defaultBytes(col.label(), v);
    }
    if (anchorBytes < 0) {
      double bpv = anchor.bytesPerValue(col.label(), variant, v);
      anchorBytes = Double.isNaN(bpv) ? -1 : Math.round(bpv * col.values());
    }
    return new Cell(col, variant, version, oursBytes, refBytes, anchorBytes, oursEnc, refEnc, check, refReads, read.searchCache());
  }

  /** The reference's FSST output varies from write to write: the median of this and 4 more writes. */
  private static long refMedian(CorpusColumn col, String variant, String version, long first, Path file, BufferAllocator alloc)
      throws Exception {
    long[] sizes = new long[REF_FSST_WRITES];
    sizes[0] = first;
    for (int k = 1; k < sizes.length; k++) {
      try (VectorSchemaRoot root = col.root(hint(variant), alloc);
          org.lance.file.LanceFileWriter w =
              org.lance.file.LanceFileWriter.open(file.toString(), alloc, null, Optional.of(version), Map.of())) {
        w.write(root);
      }
      sizes[k] = Files.size(file);
    }
    java.util.Arrays.sort(sizes);
    return sizes[sizes.length / 2];
  }

  static final int REF_FSST_WRITES = 5;

  /** Our reader's description of the column's pages: the first page's tree, and the page count. */
  static String describe(Path file) {
    try (LanceFileReader r = LanceFileReader.open(file)) {
      List<LanceFileReader.PageSummary> pages = r.columnSummaries().get(0).pages();
      String first = pages.isEmpty() ? "no pages" : pages.get(0).description();
      return pages.size() > 1 ? pages.size() + " pages, first: " + first : first;
    } catch (RuntimeException e) {
      return "unreadable by ours: " + e.getMessage();
    }
  }

  /** Our reader on our file: the source digest of a full scan, and the search cache after it. */
  record OurRead(long digest, long searchCache) {}

  /**
   * One open and one scan of our file: the values' digest, then a take of a few rows so every
   * lazily loaded table is in place, then what the reader keeps to find any row (the paper's
   * search cache).
   */
  private static OurRead readOurs(Path file, BufferAllocator alloc) {
    CRC32C crc = new CRC32C();
    try (LanceFileReader r = LanceFileReader.open(file)) {
      try (Scanner s = r.scan(List.of(CorpusColumn.COL), 1 << 16, alloc)) {
        while (s.hasNext()) {
          try (VectorSchemaRoot b = s.next()) {
            CorpusColumn.digest(b.getVector(0), crc);
          }
        }
      }
      long n = r.numRows();
      if (n > 0) {
        r.take(new long[] {0, n / 2, n - 1}, List.of(CorpusColumn.COL), alloc).close();
      }
      return new OurRead(crc.getValue(), r.searchCacheBytes());
    }
  }

  private static long digestRef(Path file, BufferAllocator alloc) throws Exception {
    CRC32C crc = new CRC32C();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), alloc);
        ArrowReader ar = r.readAll(List.of(CorpusColumn.COL), null, 1 << 16)) {
      while (ar.loadNextBatch()) {
        CorpusColumn.digest(ar.getVectorSchemaRoot().getVector(0), crc);
      }
    }
    return crc.getValue();
  }

  // ---------------------------------------------------------------- output

  private static String ratio(double r) {
    return Double.isNaN(r) ? "—" : String.format(Locale.ROOT, "%.3f", r);
  }

  private static String markdown(List<Cell> cells, String started, Path data, Path anchorFile) {
    StringBuilder sb = new StringBuilder();
    sb.append("# File sizes: lance-codec against the reference (org.lance:lance-core 7.0.0)\n\n");
    sb.append("Run ").append(started).append(" on ").append(data).append("; anchor ").append(anchorFile).append(".\n");
    sb.append("Bytes are whole single-column files (one write call, one non-nullable field). ")
        .append("×ref = ours / target; the target is the reference's file of this run; where the reference ")
        .append("wrote FSST (its sizes vary by a few percent per write) it is the median of " + REF_FSST_WRITES + " writes, ")
        .append("shown with the anchor's median (whose files had longer field names, 10-30 bytes more). ")
        .append("check: our reader / the reference reading our file, against the source values.\n");
    Map<String, List<Cell>> byVariant = new LinkedHashMap<>();
    for (Cell c : cells) {
      byVariant.computeIfAbsent(c.variant, k -> new ArrayList<>()).add(c);
    }
    for (Map.Entry<String, List<Cell>> e : byVariant.entrySet()) {
      sb.append("\n## ").append(e.getKey().equals("default") ? "Default (no hint)"
          : e.getKey().equals("alp-on") ? "lance-encoding:alp=on" : "lance-encoding:compression=" + e.getKey())
          .append("\n\n");
      sb.append("| column | rows | ref 2.1 | ours 2.1 | ×ref 2.1 | ref 2.2 | ours 2.2 | ×ref 2.2 | ×anchor 2.1 / 2.2 | check 2.1 / 2.2"
          + " | ours 2.3 | 2.3 / ours 2.2 | check 2.3 |\n");
      sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|\n");
      // one row per column: its 2.1, 2.2 and 2.3 cells (a version that failed is missing)
      Map<String, Cell[]> byColumn = new LinkedHashMap<>();
      for (Cell c : e.getValue()) {
        byColumn.computeIfAbsent(c.col.label(), k -> new Cell[3])[VERSIONS.indexOf(c.version)] = c;
      }
      for (Cell[] row : byColumn.values()) {
        Cell a = row[0];
        Cell b = row[1];
        Cell c = row[2];
        if (a == null || b == null) {
          continue;
        }
        sb.append("| ").append(a.col.label()).append(" | ").append(a.col.rows())
            .append(" | ").append(target(a)).append(" | ").append(a.ours).append(" | ").append(mark(a))
            .append(" | ").append(target(b)).append(" | ").append(b.ours).append(" | ").append(mark(b))
            .append(" | ").append(ratio(a.anchorRatio())).append(" / ").append(ratio(b.anchorRatio()))
            .append(" | ").append(a.oursCheck).append('/').append(a.refReadsOurs).append(", ")
            .append(b.oursCheck).append('/').append(b.refReadsOurs)
            .append(" | ").append(c == null ? "failed" : Long.toString(c.ours))
            .append(" | ").append(c == null ? "—" : markRatio(c.ours / (double) b.ours))
            .append(" | ").append(c == null ? "—" : c.oursCheck).append(" |\n");
      }
      sb.append("\nSearch cache of our reader after a scan and a take (bytes, and % of our file):\n\n");
      sb.append("| column | 2.1 | 2.2 | 2.3 |\n|---|---:|---:|---:|\n");
      long cacheSum = 0;
      long fileSum = 0;
      for (Cell[] row : byColumn.values()) {
        if (row[0] == null || row[1] == null) {
          continue;
        }
        sb.append("| ").append(row[0].col.label()).append(" | ").append(cachePct(row[0])).append(" | ").append(cachePct(row[1]))
            .append(" | ").append(row[2] == null ? "—" : cachePct(row[2])).append(" |\n");
        cacheSum += row[0].oursSearchCache + row[1].oursSearchCache;
        fileSum += row[0].ours + row[1].ours;
      }
      sb.append(String.format(Locale.ROOT, "| **all columns, 2.1 and 2.2** | %,d B of %,d B = %.4f%% | | |%n", cacheSum, fileSum, 100.0 * cacheSum / fileSum));
      sb.append("\nEncodings (ours; the reference's as our reader describes its file):\n\n");
      sb.append("| column | ours 2.1 | ours 2.2 | ours 2.3 | ref 2.1 | ref 2.2 |\n|---|---|---|---|---|---|\n");
      for (Cell[] row : byColumn.values()) {
        if (row[0] == null || row[1] == null) {
          continue;
        }
        sb.append("| ").append(row[0].col.label()).append(" | ").append(cellText(row[0].oursEncoding)).append(" | ")
            .append(cellText(row[1].oursEncoding)).append(" | ").append(row[2] == null ? "—" : cellText(row[2].oursEncoding))
            .append(" | ").append(cellText(row[0].refEncoding)).append(" | ").append(cellText(row[1].refEncoding)).append(" |\n");
      }
    }
    return sb.toString();
  }

  private static String cachePct(Cell c) {
    return String.format(Locale.ROOT, "%,d B (%.3f%%)", c.oursSearchCache, 100.0 * c.oursSearchCache / c.ours);
  }

  private static String target(Cell c) {
    if (c.refEncoding.contains("fsst")) {
      return c.ref + " (median of " + REF_FSST_WRITES + (c.anchor > 0 ? "; anchor " + c.anchor : "") + ")";
    }
    return Long.toString(c.ref);
  }

  /** A ratio, bold when above 1. */
  private static String markRatio(double r) {
    String s = ratio(r);
    return r > 1.0 ? "**" + s + "**" : s;
  }

  private static String mark(Cell c) {
    double r = c.ratio();
    String s = ratio(r);
    return r > 1.0 ? "**" + s + "**" : s;
  }

  private static String cellText(String s) {
    return s.replace("|", "\\|");
  }

  private static String csv(List<Cell> cells) {
    StringBuilder sb = new StringBuilder(
        "column,section,rows,values,variant,version,ref_bytes,anchor_bytes,target_bytes,ours_bytes,ratio,ratio_anchor,ours_encoding,ref_encoding,ours_reads_ours,ref_reads_ours,ours_search_cache\n");
    for (Cell c : cells) {
      sb.append(q(c.col.label())).append(',').append(c.col.section()).append(',').append(c.col.rows()).append(',')
          .append(c.col.values()).append(',').append(c.variant).append(',').append(c.version).append(',')
          .append(c.ref).append(',').append(c.anchor).append(',').append(c.target()).append(',').append(c.ours).append(',')
          .append(ratio(c.ratio())).append(',').append(ratio(c.anchorRatio())).append(',').append(q(c.oursEncoding)).append(',').append(q(c.refEncoding)).append(',')
          .append(c.oursCheck).append(',').append(c.refReadsOurs).append(',').append(c.oursSearchCache).append('\n');
    }
    return sb.toString();
  }

  private static String q(String s) {
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  static void print(PrintStream out, String s) {
    out.print(s);
  }
}
