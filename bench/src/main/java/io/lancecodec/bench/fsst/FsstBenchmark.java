package io.lancecodec.bench.fsst;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * FSST decompression speed on the real string corpus ({@code /work/shared/data/strings} and three
 * vega-datasets columns, see {@link #dataset}; override
 * with {@code -Dbench.data=DIR} naming the data root), through the codec-fsst plugin as the
 * runtime opens it:
 *
 * <ul>
 *   <li>{@code miniBlock}: every mini-block chunk of the page (FSST over Variable, ~4-8 KiB of
 *       codes each) decoded one by one, as a scan does: into the thread's reused
 *       {@link io.lancecodec.spi.DecodeBuffers}, from which the scan copies each chunk out;
 *   <li>{@code miniBlockFresh}: the same into a new array per chunk, as a random access does;
 *   <li>{@code perValue}: the whole page's compressed values decoded in one call into a new array
 *       (the kernel with the least per-call overhead);
 *   <li>{@code perValueSteps}: the same values in steps of 256 KiB of codes, each into the
 *       thread's reused {@link io.lancecodec.spi.DecodeBuffers}, as the full-zip reader decodes
 *       lists of strings before copying each step into Arrow;
 *   <li>{@code copyBaseline}: {@code Arrays.copyOf} of the raw string bytes, the memory-speed
 *       ceiling measured in the same run.
 * </ul>
 *
 * The {@code bytes} secondary score counts decoded (raw) string bytes per second; divide by 1e6
 * for MB/s. At setup the compression ratio is printed, with the sizes of one-column files written
 * from the same strings by lance-codec and by the reference (org.lance:lance-core, FSST pages,
 * whose size varies by a few percent from run to run because its sampling is OS-seeded).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "-Djava.io.tmpdir=target/jvm-tmp",
      "-Xms1g",
      "-Xmx1g"
    })
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
public class FsstBenchmark {
  /**
   * The mail sets ({@code strings/strings-mail-*.txt}, one value per line) and the three string
   * columns of the vega datasets the reference writes as FSST: {@code airports.csv} name and
   * city, {@code movies.json} Title (non-null; the nine numeric titles as their digits);
   * {@code corpus} is all of them, each its own page, so its rate is the corpus-wide one.
   */
  @Param({"subjects", "from", "message-ids", "received", "urls", "airports-name", "airports-city", "movies-title", "corpus"})
  public String dataset;

  /** The mail sets and vega columns, each its own page and symbol table: {@code corpus} decodes them all. */
  static final List<String> CORPUS =
      List.of("subjects", "from", "message-ids", "received", "urls", "airports-name", "airports-city", "movies-title");

  /** One data set compressed as one page, in both forms. */
  static final class Page {
    DataBlock.VariableWidth raw;
    long rawBytes;
    final List<MiniBlockBuffers> chunks = new ArrayList<>();
    final List<Long> chunkValues = new ArrayList<>();
    MiniBlockDecompressor miniBlock;
    DataBlock perValueCodes;
    PerValueDecompressor perValue;
    /** perValueCodes cut into steps of about {@link #STEP_BYTES} of codes (offsets rebased per step, data shared). */
    final List<DataBlock> perValueSteps = new ArrayList<>();
  }

  /** Code bytes per step of {@code perValueSteps}: FullZipPage's step of row bytes. */
  static final int STEP_BYTES = 256 << 10;

  private final List<Page> pages = new ArrayList<>();
  private long rawBytes;

  /** Decoded bytes per second, reported beside the operations. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Bytes {
    public long bytes;
  }

  /** The reading thread's reused output arrays, as the mini-block scan path keeps them. */
  @State(Scope.Thread)
  public static class Reuse {
    final io.lancecodec.spi.DecodeBuffers buffers = new io.lancecodec.spi.DecodeBuffers();
  }

  static Path dataRoot() {
    return Path.of(System.getProperty("bench.data", "/work/shared/data"));
  }

  static DataBlock.VariableWidth load(String dataset) throws IOException {
    Path vega = dataRoot().resolve("vega-datasets");
    switch (dataset) {
      case "airports-name":
        return strings(csvColumn(vega.resolve("airports.csv"), "name"));
      case "airports-city":
        return strings(csvColumn(vega.resolve("airports.csv"), "city"));
      case "movies-title":
        return strings(jsonTitles(vega.resolve("movies.json")));
      default:
        return load(dataRoot().resolve("strings").resolve("strings-mail-" + dataset + ".txt"));
    }
  }

  static DataBlock.VariableWidth strings(List<String> values) {
    byte[] offsets = new byte[(values.size() + 1) * 4];
    java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < values.size(); i++) {
      data.writeBytes(values.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      LittleEndian.putInt(offsets, 4 * (i + 1), data.size());
    }
    return new DataBlock.VariableWidth(offsets, 32, data.toByteArray(), values.size());
  }

