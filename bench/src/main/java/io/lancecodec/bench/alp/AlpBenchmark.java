package io.lancecodec.bench.alp;

import io.lancecodec.codec.alp.AlpDecoder;
import io.lancecodec.codec.alp.AlpEncoder;
import io.lancecodec.codec.alp.AlpPage;
import io.lancecodec.codec.alp.PlainUnpack;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlocks;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ALP / ALP-RD (codec-alp) on 1,048,576 float64 or float32 values per operation. The values are
 * encoded as one page (8 MiB of float64, a writer's page) whose chunks are laid out as a 2.3
 * mini-block page holds them: each chunk's four buffers back to back, each padded to 8 bytes.
 *
 * <ul>
 *   <li>{@code alpDecode}: every chunk through {@link AlpDecoder#decodeChunk} (the scan path:
 *       header checks, fused unpack + FOR/Delta + scaling, exceptions patched) into one reused
 *       64 KiB output array (8 chunks of float64, 16 of float32), which stays in L2;
 *   <li>{@code plainUnpack}: the baseline for the decode goal (ALP decode at least 0.8 of it):
 *       the same chunks' integers unpacked at the same bit widths ({@link PlainUnpack}, the
 *       out-of-line layout without FOR or scaling; ALP-RD chunks: right parts and dictionary
 *       indices) into a reused 64 KiB {@code long[]} / {@code int[]}; the chunk headers are
 *       read, not checked. Its shift-and-mask loops are ones C2 vectorizes; the forks keep them
 *       out of this method (see {@code @Fork}), so the baseline runs at its own speed;
 *   <li>{@code alpEncode}: {@link AlpEncoder#encodePage} of the whole page, sampling included
 *       (the paper's two levels, every chunk's choice, the buffers written);
 *   <li>{@code arraycopy}: {@code System.arraycopy} of the raw values into the same 64 KiB output
 *       in 64 KiB steps: the memory-speed ceiling.
 * </ul>
 *
 * The primary score is values per second; the {@code bytes} counter is raw value bytes per
 * second. Setup prints the encoded size (buffer bytes per value, and bytes per value as the 2.3
 * page stores them, with chunk metadata and padding) and the kinds of chunks, and checks that the
 * decode gives back every bit.
 *
 * <p>Data ({@code -Dbench.data=DIR} overrides {@code /work/shared/data}): the numeric columns of
 * vega-datasets files, concatenated in the order listed and repeated to 1,048,576 values, parsed
 * from their text with {@code Double.parseDouble} or {@code Float.parseFloat}; plus two
 * synthetic sets (seed 42).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 2,
    jvmArgsAppend = {
      "-Xms1g",
      "-Xmx1g",
      // The baseline's kernels stay methods of their own, as a reader calls them once per chunk:
      // inlined into plainUnpack's chunk loop, C2 compiled them to half their speed (1.5 against
      // 0.7 G values/s median on weather f64, 2026-12-01), which flattered the ratio.
      "-XX:CompileCommand=quiet",
      "-XX:CompileCommand=dontinline,io.lancecodec.codec.alp.BitPacking::unpack*"
    })
public class AlpBenchmark {
  static final int N = 1 << 20;

  /** Output bytes per decoded page. */
  static final int PAGE_BYTES = 64 << 10;

  /**
   * {@code weather}: seattle-weather.csv precipitation, temp_max, temp_min, wind;
   * {@code hourly}: seattle-weather-hourly-normals.csv pressure, temperature, wind;
   * {@code earthquakes}: earthquakes.json mag, then the coordinates' longitude, latitude, depth;
   * {@code coords}: airports.csv latitude, longitude, then zipcodes.csv latitude, longitude;
   * {@code random}: uniform doubles in [0, 1) (53 random bits: the ALP-RD path; float64 only);
   * {@code sorted}: a rising series of two-decimal values, steps of 0.00 to 0.12.
   */
  @Param({"weather", "hourly", "earthquakes", "coords", "random", "sorted"})
  public String data;

  @Param({"f64", "f32"})
  public String type;

  boolean f64;
  double[] values64;
  float[] values32;
  long rawBytes;

