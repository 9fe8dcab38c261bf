package io.lancecodec.bench.sizes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

/**
 * Derives every column of the anchor (reference-lance-7.0.0.md, sections a to e) from
 * {@code shared/data} by its "Method": f64 values are also written cast to f32, the int16
 * {@code delay} also widened to int64, the flights-3m {@code date} taken as int64 microseconds,
 * token files as FixedSizeList&lt;u64/u32&gt;[2048] and flat, empty or null cells dropped. The
 * labels are the anchor's, so its numbers can be looked up by label.
 */
public final class Corpus {
  static final ArrowType U32 = new ArrowType.Int(32, false);
  static final ArrowType U64 = new ArrowType.Int(64, false);
  static final ArrowType I16 = new ArrowType.Int(16, true);
  static final ArrowType I32 = new ArrowType.Int(32, true);
  static final ArrowType I64 = new ArrowType.Int(64, true);
  static final ArrowType F32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

  /** Groups load separately (gauss alone is 307 MB), in the anchor's order. */
  static final List<String> GROUPS = List.of("tokens", "floats", "ints", "strings", "gauss");

  private final Path dir;
  private final BufferAllocator alloc;

  Corpus(Path dir, BufferAllocator alloc) {
    this.dir = dir;
    this.alloc = alloc;
  }

  List<CorpusColumn> load(String group) throws IOException {
    return switch (group) {
      case "tokens" -> tokens();
      case "floats" -> floats();
      case "ints" -> ints();
      case "strings" -> strings();
      case "gauss" -> List.of(gauss());
      default -> throw new IllegalArgumentException("unknown group '" + group + "' (groups: " + GROUPS + ")");
    };
  }

  // ---------------------------------------------------------------- a) tokens

  private List<CorpusColumn> tokens() throws IOException {
    List<CorpusColumn> out = new ArrayList<>();
    for (String vocab : List.of("cl100k", "o200k")) {
      byte[] u32 = Files.readAllBytes(dir.resolve("tokens/tokens-" + vocab + "-2048.u32"));
      int n = u32.length / 4;
      byte[] u64 = widen32to64(u32, n, false);
      out.add(CorpusColumn.list(vocab + " fsl<u64>[2048]", 'a', U64, 2048, u64, n / 2048));
      out.add(CorpusColumn.list(vocab + " fsl<u32>[2048]", 'a', U32, 2048, u32, n / 2048));
      out.add(CorpusColumn.fixed(vocab + " flat u32", 'a', U32, u32, n));
      if (vocab.equals("cl100k")) {
        out.add(CorpusColumn.fixed(vocab + " flat u64", 'a', U64, u64, n));
      }
    }
    return out;
  }