  /** One column of a CSV file with a header line; fields may be double-quoted. */
  static List<String> csvColumn(Path file, String column) throws IOException {
    List<String> lines = Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8);
    int c = csvFields(lines.get(0)).indexOf(column);
    List<String> out = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (!line.isEmpty()) {
        out.add(csvFields(line).get(c));
      }
    }
    return out;
  }

  static List<String> csvFields(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (quoted) {
        if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          f.append('"');
          i++;
        } else if (ch == '"') {
          quoted = false;
        } else {
          f.append(ch);
        }
      } else if (ch == '"') {
        quoted = true;
      } else if (ch == ',') {
        fields.add(f.toString());
        f.setLength(0);
      } else {
        f.append(ch);
      }
    }
    fields.add(f.toString());
    return fields;
  }

  /** Every non-null {@code "Title"} of movies.json: strings unescaped, numbers as written. */
  static List<String> jsonTitles(Path file) throws IOException {
    String json = Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>();
    String key = "\"Title\":";
    for (int at = json.indexOf(key); at >= 0; at = json.indexOf(key, at + 1)) {
      int i = at + key.length();
      while (json.charAt(i) == ' ') {
        i++;
      }
      if (json.charAt(i) == '"') {
        StringBuilder v = new StringBuilder();
        for (i++; json.charAt(i) != '"'; i++) {
          char ch = json.charAt(i);
          if (ch == '\\') {
            char e = json.charAt(++i);
            switch (e) {
              case 'u' -> {
                v.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
                i += 4;
              }
              case 'n' -> v.append('\n');
              case 't' -> v.append('\t');
              case 'r' -> v.append('\r');
              case 'b' -> v.append('\b');
              case 'f' -> v.append('\f');
              default -> v.append(e);
            }
          } else {
            v.append(ch);
          }
        }
        out.add(v.toString());
      } else if (!json.startsWith("null", i)) {
        int end = i;
        while (end < json.length() && json.charAt(end) != ',' && json.charAt(end) != '}') {
          end++;
        }
        out.add(json.substring(i, end).strip());
      }
    }
    return out;
  }

  /** One value per line. */
  static DataBlock.VariableWidth load(Path file) throws IOException {
    byte[] all = Files.readAllBytes(file);
    int n = 0;
    for (byte b : all) {
      if (b == '\n') {
        n++;
      }
    }
    byte[] offsets = new byte[(n + 1) * 4];
    byte[] data = new byte[all.length];
    int o = 0;
    int v = 0;
    for (byte b : all) {
      if (b == '\n') {
        LittleEndian.putInt(offsets, ++v * 4, o);
      } else {
        data[o++] = b;
      }
    }
    return new DataBlock.VariableWidth(offsets, 32, Arrays.copyOf(data, o), n);
  }

  @Setup(Level.Trial)
  public void setup() throws Exception {
    CodecRegistry registry = CodecRegistry.discover();
    for (String name : dataset.equals("corpus") ? CORPUS : List.of(dataset)) {
      Page page = prepare(registry, name);
      pages.add(page);
      rawBytes += page.rawBytes;
    }
  }

  private static Page prepare(CodecRegistry registry, String name) throws Exception {
    Page page = new Page();
    DataBlock.VariableWidth raw = load(name);
    page.raw = raw;
    page.rawBytes = raw.offset((int) raw.numValues());
    CodecPlugin fsst = plugin(registry, "fsst");
    Ctx ctx = new Ctx(registry, raw);
    MiniBlockCompressed c = fsst.proposeMiniBlock(raw, ctx).orElseThrow().compressor().compress(raw);
    page.miniBlock = registry.decoders().miniBlock(c.encoding());
    int pos = 0;
    long item = 0;
    long codeBytes = 0;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      boolean last = k == c.chunks().size() - 1;
      long n = last ? c.numValues() - item : 1L << ch.logNumValues();
      page.chunks.add(MiniBlockBuffers.of(Arrays.copyOfRange(c.buffers().get(0), pos, pos + ch.bufferSizes()[0])));
      page.chunkValues.add(n);
      pos += ch.bufferSizes()[0];
      codeBytes += ch.bufferSizes()[0];
      item += n;
    }
    Encoded<DataBlock> pv = fsst.proposePerValue(raw, ctx).orElseThrow().compressor().compress(raw);
    page.perValue = registry.decoders().perValue(pv.encoding());
    page.perValueCodes = pv.data();
    DataBlock.VariableWidth codes = (DataBlock.VariableWidth) pv.data();
    int total = (int) codes.numValues();
    for (int a = 0; a < total; ) {
      int b = a + 1;
      while (b < total && codes.offset(b + 1) - codes.offset(a) <= STEP_BYTES) {
        b++;
      }
      int w = codes.bitsPerOffset() / 8;
      byte[] offs = Arrays.copyOfRange(codes.offsets(), a * w, (b + 1) * w);
      page.perValueSteps.add(new DataBlock.VariableWidth(offs, codes.bitsPerOffset(), codes.data(), b - a));
      a = b;
    }
    int table = ((CompressiveEncoding) c.encoding()).getFsst().getSymbolTable().size();
    long ours = writeOurs(page);
    long ref = writeReference(page);
    System.out.printf(
        "%n%s: %d values, %d string bytes -> %d chunk bytes + %d table (ratio %.3f, %d chunks); "
            + "one-column files: ours %d, reference %d (ours/reference %.3f)%n",
        name, raw.numValues(), page.rawBytes, codeBytes, table, (double) page.rawBytes / (codeBytes + table),
        page.chunks.size(), ours, ref, (double) ours / ref);
    return page;
  }

  static CodecPlugin plugin(CodecRegistry registry, String name) {
    return registry.codec(name).orElseThrow();
  }

  /** The runtime's proposal context, reduced to what the fsst plugin asks: the built-in inner codecs. */
  record Ctx(CodecRegistry registry, DataBlock.VariableWidth block) implements ProposalContext {
    @Override
    public Stats stats() {
      long max = 0;
      for (int i = 0; i < block.numValues(); i++) {
        max = Math.max(max, block.offset(i + 1) - block.offset(i));
      }
      return new Stats.VariableWidth(block.numValues(), 32, block.offset((int) block.numValues()) - block.offset(0), max);
    }

    @Override
    public FieldOptions options() {
      return FieldOptions.DEFAULT;
    }

    @Override
    public FileVersion version() {
      return FileVersion.V2_1;
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock b) {
      return plugin(registry, "builtin").proposeMiniBlock(b, new Ctx(registry, (DataBlock.VariableWidth) b));
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock b) {
      return plugin(registry, "builtin").proposePerValue(b, new Ctx(registry, (DataBlock.VariableWidth) b));
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock b) {
      return Optional.empty();
    }
  }

  private static VectorSchemaRoot root(Page page, BufferAllocator alloc) {
    DataBlock.VariableWidth raw = page.raw;
    long rawBytes = page.rawBytes;
    Field f = new Field("v", new FieldType(false, ArrowType.Utf8.INSTANCE, null, null), null);
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(f)), alloc);
    VarCharVector v = (VarCharVector) root.getVector(0);
    int n = (int) raw.numValues();
    v.allocateNew(rawBytes, n);
    for (int i = 0; i < n; i++) {
      v.setSafe(i, raw.data(), (int) raw.offset(i), (int) (raw.offset(i + 1) - raw.offset(i)));
    }
    v.setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  private static long writeOurs(Page page) throws IOException {
    Path file = Files.createTempFile("fsst-ours-", ".lance");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = root(page, alloc);
        LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults())) {
      w.write(root);
    }
    long size = Files.size(file);
    Files.delete(file);
    return size;
  }

  private static long writeReference(Page page) throws Exception {
    Path file = Files.createTempFile("fsst-ref-", ".lance");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = root(page, alloc)) {
      try (org.lance.file.LanceFileWriter w =
          org.lance.file.LanceFileWriter.open(file.toString(), alloc, null, Optional.of("2.1"), Map.of())) {
        w.write(root);
      }
    }
    long size = Files.size(file);
    Files.delete(file);
    return size;
  }

  @Benchmark
  public long miniBlock(Bytes counter, Reuse reuse) {
    return decodeChunks(counter, reuse.buffers);
  }

  @Benchmark
  public long miniBlockFresh(Bytes counter) {
    return decodeChunks(counter, null);
  }

  /** Every chunk of every page, into {@code reuse} (null: a new array per chunk). */
  private long decodeChunks(Bytes counter, io.lancecodec.spi.DecodeBuffers reuse) {
    long sum = 0;
    for (Page page : pages) {
      for (int k = 0; k < page.chunks.size(); k++) {
        long n = page.chunkValues.get(k);
        DataBlock b = page.miniBlock.decompress(page.chunks.get(k), (int) n, reuse);
        sum += ((DataBlock.VariableWidth) b).offset((int) n);
      }
    }
    counter.bytes += rawBytes;
    return sum;
  }

  @Benchmark
  public long perValue(Bytes counter) {
    long sum = 0;
    for (Page page : pages) {
      sum += page.perValue.decompress(page.perValueCodes, null).numValues();
    }
    counter.bytes += rawBytes;
    return sum;
  }

  @Benchmark
  public long perValueSteps(Bytes counter, Reuse reuse) {
    long sum = 0;
    for (Page page : pages) {
      for (DataBlock step : page.perValueSteps) {
        sum += page.perValue.decompress(step, reuse.buffers).numValues();
      }
    }
    counter.bytes += rawBytes;
    return sum;
  }

  @Benchmark
  public long copyBaseline(Bytes counter) {
    long sum = 0;
    for (Page page : pages) {
      sum += Arrays.copyOf(page.raw.data(), (int) page.rawBytes).length;
    }
    counter.bytes += rawBytes;
    return sum;
  }
}
