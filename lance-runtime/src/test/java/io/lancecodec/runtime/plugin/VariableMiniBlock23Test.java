package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * 2.3 variable-width mini-blocks: the legacy interleaved chunks or the generic offsets, whichever
 * serializes strictly smaller, over the same chunk boundaries and with one offset codec per page;
 * both forms decode (with and without reused buffers), and the generic reader refuses bad offsets.
 */
class VariableMiniBlock23Test {
  /** Strings of lengths drawn by {@code len}, as a block with offsets of {@code bits}. */
  static DataBlock.VariableWidth strings(int n, int bits, java.util.function.IntUnaryOperator len, long seed) {
    Random rnd = new Random(seed);
    int w = bits / 8;
    byte[] offsets = new byte[(n + 1) * w];
    java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < n; i++) {
      int l = len.applyAsInt(i);
      for (int k = 0; k < l; k++) {
        data.write('a' + rnd.nextInt(26));
      }
      LittleEndian.putUnsigned(offsets, (i + 1) * w, w, data.size());
    }
    return new DataBlock.VariableWidth(offsets, bits, data.toByteArray(), n);
  }

  static MiniBlockCompressed write(DataBlock.VariableWidth vw) {
    return G23.CTX.compressMiniBlock(vw, FieldOptions.DEFAULT);
  }

  /** Decodes every chunk through the registry and checks the strings; with and without reuse. */
  static void readBack(MiniBlockCompressed c, DataBlock.VariableWidth vw) {
    MiniBlockDecompressor dec = G23.CTX.miniBlock(c.encoding());
    int[] pos = new int[c.buffers().size()];
    long item = 0;
    DecodeBuffers reuse = new DecodeBuffers();
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      boolean last = k == c.chunks().size() - 1;
      int n = (int) (last ? c.numValues() - item : 1L << ch.logNumValues());
      byte[][] bufs = new byte[pos.length][];
      for (int b = 0; b < pos.length; b++) {
        bufs[b] = java.util.Arrays.copyOfRange(c.buffers().get(b), pos[b], pos[b] + ch.bufferSizes()[b]);
        pos[b] += ch.bufferSizes()[b];
      }
      for (DecodeBuffers r : new DecodeBuffers[] {null, reuse}) {
        DataBlock.VariableWidth out = (DataBlock.VariableWidth) dec.decompress(MiniBlockBuffers.of(bufs), n, r);
        for (int i = 0; i < n; i++) {
          byte[] want = java.util.Arrays.copyOfRange(vw.data(), (int) vw.offset((int) item + i), (int) vw.offset((int) item + i + 1));
          byte[] got = java.util.Arrays.copyOfRange(out.data(), (int) out.offset(i), (int) out.offset(i + 1));
          assertArrayEquals(want, got, "chunk " + k + " value " + i);
        }
      }
      item += n;
    }
    assertEquals(vw.numValues(), item);
  }

  static CompressiveEncoding offsets(MiniBlockCompressed c) {
    return ((CompressiveEncoding) c.encoding()).getVariable().getOffsets();
  }

  @ParameterizedTest(name = "{0}-bit offsets")
  @CsvSource({"32", "64"})
  void fixedLengthValuesNeedNoOffsetBuffer(int bits) {
    DataBlock.VariableWidth vw = strings(10000, bits, i -> 10, 1);
    MiniBlockCompressed c = write(vw);
    assertEquals(G23.range(bits, 0, 10), offsets(c));
    assertEquals(1, c.buffers().size(), "only the value buffer");
    MiniBlockCompressed legacy = new VariableMiniBlock(null, io.lancecodec.spi.MiniBlocks.MAX_VALUES).compress(vw);
    assertEquals(legacy.chunks().size(), c.chunks().size(), "the legacy chunk boundaries");
    for (int k = 0; k < c.chunks().size(); k++) {
      assertEquals(legacy.chunks().get(k).logNumValues(), c.chunks().get(k).logNumValues());
    }
    assertTrue(VariableMiniBlock.serializedBytes(c) < VariableMiniBlock.serializedBytes(legacy));
    readBack(c, vw);
  }

  @Test
  void emptyStringsAreAConstantZero() {
    DataBlock.VariableWidth vw = strings(5000, 32, i -> 0, 2);
    MiniBlockCompressed c = write(vw);
    assertEquals(G23.constant(G23.u32s(0)), offsets(c));
    readBack(c, vw);
  }

  /** Short random strings, long ones, and mixes: the generic form exactly when strictly smaller. */
  @ParameterizedTest(name = "{0} values up to {1} bytes, {2}-bit")
  @CsvSource({"20000, 8, 32", "20000, 30, 64", "3000, 3, 32", "50, 2000, 32", "7, 5, 32", "1, 1, 64", "4097, 0, 32"})
  void genericExactlyWhenStrictlySmaller(int n, int maxLen, int bits) {
    Random rnd = new Random(n * 31L + maxLen);
    DataBlock.VariableWidth vw = strings(n, bits, i -> maxLen == 0 ? (i % 100 == 0 ? 3 : 0) : rnd.nextInt(maxLen + 1), n);
    MiniBlockCompressed c = write(vw);
    MiniBlockCompressed legacy = new VariableMiniBlock(null, io.lancecodec.spi.MiniBlocks.MAX_VALUES).compress(vw);
    MiniBlockCompressed generic = VariableMiniBlock.generic(vw, new VariableMiniBlockFamilies(), io.lancecodec.spi.MiniBlocks.MAX_VALUES);
    assertNotNull(generic);
    boolean chosenGeneric = !offsets(c).hasFlat();
    // the size the writer compared is the size of what it writes
    assertEquals(VariableMiniBlock.serializedBytes(c), io.lancecodec.spi.MiniBlocks.storedBytes(c, io.lancecodec.spi.FileVersion.V2_3)
        + c.encoding().getSerializedSize());
    assertEquals(VariableMiniBlock.serializedBytes(generic) < VariableMiniBlock.serializedBytes(legacy), chosenGeneric,
        "generic " + VariableMiniBlock.serializedBytes(generic) + " vs legacy " + VariableMiniBlock.serializedBytes(legacy));
    if (chosenGeneric) {
      assertEquals(generic.encoding(), c.encoding());
      assertEquals(offsets(c).hasRange() || offsets(c).hasConstant() ? 1 : 2, c.buffers().size());
    } else {
      assertEquals(G23.flat(bits), offsets(c));
    }
    readBack(c, vw);
  }

  @Test
  void aTieKeepsTheLegacyBytes() {
    assertFalse(VariableMiniBlock.preferGeneric(100, 100));
    assertTrue(VariableMiniBlock.preferGeneric(99, 100));
  }

  @Test
  void longValuesStayLegacy() {
    DataBlock.VariableWidth vw = strings(64, 32, i -> 1500 + i, 3);
    MiniBlockCompressed c = write(vw);
    assertEquals(G23.flat(32), offsets(c));
    readBack(c, vw);
  }

  @Test
  void emptyPage() {
    DataBlock.VariableWidth vw = strings(0, 32, i -> 0, 4);
    MiniBlockCompressed c = write(vw);
    assertEquals(0, c.chunks().size());
    assertEquals(G23.flat(32), offsets(c));
  }

  static MiniBlockDecompressor generic(CompressiveEncoding offsets) {
    return G23.CTX.miniBlock(Builtin23.variable(offsets));
  }

  @Test
  void genericReaderRefusesBadOffsets() {
    byte[] values = "abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    CompressiveEncoding flat = G23.flat(32);
    CompressiveEncoding delta = G23.delta(32, 0, flat);
    // 0, 2, 6 as Delta(Flat): differences 2 and 4
    DataBlock.VariableWidth ok = (DataBlock.VariableWidth) generic(delta).decompress(MiniBlockBuffers.of(G23.u32s(2, 4), values), 2, null);
    assertEquals(6, ok.offset(2));
    G23.corrupt(() -> generic(G23.delta(32, 1, flat)).decompress(MiniBlockBuffers.of(G23.u32s(1, 4), values), 2, null));
    G23.corrupt(() -> generic(G23.delta(32, 0, flat)).decompress(MiniBlockBuffers.of(G23.u32s(2, 3), values), 2, null));
    G23.corrupt(() -> generic(G23.delta(32, 0, flat)).decompress(MiniBlockBuffers.of(G23.u32s(2, 5), values), 2, null));
    G23.corrupt(() -> generic(G23.inline(32)).decompress(MiniBlockBuffers.of(inlineOf(0, 4, 2), values), 2, null)); // decreasing
    G23.corrupt(() -> generic(delta).decompress(MiniBlockBuffers.of(values), 2, null)); // payload buffer missing
    G23.corrupt(() -> generic(G23.range(32, 0, 3)).decompress(MiniBlockBuffers.of(G23.u32s(0), values), 2, null)); // extra buffer
    G23.corrupt(() -> generic(G23.empty())); // the empty Constant has no width
    G23.corrupt(() -> generic(G23.flat(16))); // Flat is the legacy signal; 16-bit offsets do not exist
    G23.corrupt(() -> generic(G23.range(32, 0, 3)).decompress(MiniBlockBuffers.of(values), -1, null));
    DataBlock.VariableWidth ranged = (DataBlock.VariableWidth) generic(G23.range(32, 0, 3)).decompress(MiniBlockBuffers.of(values), 2, null);
    assertEquals(3, ranged.offset(1));
  }

  /**
   * Up to 32 u32 values below 8 as one inline bit-packed group of width 3, packed by hand (a test
   * needs arbitrary, even invalid, offsets): in the FastLanes layout value i < 32 is row 0 of lane
   * i, so its 3 bits are the low bits of word i.
   */
  static byte[] inlineOf(long... v) {
    byte[] out = new byte[4 + 128 * 3];
    LittleEndian.putInt(out, 0, 3);
    for (int i = 0; i < v.length; i++) {
      LittleEndian.putInt(out, 4 + 4 * i, (int) v[i]);
    }
    return out;
  }

  /** The runtime's family encoder outside a proposal, for comparing candidates. */
  static final class VariableMiniBlockFamilies implements GenericBlocks.FamilyEncoder {
    @Override
    public List<io.lancecodec.spi.Encoded<byte[]>> encodeFamily(List<DataBlock.FixedWidth> family,
        java.util.function.Predicate<CompressiveEncoding> allowed,
        java.util.function.ToLongFunction<List<io.lancecodec.spi.Encoded<byte[]>>> cost) {
      return GenericBlocks.encodeFamily(G23.REGISTRY, family, FieldOptions.DEFAULT, allowed, cost);
    }
  }
}
