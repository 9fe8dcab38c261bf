package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.spi.MiniBlockChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pins the encoder's output bytes: SHA-256 over every page's chunk shapes and four buffers, for
 * the real columns (whole, short, and all of them joined into pages of several row groups) and
 * the round-trip test's synthetic kinds, float64 and float32. The choice code is tuned for speed
 * from time to time; a change there that alters what is chosen shows here. A deliberate change of
 * choice regenerates the digests (the test prints them) and says so in its commit.
 */
class AlpEncodeBytesStabilityTest {
  static final Map<String, String> EXPECTED = Map.ofEntries(
      Map.entry("real f64", "2170ab1e7ea4c9cf2f8bc21b91cc8eab685665e399887e77be00568e75b2f176"),
      Map.entry("real f32", "04520a367bd994e6a30adac503e126198e3720808fd278754d42b4021d36cd25"),
      Map.entry("real-short f64", "ba2cac0ab0ae68059ba4be194e42dbe2d7caf3df796e6f22b9fd5b3e6fd26298"),
      Map.entry("real-short f32", "dd83bfcd6a9b6f610ceea8d7a00ab5a1f8d2980ba44e789bbd8aafa5e029e0e7"),
      Map.entry("real-joined f64", "338c4d4bee76f68434eec7a02e5f878c15757678e45fb15f9e98c844ff442dd8"),
      Map.entry("real-joined f32", "f4d71eaf529e99a587e3632969583bf52190b15159154aa2b357a9a1a0c20529"),
      Map.entry("synthetic f64", "3cd84c16f58e0ba620f0eb74c967a1603ff255ad39eb8d5d0233565fb7b3808e"),
      Map.entry("synthetic f32", "e06c95485c1f368796a61376f3c0b25f7cbb9c0676d5a800ce0f34591ed6eb79"));

  /** The real test columns, each as parsed text. */
  static List<List<String>> realColumns() throws IOException {
    List<List<String>> out = new ArrayList<>();
    for (AlpRealDataTest.Column c : AlpRealDataTest.COLUMNS) {
      out.add(AlpRealDataTest.read(c.file(), c.name()));
    }
    return out;
  }

  static final class Digest {
    final MessageDigest md;

    Digest() {
      try {
        md = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new AssertionError(e);
      }
    }

    void page(AlpPage p) {
      if (p == null) {
        md.update(ByteBuffer.allocate(4).putInt(-1).array());
        return;
      }
      ByteBuffer head = ByteBuffer.allocate(8 + 20 * p.numChunks());
      head.putLong(p.numValues());
      for (int c = 0; c < p.numChunks(); c++) {
        MiniBlockChunk chunk = p.chunks().get(c);
        for (int s : chunk.bufferSizes()) {
          head.putInt(s);
        }
        head.putInt(p.chunkValues(c));
      }
      md.update(head.array());
      for (int i = 0; i < 4; i++) {
        md.update(p.buffer(i));
      }
    }

    String hex() {
      return HexFormat.of().formatHex(md.digest());
    }
  }

  static double[] doubles(List<String> text, int from, int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = Double.parseDouble(text.get((from + i) % text.size()));
    }
    return d;
  }

  static float[] floats(List<String> text, int from, int n) {
    float[] f = new float[n];
    for (int i = 0; i < n; i++) {
      f[i] = Float.parseFloat(text.get((from + i) % text.size()));
    }
    return f;
  }

  @Test
  void encodedBytesAreUnchanged() throws IOException {
    AlpEncoder enc = new AlpEncoder();
    List<List<String>> real = realColumns();
    Map<String, Digest> got = new LinkedHashMap<>();
    for (String k : List.of("real", "real-short", "real-joined", "synthetic")) {
      got.put(k + " f64", new Digest());
      got.put(k + " f32", new Digest());
    }
    List<String> joined = new ArrayList<>();
    for (List<String> col : real) {
      got.get("real f64").page(enc.encodePage(doubles(col, 0, col.size()), 0, col.size()));
      got.get("real f32").page(enc.encodePage(floats(col, 0, col.size()), 0, col.size()));
      for (int n : new int[] {1, 31, 700, 1500, 3100}) {
        int from = 13 * n % col.size();
        got.get("real-short f64").page(enc.encodePage(doubles(col, from, n), 0, n));
        got.get("real-short f32").page(enc.encodePage(floats(col, from, n), 0, n));
      }
      joined.addAll(col);
    }
    // several row groups of 100 vectors, the last one partial, the columns changing inside them
    int n = 250_000;
    got.get("real-joined f64").page(enc.encodePage(doubles(joined, 0, n), 0, n));
    got.get("real-joined f32").page(enc.encodePage(floats(joined, 0, n), 0, n));
    long seed = 7;
    for (AlpRoundTripTest.Kind kind : AlpRoundTripTest.Kind.values()) {
      for (int size : new int[] {3, 1025, 5000, 110_000}) {
        double[] d = AlpRoundTripTest.data64(kind, size, seed);
        float[] f = AlpRoundTripTest.data32(kind, size, seed++);
        got.get("synthetic f64").page(enc.encodePage(d, 0, size, Integer.MAX_VALUE, false));
        got.get("synthetic f32").page(enc.encodePage(f, 0, size, Integer.MAX_VALUE, false));
      }
    }
    Map<String, String> hex = new LinkedHashMap<>();
    got.forEach((k, v) -> hex.put(k, v.hex()));
    if (!hex.equals(EXPECTED)) {
      hex.forEach((k, v) -> System.out.println("Map.entry(\"" + k + "\", \"" + v + "\"),"));
    }
    assertEquals(new java.util.TreeMap<>(EXPECTED), new java.util.TreeMap<>(hex));
  }
}
