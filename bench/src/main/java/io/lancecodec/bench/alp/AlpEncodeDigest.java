package io.lancecodec.bench.alp;

import io.lancecodec.codec.alp.AlpEncoder;
import io.lancecodec.codec.alp.AlpPage;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * SHA-256 of the page {@link AlpEncoder} writes for each of {@link AlpBenchmark}'s data sets (the
 * benchmark's 1,048,576 values, float64 and float32), and a rough encode time (best of
 * {@code -Dreps=5}). Run with one codec-alp jar and then another first on the class path to check
 * that a speed change leaves the bytes alone:
 * {@code java -cp OLD.jar:$(cat target/classpath.txt):target/classes io.lancecodec.bench.alp.AlpEncodeDigest}.
 */
public final class AlpEncodeDigest {
  private AlpEncodeDigest() {}

  public static void main(String[] args) throws Exception {
    int reps = Integer.getInteger("reps", 5);
    AlpEncoder enc = new AlpEncoder();
    for (String data : List.of("weather", "hourly", "earthquakes", "coords", "random", "sorted")) {
      List<String> text = AlpBenchmark.load(data);
      for (String type : List.of("f64", "f32")) {
        int n = AlpBenchmark.N;
        double[] d = new double[n];
        float[] f = new float[n];
        for (int i = 0; i < n; i++) {
          d[i] = Double.parseDouble(text.get(i % text.size()));
          f[i] = Float.parseFloat(text.get(i % text.size()));
        }
        boolean f64 = type.equals("f64");
        AlpPage page = null;
        long best = Long.MAX_VALUE;
        for (int r = 0; r < reps; r++) {
          long t0 = System.nanoTime();
          page = f64 ? enc.encodePage(d, 0, n) : enc.encodePage(f, 0, n);
          best = Math.min(best, System.nanoTime() - t0);
        }
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        if (page != null) {
          for (int c = 0; c < page.numChunks(); c++) {
            for (int s : page.chunks().get(c).bufferSizes()) {
              md.update(ByteBuffer.allocate(4).putInt(s).array());
            }
          }
          for (int i = 0; i < 4; i++) {
            md.update(page.buffer(i));
          }
        }
        System.out.printf("%-12s %s %s %10d bytes  %7.1f M values/s%n", data, type,
            page == null ? "flat" : HexFormat.of().formatHex(md.digest()).substring(0, 16),
            page == null ? -1 : page.encodedBytes(), n / (best / 1e3));
      }
    }
  }
}
