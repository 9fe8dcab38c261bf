package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.FixedSizeList;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.PerValueDecompressor;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Axis delta on its own, through the real registry: the descriptor's bytes, decodes worked out by
 * hand (wrap-around at every width, spans restarting inside a tensor, nothing carried from one
 * tensor to the next), the transform against a slow reference, and malformed descriptors.
 */
@Timeout(60)
class AxisDeltaTest {
  static final Plugins REGISTRY = Plugins.discover(AxisDeltaTest.class.getClassLoader());
  static final RuntimeLayoutContext CTX = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_3, b -> 0L);
  static final HexFormat HEX = HexFormat.of();

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding fsl(long dim, boolean validity, CompressiveEncoding values) {
    FixedSizeList.Builder f = FixedSizeList.newBuilder().setItemsPerValue(dim).setHasValidity(validity);
    if (values != null) {
      f.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setFixedSizeList(f).build();
  }

  static CompressiveEncoding axisDelta(long axis, long stride, CompressiveEncoding values) {
    io.lancecodec.format.pb.v23.AxisDelta.Builder a = io.lancecodec.format.pb.v23.AxisDelta.newBuilder()
        .setAxisLength(axis).setInnerStride(stride);
    if (values != null) {
      a.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setAxisDelta(a).build();
  }

  /** Decodes {@code rows} stored as hex, rows of {@code rowBytes}, through the registry's decoder of {@code e}. */
  static String decode(CompressiveEncoding e, String stored, int rowBytes) {
    byte[] b = HEX.parseHex(stored);
    DataBlock out = CTX.perValue(e).decompress(new DataBlock.FixedWidth(b, 8 * rowBytes, b.length / rowBytes), null);
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) out;
    assertEquals(8L * rowBytes, fw.bitsPerValue());
    return HEX.formatHex(fw.data(), 0, fw.usedBytes());
  }

  @Test
  void descriptorBytes() {
    CompressiveEncoding e = AxisDelta.encoding(new AxisDelta.Shape(new long[] {2}, 8), 2, 1);
    // 92 01: case 18 (axis_delta), 10 bytes: 08 02 axis_length 2, 10 01 inner_stride 1,
    // 1a 0a values: 5a 08 fixed_size_list { 08 02 items 2, (has_validity false omitted),
    // 1a 04 values: 0a 02 flat { 08 08 bits 8 } }
    assertEquals("920110" + "0802" + "1001" + "1a0a" + "5a08" + "0802" + "1a04" + "0a02" + "0808", HEX.formatHex(e.toByteArray()));
    assertEquals(e, axisDelta(2, 1, fsl(2, false, flat(8))));
    assertEquals("axis_delta(2, 1, fixed_size_list(2, flat(8)))", CTX.describe(e).toString());
    CompressiveEncoding g = GeneralMiniBlock.wrap23(Scheme.ZSTD.describe23(java.util.OptionalInt.of(0)), e);
    assertEquals("general(zstd 0, axis_delta(2, 1, fixed_size_list(2, flat(8))))", CTX.describe(g).toString());
  }

  /** u8 along the whole tensor: 250, 3 is stored as 250, 9 (3 - 250 mod 256); the next tensor starts over. */
  @Test
  void bytesWrapAndTensorsStartOver() {
    CompressiveEncoding e = axisDelta(4, 1, fsl(4, false, flat(8)));
    // row 0: 250, 250+9=259=3, 3+7=10, 10+251=261=5
    // row 1: 0, 255, 255+255=510=254, 254+1=255 (not 5 + 0: no state crosses tensors)
    assertEquals("fa030a05" + "00fffeff", decode(e, "fa0907fb" + "00ffff01", 4));
  }

  /** i16 in a 2 x 2 tensor along the outer axis (stride 2): 32767 + 1 wraps to -32768. */
  @Test
  void shortsAlongTheOuterAxis() {
    CompressiveEncoding e = axisDelta(2, 2, fsl(2, false, fsl(2, false, flat(16))));
    // stored 32767, -1, 1, 5: x10 = 1 + x00 = 32768 = -32768, x11 = 5 + x01 = 4
    assertEquals("ff7f" + "ffff" + "0080" + "0400", decode(e, "ff7f" + "ffff" + "0100" + "0500", 8));
  }

  /** u32 with two spans per tensor (axis 3, stride 1 over 6 elements): the sum restarts at element 3. */
  @Test
  void spansRestartInsideATensor() {
    CompressiveEncoding e = axisDelta(3, 1, fsl(6, false, flat(32)));
    // 10, 11, 12 | 100, 102, 104
    assertEquals("0a000000" + "0b000000" + "0c000000" + "64000000" + "66000000" + "68000000",
        decode(e, "0a000000" + "01000000" + "01000000" + "64000000" + "02000000" + "02000000", 24));
  }

  /** u64 near 2^64: 2^64 - 2, +1 = 2^64 - 1, +5 = 4 (mod 2^64). */
  @Test
  void longsWrapAt2To64() {
    CompressiveEncoding e = axisDelta(3, 1, fsl(3, false, flat(64)));
    assertEquals("feffffffffffffff" + "ffffffffffffffff" + "0400000000000000",
        decode(e, "feffffffffffffff" + "0100000000000000" + "0500000000000000", 24));
  }

  /** The transform against an element-by-element reference, every width, every axis of a 3 x 4 x 5 tensor. */
  @Test
  void transformMatchesTheDefinition() {
    Random rnd = new Random(11);
    for (int bits : new int[] {8, 16, 32, 64}) {
      int e = 60;
      int w = bits / 8;
      int rows = 3;
      byte[] data = new byte[rows * e * w];
      rnd.nextBytes(data);
      // {axis_length, inner_stride}: along each level of [3][4][5], the whole tensor, and spans
      // that follow no level (any span dividing the 60 elements is valid)
      for (int[] axis : new int[][] {{3, 20}, {4, 5}, {5, 1}, {60, 1}, {2, 5}, {6, 10}}) {
        int span = axis[0] * axis[1];
        byte[] diff = new byte[data.length];
        AxisDelta.apply(data, 0, diff, 0, rows * e, bits, span, axis[1]);
        byte[] slow = new byte[data.length];
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        for (int i = 0; i < rows * e; i++) {
          long v = LittleEndian.getUnsigned(data, i * w, w);
          int inRow = i % e;
          long d = inRow % span < axis[1] ? v : v - LittleEndian.getUnsigned(data, (i - axis[1]) * w, w);
          LittleEndian.putUnsigned(slow, i * w, w, d & mask);
        }
        assertArrayEquals(slow, diff, bits + " bits, axis " + axis[0] + " stride " + axis[1]);
        byte[] back = new byte[data.length];
        AxisDelta.undo(diff, 0, back, 0, rows * e, bits, span, axis[1]);
        assertArrayEquals(data, back);
        // in place: the sums may overwrite their input
        AxisDelta.undo(diff, 0, diff, 0, rows * e, bits, span, axis[1]);
        assertArrayEquals(data, diff);
      }
    }
  }

  /** The output is the plain fixed-size-list decoder's: same width, same rows, and reused buffers give the same bytes. */
  @Test
  void sameBlockAsThePlainDecoder() {
    CompressiveEncoding plain = fsl(4, false, fsl(8, false, flat(16)));
    CompressiveEncoding delta = axisDelta(8, 1, plain);
    Random rnd = new Random(12);
    byte[] rows = new byte[5 * 64];
    rnd.nextBytes(rows);
    DataBlock.FixedWidth in = new DataBlock.FixedWidth(rows, 512, 5);
    DataBlock.FixedWidth p = (DataBlock.FixedWidth) CTX.perValue(plain).decompress(in, null);
    byte[] diff = new byte[rows.length];
    AxisDelta.apply(rows, 0, diff, 0, 5 * 32, 16, 8, 1);
    PerValueDecompressor d = CTX.perValue(delta);
    DataBlock.FixedWidth a = (DataBlock.FixedWidth) d.decompress(new DataBlock.FixedWidth(diff, 512, 5), null);
    assertEquals(p.bitsPerValue(), a.bitsPerValue());
    assertEquals(p.numValues(), a.numValues());
    assertArrayEquals(java.util.Arrays.copyOf(p.data(), p.usedBytes()), java.util.Arrays.copyOf(a.data(), a.usedBytes()));
    DecodeBuffers reuse = new DecodeBuffers();
    DataBlock.FixedWidth r = (DataBlock.FixedWidth) d.decompress(new DataBlock.FixedWidth(diff, 512, 5), reuse);
    assertArrayEquals(java.util.Arrays.copyOf(p.data(), p.usedBytes()), java.util.Arrays.copyOf(r.data(), r.usedBytes()));
    // the input block is left as it was handed over
    byte[] again = new byte[rows.length];
    AxisDelta.apply(rows, 0, again, 0, 5 * 32, 16, 8, 1);
    assertArrayEquals(again, diff);
    // no promise of unchanged rows: a reader must not copy them without decoding
    assertEquals(0, d.plainBits());
    assertTrue(CTX.perValue(plain).plainBits() > 0);
  }

  @Test
  void malformedDescriptors() {
    CompressiveEncoding six = fsl(6, false, flat(32));
    CompressiveEncoding variable = CompressiveEncoding.newBuilder().setVariable(Variable.newBuilder().setOffsets(flat(32))).build();
    List<CompressiveEncoding> bad = List.of(
        axisDelta(0, 1, six), // axis_length 0
        axisDelta(1, 0, six), // inner_stride 0
        axisDelta(-1, 1, six), // 2^64 - 1
        axisDelta(3, -3, six), // a stride above 2^63
        axisDelta(4, 1, six), // 4 does not divide 6
        axisDelta(2, 2, six), // span 4 does not divide 6
        axisDelta(7, 1, six), // longer than the tensor
        axisDelta(1L << 32, 1L << 32, six), // a product that overflows 64 bits were it computed first
        axisDelta(2, 1, null), // values missing
        axisDelta(2, 1, flat(32)), // not a fixed-size list
        axisDelta(2, 1, variable),
        axisDelta(2, 1, fsl(6, true, flat(32))), // item validity
        axisDelta(2, 1, fsl(2, false, fsl(3, true, flat(32)))), // validity in an inner layer
        axisDelta(2, 1, fsl(6, false, null)), // layer without values
        axisDelta(2, 1, fsl(6, false, variable)), // leaf not Flat
        axisDelta(2, 1, fsl(6, false, flat(24))), // leaf width
        axisDelta(2, 1, fsl(8, false, flat(1))),
        axisDelta(2, 1, fsl(6, false, flat(0))),
        axisDelta(2, 1, fsl(0, false, flat(8))), // no elements
        axisDelta(2, 1, fsl(-2, false, flat(8))),
        axisDelta(2, 1, fsl(1 << 14, false, fsl(1 << 14, false, flat(8)))), // 2^28 elements
        axisDelta(2, 1, fsl(1 << 22, false, flat(64))), // 2^28 bits a row
        axisDelta(2, 1, nested(17, flat(8)))); // too deep
    for (CompressiveEncoding e : bad) {
      General23ContextsTest.G.corrupt(() -> CTX.perValue(e));
    }
    // 16 layers are fine
    CTX.perValue(axisDelta(2, 1, nested(16, flat(8))));
    // per value only: a mini-block or a block with it is a malformed tree
    CompressiveEncoding good = axisDelta(2, 1, six);
    General23ContextsTest.G.corrupt(() -> CTX.miniBlock(good));
    General23ContextsTest.G.corrupt(() -> CTX.block(good));
    // rows of another width, or not fixed-width at all
    PerValueDecompressor d = CTX.perValue(good);
    General23ContextsTest.G.corrupt(() -> d.decompress(new DataBlock.FixedWidth(new byte[48], 64 * 8, 1), null));
    General23ContextsTest.G.corrupt(() -> d.decompress(new DataBlock.FixedWidth(new byte[48], 8, 48), null));
    General23ContextsTest.G.corrupt(() -> d.decompress(new DataBlock.AllNull(2), null));
    General23ContextsTest.G.corrupt(() -> d.decompress(new DataBlock.VariableWidth(new byte[8], 32, new byte[0], 1), null));
    assertFalse(CTX.describe(axisDelta(2, 1, null)).toString().isEmpty(), "inspect shows a malformed node without failing");
  }

  static CompressiveEncoding nested(int layers, CompressiveEncoding leaf) {
    CompressiveEncoding e = leaf;
    for (int i = 0; i < layers; i++) {
      e = fsl(2, false, e);
    }
    return e;
  }
}
