package io.lancecodec.layout.legacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageInput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The mini-block and full-zip page decoders of this module, alone (codecs replaced by the plain
 * ones of {@link TestContext}): pages written by the plugin read back whole and in random ranges,
 * and every damaged version of them (each buffer truncated, bytes flipped, the layout message's
 * numbers altered) either reads or fails with one CORRUPT line, never another exception or a hang.
 */
class PageDecodersTest {
  /** A flat page: {@code width}-byte values, every third null when {@code nulls}. */
  record Page(String name, FileVersion version, int rows, int width, boolean nulls, boolean variable) {
    @Override
    public String toString() {
      return name + " " + version + " rows=" + rows + " width=" + width + (nulls ? " nulls" : "") + (variable ? " variable" : "");
    }
  }

  static Stream<Arguments> pages() {
    List<Arguments> out = new ArrayList<>();
    for (FileVersion v : List.of(FileVersion.V2_1, FileVersion.V2_2)) {
      for (int rows : new int[] {1, 255, 256, 1000}) {
        out.add(Arguments.of(new Page("mini-block", v, rows, 4, false, false)));
        out.add(Arguments.of(new Page("mini-block", v, rows, 8, true, false)));
        out.add(Arguments.of(new Page("full-zip", v, rows, 300, false, false)));
        out.add(Arguments.of(new Page("full-zip", v, rows, 300, true, false)));
        out.add(Arguments.of(new Page("full-zip", v, rows, 0, true, true)));
      }
    }
    return out.stream();
  }

  /** The page's values (one slot per row, nulls zero) and its definition levels (null without nulls). */
  record Data(DataBlock values, short[] def, byte[][] expected) {}

  static Data data(Page p) {
    Random rnd = new Random(p.rows() * 31L + p.width() + (p.nulls() ? 7 : 0));
    short[] def = p.nulls() ? new short[p.rows()] : null;
    byte[][] expected = new byte[p.rows()][];
    for (int i = 0; i < p.rows(); i++) {
      boolean isNull = p.nulls() && i % 3 == 1;
      if (isNull) {
        def[i] = 1;
        continue;
      }
      expected[i] = new byte[p.variable() ? 260 + rnd.nextInt(80) : p.width()];
      rnd.nextBytes(expected[i]);
    }
    if (p.variable()) {
      byte[] offs = new byte[(p.rows() + 1) * 4];
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      for (int i = 0; i < p.rows(); i++) {
        if (expected[i] != null) {
          bytes.writeBytes(expected[i]);
        }
        LittleEndian.putInt(offs, (i + 1) * 4, bytes.size());
      }
      return new Data(new DataBlock.VariableWidth(offs, 32, bytes.toByteArray(), p.rows()), def, expected);
    }
    byte[] all = new byte[p.rows() * p.width()];
    for (int i = 0; i < p.rows(); i++) {
      if (expected[i] != null) {
        System.arraycopy(expected[i], 0, all, i * p.width(), p.width());
      }
    }
    return new Data(new DataBlock.FixedWidth(all, p.width() * 8, p.rows()), def, expected);
  }

  static EncodedPage encode(Page p, Data d) {
    PageInput in = new PageInput(d.values(), null, d.def(),
        List.of(d.def() != null ? LevelLayer.NULLABLE_ITEM : LevelLayer.ALL_VALID_ITEM), p.rows(), TestContext.NO_DICTIONARY);
    return new LegacyLayoutPlugin().encode(in, new TestContext(p.version()));
  }

  static PageDecoder open(Page p, PageLayout layout, List<byte[]> buffers) {
    return new LegacyLayoutPlugin().open(layout, new TestContext.Source(buffers), p.rows(), new TestContext(p.version()));
  }

