package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seeded round trips: every scheme, every context, sizes 0, 1, 1023, 4096 and 100 000 bytes. */
class GeneralRoundTripTest {
  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 11;
    for (Scheme s : TestCodecs.SCHEMES) {
      for (int size : TestCodecs.SIZES) {
        for (boolean compressible : new boolean[] {true, false}) {
          out.add(Arguments.of(s, size, compressible, seed++));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "frame {0} {1} bytes compressible={2} seed={3}")
  @MethodSource("cases")
  void frame(Scheme s, int size, boolean compressible, long seed) {
    byte[] in = TestCodecs.data(size, seed, compressible);
    BufferCodec c = TestCodecs.codec(s);
    byte[] frame = c.compress(in, 0, in.length);
    if (s == Scheme.ZSTD) {
      assertEquals(size, LittleEndian.getLong(frame, 0), "zstd u64 prefix");
    } else if (s == Scheme.LZ4) {
      assertEquals(size, LittleEndian.getInt(frame, 0), "lz4 u32 prefix");
    }
    assertArrayEquals(in, c.decompress(frame, 0, frame.length, size), "seed " + seed);
  }

  @ParameterizedTest(name = "mini-block {0} {1} bytes compressible={2} seed={3}")
  @MethodSource("cases")
  void miniBlock(Scheme s, int size, boolean compressible, long seed) {
    byte[] in = TestCodecs.data(size, seed, compressible);
    DataBlock.FixedWidth block = new DataBlock.FixedWidth(in, 8, size);
    GeneralMiniBlock.Compressor c =
        new GeneralMiniBlock.Compressor(
            new TestCodecs.FlatBytes(), TestCodecs.codec(s), s.describe(java.util.OptionalInt.empty()), 32 * 1024);
    MiniBlockCompressed out = c.compress(block);
    CompressiveEncoding e = (CompressiveEncoding) out.encoding();
    boolean expectWrapped = compressible && size >= GeneralFormat.MIN_MINI_BLOCK_BYTES;
    assertEquals(expectWrapped, e.hasGeneral(), "wrapped");
    byte[] back = TestCodecs.decodeAll(out, TestCodecs.DECODERS.miniBlock(e), 1);
    assertArrayEquals(in, back, "seed " + seed);
    MiniBlockDecompressor dec = TestCodecs.DECODERS.miniBlock(e);
    assertEquals(8, ((io.lancecodec.spi.FixedWidthMiniBlockDecompressor) dec).bitsPerValue(), "general over flat decodes in place");
    assertArrayEquals(in, TestCodecs.decodeAllInto(out, dec, 1), "decodeInto, seed " + seed);
  }

  @ParameterizedTest(name = "block {0} {1} bytes compressible={2} seed={3}")
  @MethodSource("cases")
  void block(Scheme s, int size, boolean compressible, long seed) {
    byte[] in = TestCodecs.data(size, seed, compressible);
    DataBlock.FixedWidth block = new DataBlock.FixedWidth(in, 8, size);
    Encoded<byte[]> enc =
        new GeneralBlock.Compressor(TestCodecs.FLAT_BLOCK, TestCodecs.codec(s), s.describe(java.util.OptionalInt.of(3)))
            .compress(block);
    CompressiveEncoding e = (CompressiveEncoding) enc.encoding();
    assertTrue(e.hasGeneral() && e.getGeneral().getValues().hasFlat());
    DataBlock.FixedWidth back = (DataBlock.FixedWidth) TestCodecs.DECODERS.block(e).decompress(enc.data(), size);
    assertArrayEquals(in, back.data(), "seed " + seed);
  }

  @ParameterizedTest(name = "per-value {0} {1} bytes compressible={2} seed={3}")
  @MethodSource("cases")
  void perValue(Scheme s, int size, boolean compressible, long seed) {
    byte[] in = TestCodecs.data(size, seed, compressible);
    Random rnd = new Random(seed);
    for (int bits : new int[] {32, 64}) {
      // Cut the bytes into values of random lengths, some empty (as null slots arrive).
      List<Long> cuts = new ArrayList<>();
      cuts.add(0L);
      long p = 0;
      while (p < size) {
        p = Math.min(size, p + (rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(20_000)));
        cuts.add(p);
      }
      int n = cuts.size() - 1;
      byte[] offsets = new byte[(n + 1) * bits / 8];
      for (int i = 0; i <= n; i++) {
        LittleEndian.putUnsigned(offsets, i * bits / 8, bits / 8, cuts.get(i));
      }
      DataBlock.VariableWidth vw = new DataBlock.VariableWidth(offsets, bits, in, n);
      Encoded<DataBlock> enc = new GeneralPerValue.Compressor(TestCodecs.codec(s), s.describe(java.util.OptionalInt.empty())).compress(vw);
      CompressiveEncoding e = (CompressiveEncoding) enc.encoding();
      DataBlock.VariableWidth compressed = (DataBlock.VariableWidth) enc.data();
      assertEquals(bits, compressed.bitsPerOffset());
      DataBlock.VariableWidth back = (DataBlock.VariableWidth) TestCodecs.DECODERS.perValue(e).decompress(compressed, null);
      assertEquals(n, back.numValues());
      for (int i = 0; i <= n; i++) {
        assertEquals(cuts.get(i), back.offset(i), "offset " + i + " seed " + seed);
      }
      assertArrayEquals(in, java.util.Arrays.copyOf(back.data(), (int) back.offset(n)), "seed " + seed);
    }
  }

  static Stream<Arguments> bssCases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 500;
    for (int bits : new int[] {16, 32, 64}) {
      for (int n : new int[] {0, 1, 511, 512, 513, 1023, 1024, 1025, 2048, 5000}) {
        out.add(Arguments.of(bits, n, seed++));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "bss bits={0} n={1} seed={2}")
  @MethodSource("bssCases")
  void byteStreamSplit(int bits, int n, long seed) {
    Random rnd = new Random(seed);
    byte[] d = new byte[n * bits / 8];
    for (int i = 0; i < n; i++) {
      double v = 1000 + rnd.nextInt(500) * 0.25;
      long raw = bits == 64 ? Double.doubleToRawLongBits(v) : bits == 32 ? Float.floatToRawIntBits((float) v) : rnd.nextInt(1 << 16);
      LittleEndian.putUnsigned(d, i * bits / 8, bits / 8, raw);
    }
    DataBlock.FixedWidth in = new DataBlock.FixedWidth(d, bits, n);
    MiniBlockCompressed c = new ByteStreamSplit.Compressor().compress(in);
    for (int k = 0; k + 1 < c.chunks().size(); k++) {
      assertEquals(4096, c.chunks().get(k).bufferSizes()[0], "4 KiB chunks");
    }
    byte[] back = TestCodecs.decodeAll(c, new ByteStreamSplit.Decompressor(bits), bits / 8);
    assertArrayEquals(d, back, "seed " + seed);
    // The transposition itself, against the obvious definition, on the first chunk.
    if (n > 0) {
      int m = (int) Math.min(n, ByteStreamSplit.chunkValues(bits));
      int w = bits / 8;
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < w; j++) {
          assertEquals(d[i * w + j], c.buffers().get(0)[j * m + i]);
        }
      }
    }
  }
}