  private static byte[] widen32to64(byte[] src, int n, boolean signed) {
    ByteBuffer in = ByteBuffer.wrap(src).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer out = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      int v = in.getInt(4 * i);
      out.putLong(8 * i, signed ? v : Integer.toUnsignedLong(v));
    }
    return out.array();
  }

  // ---------------------------------------------------------------- b) decimal floats

  private List<CorpusColumn> floats() throws IOException {
    List<CorpusColumn> out = new ArrayList<>();
    Path vega = dir.resolve("vega-datasets");
    Csv seattle = Csv.read(vega.resolve("seattle-weather.csv"));
    Csv hourly = Csv.read(vega.resolve("seattle-weather-hourly-normals.csv"));
    Csv sp500 = Csv.read(vega.resolve("sp500-2000.csv"));
    Csv zip = Csv.read(vega.resolve("zipcodes.csv"));
    Csv airports = Csv.read(vega.resolve("airports.csv"));
    JsonNode quakes = new ObjectMapper().readTree(vega.resolve("earthquakes.json").toFile()).get("features");
    doubles(out, "seattle.precipitation", seattle.doubles("precipitation"));
    doubles(out, "seattle.temp_max", seattle.doubles("temp_max"));
    doubles(out, "seattle.wind", seattle.doubles("wind"));
    doubles(out, "seattle_hourly.pressure", hourly.doubles("pressure"));
    doubles(out, "seattle_hourly.temperature", hourly.doubles("temperature"));
    doubles(out, "sp500.close", sp500.doubles("close"));
    doubles(out, "earthquakes.mag", quake(quakes, "mag", -1));
    doubles(out, "earthquakes.lon", quake(quakes, null, 0));
    doubles(out, "earthquakes.lat", quake(quakes, null, 1));
    doubles(out, "earthquakes.depth", quake(quakes, null, 2));
    doubles(out, "zipcodes.latitude", zip.doubles("latitude"));
    doubles(out, "zipcodes.longitude", zip.doubles("longitude"));
    doubles(out, "airports.latitude", airports.doubles("latitude"));
    try (FlightsArrow f = FlightsArrow.read(vega.resolve("flights-200k.arrow"), alloc)) {
      out.add(CorpusColumn.fixed("flights200k.time:f32 (native)", 'b', F32, f.time, f.rows));
    }
    return out;
  }

  private static void doubles(List<CorpusColumn> out, String name, double[] v) {
    ByteBuffer f64 = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer f32 = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < v.length; i++) {
      f64.putDouble(8 * i, v[i]);
      f32.putFloat(4 * i, (float) v[i]);
    }
    out.add(CorpusColumn.fixed(name + ":f64", 'b', F64, f64.array(), v.length));
    out.add(CorpusColumn.fixed(name + ":f32", 'b', F32, f32.array(), v.length));
  }

  /** A property of each feature, or coordinate {@code coord} of its geometry; nulls dropped. */
  private static double[] quake(JsonNode features, String property, int coord) {
    double[] out = new double[features.size()];
    int n = 0;
    for (JsonNode f : features) {
      JsonNode v = property != null ? f.get("properties").get(property) : f.get("geometry").get("coordinates").get(coord);
      if (v != null && !v.isNull()) {
        out[n++] = v.asDouble();
      }
    }
    return Arrays.copyOf(out, n);
  }

  // ---------------------------------------------------------------- c) integers

  private List<CorpusColumn> ints() throws IOException {
    List<CorpusColumn> out = new ArrayList<>();
    Path vega = dir.resolve("vega-datasets");
    try (FlightsArrow f = FlightsArrow.read(vega.resolve("flights-200k.arrow"), alloc)) {
      out.add(CorpusColumn.fixed("flights200k.delay:i16 (native)", 'c', I16, f.delay, f.rows));
      out.add(CorpusColumn.fixed("flights200k.distance:i16 (native)", 'c', I16, f.distance, f.rows));
      ByteBuffer in = ByteBuffer.wrap(f.delay).order(ByteOrder.LITTLE_ENDIAN);
      ByteBuffer wide = ByteBuffer.allocate(8 * f.rows).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < f.rows; i++) {
        wide.putLong(8 * i, in.getShort(2 * i));
      }
      out.add(CorpusColumn.fixed("flights200k.delay:i64", 'c', I64, wide.array(), f.rows));
    }
    Flights3m big = Flights3m.read(vega.resolve("flights-3m.parquet"));
    out.add(CorpusColumn.fixed("flights3m.date:i64 (timestamp us)", 'c', I64, big.date, big.rows));
    out.add(CorpusColumn.fixed("flights3m.delay:i64", 'c', I64, big.delay, big.rows));
    out.add(CorpusColumn.fixed("flights3m.distance:i64", 'c', I64, big.distance, big.rows));
    Csv zip = Csv.read(vega.resolve("zipcodes.csv"));
    long[] zips = zip.longs("zip_code");
    ByteBuffer z = ByteBuffer.allocate(4 * zips.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < zips.length; i++) {
      z.putInt(4 * i, (int) zips[i]);
    }
    out.add(CorpusColumn.fixed("zipcodes.zip_code:i32", 'c', I32, z.array(), zips.length));
    long[] vol = Csv.read(vega.resolve("sp500-2000.csv")).longs("volume");
    ByteBuffer v = ByteBuffer.allocate(8 * vol.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < vol.length; i++) {
      v.putLong(8 * i, vol[i]);
    }
    out.add(CorpusColumn.fixed("sp500.volume:i64", 'c', I64, v.array(), vol.length));
    return out;
  }

  // ---------------------------------------------------------------- d) strings

  private List<CorpusColumn> strings() throws IOException {
    List<CorpusColumn> out = new ArrayList<>();
    Path vega = dir.resolve("vega-datasets");
    out.add(Flights3m.origin(vega.resolve("flights-3m.parquet")));
    Csv airports = Csv.read(vega.resolve("airports.csv"));
    out.add(strings("airports.name", airports.column("name")));
    out.add(strings("airports.city", airports.column("city")));
    out.add(strings("airports.state", airports.column("state")));
    Csv zip = Csv.read(vega.resolve("zipcodes.csv"));
    out.add(strings("zipcodes.city", zip.column("city")));
    out.add(strings("zipcodes.state", zip.column("state")));
    out.add(strings("birdstrikes.species", Csv.read(vega.resolve("birdstrikes.csv")).column("Wildlife Species")));
    JsonNode movies = new ObjectMapper().readTree(vega.resolve("movies.json").toFile());
    for (String key : List.of("Title", "Major Genre", "Distributor")) {
      List<String> cells = new ArrayList<>();
      for (JsonNode m : movies) {
        JsonNode v = m.get(key);
        if (v != null && !v.isNull() && !v.asText().isEmpty()) {
          cells.add(v.asText());
        }
      }
      out.add(strings("movies." + key, cells));
    }
    for (String name : List.of("subjects", "from", "message-ids", "urls", "received")) {
      out.add(strings("mail." + name, Files.readAllLines(dir.resolve("strings/strings-mail-" + name + ".txt"), StandardCharsets.UTF_8)));
    }
    return out;
  }

  static CorpusColumn strings(String label, List<String> cells) {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int[] offsets = new int[cells.size() + 1];
    for (int i = 0; i < cells.size(); i++) {
      byte[] b = cells.get(i).getBytes(StandardCharsets.UTF_8);
      data.write(b, 0, b.length);
      offsets[i + 1] = data.size();
    }
    return CorpusColumn.strings(label, 'd', data.toByteArray(), offsets);
  }

  // ---------------------------------------------------------------- e) control

  private static CorpusColumn gauss() {
    int rows = 100_000;
    int dim = 768;
    Random r = new Random(42);
    ByteBuffer b = ByteBuffer.allocate(4 * rows * dim).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < rows * dim; i++) {
      b.putFloat(4 * i, (float) r.nextGaussian());
    }
    return CorpusColumn.list("gauss fsl<f32>[768]", 'e', F32, dim, b.array(), rows);
  }

  // ---------------------------------------------------------------- sources

  /** A CSV file with a header; quoted cells may hold commas and doubled quotes. */
  record Csv(Path file, List<String> header, List<List<String>> rows) {
    static Csv read(Path f) throws IOException {
      List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
      List<List<String>> rows = new ArrayList<>();
      for (int i = 1; i < lines.size(); i++) {
        if (!lines.get(i).isEmpty()) {
          rows.add(split(lines.get(i)));
        }
      }
      return new Csv(f, split(lines.get(0)), rows);
    }

    static List<String> split(String line) {
      List<String> out = new ArrayList<>();
      StringBuilder cell = new StringBuilder();
      boolean quoted = false;
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        if (quoted) {
          if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
            cell.append('"');
            i++;
          } else if (c == '"') {
            quoted = false;
          } else {
            cell.append(c);
          }
        } else if (c == '"') {
          quoted = true;
        } else if (c == ',') {
          out.add(cell.toString());
          cell.setLength(0);
        } else {
          cell.append(c);
        }
      }
      out.add(cell.toString());
      return out;
    }

    /** The non-empty cells of a column, in row order. */
    List<String> column(String name) {
      int c = header.indexOf(name);
      if (c < 0) {
        throw new IllegalArgumentException(file + ": no column '" + name + "' (columns: " + header + ")");
      }
      List<String> out = new ArrayList<>();
      for (List<String> r : rows) {
        if (r.size() > c && !r.get(c).isEmpty()) {
          out.add(r.get(c));
        }
      }
      return out;
    }

    double[] doubles(String name) {
      return column(name).stream().mapToDouble(s -> Double.parseDouble(s.strip())).toArray();
    }

    long[] longs(String name) {
      return column(name).stream().mapToLong(s -> Long.parseLong(s.strip())).toArray();
    }
  }

  /** flights-200k.arrow: delay and distance (int16) and time (float32), nulls dropped per column. */
  static final class FlightsArrow implements AutoCloseable {
    final int rows;
    final byte[] delay;
    final byte[] distance;
    final byte[] time;

    private FlightsArrow(int rows, byte[] delay, byte[] distance, byte[] time) {
      this.rows = rows;
      this.delay = delay;
      this.distance = distance;
      this.time = time;
    }

    static FlightsArrow read(Path f, BufferAllocator alloc) throws IOException {
      ByteArrayOutputStream delay = new ByteArrayOutputStream();
      ByteArrayOutputStream distance = new ByteArrayOutputStream();
      ByteArrayOutputStream time = new ByteArrayOutputStream();
      int rows = 0;
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ);
          ArrowFileReader r = new ArrowFileReader(ch, alloc)) {
        while (r.loadNextBatch()) {
          SmallIntVector de = (SmallIntVector) r.getVectorSchemaRoot().getVector("delay");
          SmallIntVector di = (SmallIntVector) r.getVectorSchemaRoot().getVector("distance");
          Float4Vector ti = (Float4Vector) r.getVectorSchemaRoot().getVector("time");
          int n = r.getVectorSchemaRoot().getRowCount();
          if (de.getNullCount() + di.getNullCount() + ti.getNullCount() > 0) {
            throw new IOException(f + ": nulls in flights-200k (the anchor measured none)");
          }
          append(delay, de, 2 * n);
          append(distance, di, 2 * n);
          append(time, ti, 4 * n);
          rows += n;
        }
      }
      return new FlightsArrow(rows, delay.toByteArray(), distance.toByteArray(), time.toByteArray());
    }

    private static void append(ByteArrayOutputStream out, FieldVector v, int bytes) {
      byte[] b = new byte[bytes];
      v.getDataBuffer().getBytes(0, b);
      out.write(b, 0, bytes);
    }

    @Override
    public void close() {}
  }

  /** flights-3m.parquet through parquet-java: date (int64 us), delay, distance, origin. */
  public static final class Flights3m {
    final int rows;
    final byte[] date;
    final byte[] delay;
    final byte[] distance;

    private Flights3m(int rows, byte[] date, byte[] delay, byte[] distance) {
      this.rows = rows;
      this.date = date;
      this.delay = delay;
      this.distance = distance;
    }

    /** The date column alone (int64 microseconds, file order): the pcodec benchmark's timestamps. */
    public static long[] dates(Path f) throws IOException {
      return longs(f, "date");
    }

    /** One int64 column (date, delay or distance), file order. */
    public static long[] longs(Path f, String column) throws IOException {
      long[][] buf = {new long[1 << 20]};
      int[] total = {0};
      scan(f, column, cr -> {
        if (total[0] == buf[0].length) {
          buf[0] = Arrays.copyOf(buf[0], buf[0].length * 2);
        }
        buf[0][total[0]++] = cr.getLong();
      });
      return Arrays.copyOf(buf[0], total[0]);
    }

    static Flights3m read(Path f) throws IOException {
      long[][] cols = new long[3][];
      String[] names = {"date", "delay", "distance"};
      for (int c = 0; c < 3; c++) {
        cols[c] = longs(f, names[c]);
      }
      int n = cols[0].length;
      byte[][] bytes = new byte[3][];
      for (int c = 0; c < 3; c++) {
        if (cols[c].length != n) {
          throw new IOException(f + ": column " + names[c] + " has " + cols[c].length + " values, date has " + n);
        }
        ByteBuffer b = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
          b.putLong(8 * i, cols[c][i]);
        }
        bytes[c] = b.array();
      }
      return new Flights3m(n, bytes[0], bytes[1], bytes[2]);
    }

    static CorpusColumn origin(Path f) throws IOException {
      ByteArrayOutputStream data = new ByteArrayOutputStream();
      List<Integer> ends = new ArrayList<>();
      scan(f, "origin", cr -> {
        byte[] b = cr.getBinary().getBytes();
        data.write(b, 0, b.length);
        ends.add(data.size());
      });
      int[] offsets = new int[ends.size() + 1];
      for (int i = 0; i < ends.size(); i++) {
        offsets[i + 1] = ends.get(i);
      }
      return CorpusColumn.strings("flights3m.origin (low-card)", 'd', data.toByteArray(), offsets);
    }

    interface Sink {
      void value(ColumnReader cr);
    }

    /** Every present value of one column in file order (null cells skipped). */
    private static void scan(Path f, String column, Sink sink) throws IOException {
      ParquetReadOptions opts =
          ParquetReadOptions.builder(new PlainParquetConfiguration()).withCodecFactory(new ZstdOnly()).build();
      try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(f), opts)) {
        MessageType schema = r.getFooter().getFileMetaData().getSchema();
        String createdBy = r.getFooter().getFileMetaData().getCreatedBy();
        ColumnDescriptor cd = schema.getColumnDescription(new String[] {column});
        r.setRequestedSchema(new MessageType(schema.getName(), schema.getType(column)));
        MessageType projected = new MessageType(schema.getName(), schema.getType(column));
        PageReadStore rg;
        while ((rg = r.readNextRowGroup()) != null) {
          ColumnReader cr = new ColumnReadStoreImpl(rg, new NoConverter(), projected, createdBy).getColumnReader(cd);
          long n = rg.getRowCount();
          for (long i = 0; i < n; i++) {
            if (cr.getCurrentDefinitionLevel() == cd.getMaxDefinitionLevel()) {
              sink.value(cr);
            }
            cr.consume();
          }
        }
      }
    }
  }

  /**
   * parquet-java's own codec factory builds a Hadoop Configuration (which needs Hadoop's XML
   * stack); the file is zstd-compressed, and zstd-jni is on the class path already.
   */
  static final class ZstdOnly implements CompressionCodecFactory {
    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
      throw new UnsupportedOperationException("read only");
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
      if (codec != CompressionCodecName.ZSTD && codec != CompressionCodecName.UNCOMPRESSED) {
        throw new UnsupportedOperationException("flights-3m.parquet: codec " + codec + " (only zstd is handled here)");
      }
      boolean zstd = codec == CompressionCodecName.ZSTD;
      return new BytesInputDecompressor() {
        @Override
        public BytesInput decompress(BytesInput in, int size) throws IOException {
          byte[] b = in.toByteArray();
          return BytesInput.from(zstd ? Zstd.decompress(b, size) : b);
        }

        @Override
        public void decompress(ByteBuffer in, int inSize, ByteBuffer out, int outSize) throws IOException {
          byte[] src = new byte[inSize];
          in.get(src);
          out.put(zstd ? Zstd.decompress(src, outSize) : src);
        }

        @Override
        public void release() {}
      };
    }

    @Override
    public void release() {}
  }

  static final class NoConverter extends GroupConverter {
    @Override
    public Converter getConverter(int fieldIndex) {
      return new PrimitiveConverter() {};
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}
