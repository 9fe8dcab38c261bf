package io.lancecodec.codec.alp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.testkit.MiniBlockChunks;
import io.lancecodec.format.pb.v23.Alp;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlocks;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile descriptors and chunks through the plugin: each is refused with one
 * {@link LanceCodecException} of kind CORRUPT, on one line, naming alp; no other exception type
 * ever escapes, whatever byte is damaged.
 */
class AlpPluginCorruptTest {
  static void assertCorrupt(Runnable r, String fragment) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().startsWith("alp: "), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static void open(Alp node) {
    PluginHarness.PLUGIN.openMiniBlock(node, PluginHarness.DECODERS);
  }

  @Test
  void descriptors() {
    assertCorrupt(() -> open(Alp.getDefaultInstance()), "values must be Flat{32|64}, not missing");
    assertCorrupt(() -> open(Alp.newBuilder().setValues(CompressiveEncoding.getDefaultInstance()).build()), "not nothing");
    assertCorrupt(() -> open(Alp.newBuilder().setValues(
        CompressiveEncoding.newBuilder().setVariable(Variable.newBuilder().setOffsets(flat(32)))).build()), "not variable");
    assertCorrupt(() -> open(Alp.newBuilder().setValues(
        CompressiveEncoding.newBuilder().setAlp(Alp.newBuilder().setValues(flat(64)))).build()), "not alp");
    for (long bits : new long[] {0, 8, 16, 31, 33, 128, -1}) {
      assertCorrupt(() -> open(Alp.newBuilder().setValues(flat(bits)).build()), Long.toUnsignedString(bits) + " bits");
    }
    assertEquals(32, ((FixedWidthMiniBlockDecompressor) PluginHarness.PLUGIN.openMiniBlock(
        Alp.newBuilder().setValues(flat(32)).build(), PluginHarness.DECODERS)).bitsPerValue());
  }

  /** Pages whose chunks cover every header form: FOR, Delta, use_div, exceptions, ALP-RD, short tails. */
  static Stream<Arguments> pages() {
    Random rnd = new Random(16);
    double[] decimals = new double[2500];
    double acc = 100;
    for (int i = 0; i < decimals.length; i++) {
      acc += rnd.nextInt(9) - 4;
      decimals[i] = i % 97 == 5 ? Double.longBitsToDouble(0x7FF4000000000001L) : BigDecimal.valueOf((long) acc, 1).doubleValue();
    }
    double[] sorted = new double[1500];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = BigDecimal.valueOf(1_000_000L + 7L * i, 3).doubleValue();
    }
    double[] noisy = new double[1100];
    for (int i = 0; i < noisy.length; i++) {
      noisy[i] = 1.0 + rnd.nextDouble() / 1024;
    }
    float[] floats = new float[1300];
    for (int i = 0; i < floats.length; i++) {
      floats[i] = i % 50 == 3 ? -0.0f : Float.parseFloat((rnd.nextInt(20000) - 10000) / 100.0 + "");
    }
    return Stream.of(
        Arguments.of("decimals", PluginHarness.block(decimals)),
        Arguments.of("sorted", PluginHarness.block(sorted)),
        Arguments.of("noisy", PluginHarness.block(noisy)),
        Arguments.of("floats", PluginHarness.block(floats)));
  }

  /**
   * Every byte of every chunk overwritten (two values), every buffer cut short or grown by one,
   * and wrong value counts: the decode either succeeds (payload bits carry no check) or fails as
   * one CORRUPT line.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("pages")
  void damagedChunks(String name, io.lancecodec.spi.DataBlock.FixedWidth block) {
    int bits = block.bitsPerValue();
    MiniBlockCompressed page = new AlpMiniBlock.Compressor(MiniBlocks.MAX_CHUNK_BYTES_2_1).compress(block);
    FixedWidthMiniBlockDecompressor d = (FixedWidthMiniBlockDecompressor) PluginHarness.PLUGIN.openMiniBlock(
        ((CompressiveEncoding) page.encoding()).getAlp(), PluginHarness.DECODERS);
    int[] counts = MiniBlockChunks.counts(page);
    int corrupt = 0;
    for (int c = 0; c < counts.length; c++) {
      int n = counts[c];
      MiniBlockBuffers good = MiniBlockChunks.chunk(page, c);
      for (int i = 0; i < 4; i++) {
        for (int k = 0; k < good.size(i); k++) {
          for (byte value : new byte[] {(byte) 0xFF, (byte) (good.bytes()[good.offset(i) + k] ^ 0x41)}) {
            byte[] bad = good.bytes().clone();
            bad[good.offset(i) + k] = value;
            corrupt += decodeOrCorrupt(d, new MiniBlockBuffers(bad, good.offsets(), good.sizes()), n, bits);
          }
        }
        for (int delta : new int[] {-1, 1, -good.size(i)}) {
          int[] sizes = good.sizes().clone();
          sizes[i] = Math.max(0, sizes[i] + delta);
          if (sizes[i] == good.size(i) || good.offset(i) + sizes[i] > good.bytes().length) {
            continue;
          }
          corrupt += decodeOrCorrupt(d, new MiniBlockBuffers(good.bytes(), good.offsets(), sizes), n, bits);
        }
      }
      for (int count : new int[] {0, -1, n - 1, n + 1, 1025, 2048, 65536}) {
        if (count != n) {
          corrupt += decodeOrCorrupt(d, good, count, bits);
        }
      }
      int[] three = Arrays.copyOf(good.offsets(), 3);
      int[] threeSizes = Arrays.copyOf(good.sizes(), 3);
      assertCorrupt(() -> d.decodeInto(new MiniBlockBuffers(good.bytes(), three, threeSizes), n, 0, n, new byte[n * bits / 8], 0),
          "chunk has 3 buffers, expected 4");
    }
    assertTrue(corrupt > 0, "some damage was noticed");
  }

  /** 1 when the chunk was refused as CORRUPT, 0 when it decoded; anything else fails the test. */
  private static int decodeOrCorrupt(FixedWidthMiniBlockDecompressor d, MiniBlockBuffers chunk, int n, int bits) {
    try {
      d.decompress(chunk, n, new DecodeBuffers());
      return 0;
    } catch (LanceCodecException e) {
      assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
      assertTrue(e.getMessage().startsWith("alp: "), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
      return 1;
    }
  }

  @Test
  void valueCountsBeforeAllocation() {
    FixedWidthMiniBlockDecompressor d = (FixedWidthMiniBlockDecompressor) PluginHarness.PLUGIN.openMiniBlock(
        Alp.newBuilder().setValues(flat(64)).build(), PluginHarness.DECODERS);
    MiniBlockBuffers empty = MiniBlockBuffers.of(new byte[0], new byte[0], new byte[0], new byte[0]);
    assertCorrupt(() -> d.decompress(empty, Integer.MAX_VALUE, null), "chunk of 2147483647 values");
    assertCorrupt(() -> d.decompress(empty, 0, null), "chunk of 0 values");
    assertCorrupt(() -> d.decompress(empty, 10, null), "empty chunk header");
  }
}
