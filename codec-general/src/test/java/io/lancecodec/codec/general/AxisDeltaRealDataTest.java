package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.Proposal;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Axis delta on tensors cut from real data (14 days of Seattle hourly weather normals,
 * resources/real/README.md): 72-hour windows, one every 6 hours, of pressure, temperature and
 * wind in tenths, as an image-like {@code [3 days][24 hours][3 channels]} tensor and as a time
 * series {@code [3 channels][72 hours]}, in 32- and 16-bit integers. Each row is one frame either
 * way; the sizes compare plain frames with the best axis, and are printed for the docs.
 */
@Timeout(120)
class AxisDeltaRealDataTest {
  static final Plugins REGISTRY = Plugins.discover(AxisDeltaRealDataTest.class.getClassLoader());
  static final RuntimeLayoutContext CTX = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_3, b -> 0L);

  static final int WINDOW = 72;
  static final int STEP = 6;

  /** Hour by hour: pressure, temperature and wind, each times ten, from the sample. */
  static int[][] hours() throws IOException {
    List<int[]> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        AxisDeltaRealDataTest.class.getResourceAsStream("/real/seattle-weather-hourly-normals-14d.csv"), StandardCharsets.UTF_8))) {
      assertEquals("date,pressure,temperature,wind", r.readLine());
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String[] f = line.split(",");
        out.add(new int[] {tenths(f[1]), tenths(f[2]), tenths(f[3])});
      }
    }
    return out.toArray(new int[0][]);
  }

  static int tenths(String s) {
    return (int) Math.round(Double.parseDouble(s) * 10);
  }

  /** The windows as rows of {@code dims}: hours then channels innermost, or channels then hours. */
  static DataBlock windows(int[][] h, long[] dims, int bits, boolean channelsInner) {
    int n = (h.length - WINDOW) / STEP + 1;
    int e = WINDOW * 3;
    int w = bits / 8;
    byte[] leaf = new byte[n * e * w];
    int pos = 0;
    for (int k = 0; k < n; k++) {
      int start = k * STEP;
      if (channelsInner) {
        for (int t = 0; t < WINDOW; t++) {
          for (int c = 0; c < 3; c++) {
            LittleEndian.putUnsigned(leaf, pos, w, h[start + t][c]);
            pos += w;
          }
        }
      } else {
        for (int c = 0; c < 3; c++) {
          for (int t = 0; t < WINDOW; t++) {
            LittleEndian.putUnsigned(leaf, pos, w, h[start + t][c]);
            pos += w;
          }
        }
      }
    }
    return GeneralRowsTest.tensors(dims, bits, leaf, n);
  }

  record Sizes(String what, long raw, long plain, long bestAxis, String axis) {}

  static Sizes measure(String what, DataBlock block, Scheme scheme) {
    AxisDelta.Shape shape = AxisDelta.shapeOf(block);
    OptionalInt level = scheme == Scheme.ZSTD ? OptionalInt.of(0) : OptionalInt.empty();
    long plain = 0;
    long best = Long.MAX_VALUE;
    String axis = null;
    byte[] leaf = Arrays.copyOf(AxisDelta.leafBytes(block), (int) block.numValues() * shape.rowBytes());
    List<int[]> candidates = new ArrayList<>(GeneralRows.axes(shape));
    candidates.add(0, new int[] {0, 0});
    for (int[] c : candidates) {
      Encoded<DataBlock> enc = new GeneralRows.Compressor(scheme.codec(level), scheme.describe23(level), shape, c[0], c[1], null).compress(block);
      DataBlock.VariableWidth frames = (DataBlock.VariableWidth) enc.data();
      assertArrayEquals(leaf, GeneralRowsTest.rows(CTX.perValue(enc.encoding()).decompress(frames, null)), what);
      long bytes = frames.data().length;
      if (c[0] == 0) {
        plain = bytes;
      } else if (bytes < best) {
        best = bytes;
        axis = c[0] + "x" + c[1];
      }
    }
    return new Sizes(what + " " + scheme.option(), leaf.length, plain, best, axis);
  }

  @Test
  void axisDeltaShrinksRealTensors() throws IOException {
    int[][] h = hours();
    assertEquals(336, h.length);
    List<Sizes> all = new ArrayList<>();
    for (int bits : new int[] {32, 16}) {
      DataBlock image = windows(h, new long[] {3, 24, 3}, bits, true);
      DataBlock series = windows(h, new long[] {3, WINDOW}, bits, false);
      for (Scheme s : List.of(Scheme.ZSTD, Scheme.LZ4)) {
        all.add(measure("i" + bits + " [3 days][24 h][3 ch]", image, s));
        all.add(measure("i" + bits + " [3 ch][72 h]", series, s));
      }
    }
    StringBuilder table = new StringBuilder("45 windows of 72 h, frames only (no lengths):\n");
    for (Sizes z : all) {
      table.append(String.format("%-28s raw %6d  plain %6d  axis %6d (%s)  %.2fx smaller%n", z.what(), z.raw(), z.plain(), z.bestAxis(),
          z.axis(), (double) z.plain() / z.bestAxis()));
      assertTrue(z.bestAxis() < z.plain(), z.toString());
    }
    System.out.print(table);
  }

  /** The writer's own choice on the 32-bit image-like page (38,880 bytes): axis delta, decoding to the rows. */
  @Test
  void theOfferChoosesAnAxis() throws IOException {
    DataBlock image = windows(hours(), new long[] {3, 24, 3}, 32, true);
    Proposal<Encoded<DataBlock>> p = new GeneralPlugin().proposePerValue(image,
        new GeneralRowsTest.Ctx(GeneralRowsTest.options("zstd", FieldOptions.NumberKind.SIGNED_INTEGER), Optional.empty())).orElseThrow();
    String tree = CTX.describe(p.result().encoding()).toString();
    assertTrue(tree.startsWith("general(zstd 0, axis_delta("), tree);
    byte[] leaf = Arrays.copyOf(AxisDelta.leafBytes(image), 45 * 216 * 4);
    assertArrayEquals(leaf, GeneralRowsTest.rows(CTX.perValue(p.result().encoding()).decompress(p.result().data(), null)));
    Encoded<DataBlock> viaRegistry = CTX.compressPerValue(image, GeneralRowsTest.options("zstd", FieldOptions.NumberKind.SIGNED_INTEGER));
    assertEquals(p.result().encoding(), viaRegistry.encoding());
    System.out.println("offer on i32 [3][24][3]: " + tree + ", " + p.estimatedBytes() + " bytes with lengths, raw " + leaf.length);
  }
}