  /** Rows {@code [from, to)} as the decoder returns them, null for null rows. */
  static byte[][] rows(DecodedPage d, int count) {
    assertEquals(count, d.numRows());
    byte[][] out = new byte[count][];
    for (int i = 0; i < count; i++) {
      if (d.defLevels() != null && d.defLevels()[i] != 0) {
        continue;
      }
      if (d.values() instanceof DataBlock.VariableWidth vw) {
        out[i] = Arrays.copyOfRange(vw.data(), (int) vw.offset(i), (int) vw.offset(i + 1));
      } else {
        DataBlock.FixedWidth fw = (DataBlock.FixedWidth) d.values();
        int w = fw.bitsPerValue() / 8;
        out[i] = Arrays.copyOfRange(fw.data(), i * w, (i + 1) * w);
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pages")
  void roundTripsWholeAndInRanges(Page p) {
    Data d = data(p);
    EncodedPage e = encode(p, d);
    PageLayout layout = (PageLayout) e.layout();
    // in 2.2 a page whose values are all one value (a single row) is a constant page
    String expected = p.rows() == 1 && p.version() == FileVersion.V2_2 ? "constant" : p.name();
    assertEquals(expected, PageDescriptions.of(layout, new TestContext.Source(e.buffers()), new TestContext(p.version())).layout());
    PageDecoder dec = open(p, layout, e.buffers());
    byte[][] all = rows(dec.read(new long[] {0, p.rows()}), p.rows());
    for (int i = 0; i < p.rows(); i++) {
      assertArrayEquals(d.expected()[i], all[i], p + " row " + i);
    }
    Random rnd = new Random(p.rows());
    for (int t = 0; t < 20; t++) {
      int a = rnd.nextInt(p.rows());
      int b = a + 1 + rnd.nextInt(Math.min(40, p.rows() - a));
      int c = Math.min(p.rows(), b + rnd.nextInt(3));
      int e2 = Math.min(p.rows(), c + 1 + rnd.nextInt(20));
      long[] ranges = c < e2 && c > b ? new long[] {a, b, c, e2} : new long[] {a, b};
      int count = (int) (ranges[1] - ranges[0] + (ranges.length > 2 ? ranges[3] - ranges[2] : 0));
      byte[][] got = rows(dec.read(ranges), count);
      int k = 0;
      for (int r = 0; r < ranges.length; r += 2) {
        for (long i = ranges[r]; i < ranges[r + 1]; i++, k++) {
          assertArrayEquals(d.expected()[(int) i], got[k], p + " ranges " + Arrays.toString(ranges) + " row " + i);
        }
      }
    }
  }

  /** Every buffer cut at many lengths, and seeded byte flips in each: read or one CORRUPT line. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("pages")
  void damagedBuffersFailCleanly(Page p) {
    EncodedPage e = encode(p, data(p));
    PageLayout layout = (PageLayout) e.layout();
    Random rnd = new Random(p.rows() + 99L);
    for (int b = 0; b < e.buffers().size(); b++) {
      byte[] buf = e.buffers().get(b);
      for (int len = 0; len < buf.length; len += Math.max(1, buf.length / 40)) {
        List<byte[]> bufs = new ArrayList<>(e.buffers());
        bufs.set(b, Arrays.copyOf(buf, len));
        readOrCorrupt(p, layout, bufs, "buffer " + b + " cut to " + len);
      }
      for (int t = 0; t < 60 && buf.length > 0; t++) {
        List<byte[]> bufs = new ArrayList<>(e.buffers());
        byte[] bad = buf.clone();
        bad[rnd.nextInt(bad.length)] ^= (byte) (1 + rnd.nextInt(255));
        bufs.set(b, bad);
        readOrCorrupt(p, layout, bufs, "buffer " + b + " flip " + t);
      }
    }
  }

  /** The layout message's numbers changed one at a time (counts, widths, flags): read or CORRUPT. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("pages")
  void damagedLayoutsFailCleanly(Page p) {
    EncodedPage e = encode(p, data(p));
    byte[] msg = e.layout().toByteArray();
    Random rnd = new Random(p.rows() + 5L);
    for (int t = 0; t < 200; t++) {
      byte[] bad = msg.clone();
      bad[rnd.nextInt(bad.length)] ^= (byte) (1 << rnd.nextInt(8));
      PageLayout layout;
      try {
        layout = PageLayout.parseFrom(bad);
      } catch (com.google.protobuf.InvalidProtocolBufferException ex) {
        continue; // the runtime turns this into CORRUPT before any layout sees it
      }
      readOrCorrupt(p, layout, e.buffers(), "layout flip " + t);
    }
  }

  private static void readOrCorrupt(Page p, PageLayout layout, List<byte[]> buffers, String what) {
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
      try {
        PageDecoder dec = open(p, layout, buffers);
        DecodedPage d = dec.read(new long[] {0, p.rows()});
        assertEquals(p.rows(), d.numRows(), what);
        if (p.rows() > 2) {
          dec.read(new long[] {1, 2});
        }
      } catch (LanceCodecException e) {
        assertTrue(e.kind() == LanceCodecException.Kind.CORRUPT || e.kind() == LanceCodecException.Kind.UNSUPPORTED,
            p + " " + what + ": " + e.kind() + " " + e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
      } catch (RuntimeException | OutOfMemoryError e) {
        throw new AssertionError(p + " " + what + ": not a LanceCodecException: " + e, e);
      }
    });
  }
}