  /** All chunks as the page stores them; chunk k's buffer i at offsets[k][i], sizes[k][i] bytes. */
  byte[] stream;
  int[][] offsets;
  int[][] sizes;
  int[] counts;

  final AlpEncoder encoder = new AlpEncoder();
  final AlpDecoder decoder = new AlpDecoder();
  double[] out64;
  float[] out32;
  long[] unpacked64;
  int[] unpacked32;
  final int[] index = new int[1024];

  /** Raw value bytes per second, reported beside the values. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Bytes {
    public long bytes;
  }

  @Setup
  public void setup() throws IOException {
    f64 = type.equals("f64");
    if (!f64 && data.equals("random")) {
      throw new SkipBenchmark("random float32 values are stored flat (no ALP-RD for float32): skipped");
    }
    List<String> text = load(data);
    if (f64) {
      values64 = new double[N];
      for (int i = 0; i < N; i++) {
        values64[i] = Double.parseDouble(text.get(i % text.size()));
      }
    } else {
      values32 = new float[N];
      for (int i = 0; i < N; i++) {
        values32[i] = Float.parseFloat(text.get(i % text.size()));
      }
    }
    rawBytes = (long) N * (f64 ? 8 : 4);
    AlpPage page = f64 ? encoder.encodePage(values64, 0, N) : encoder.encodePage(values32, 0, N);
    if (page == null) {
      throw new SkipBenchmark(data + " " + type + ": ALP does not make the page smaller, it stays flat");
    }
    layOut(page);
    out64 = new double[PAGE_BYTES / 8];
    out32 = new float[PAGE_BYTES / 4];
    unpacked64 = new long[PAGE_BYTES / 8];
    unpacked32 = new int[PAGE_BYTES / 4];
    long stored = MiniBlocks.storedBytes(new MiniBlockCompressed(
        List.of(page.buffer(0), page.buffer(1), page.buffer(2), page.buffer(3)), page.chunks(), N, null),
        FileVersion.V2_3);
    System.out.printf("%n[setup] %s %s: %d values from %d distinct source values, %d chunks; %.3f B/value in "
            + "buffers, %.3f B/value stored (2.3 mini-block), raw %d; %s%n",
        data, type, N, text.size(), counts.length, page.encodedBytes() / (double) N, stored / (double) N,
        f64 ? 8 : 4, summary());
    verify();
  }

  /** Chunk k at its place in one stream, each buffer padded to 8 bytes. */
  private void layOut(AlpPage page) {
    int chunks = page.numChunks();
    offsets = new int[chunks][4];
    sizes = new int[chunks][4];
    counts = new int[chunks];
    int total = 0;
    for (MiniBlockChunk c : page.chunks()) {
      for (int size : c.bufferSizes()) {
        total += (size + 7) & ~7;
      }
    }
    stream = new byte[total];
    int[] from = new int[4];
    int at = 0;
    for (int k = 0; k < chunks; k++) {
      counts[k] = page.chunkValues(k);
      for (int i = 0; i < 4; i++) {
        int size = page.chunks().get(k).bufferSizes()[i];
        System.arraycopy(page.buffer(i), from[i], stream, at, size);
        offsets[k][i] = at;
        sizes[k][i] = size;
        from[i] += size;
        at += (size + 7) & ~7;
      }
    }
  }

  /** Chunk kinds, mean bit width and exceptions, from the headers. */
  private String summary() {
    int rd = 0;
    int delta = 0;
    int div = 0;
    long widths = 0;
    long exceptions = 0;
    for (int k = 0; k < counts.length; k++) {
      int h = offsets[k][1];
      int mode = stream[h];
      if ((mode & 4) != 0) {
        rd++;
        widths += stream[h + 1];
        continue;
      }
      delta += mode & 1;
      div += (mode >> 1) & 1;
      widths += stream[h + 3];
      exceptions += sizes[k][2] / 2;
    }
    return String.format("chunks: %d ALP-RD, %d Delta, %d use_div; mean width %.2f bits (ALP-RD: right part), "
        + "%.2f exceptions per 1024 values", rd, delta, div, widths / (double) counts.length, exceptions * 1024.0 / N);
  }

