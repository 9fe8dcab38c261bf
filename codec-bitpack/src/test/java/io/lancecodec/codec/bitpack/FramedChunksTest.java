package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import io.lancecodec.testkit.Host;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bit-packed chunks framed in place hold exactly the bytes of the chunks packed back to back,
 * each after the frame's header room and padded to 8 bytes; pages large enough to be packed in
 * halves on two cores included. The group widths the runtime's statistics count in their pass
 * give the proposal the same size and bytes as the widths packing measures itself.
 */
class FramedChunksTest {
  private static final BitpackPlugin PLUGIN = new BitpackPlugin();
  private static final int[] SIZES = {1, 1000, 1024, 1025, 5000, 300_001};

  /** Values whose 1024-value groups each have a random width of their own (zero and full included). */
  static DataBlock.FixedWidth groupsOfMixedWidths(int bits, int n, long seed) {
    Random rnd = new Random(seed);
    int wb = bits / 8;
    byte[] d = new byte[n * wb];
    for (int g = 0; g * 1024 < n; g++) {
      int width = rnd.nextInt(bits + 1);
      for (int i = g * 1024; i < Math.min(n, (g + 1) * 1024); i++) {
        long v = width == 0 ? 0 : rnd.nextLong() >>> (64 - width);
        LittleEndian.putUnsigned(d, i * wb, wb, v);
      }
    }
    return new DataBlock.FixedWidth(d, bits, n);
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void framedChunksAreTheChunksInTheirFrames(int bits) {
    for (boolean v23 : new boolean[] {false, true}) {
      for (int n : SIZES) {
        for (int frame : new int[] {0, 8, 16}) {
          DataBlock.FixedWidth fw = groupsOfMixedWidths(bits, n, bits * 1_000_003L + n);
          InlineBitpackingCodec.Compressor c = new InlineBitpackingCodec.Compressor(v23);
          MiniBlockCompressed flat = c.compress(fw);
          MiniBlockCompressed framed = c.compressFramed(fw, frame);
          String what = bits + " bits, " + n + " values, frame " + frame + (v23 ? ", 2.3" : "");
          assertTrue(framed.framed(), what);
          assertEquals(frame, framed.frameHeaderBytes(), what);
          assertFalse(flat.framed(), what);
          assertEquals(flat.encoding(), framed.encoding(), what);
          assertEquals(flat.numValues(), framed.numValues(), what);
          assertEquals(flat.chunks().size(), framed.chunks().size(), what);
          byte[] a = flat.buffers().get(0);
          byte[] b = framed.buffers().get(0);
          int from = 0;
          int at = 0;
          for (int k = 0; k < flat.chunks().size(); k++) {
            MiniBlockChunk chunk = flat.chunks().get(k);
            assertArrayEquals(chunk.bufferSizes(), framed.chunks().get(k).bufferSizes(), what + " chunk " + k);
            assertEquals(chunk.logNumValues(), framed.chunks().get(k).logNumValues(), what + " chunk " + k);
            int size = chunk.bufferSizes()[0];
            assertArrayEquals(Arrays.copyOfRange(a, from, from + size), Arrays.copyOfRange(b, at + frame, at + frame + size),
                what + " chunk " + k);
            from += size;
            at += frame + MiniBlocks.pad8(size);
          }
          assertEquals(a.length, from, what);
          assertEquals(b.length, at, what);
        }
      }
    }
  }

  @Test
  void aFrameOfNoWholeWordsIsRefused() {
    DataBlock.FixedWidth fw = groupsOfMixedWidths(32, 2000, 1);
    assertThrows(LanceCodecException.class, () -> new InlineBitpackingCodec.Compressor(false).compressFramed(fw, 6));
    assertThrows(LanceCodecException.class, () -> new InlineBitpackingCodec.Compressor(false).compressFramed(fw, -8));
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void groupWidthsFromTheStatisticsGiveTheSameProposal(int bits) {
    for (FileVersion version : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3}) {
      for (int n : SIZES) {
        DataBlock.FixedWidth fw = groupsOfMixedWidths(bits, n, bits * 7L + n);
        // the runtime's statistics (the test kit's contexts hand them over) and the same counted
        // value by value, without group widths
        ProposalContext counted = Host.standalone(List.of(PLUGIN)).context(PLUGIN, fw, FieldOptions.DEFAULT, version);
        ProposalContext measured = new Bitpack23MiniBlockTest.Context(fw, FieldOptions.DEFAULT, version);
        assertEquals((n + 1023) / 1024, ((Stats.FixedWidth) counted.stats()).groupWidths().length);
        assertNull(((Stats.FixedWidth) measured.stats()).groupWidths());
        Optional<Proposal<MiniBlockCompressed>> withWidths = PLUGIN.proposeMiniBlock(fw, counted);
        Optional<Proposal<MiniBlockCompressed>> without = PLUGIN.proposeMiniBlock(fw, measured);
        String what = bits + " bits, " + n + " values, " + version;
        assertEquals(without.isPresent(), withWidths.isPresent(), what);
        if (without.isEmpty()) {
          continue;
        }
        assertEquals(without.get().codec(), withWidths.get().codec(), what);
        assertEquals(without.get().estimatedBytes(), withWidths.get().estimatedBytes(), what);
        assertArrayEquals(without.get().result().buffers().get(0), withWidths.get().result().buffers().get(0), what);
      }
    }
  }
}
