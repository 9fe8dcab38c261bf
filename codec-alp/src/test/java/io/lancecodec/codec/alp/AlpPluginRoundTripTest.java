package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.testkit.MiniBlockChunks;
import io.lancecodec.codec.alp.AlpRoundTripTest.Kind;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Proposal;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fixed-seed round trips through the plugin as the runtime uses it: the compressor (forced, so
 * every page is written, shrinking or not) and the proposal (when it offers), then every chunk
 * cut from the page and decoded by the decompressor the plugin opens for the page's own
 * descriptor, whole and as sub-ranges; the bits must come back exactly.
 */
class AlpPluginRoundTripTest {
  static final int[] SIZES = {1, 31, 1023, 1024, 1025, 5000};

  static Stream<Arguments> cases() {
    Stream.Builder<Arguments> out = Stream.builder();
    long seed = 1601;
    for (Kind kind : Kind.values()) {
      for (int n : SIZES) {
        out.add(Arguments.of(kind, n, seed++));
      }
    }
    return out.build();
  }

  @ParameterizedTest(name = "{0} n={1} seed={2}")
  @MethodSource("cases")
  void float64(Kind kind, int n, long seed) {
    DataBlock.FixedWidth block = PluginHarness.block(AlpRoundTripTest.data64(kind, n, seed));
    check(block, kind + " n=" + n + " seed=" + seed);
  }

  @ParameterizedTest(name = "{0} n={1} seed={2}")
  @MethodSource("cases")
  void float32(Kind kind, int n, long seed) {
    DataBlock.FixedWidth block = PluginHarness.block(AlpRoundTripTest.data32(kind, n, seed));
    check(block, kind + " n=" + n + " seed=" + seed);
  }

  private static void check(DataBlock.FixedWidth block, String what) {
    int bits = block.bitsPerValue();
    byte[] raw = Arrays.copyOf(block.data(), block.usedBytes());
    MiniBlockCompressed forced = new AlpMiniBlock.Compressor(MiniBlocks.MAX_CHUNK_BYTES_2_1).compress(block);
    assertEquals(AlpMiniBlock.encoding(bits), forced.encoding(), what);
    assertEquals(block.numValues(), forced.numValues(), what);
    checkChunks(forced, what);
    assertArrayEquals(raw, PluginHarness.decode(forced, bits), what);
    checkRanges(forced, raw, bits, what);

    Optional<Proposal<MiniBlockCompressed>> offer =
        PluginHarness.PLUGIN.proposeMiniBlock(block, PluginHarness.context(FieldOptions.Mode.ON));
    if (offer.isPresent()) {
      MiniBlockCompressed result = offer.get().result();
      assertEquals("alp", offer.get().codec());
      assertEquals(MiniBlocks.storedBytes(result, FileVersion.V2_3), offer.get().estimatedBytes(), what);
      // never larger than the values themselves, chunk headers and padding included
      assertTrue(offer.get().estimatedBytes() < raw.length, what + ": offered " + offer.get().estimatedBytes());
      assertArrayEquals(raw, PluginHarness.decode(result, bits), what);
      // the offer's compressor is the one the runtime keeps for the page
      assertArrayEquals(raw, PluginHarness.decode(offer.get().compressor().compress(block), bits), what);
    }
  }

  /** 1024-value chunks (log 10) but the last, whose log is 0; four buffers each. */
  private static void checkChunks(MiniBlockCompressed page, String what) {
    int[] counts = MiniBlockChunks.counts(page);
    assertEquals((page.numValues() + 1023) / 1024, counts.length, what);
    for (int c = 0; c < counts.length; c++) {
      boolean last = c == counts.length - 1;
      assertEquals(last ? 0 : 10, page.chunks().get(c).logNumValues(), what);
      assertEquals(4, page.chunks().get(c).bufferSizes().length, what);
      assertTrue(counts[c] >= 1 && counts[c] <= 1024, what);
    }
    assertEquals(4, page.buffers().size(), what);
  }

  /** Point lookups and spans: {@code decodeInto} of a sub-range equals that slice of the page. */
  private static void checkRanges(MiniBlockCompressed page, byte[] raw, int bits, String what) {
    FixedWidthMiniBlockDecompressor d = (FixedWidthMiniBlockDecompressor)
        PluginHarness.PLUGIN.openMiniBlock(((CompressiveEncoding) page.encoding()).getAlp(), PluginHarness.DECODERS);
    assertEquals(bits, d.bitsPerValue());
    int w = bits / 8;
    Random rnd = new Random(raw.length);
    int[] counts = MiniBlockChunks.counts(page);
    int first = 0;
    for (int c = 0; c < counts.length; c++) {
      int n = counts[c];
      MiniBlockBuffers chunk = MiniBlockChunks.chunk(page, c);
      for (int k = 0; k < 3; k++) {
        int from = rnd.nextInt(n);
        int to = from + rnd.nextInt(n - from + 1);
        byte[] dst = new byte[(to - from) * w + 5];
        d.decodeInto(chunk, n, from, to, dst, 5);
        assertArrayEquals(Arrays.copyOfRange(raw, (first + from) * w, (first + to) * w),
            Arrays.copyOfRange(dst, 5, dst.length), what + " chunk " + c + " [" + from + ", " + to + ")");
      }
      for (int i = 0; i < 4; i++) {
        assertTrue(chunk.size(i) <= d.maxBufferBytes(i, n), what + ": buffer " + i + " of " + chunk.size(i)
            + " bytes over the bound " + d.maxBufferBytes(i, n));
      }
      first += n;
    }
  }
}