  private void verify() {
    verify(false);
    verify(true);
  }

  private void verify(boolean composed) {
    int per = f64 ? out64.length : out32.length;
    for (int start = 0; start < N; start += per) {
      int firstChunk = start / 1024;
      if (f64) {
        java.util.Arrays.fill(out64, Double.NaN);
      } else {
        java.util.Arrays.fill(out32, Float.NaN);
      }
      for (int k = firstChunk; k < firstChunk + per / 1024; k++) {
        if (composed) {
          composedChunk(k, (k - firstChunk) * 1024);
        } else if (f64) {
          decoder.decodeChunk(stream, offsets[k], sizes[k], counts[k], out64, (k - firstChunk) * 1024);
        } else {
          decoder.decodeChunk(stream, offsets[k], sizes[k], counts[k], out32, (k - firstChunk) * 1024);
        }
      }
      for (int i = 0; i < per; i++) {
        boolean same = f64
            ? Double.doubleToRawLongBits(out64[i]) == Double.doubleToRawLongBits(values64[start + i])
            : Float.floatToRawIntBits(out32[i]) == Float.floatToRawIntBits(values32[start + i]);
        if (!same) {
          throw new IllegalStateException((composed ? "composed: " : "") + "decoded value " + (start + i) + " differs");
        }
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public Object alpDecode(Bytes counter) {
    int perPage = (f64 ? out64.length : out32.length) / 1024;
    for (int k = 0; k < counts.length; k++) {
      int at = (k % perPage) * 1024;
      if (f64) {
        decoder.decodeChunk(stream, offsets[k], sizes[k], counts[k], out64, at);
      } else {
        decoder.decodeChunk(stream, offsets[k], sizes[k], counts[k], out32, at);
      }
    }
    counter.bytes += rawBytes;
    return f64 ? out64 : out32;
  }

  /** 10^e and 10^-e as codec-alp's tables hold them (the decimal literals, parsed). */
  private static final double[] P64 = new double[19];
  private static final double[] INV64 = new double[19];
  private static final float[] P32 = new float[11];
  private static final float[] INV32 = new float[11];

  static {
    for (int e = 0; e < 19; e++) {
      P64[e] = Double.parseDouble("1e" + e);
      INV64[e] = Double.parseDouble("1e-" + e);
    }
    for (int e = 0; e < 11; e++) {
      P32[e] = Float.parseFloat("1e" + e);
      INV32[e] = Float.parseFloat("1e-" + e);
    }
  }

  /**
   * Issue 18's composition for the ALP decode, the one {@code FusedDecode} (behind {@code
   * alpDecode}) replaces: each ALP chunk's integers bit-unpacked into a scratch array first
   * ({@link PlainUnpack}, whose shift-and-mask loops C2 vectorizes; the forks keep them out of
   * this method), then a separate pass undoes FOR or Delta and scales into the output, then the
   * exceptions are patched, as {@code AlpDecoder} does. ALP-RD chunks go through the decoder as
   * in {@code alpDecode} (there is no FOR or scale to separate). Checked bit for bit against
   * {@code alpDecode} in setup.
   */
  @Benchmark
  @OperationsPerInvocation(N)
  public Object alpComposed(Bytes counter) {
    int perPage = (f64 ? out64.length : out32.length) / 1024;
    for (int k = 0; k < counts.length; k++) {
      composedChunk(k, (k % perPage) * 1024);
    }
    counter.bytes += rawBytes;
    return f64 ? out64 : out32;
  }

  private void composedChunk(int k, int at) {
    byte[] s = stream;
    {
      int[] o = offsets[k];
      int[] z = sizes[k];
      int n = counts[k];
      int h = o[1];
      int mode = s[h];
      if ((mode & 4) != 0) {
        decoder.decodeChunk(stream, o, z, n, out64, at);
        return;
      }
      boolean delta = (mode & 1) != 0;
      boolean div = (mode & 2) != 0;
      int e = s[h + 1];
      int f = s[h + 2];
      int w = s[h + 3];
      int exceptions = z[2] / 2;
      if (f64) {
        long[] q = unpacked64;
        PlainUnpack.unpack64(s, o[0], z[0], w, n, q, at);
        long base = (long) LE_LONG.get(s, h + 4);
        long step = delta ? (long) LE_LONG.get(s, h + 12) : 0;
        double[] out = out64;
        if (delta) {
          long acc = base - step;
          for (int i = at; i < at + n; i++) {
            acc += step + q[i];
            q[i] = acc;
          }
        } else {
          for (int i = at; i < at + n; i++) {
            q[i] += base;
          }
        }
        if (div) {
          double m = P64[e];
          for (int i = at; i < at + n; i++) {
            out[i] = q[i] / m;
          }
        } else {
          double m1 = P64[f];
          double m2 = INV64[e];
          for (int i = at; i < at + n; i++) {
            out[i] = q[i] * m1 * m2;
          }
        }
        for (int x = 0; x < exceptions; x++) {
          int pos = (short) LE_SHORT.get(s, o[2] + 2 * x) & 0xFFFF;
          out[at + pos] = Double.longBitsToDouble((long) LE_LONG.get(s, o[3] + 8 * x));
        }
      } else {
        int[] q = unpacked32;
        PlainUnpack.unpack32(s, o[0], z[0], w, n, q, at);
        int base = (int) LE_INT.get(s, h + 4);
        int step = delta ? (int) LE_INT.get(s, h + 8) : 0;
        float[] out = out32;
        if (delta) {
          int acc = base - step;
          for (int i = at; i < at + n; i++) {
            acc += step + q[i];
            q[i] = acc;
          }
        } else {
          for (int i = at; i < at + n; i++) {
            q[i] += base;
          }
        }
        if (div) {
          float m = P32[e];
          for (int i = at; i < at + n; i++) {
            out[i] = q[i] / m;
          }
        } else {
          float m1 = P32[f];
          float m2 = INV32[e];
          for (int i = at; i < at + n; i++) {
            out[i] = q[i] * m1 * m2;
          }
        }
        for (int x = 0; x < exceptions; x++) {
          int pos = (short) LE_SHORT.get(s, o[2] + 2 * x) & 0xFFFF;
          out[at + pos] = Float.intBitsToFloat((int) LE_INT.get(s, o[3] + 4 * x));
        }
      }
    }
  }

  private static final java.lang.invoke.VarHandle LE_LONG =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final java.lang.invoke.VarHandle LE_INT =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final java.lang.invoke.VarHandle LE_SHORT =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(short[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  @Benchmark
  @OperationsPerInvocation(N)
  public Object plainUnpack(Bytes counter) {
    int perPage = (f64 ? out64.length : out32.length) / 1024;
    byte[] s = stream;
    for (int k = 0; k < counts.length; k++) {
      int at = (k % perPage) * 1024;
      int[] o = offsets[k];
      int[] z = sizes[k];
      int n = counts[k];
      int mode = s[o[1]];
      if ((mode & 4) != 0) {
        PlainUnpack.unpack64(s, o[0], z[0], s[o[1] + 1], n, unpacked64, at);
        int ib = s[o[1] + 2];
        if (ib > 0) {
          PlainUnpack.unpack16(s, o[3], z[3], ib, n, index);
        }
      } else if (f64) {
        PlainUnpack.unpack64(s, o[0], z[0], s[o[1] + 3], n, unpacked64, at);
      } else {
        PlainUnpack.unpack32(s, o[0], z[0], s[o[1] + 3], n, unpacked32, at);
      }
    }
    counter.bytes += rawBytes;
    return f64 ? unpacked64 : unpacked32;
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public AlpPage alpEncode(Bytes counter) {
    counter.bytes += rawBytes;
    return f64 ? encoder.encodePage(values64, 0, N) : encoder.encodePage(values32, 0, N);
  }

  @Benchmark
  @OperationsPerInvocation(N)
  public Object arraycopy(Bytes counter) {
    if (f64) {
      for (int start = 0; start < N; start += out64.length) {
        System.arraycopy(values64, start, out64, 0, out64.length);
      }
    } else {
      for (int start = 0; start < N; start += out32.length) {
        System.arraycopy(values32, start, out32, 0, out32.length);
      }
    }
    counter.bytes += rawBytes;
    return f64 ? out64 : out32;
  }

  // ---- data ----

  static Path vega() {
    return Path.of(System.getProperty("bench.data", "/work/shared/data"), "vega-datasets");
  }

  /** The data set's values as text, in order. */
  static List<String> load(String data) throws IOException {
    List<String> out = new ArrayList<>();
    switch (data) {
      case "weather":
        for (String c : List.of("precipitation", "temp_max", "temp_min", "wind")) {
          out.addAll(csvColumn(vega().resolve("seattle-weather.csv"), c));
        }
        break;
      case "hourly":
        for (String c : List.of("pressure", "temperature", "wind")) {
          out.addAll(csvColumn(vega().resolve("seattle-weather-hourly-normals.csv"), c));
        }
        break;
      case "earthquakes":
        out.addAll(earthquakes());
        break;
      case "coords":
        for (String c : List.of("latitude", "longitude")) {
          out.addAll(csvColumn(vega().resolve("airports.csv"), c));
        }
        for (String c : List.of("latitude", "longitude")) {
          out.addAll(csvColumn(vega().resolve("zipcodes.csv"), c));
        }
        break;
      case "random": {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < N; i++) {
          out.add(Double.toString(rnd.nextDouble()));
        }
        break;
      }
      case "sorted": {
        SplittableRandom rnd = new SplittableRandom(42);
        long hundredths = 0;
        for (int i = 0; i < N; i++) {
          hundredths += rnd.nextInt(13);
          out.add(BigDecimal.valueOf(hundredths, 2).toPlainString());
        }
        break;
      }
      default:
        throw new IllegalArgumentException("data " + data);
    }
    if (out.isEmpty()) {
      throw new IllegalStateException("no values for " + data + " under " + vega());
    }
    return out;
  }

  /** One column of a CSV file with a header line (no quoted commas in the columns used); blanks dropped. */
  static List<String> csvColumn(Path file, String column) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    List<String> header = splitCsv(lines.get(0));
    int c = header.indexOf(column);
    if (c < 0) {
      throw new IllegalStateException(column + " not in " + file);
    }
    List<String> out = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      List<String> fields = splitCsv(line);
      if (c < fields.size() && !fields.get(c).isBlank()) {
        out.add(fields.get(c).strip());
      }
    }
    return out;
  }

  /** Fields of one CSV line; a field in double quotes may hold commas. */
  static List<String> splitCsv(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (ch == '"') {
        quoted = !quoted;
      } else if (ch == ',' && !quoted) {
        fields.add(f.toString());
        f.setLength(0);
      } else {
        f.append(ch);
      }
    }
    fields.add(f.toString());
    return fields;
  }

  /** earthquakes.json: every non-null "mag", then longitude, latitude and depth of every feature, as written. */
  static List<String> earthquakes() throws IOException {
    String json = Files.readString(vega().resolve("earthquakes.json"), StandardCharsets.UTF_8);
    List<String> mag = new ArrayList<>();
    List<List<String>> coordinates = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (int at = json.indexOf("\"mag\":"); at >= 0; at = json.indexOf("\"mag\":", at + 1)) {
      String v = number(json, at + 6);
      if (!v.equals("null")) {
        mag.add(v);
      }
    }
    String key = "\"coordinates\":[";
    for (int at = json.indexOf(key); at >= 0; at = json.indexOf(key, at + 1)) {
      int end = json.indexOf(']', at);
      String[] parts = json.substring(at + key.length(), end).split(",");
      for (int i = 0; i < 3; i++) {
        coordinates.get(i).add(parts[i].strip());
      }
    }
    List<String> out = new ArrayList<>(mag);
    coordinates.forEach(out::addAll);
    return out;
  }

  private static String number(String json, int from) {
    int end = from;
    while (end < json.length() && json.charAt(end) != ',' && json.charAt(end) != '}') {
      end++;
    }
    return json.substring(from, end).strip();
  }

  /** Thrown by the setup for combinations that do not exist; JMH reports it and goes on. */
  static final class SkipBenchmark extends RuntimeException {
    SkipBenchmark(String msg) {
      super(msg);
    }
  }
}
