package io.lancecodec.codec.bitpack;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seeded random round trips through every compressor of the plugin, at chunk-edge sizes. */
class BitpackRoundTripTest {

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 1;
    for (int bits : new int[] {8, 16, 32, 64}) {
      for (int n : new int[] {1, 2, 1023, 1024, 1025, 2048, 4096, 5000}) {
        for (String shape : new String[] {"small", "runs", "full", "negative"}) {
          out.add(Arguments.of(bits, n, shape, seed++));
        }
      }
    }
    return out.stream();
  }

  static DataBlock.FixedWidth data(int bits, int n, String shape, long seed) {
    Random rnd = new Random(seed);
    byte[] d = new byte[n * bits / 8];
    long v = 0;
    for (int i = 0; i < n; i++) {
      switch (shape) {
        case "small":
          v = rnd.nextInt(1 << Math.min(bits - 1, 1 + rnd.nextInt(6)));
          break;
        case "runs":
          if (rnd.nextInt(40) == 0) {
            v = rnd.nextInt(100);
          }
          break;
        case "negative":
          v = -rnd.nextInt(1000);
          break;
        default:
          v = rnd.nextLong();
      }
      LittleEndian.putUnsigned(d, i * bits / 8, bits / 8, v);
    }
    return new DataBlock.FixedWidth(d, bits, n);
  }

  static byte[] decodeAll(MiniBlockCompressed c, MiniBlockDecompressor dec, int bits) {
    int[] pos = new int[c.buffers().size()];
    long item = 0;
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      boolean last = k == c.chunks().size() - 1;
      long n = last ? c.numValues() - item : 1L << ch.logNumValues();
      assertTrue(last || ch.logNumValues() > 0 && n <= 4096, "non-last chunk holds a power of two");
      byte[][] bufs = new byte[pos.length][];
      for (int b = 0; b < pos.length; b++) {
        bufs[b] = Arrays.copyOfRange(c.buffers().get(b), pos[b], pos[b] + ch.bufferSizes()[b]);
        pos[b] += ch.bufferSizes()[b];
      }
      DataBlock.FixedWidth v = (DataBlock.FixedWidth) dec.decompress(MiniBlockBuffers.of(bufs), (int) n, null);
      out.write(v.data(), 0, (int) (n * bits / 8));
      item += n;
    }
    assertEquals(c.numValues(), item);
    return out.toByteArray();
  }

  @ParameterizedTest(name = "inline bits={0} n={1} {2} seed={3}")
  @MethodSource("cases")
  void inlineBitpacking(int bits, int n, String shape, long seed) {
    DataBlock.FixedWidth in = data(bits, n, shape, seed);
    MiniBlockCompressed c = new InlineBitpackingCodec.Compressor().compress(in);
    assertEquals(InlineBitpackingCodec.estimate(in), c.buffers().get(0).length);
    assertArrayEquals(in.data(), decodeAll(c, new InlineBitpackingCodec.Decompressor(bits), bits), "seed " + seed);
  }

  /**
   * Pages of a megabyte and more have their widths measured and their chunks packed in halves on
   * two cores: the same bytes as chunk by chunk, and they decode to the source.
   */
  @ParameterizedTest(name = "large page bits={0} shape={1}")
  @org.junit.jupiter.params.provider.CsvSource({"32, negative", "32, full", "64, negative", "64, full", "16, full"})
  void largePagesPackedInHalves(int bits, String shape) {
    int n = 700_001;
    DataBlock.FixedWidth in = data(bits, n, shape, 99 + bits);
    MiniBlockCompressed c = new InlineBitpackingCodec.Compressor().compress(in);
    int[] widths = new int[(n + 1023) / 1024];
    long size = 0;
    for (int k = 0; k < widths.length; k++) {
      widths[k] = InlineBitpackingCodec.width(in.data(), bits, k * 1024, Math.min(1024, n - k * 1024));
      size += InlineBitpackingCodec.chunkBytes(bits, widths[k]);
    }
    assertTrue(size >= InlineBitpackingCodec.PARALLEL_MIN_BYTES, "a page the halves path takes");
    assertArrayEquals(widths, InlineBitpackingCodec.groupWidths(in));
    byte[] serial = new byte[(int) size];
    int pos = 0;
    for (int k = 0; k < widths.length; k++) {
      pos += InlineBitpackingCodec.pack(in.data(), bits, k * 1024, Math.min(1024, n - k * 1024), widths[k], serial, pos);
    }
    assertArrayEquals(serial, c.buffers().get(0));
    assertArrayEquals(in.data(), decodeAll(c, new InlineBitpackingCodec.Decompressor(bits), bits));
  }

  /** Every single value and some seeded ranges of every chunk, decoded alone, equal the source. */
  @ParameterizedTest(name = "inline range bits={0} n={1} {2} seed={3}")
  @MethodSource("cases")
  void inlineBitpackingRanges(int bits, int n, String shape, long seed) {
    DataBlock.FixedWidth in = data(bits, n, shape, seed);
    MiniBlockCompressed c = new InlineBitpackingCodec.Compressor().compress(in);
    InlineBitpackingCodec.Decompressor dec = new InlineBitpackingCodec.Decompressor(bits);
    int wb = bits / 8;
    Random rnd = new Random(seed);
    int pos = 0;
    int first = 0;
    for (MiniBlockChunk ch : c.chunks()) {
      int size = ch.bufferSizes()[0];
      int count = Math.min(InlineBitpackingCodec.CHUNK, n - first);
      // the chunk sits inside a larger array, as in a read span
      byte[] span = new byte[size + 16];
      System.arraycopy(c.buffers().get(0), pos, span, 8, size);
      byte[] one = new byte[wb];
      for (int i = 0; i < count; i++) {
        dec.decodeInto(new MiniBlockBuffers(span, new int[] {8}, new int[] {size}), count, i, i + 1, one, 0);
        assertArrayEquals(Arrays.copyOfRange(in.data(), (first + i) * wb, (first + i + 1) * wb), one, "value " + (first + i));
      }
      int a = rnd.nextInt(count + 1);
      int b = a + rnd.nextInt(count - a + 1);
      byte[] got = new byte[(b - a) * wb + 3];
      dec.decodeInto(new MiniBlockBuffers(span, new int[] {8}, new int[] {size}), count, a, b, got, 3);
      assertArrayEquals(Arrays.copyOfRange(in.data(), (first + a) * wb, (first + b) * wb), Arrays.copyOfRange(got, 3, got.length));
      if (size > wb) {
        assertThrows(LanceCodecException.class,
            () -> dec.decodeInto(new MiniBlockBuffers(span, new int[] {8}, new int[] {size - 1}), count, 0, 1, one, 0), "truncated chunk");
      }
      pos += size;
      first += count;
    }
  }

  @ParameterizedTest(name = "rle bits={0} n={1} {2} seed={3}")
  @MethodSource("cases")
  void rle(int bits, int n, String shape, long seed) {
    DataBlock.FixedWidth in = data(bits, n, shape, seed);
    MiniBlockCompressed c = new RleCodec.Compressor().compress(in);
    for (MiniBlockChunk ch : c.chunks()) {
      assertTrue(ch.bufferSizes()[0] + ch.bufferSizes()[1] <= RleCodec.BUDGET, "chunk within budget");
    }
    assertArrayEquals(in.data(), decodeAll(c, new RleCodec.Decompressor(bits), bits), "seed " + seed);
  }

  /**
   * Values [a, b) of each run-length chunk, written where a scan's batch wants them, equal the
   * same values of the whole chunk; a range gets the whole chunk's checks (runs that cover too
   * few values fail even when the range lies in the first run).
   */
  @ParameterizedTest(name = "rle range bits={0} n={1} {2} seed={3}")
  @MethodSource("cases")
  void rleRanges(int bits, int n, String shape, long seed) {
    DataBlock.FixedWidth in = data(bits, n, shape, seed);
    MiniBlockCompressed c = new RleCodec.Compressor().compress(in);
    RleCodec.Decompressor dec = new RleCodec.Decompressor(bits);
    int wb = bits / 8;
    Random rnd = new Random(seed);
    int[] pos = new int[2];
    int first = 0;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      int count = k == c.chunks().size() - 1 ? n - first : 1 << ch.logNumValues();
      byte[] values = Arrays.copyOfRange(c.buffers().get(0), pos[0], pos[0] + ch.bufferSizes()[0]);
      byte[] lengths = Arrays.copyOfRange(c.buffers().get(1), pos[1], pos[1] + ch.bufferSizes()[1]);
      MiniBlockBuffers chunk = MiniBlockBuffers.of(values, lengths);
      for (int t = 0; t < 8; t++) {
        int a = t == 0 ? 0 : rnd.nextInt(count + 1);
        int b = t == 0 ? count : a + rnd.nextInt(count - a + 1);
        byte[] got = new byte[(b - a) * wb + 3];
        dec.decodeInto(chunk, count, a, b, got, 3);
        assertArrayEquals(Arrays.copyOfRange(in.data(), (first + a) * wb, (first + b) * wb), Arrays.copyOfRange(got, 3, got.length),
            "values [" + a + ", " + b + ") of chunk " + k);
      }
      if (count > 1 && lengths.length > 0) {
        byte[] shortRuns = lengths.clone();
        shortRuns[shortRuns.length - 1] = 0;
        boolean coversLess = java.util.stream.IntStream.range(0, shortRuns.length).map(i -> shortRuns[i] & 0xFF).sum() < count;
        if (coversLess) {
          assertThrows(LanceCodecException.class, () -> dec.decodeInto(MiniBlockBuffers.of(values, shortRuns), count, 0, 1, new byte[wb], 0),
              "runs short of the chunk");
        }
      }
      pos[0] += ch.bufferSizes()[0];
      pos[1] += ch.bufferSizes()[1];
      first += count;
    }
  }

  @ParameterizedTest(name = "ool bits={0} n={1} {2} seed={3}")
  @MethodSource("cases")
  void outOfLine(int bits, int n, String shape, long seed) {
    DataBlock.FixedWidth in = data(bits, n, shape, seed);
    long[] vals = new long[n];
    Words.read(in.data(), 0, bits, vals, n);
    int width = Words.width(vals, n);
    Encoded<byte[]> e = new OutOfLineBitpackingCodec.Compressor(width).compress(in);
    assertEquals(OutOfLineBitpackingCodec.size(bits, width, n), e.data().length);
    DataBlock.FixedWidth back = (DataBlock.FixedWidth) new OutOfLineBitpackingCodec.Decompressor(bits, width).decompress(e.data(), n);
    assertArrayEquals(in.data(), back.data(), "seed " + seed);
  }

  /**
   * Levels decoded in place (16-bit only) equal the block decode, read from inside a larger
   * buffer into the middle of a dirty array; the SPI's default (RLE here) agrees too, and a
   * buffer of a wrong length is CORRUPT.
   */
  @ParameterizedTest(name = "ool levels bits={0} n={1} {2} seed={3}")
  @MethodSource("cases")
  void outOfLineLevelsInPlace(int bits, int n, String shape, long seed) {
    if (bits != 16) {
      return;
    }
    DataBlock.FixedWidth in = data(bits, n, shape, seed);
    long[] vals = new long[n];
    Words.read(in.data(), 0, bits, vals, n);
    int width = Words.width(vals, n);
    byte[] packed = new OutOfLineBitpackingCodec.Compressor(width).compress(in).data();
    short[] expected = new short[n];
    for (int i = 0; i < n; i++) {
      expected[i] = (short) LittleEndian.getShort(in.data(), 2 * i);
    }
    byte[] src = new byte[packed.length + 10];
    System.arraycopy(packed, 0, src, 3, packed.length);
    OutOfLineBitpackingCodec.Decompressor ool = new OutOfLineBitpackingCodec.Decompressor(bits, width);
    short[] dst = new short[n + 7];
    Arrays.fill(dst, (short) -1);
    ool.decompressLevels(src, 3, packed.length, n, dst, 5);
    assertArrayEquals(expected, Arrays.copyOfRange(dst, 5, 5 + n), "seed " + seed);
    assertEquals(-1, dst[4]);
    assertEquals(-1, dst[5 + n]);

    byte[] rle = new RleCodec.Block().compress(in).data();
    short[] viaDefault = new short[n];
    new RleCodec.BlockDecompressor(bits, 8).decompressLevels(rle, 0, rle.length, n, viaDefault, 0);
    assertArrayEquals(expected, viaDefault, "seed " + seed);

    if (packed.length > 0) {
      assertThrows(LanceCodecException.class, () -> ool.decompressLevels(src, 3, packed.length - 1, n, dst, 5));
    }
  }

  @ParameterizedTest(name = "rle block bits={0} n={1} {2} seed={3}")
  @MethodSource("cases")
  void rleBlock(int bits, int n, String shape, long seed) {
    DataBlock.FixedWidth in = data(bits, n, shape, seed);
    Encoded<byte[]> e = new RleCodec.Block().compress(in);
    DataBlock.FixedWidth back = (DataBlock.FixedWidth) new RleCodec.BlockDecompressor(bits, 8).decompress(e.data(), n);
    assertArrayEquals(in.data(), back.data(), "seed " + seed);
    byte[] cut = Arrays.copyOf(e.data(), e.data().length - 1);
    assertThrows(LanceCodecException.class, () -> new RleCodec.BlockDecompressor(bits, 8).decompress(cut, n));
  }

  @ParameterizedTest(name = "truncated bits={0} n={1} {2}")
  @MethodSource("cases")
  void truncatedChunksAreCorrupt(int bits, int n, String shape, long seed) {
    DataBlock.FixedWidth in = data(bits, Math.min(n, 1024), shape, seed);
    MiniBlockCompressed c = new InlineBitpackingCodec.Compressor().compress(in);
    byte[] chunk = c.buffers().get(0);
    if (chunk.length <= bits / 8) {
      return;
    }
    byte[] cut = Arrays.copyOf(chunk, chunk.length - 1);
    LanceCodecException e =
        assertThrows(LanceCodecException.class,
            () -> new InlineBitpackingCodec.Decompressor(bits).decompress(MiniBlockBuffers.of(cut), (int) in.numValues(), null));
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind());
  }

  /** The scan path: every chunk decoded in place from the shared page buffer into one output array. */
  @ParameterizedTest(name = "decodeInto bits={0} n={1} {2} seed={3}")
  @MethodSource("cases")
  void decodeIntoTheOutputArray(int bits, int n, String shape, long seed) {
    DataBlock.FixedWidth in = data(bits, n, shape, seed);
    MiniBlockCompressed c = new InlineBitpackingCodec.Compressor().compress(in);
    InlineBitpackingCodec.Decompressor dec = new InlineBitpackingCodec.Decompressor(bits);
    assertEquals(bits, dec.bitsPerValue());
    byte[] page = c.buffers().get(0);
    // the exact size: a short last chunk must not spill past the values it holds
    byte[] out = new byte[n * bits / 8];
    int pos = 0;
    long item = 0;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      int m = (int) Math.min(1024, n - item);
      dec.decodeInto(new MiniBlockBuffers(page, new int[] {pos}, new int[] {ch.bufferSizes()[0]}), m, 0, m, out, (int) (item * bits / 8));
      pos += ch.bufferSizes()[0];
      item += m;
    }
    assertArrayEquals(in.data(), out, "seed " + seed);
  }

  @ParameterizedTest(name = "bad chunk bits={0}")
  @ValueSource(ints = {8, 16, 32, 64})
  void decodeIntoRejectsBadChunks(int bits) {
    DataBlock.FixedWidth in = data(bits, 1024, "full", 3);
    byte[] page = new InlineBitpackingCodec.Compressor().compress(in).buffers().get(0);
    InlineBitpackingCodec.Decompressor dec = new InlineBitpackingCodec.Decompressor(bits);
    byte[] out = new byte[1024 * bits / 8];
    LanceCodecException outside =
        assertThrows(LanceCodecException.class, () -> dec.decodeInto(new MiniBlockBuffers(page, new int[] {8}, new int[] {page.length}), 1024, 0, 1024, out, 0));
    assertEquals(LanceCodecException.Kind.CORRUPT, outside.kind());
    byte[] wide = page.clone();
    LittleEndian.putUnsigned(wide, 0, bits / 8, bits + 1);
    LanceCodecException width =
        assertThrows(LanceCodecException.class, () -> dec.decodeInto(MiniBlockBuffers.of(wide), 1024, 0, 1024, out, 0));
    assertEquals(LanceCodecException.Kind.CORRUPT, width.kind());
  }
}
