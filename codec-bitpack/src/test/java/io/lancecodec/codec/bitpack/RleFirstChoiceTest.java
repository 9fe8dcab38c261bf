package io.lancecodec.codec.bitpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Proposal;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mini-block proposal run-length encodes pages of long runs before measuring packing widths
 * and skips the width pass when RLE already beats the group heads' bound: it must make the
 * choice the full comparison makes (same codec, same size, same bytes) on every shape, including
 * those where the heads understate the widths (wide values hidden behind zero heads).
 */
class RleFirstChoiceTest {
  private static final String[] SHAPES = {"long-runs", "short-runs", "noise", "zero-heads", "one-value", "sorted-ids", "noise-then-runs"};

  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void sameChoiceAsTheFullComparison(int bits) {
    for (FileVersion version : new FileVersion[] {FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3}) {
      for (String shape : SHAPES) {
        for (int n : new int[] {1, 1000, 1024, 5000, 70_000}) {
          DataBlock.FixedWidth fw = block(bits, n, shape, bits * 31L + n);
          Proposal<MiniBlockCompressed> got =
              Bitpack23MiniBlockTest.PLUGIN.proposeMiniBlock(fw, new Bitpack23MiniBlockTest.Context(fw, FieldOptions.DEFAULT, version))
                  .orElse(null);
          Expected want = fullComparison(fw, version);
          String what = bits + "-bit " + shape + " n=" + n + " " + version;
          if (want.codec == null) {
            assertEquals(null, got, what);
            continue;
          }
          assertEquals(want.codec, got.codec(), what);
          assertEquals(want.bytes, got.estimatedBytes(), what);
          MiniBlockCompressed a = got.result();
          assertEquals(want.result.buffers().size(), a.buffers().size(), what);
          for (int b = 0; b < a.buffers().size(); b++) {
            assertArrayEquals(want.result.buffers().get(b), a.buffers().get(b), what + " buffer " + b);
          }
          assertEquals(want.result.chunks().size(), a.chunks().size(), what);
        }
      }
    }
  }

  /** The shapes cover both outcomes: RLE chosen without the width pass, and packing kept. */
  @ParameterizedTest
  @ValueSource(ints = {16, 32})
  void bothOutcomesOccur(int bits) {
    DataBlock.FixedWidth runs = block(bits, 70_000, "long-runs", 1);
    DataBlock.FixedWidth noise = block(bits, 70_000, "noise", 2);
    assertEquals("rle", propose(runs).codec());
    assertEquals("bitpack", propose(noise).codec());
    assertTrue(InlineBitpackingCodec.storedBytesAtLeast(noise, FileVersion.V2_2)
        <= InlineBitpackingCodec.storedBytes(InlineBitpackingCodec.groupWidths(noise), bits, FileVersion.V2_2));
  }

  private static Proposal<MiniBlockCompressed> propose(DataBlock.FixedWidth fw) {
    return Bitpack23MiniBlockTest.PLUGIN.proposeMiniBlock(fw, new Bitpack23MiniBlockTest.Context(fw, FieldOptions.DEFAULT, FileVersion.V2_2))
        .orElseThrow();
  }

  private record Expected(String codec, long bytes, MiniBlockCompressed result) {}

  /** The rule as written before the shortcut: widths first, RLE when its estimate could win, the smaller kept. */
  private static Expected fullComparison(DataBlock.FixedWidth fw, FileVersion version) {
    int bits = fw.bitsPerValue();
    boolean v23 = version == FileVersion.V2_3;
    int[] widths = InlineBitpackingCodec.groupWidths(fw);
    long packed = InlineBitpackingCodec.storedBytes(widths, bits, version);
    Expected best = packed < 0 ? null
        : new Expected("bitpack", packed, new InlineBitpackingCodec.Compressor(v23, fw, widths).compress(fw));
    long runs = 0;
    int wb = bits / 8;
    for (int i = 0; i < fw.numValues(); i++) {
      runs += i == 0 || LittleEndian.getUnsigned(fw.data(), i * wb, wb) != LittleEndian.getUnsigned(fw.data(), (i - 1) * wb, wb) ? 1 : 0;
    }
    long bound = Math.min(packed < 0 ? Long.MAX_VALUE : packed, fw.usedBytes());
    if (RleCodec.estimate(runs, fw.numValues(), bits) < bound) {
      MiniBlockCompressed rle = new RleCodec.Compressor(v23, FieldOptions.DEFAULT.miniBlockMaxValues()).compress(fw);
      long size = MiniBlocks.storedBytes(rle, version);
      if (best == null || size <= best.bytes) {
        best = new Expected("rle", size, rle);
      }
    }
    return best == null ? new Expected(null, 0, null) : best;
  }

  static DataBlock.FixedWidth block(int bits, int n, String shape, long seed) {
    Random rnd = new Random(seed);
    int wb = bits / 8;
    long mask = bits == 64 ? -1L : (1L << bits) - 1;
    byte[] d = new byte[n * wb];
    long v = 0;
    int left = 0;
    for (int i = 0; i < n; i++) {
      if (left == 0) {
        switch (shape) {
          case "long-runs" -> { v = rnd.nextLong() & mask; left = 1 + rnd.nextInt(600); }
          case "short-runs" -> { v = rnd.nextLong() & mask & 0xFFF; left = 1 + rnd.nextInt(3); }
          case "noise" -> { v = rnd.nextLong() & mask & 0xFFF; left = 1; }
          case "one-value" -> { v = 0x5A & mask; left = n; }
          case "sorted-ids" -> { v = v + 1; left = 1 + rnd.nextInt(300); }
          case "noise-then-runs" -> { v = rnd.nextLong() & mask; left = i < n / 2 ? 1 : 1 + rnd.nextInt(2000); }
          default -> { v = 0; left = 1; }
        }
      }
      long x = v;
      if (shape.equals("zero-heads")) {
        // every group starts with a 0, the rest of it in a few wide runs
        x = i % InlineBitpackingCodec.CHUNK == 0 ? 0 : (i / 256 % 2 == 0 ? mask : mask >>> 1);
      }
      LittleEndian.putUnsigned(d, i * wb, wb, x);
      left--;
    }
    return new DataBlock.FixedWidth(d, bits, n);
  }

  /** The stored (value, u8 length) pairs: each run split every 255 values, counted the slow way. */
  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void storedRunsSplitEvery255Values(int bits) {
    for (String shape : SHAPES) {
      for (int n : new int[] {0, 1, 255, 256, 1000, 70_000}) {
        DataBlock.FixedWidth fw = n == 0 ? new DataBlock.FixedWidth(new byte[0], bits, 0) : block(bits, n, shape, bits * 17L + n);
        int wb = bits / 8;
        long want = 0;
        for (int i = 0; i < n; ) {
          int j = i + 1;
          while (j < n && java.util.Arrays.equals(fw.data(), i * wb, i * wb + wb, fw.data(), j * wb, j * wb + wb)) {
            j++;
          }
          want += (j - i + 254) / 255;
          i = j;
        }
        assertEquals(want, RleCodec.storedRuns(fw), bits + "-bit " + shape + " n=" + n);
      }
    }
  }
}
