package io.lancecodec.bench.pcodec;

import io.lancecodec.bench.corpus.Corpus;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Two codec-pcodec jars in one JVM, each in a class loader of its own: pco decode of the same
 * file (written by the first jar; the two jars' bytes are compared) in 0.3 s slices alternated
 * round by round, so that the host's slow phases hit both. Prints the median over rounds of the
 * per-round speed ratio (second jar over first) and each side's best ns/number. The bench class
 * path must not hold codec-pcodec itself.
 *
 * <pre>
 * java -cp "BENCH_CLASSES:CLASSPATH_WITHOUT_CODEC_PCODEC" io.lancecodec.bench.pcodec.PcodecDecodeAb OLD.jar NEW.jar ROUNDS [DATA_DIR]
 * </pre>
 */
public final class PcodecDecodeAb {
  private static final int N = PcodecBenchmark.N;

  private PcodecDecodeAb() {}

  public static void main(String[] args) throws Throwable {
    if (args.length < 3) {
      throw new IllegalArgumentException("usage: PcodecDecodeAb OLD.jar NEW.jar ROUNDS [DATA_DIR]");
    }
    Path data = args.length > 3 ? Path.of(args[3]) : Corpus.dataDir();
    int rounds = Integer.parseInt(args[2]);
    Map<String, Object> sets = new LinkedHashMap<>();
    long[] dates = io.lancecodec.bench.sizes.Corpus.Flights3m.dates(data.resolve("vega-datasets/flights-3m.parquet"));
    Arrays.sort(dates);
    sets.put("timestamps-i64", Arrays.copyOf(dates, N));
    sets.put("tokens-i32", Corpus.tokenIds(Corpus.tokenFile(data), N));
    sets.put("temps-f64", PcodecBenchmark.temperatures(data));
    ClassLoader parent = PcodecDecodeAb.class.getClassLoader();
    ClassLoader[] loaders = {new URLClassLoader(new URL[] {Path.of(args[0]).toUri().toURL()}, parent),
        new URLClassLoader(new URL[] {Path.of(args[1]).toUri().toURL()}, parent)};
    for (Map.Entry<String, Object> e : sets.entrySet()) {
      Object numbers = e.getValue();
      Class<?> arrayType = numbers.getClass();
      String type = numbers instanceof long[] ? "I64" : numbers instanceof int[] ? "I32" : "F64";
      MethodHandle[] compress = new MethodHandle[2];
      MethodHandle[] decode = new MethodHandle[2];
      for (int j = 0; j < 2; j++) {
        Class<?> pco = loaders[j].loadClass("io.lancecodec.codec.pcodec.Pco");
        compress[j] = MethodHandles.publicLookup().findStatic(pco, "compress" + type,
            MethodType.methodType(byte[].class, arrayType, int.class, int.class, int.class));
        decode[j] = MethodHandles.publicLookup().findStatic(pco, "decompress" + type + "Into",
            MethodType.methodType(void.class, byte[].class, int.class, int.class, arrayType, int.class, int.class));
      }
      byte[] file = (byte[]) compress[0].invoke(numbers, 0, N, 8);
      boolean same = Arrays.equals(file, (byte[]) compress[1].invoke(numbers, 0, N, 8));
      Object out = Array.newInstance(arrayType.getComponentType(), N);
      double[] ratios = new double[rounds];
      double[] best = {Double.MAX_VALUE, Double.MAX_VALUE};
      for (int r = 0; r < rounds; r++) {
        double[] ns = new double[2];
        for (int k = 0; k < 2; k++) {
          int j = (r & 1) == 0 ? k : 1 - k;
          long start = System.nanoTime();
          long end = start + 300_000_000L;
          int calls = 0;
          while (System.nanoTime() < end) {
            decode[j].invoke(file, 0, file.length, out, 0, N);
            calls++;
          }
          ns[j] = (System.nanoTime() - start) / (double) calls / N;
          best[j] = Math.min(best[j], ns[j]);
        }
        if (!Arrays.equals(toLongs(out), toLongs(numbers))) {
          throw new AssertionError(e.getKey() + ": decoded numbers differ from the source");
        }
        ratios[r] = ns[0] / ns[1];
      }
      Arrays.sort(ratios);
      System.out.printf(Locale.ROOT, "%-16s %,d B (%s) second/first speed: median %.3f (min %.3f, max %.3f); best ns/number %.2f / %.2f%n",
          e.getKey(), file.length, same ? "same bytes" : "bytes DIFFER", ratios[rounds / 2], ratios[0], ratios[rounds - 1], best[0], best[1]);
    }
  }

  private static long[] toLongs(Object a) {
    if (a instanceof long[] l) {
      return l;
    }
    if (a instanceof int[] i) {
      return Arrays.stream(i).asLongStream().toArray();
    }
    return Arrays.stream((double[]) a).mapToLong(Double::doubleToRawLongBits).toArray();
  }
}
