package io.lancecodec.bench.compare;

import io.lancecodec.bench.charts.Charts;
import io.lancecodec.bench.charts.Results;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.Proposal;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The research harness: {@code bench --codec NAME [--data FILE --column C]}. Every codec plugin the
 * registry finds (so a third party's jar on the class path takes part) is asked, through the SPI
 * alone, for a mini-block compressor for one column; each offer is run and scored beside the
 * others: compressed bytes and ratio, encode and decode MB/s, the bytes a reader must fetch and
 * decode to get one random value (the whole mini-block chunk holding it, plus its 2-byte chunk
 * metadata), and the time to decode that chunk. The named codec is marked; it must make an offer.
 * Markdown on stdout; with {@code --out DIR} also {@code leaderboard-<codec>-<data>-<time>.md} and
 * {@code .csv}, and the ratio-against-speed charts beside them.
 */
final class Leaderboard {
  /** Every version: 2.3-only codecs (ALP, pcodec, extension codecs such as examples/codec-gorilla) rank there. */
  private static final List<FileVersion> VERSIONS = List.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3);

  private Leaderboard() {}

  static int run(Map<String, String> o, PrintStream out, PrintStream err) throws Exception {
    String codec = o.get("--codec");
    boolean quick = o.containsKey("--quick");
    CodecRegistry registry = CodecRegistry.discover();
    List<String> names = codecs(registry).stream().map(CodecPlugin::name).toList();
    if (!codec.equals("all") && !names.contains(codec)) {
      throw new Compare.Usage("no codec plugin named '" + codec + "' on the class path (installed: "
          + String.join(", ", names) + "; or 'all')");
    }
    try (BufferAllocator alloc = new RootAllocator(); Data d = load(o, quick, alloc)) {
      DataBlock block = toBlock(d);
      err.printf(Locale.ROOT, "# leaderboard: %s, %,d values, %,d raw bytes; loadavg %s%n", d.source, d.rows, d.rawBytes,
          Compare.loadavg());
      List<String[]> table = new ArrayList<>();
      // the same rows with plain numbers, for the CSV
      List<String[]> csvRows = new ArrayList<>();
      List<Double> order = new ArrayList<>();
      // Lance's standard field options (none, then general compression requested), and the
      // sets given with --options (';' between sets), e.g. the scheme that asks for the codec
      List<FieldOptions> optionSets = new ArrayList<>();
      optionSets.add(FieldOptions.DEFAULT);
      optionSets.add(FieldOptions.builder().compression("zstd").build());
      optionSets.add(FieldOptions.builder().compression("lz4").build());
      if (o.containsKey("--options")) {
        for (String set : o.get("--options").split(";")) {
          Map<String, String> m = new java.util.TreeMap<>();
          for (String kv : set.split(",")) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
              throw new Compare.Usage("--options: expected KEY=VALUE[,KEY=VALUE...][;...], got '" + kv + "'");
            }
            String k = kv.substring(0, eq).strip();
            m.put(k.startsWith(FieldOptions.PREFIX) ? k : FieldOptions.PREFIX + k, kv.substring(eq + 1).strip());
          }
          FieldOptions parsed = registry.parseOptions(m);
          if (!optionSets.contains(parsed)) {
            optionSets.add(parsed);
          }
        }
      }
      java.util.Set<String> seen = new java.util.HashSet<>();
      java.util.Set<String> offered = new java.util.HashSet<>();
      // One untimed pass first, so the first codec measured is not the one that pays for the JIT.
      for (boolean warm : new boolean[] {true, false}) {
      for (FileVersion version : VERSIONS) {
        for (FieldOptions options : optionSets) {
        String optText = options.equals(FieldOptions.DEFAULT) ? "—"
            : options.toString().replaceAll("[{}]", "").replace(", ", ",");
        for (CodecPlugin p : codecs(registry)) {
          if (!p.fileVersions().contains(version)) {
            continue;
          }
          Optional<Proposal<MiniBlockCompressed>> offer;
          try {
            offer = p.proposeMiniBlock(block, registry.proposalContext(p, block, options, version));
          } catch (RuntimeException e) {
            if (!warm) {
              table.add(row(p, version, optText, codec, "proposal failed: " + e));
              csvRows.add(csvRow(p, version, optText, codec, "proposal failed: " + e));
              order.add(Double.MAX_VALUE);
            }
            continue;
          }
          if (offer.isEmpty()) {
            continue;
          }
          offered.add(p.name() + "|" + version);
          Supplier<MiniBlockCompressed> encode = () -> p.proposeMiniBlock(block,
              registry.proposalContext(p, block, options, version)).orElseThrow().compressor().compress(block);
          if (warm) {
            try {
              score(registry, encode, block, d, quick);
            } catch (RuntimeException e) {
              // reported by the measured pass
            }
            continue;
          }
          try {
            Score s = score(registry, encode, block, d, quick);
            if (!seen.add(p.name() + "|" + version + "|" + s.encoding)) {
              continue; // the same offer as without these options
            }
            table.add(new String[] {mark(p, codec), version.toString(), optText, offer.get().codec(), s.encoding,
                String.format(Locale.ROOT, "%,d", s.bytes), String.format(Locale.ROOT, "%.3f", s.ratio),
                String.format(Locale.ROOT, "%.3f", 8.0 * s.bytes / d.rows),
                String.format(Locale.ROOT, "%.0f", s.encodeMBps), String.format(Locale.ROOT, "%.0f", s.decodeMBps),
                String.format(Locale.ROOT, "%,.0f", s.bytesPerRandomValue),
                String.format(Locale.ROOT, "%.2f", s.randomValueMicros), s.verified ? "yes" : "NO"});
            csvRows.add(new String[] {p.name(), location(p), version.toString(), csvOptions(optText), offer.get().codec(),
                s.encoding, Long.toString(s.bytes), Compare.num(s.ratio), Compare.num(8.0 * s.bytes / d.rows),
                Compare.num(s.encodeMBps), Compare.num(s.decodeMBps), Compare.num(s.bytesPerRandomValue),
                Compare.num(s.randomValueMicros), s.verified ? "yes" : "NO", Boolean.toString(p.name().equals(codec))});
            order.add(s.bytes * 1.0 + version.ordinal() * 0.25);
          } catch (RuntimeException e) {
            table.add(row(p, version, optText, codec, "failed: " + e));
            csvRows.add(csvRow(p, version, optText, codec, "failed: " + e));
            order.add(Double.MAX_VALUE);
          }
        }
        }
      }
      }
      for (CodecPlugin p : codecs(registry)) {
        for (FileVersion version : VERSIONS) {
          if (p.name().equals(codec) && !offered.contains(p.name() + "|" + version)) {
            String why = p.fileVersions().contains(version) ? "no mini-block offer for this column"
                : "does not support this file version";
            table.add(row(p, version, "any", codec, why));
            csvRows.add(csvRow(p, version, "any", codec, why));
            order.add(Double.MAX_VALUE);
          }
        }
      }
      Integer[] idx = new Integer[table.size()];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = i;
      }
      Arrays.sort(idx, Comparator.comparingDouble(order::get));
      String comment = String.format(Locale.ROOT, "codec leaderboard %s: %s; %,d values, %,d raw bytes; %s; machine: %s %s,"
          + " %d cpus, JDK %s; loadavg %s", java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
          d.source, d.rows, d.rawBytes, quick ? "best of 2 runs" : "best of 5 runs", System.getProperty("os.name"),
          System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
          Compare.loadavg());
      StringBuilder md = new StringBuilder();
      md.append("<!-- ").append(comment).append(" -->\n\n");
      md.append("| codec (plugin) | file version | field options | offer | encoding | bytes | ratio | bits/value"
          + " | encode MB/s | decode MB/s | bytes read per random value | random value µs | round trip |\n");
      md.append("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
      StringBuilder csv = new StringBuilder("# ").append(comment).append('\n').append(Results.LEADERBOARD_HEADER).append('\n');
      for (int i : idx) {
        md.append("| ").append(String.join(" | ", table.get(i))).append(" |\n");
        csv.append(Results.csvLine(csvRows.get(i))).append('\n');
      }
      md.append('\n');
      md.append("Mini-block compressors only, called through the SPI; **bold** = --codec. Every plugin is asked with"
          + " no field options, with lance-encoding:compression=zstd and =lz4, and with each --options set; an offer equal to"
          + " the one without options is listed once. encode = statistics + CodecPlugin.proposeMiniBlock + compress;"
          + " decode = MiniBlockDecompressor.decompress of every chunk; MB/s = raw bytes per second, best of the runs."
          + " Bytes = chunk buffers + 2 B per chunk + the encoding message. Bytes read per random value = the chunk"
          + " holding it plus its 2 B of metadata, averaged over values; random value µs = decoding that chunk.\n");
      out.print(md);
      if (o.containsKey("--out")) {
        Path outDir = Compare.userPath(o.get("--out"));
        Files.createDirectories(outDir);
        String stamp = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString().replace(":", "");
        String stem = "leaderboard-" + Results.slug(codec) + "-" + Results.slug(d.name) + "-" + stamp + (quick ? "-quick" : "");
        Path csvFile = outDir.resolve(stem + ".csv");
        Files.writeString(csvFile, csv);
        String charts;
        try {
          List<Path> pngs = Charts.render(csvFile, outDir);
          charts = "\n## Charts\n\n" + Charts.markdownLinks(pngs, outDir) + "\n";
        } catch (Exception | LinkageError e) {
          err.println("# charts not drawn: " + e);
          charts = "";
        }
        Files.writeString(outDir.resolve(stem + ".md"), md + charts);
        err.println("# wrote " + csvFile + " and the .md and charts beside it");
      }
      return 0;
    }
  }

  /** The registry's codec plugins, the built-in one included, in its order. */
  static List<CodecPlugin> codecs(CodecRegistry registry) {
    return registry.plugins().stream().filter(i -> i.kind().equals("codec")).map(i -> registry.codec(i.name()).orElseThrow()).toList();
  }

  static String mark(CodecPlugin p, String codec) {
    String label = p.name() + " (" + location(p) + ")";
    return p.name().equals(codec) ? "**" + label + "**" : label;
  }

  /** The plugin's jar (or "?"), as the registry reports it. */
  static String location(CodecPlugin p) {
    return CodecRegistry.discover().plugins().stream().filter(i -> i.name().equals(p.name()))
        .map(CodecRegistry.PluginInfo::location).findFirst().orElse("?");
  }

  /** Field options in the CSV: empty for none (the table's "—"). */
  static String csvOptions(String optText) {
    return optText.equals("—") ? "" : optText;
  }

  /** A CSV row for an offer that was not scored: no numbers, the reason as its encoding. */
  static String[] csvRow(CodecPlugin p, FileVersion v, String optText, String codec, String why) {
    return new String[] {p.name(), location(p), v.toString(), csvOptions(optText), "", why, "", "", "", "", "", "", "", "",
        Boolean.toString(p.name().equals(codec))};
  }

  static String[] row(CodecPlugin p, FileVersion v, String optText, String codec, String why) {
    return new String[] {mark(p, codec), v.toString(), optText, "—", why.replace('|', '/'), "—", "—", "—", "—", "—", "—", "—",
        "—"};
  }

  static Data load(Map<String, String> o, boolean quick, BufferAllocator alloc) throws Exception {
    int limit = quick ? 65_536 : 1 << 20;
    String file = o.get("--data");
    String column = o.get("--column");
    if (file == null) {
      if (column != null) {
        throw new Compare.Usage("--column needs --data FILE");
      }
      Path tokens = Compare.defaultDataDir().resolve("tokens/tokens-cl100k-2048.u32");
      if (Files.isReadable(tokens)) {
        return Data.tokens(tokens, limit, alloc);
      }
      return Data.arrowColumn("demo-flights-distance", Compare.root().resolve("cli/src/main/resources/demo/flights-100k.arrow"),
          "distance", limit, alloc);
    }
    Path f = Compare.userPath(file);
    if (!Files.isRegularFile(f)) {
      throw new Compare.Usage("--data " + file + ": no such file");
    }
    String n = f.getFileName().toString();
    if (n.endsWith(".u32")) {
      return Data.tokens(f, limit, alloc);
    }
    if (n.endsWith(".txt")) {
      return Data.lines(n, f, limit, alloc);
    }
    if (column == null) {
      throw new Compare.Usage("--data " + file + " needs --column C");
    }
    if (n.endsWith(".arrow") || n.endsWith(".feather") || n.endsWith(".ipc")) {
      return Data.arrowColumn(n + ":" + column, f, column, limit, alloc);
    }
    if (n.endsWith(".csv")) {
      List<String> lines = Files.readAllLines(f).subList(0, 2);
      String[] h = lines.get(0).split(",", -1);
      int c = Arrays.asList(h).indexOf(column);
      if (c < 0) {
        throw new Compare.Usage(file + ": no column '" + column + "' (columns: " + String.join(", ", h) + ")");
      }
      String sample = lines.size() > 1 ? lines.get(1).split(",", -1)[c] : "";
      Data.Kind kind = sample.matches("-?\\d+") ? Data.Kind.INT64 : sample.matches("-?[\\d.eE+-]+") ? Data.Kind.FLOAT64
          : Data.Kind.UTF8;
      return Data.csvColumn(n + ":" + column, f, column, kind, limit, alloc);
    }
    if (n.endsWith(".lance")) {
      try (LanceFileReader r = LanceFileReader.open(f)) {
        long rows = Math.min(r.numRows(), limit);
        try (VectorSchemaRoot root = r.readRange(0, rows, List.of(column), alloc)) {
          Path tmp = Files.createTempFile("leaderboard-", ".arrow");
          try {
            try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE);
                var w = new org.apache.arrow.vector.ipc.ArrowFileWriter(root, null, ch)) {
              w.start();
              w.writeBatch();
              w.end();
            }
            return Data.arrowColumn(n + ":" + column, tmp, column, limit, alloc);
          } finally {
            Files.deleteIfExists(tmp);
          }
        }
      }
    }
    throw new Compare.Usage("--data " + file + ": unknown kind (.arrow/.feather/.ipc, .csv, .lance with --column; .u32 token"
        + " ids; .txt one string per line)");
  }

  static DataBlock toBlock(Data d) {
    if (d.kind == Data.Kind.UTF8) {
      byte[] off = new byte[4 * d.offsets.length];
      for (int i = 0; i < d.offsets.length; i++) {
        LittleEndian.putInt(off, 4 * i, d.offsets[i]);
      }
      return new DataBlock.VariableWidth(off, 32, d.values, d.rows);
    }
    return new DataBlock.FixedWidth(d.values, d.kind.bits, d.rows);
  }

  record Score(String encoding, long bytes, double ratio, double encodeMBps, double decodeMBps,
      double bytesPerRandomValue, double randomValueMicros, boolean verified) {}

  /** Scores one offer; {@code encode} = statistics + proposal + compression, as the writer does it. */
  static Score score(CodecRegistry registry, Supplier<MiniBlockCompressed> encode, DataBlock block, Data d, boolean quick) {
    int runs = quick ? 2 : 5;
    MiniBlockCompressed last = null;
    double bestEncode = Double.MAX_VALUE;
    for (int i = 0; i < runs; i++) {
      long t = System.nanoTime();
      last = encode.get();
      bestEncode = Math.min(bestEncode, (System.nanoTime() - t) / 1e9);
    }
    MiniBlockCompressed c = last;
    MiniBlockDecompressor dec = registry.decoders().miniBlock(c.encoding());
    int nb = c.buffers().size();
    List<MiniBlockChunk> chunks = c.chunks();
    int[][] starts = new int[chunks.size()][nb];
    long[] values = new long[chunks.size()];
    long[] chunkBytes = new long[chunks.size()];
    int[] pos = new int[nb];
    long remaining = c.numValues();
    for (int k = 0; k < chunks.size(); k++) {
      MiniBlockChunk ch = chunks.get(k);
      values[k] = ch.logNumValues() == 0 ? remaining : 1L << ch.logNumValues();
      remaining -= values[k];
      for (int b = 0; b < nb; b++) {
        starts[k][b] = pos[b];
        pos[b] += ch.bufferSizes()[b];
        chunkBytes[k] += ch.bufferSizes()[b];
      }
    }
    long bytes = 2L * chunks.size() + c.encoding().getSerializedSize();
    for (byte[] b : c.buffers()) {
      bytes += b.length;
    }
    BiFunction<Integer, Boolean, DataBlock> decodeChunk = (k, keep) -> {
      byte[][] bufs = new byte[nb][];
      for (int b = 0; b < nb; b++) {
        bufs[b] = Arrays.copyOfRange(c.buffers().get(b), starts[k][b], starts[k][b] + chunks.get(k).bufferSizes()[b]);
      }
      return dec.decompress(MiniBlockBuffers.of(bufs), (int) values[k], null);
    };
    // verify once
    boolean ok = true;
    long v0 = 0;
    for (int k = 0; k < chunks.size(); k++) {
      ok &= same(decodeChunk.apply(k, true), d, v0, values[k]);
      v0 += values[k];
    }
    double bestDecode = Double.MAX_VALUE;
    for (int i = 0; i < runs; i++) {
      long t = System.nanoTime();
      for (int k = 0; k < chunks.size(); k++) {
        decodeChunk.apply(k, false);
      }
      bestDecode = Math.min(bestDecode, (System.nanoTime() - t) / 1e9);
    }
    double perRandom = 0;
    for (int k = 0; k < chunks.size(); k++) {
      perRandom += (double) values[k] / d.rows * (chunkBytes[k] + 2);
    }
    SplittableRandom rnd = new SplittableRandom(7);
    int probes = quick ? 200 : 2000;
    long[] cum = new long[chunks.size() + 1];
    for (int k = 0; k < chunks.size(); k++) {
      cum[k + 1] = cum[k] + values[k];
    }
    long t = System.nanoTime();
    for (int i = 0; i < probes; i++) {
      long row = rnd.nextLong(d.rows);
      int k = Arrays.binarySearch(cum, row);
      k = k >= 0 ? k : -k - 2;
      decodeChunk.apply(k, false);
    }
    double micros = (System.nanoTime() - t) / 1e3 / probes;
    return new Score(describe(c.encoding()), bytes, (double) d.rawBytes / bytes, d.rawBytes / 1e6 / bestEncode,
        d.rawBytes / 1e6 / bestDecode, perRandom, micros, ok);
  }

  /** The compression tree as a short text: message names, small integers and ids, no byte strings. */
  static String describe(com.google.protobuf.Message m) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<com.google.protobuf.Descriptors.FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      Object v = e.getValue();
      if (v instanceof com.google.protobuf.Message child) {
        String inner = describe(child);
        if (m.getDescriptorForType().getName().equals("CompressiveEncoding")) {
          sb.append(sb.length() > 0 ? " " : "").append(inner);
        } else {
          sb.append(sb.length() > 0 ? " " : "").append(e.getKey().getName()).append('(').append(inner).append(')');
        }
      } else if (v instanceof String id && !id.isEmpty()) {
        // an extension node's codec id is what tells it apart
        sb.append(sb.length() > 0 ? " " : "").append(e.getKey().getName()).append('=').append(id);
      } else if (v instanceof Number || v instanceof Boolean || v instanceof com.google.protobuf.Descriptors.EnumValueDescriptor) {
        sb.append(sb.length() > 0 ? " " : "").append(e.getKey().getName()).append('=').append(v);
      }
    }
    String name = m.getDescriptorForType().getName();
    return name.equals("CompressiveEncoding") ? sb.toString() : name + (sb.length() > 0 ? "{" + sb + "}" : "");
  }

  static boolean same(DataBlock got, Data d, long first, long n) {
    if (d.kind == Data.Kind.UTF8) {
      if (!(got instanceof DataBlock.VariableWidth vw) || vw.numValues() != n) {
        return false;
      }
      for (int i = 0; i < n; i++) {
        int r = (int) (first + i);
        byte[] want = Arrays.copyOfRange(d.values, d.offsets[r], d.offsets[r + 1]);
        byte[] have = Arrays.copyOfRange(vw.data(), (int) vw.offset(i), (int) vw.offset(i + 1));
        if (!Arrays.equals(want, have)) {
          return false;
        }
      }
      return true;
    }
    if (!(got instanceof DataBlock.FixedWidth fw) || fw.numValues() != n) {
      return false;
    }
    int w = d.kind.bits / 8;
    return Arrays.equals(fw.data(), 0, (int) n * w, d.values, (int) first * w, (int) (first + n) * w);
  }
}
