package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.FixedSizeList;
import io.lancecodec.format.pb.v23.PackedStruct;
import io.lancecodec.format.pb.v23.Range;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.format.pb.v23.VariablePackedStruct;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.PerValueDecompressor;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The runtime's built-in codecs in 2.3, through the real registry: fixed-size lists (nested, with
 * item validity, booleans), packed structs and variable packed structs, Flat and Variable per value
 * and as blocks. Each writes exactly the bytes 2.2 writes for the same values, under a tree of 2.3
 * messages only, decodes to what 2.2 decodes, and every malformed descriptor is one CORRUPT line.
 */
class Builtin23Test {
  static final RuntimeLayoutContext CTX22 = new RuntimeLayoutContext(G23.REGISTRY, FileVersion.V2_2, b -> 0L);
  static final RuntimeLayoutContext CTX = G23.CTX;

  /** Fixed-size-list shapes by name: dimensions outer first, validity per level, leaf bits. */
  static final Map<String, LongFunction<DataBlock.FixedSizeList>> LISTS = Map.of(
      "i32x4", rows -> Codec23.lists(rows, new long[] {4}, new boolean[] {false}, 32, rows),
      "f32x3x2", rows -> Codec23.lists(rows, new long[] {2, 3}, new boolean[] {false, false}, 32, rows + 1),
      "i64x5 items", rows -> Codec23.lists(rows, new long[] {5}, new boolean[] {true}, 64, rows + 2),
      "i16x2x3 both", rows -> Codec23.lists(rows, new long[] {3, 2}, new boolean[] {true, true}, 16, rows + 3),
      "u8x4x2 inner", rows -> Codec23.lists(rows, new long[] {2, 4}, new boolean[] {false, true}, 8, rows + 4),
      "boolx5", rows -> Codec23.lists(rows, new long[] {5}, new boolean[] {false}, 1, rows + 5),
      "boolx16", rows -> Codec23.lists(rows, new long[] {16}, new boolean[] {false}, 1, rows + 6),
      "boolx3 items", rows -> Codec23.lists(rows, new long[] {3}, new boolean[] {true}, 1, rows + 7));

  @ParameterizedTest
  @ValueSource(ints = {1, 300, 4099})
  void fixedSizeListChunksAreThe22Chunks(int rows) {
    for (var e : new java.util.TreeMap<>(LISTS).entrySet()) {
      DataBlock.FixedSizeList block = e.getValue().apply(rows);
      MiniBlockCompressed c23 = CTX.compressMiniBlock(block, FieldOptions.DEFAULT);
      MiniBlockCompressed c22 = CTX22.compressMiniBlock(block, FieldOptions.DEFAULT);
      sameChunks(c22, c23, e.getKey());
      assertEquals(FslShape.parts(block).shape().encoding23(), c23.encoding(), e.getKey());
      Codec23.assertAll23(c23.encoding());
      assertEquals(Codec23.decodeChunks(c22, CTX22.miniBlock(c22.encoding()), false),
          Codec23.decodeChunks(c23, CTX.miniBlock(c23.encoding()), false), e.getKey());
    }
  }

  static void sameChunks(MiniBlockCompressed a, MiniBlockCompressed b, String what) {
    assertEquals(a.buffers().size(), b.buffers().size(), what);
    for (int i = 0; i < a.buffers().size(); i++) {
      assertArrayEquals(a.buffers().get(i), b.buffers().get(i), what + ": buffer " + i);
    }
    assertEquals(a.chunks().size(), b.chunks().size(), what);
    for (int k = 0; k < a.chunks().size(); k++) {
      assertArrayEquals(a.chunks().get(k).bufferSizes(), b.chunks().get(k).bufferSizes(), what + ": chunk " + k);
      assertEquals(a.chunks().get(k).logNumValues(), b.chunks().get(k).logNumValues(), what + ": chunk " + k);
    }
  }

  /** {@code FixedSizeList{2, has_validity, FixedSizeList{3, Flat{32}}}}: 2.3 numbers has_validity 2 and values 3. */
  @Test
  void fixedSizeListDescriptorGolden() {
    CompressiveEncoding e = new FslShape(new long[] {2, 3}, new boolean[] {true, false}, 32).encoding23();
    // 5a: case 11 (fixed_size_list); 08 02: items 2; 10 01: has_validity (field 2); 1a: values (field 3), holding
    // 5a 08 [08 03: items 3; 1a 04: values, 0a 02 08 20: flat{32}]
    assertEquals("5a10080210011a0a5a0808031a040a020820", HexFormat.of().formatHex(e.toByteArray()));
    assertEquals("fixed_size_list(2, item validity, fixed_size_list(3, flat(32)))", CTX.describe(e).toString());
  }

  static DataBlock.Struct fixedStruct(int n) {
    return new DataBlock.Struct(List.of(Codec23.ints(32, n, 1, 20), Codec23.ints(64, n, 2, 64), Codec23.ints(8, n, 3, 8)), n);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 1000, 5000})
  void packedStructChunksAreThe22Chunks(int n) {
    DataBlock.Struct s = fixedStruct(n);
    MiniBlockCompressed c23 = CTX.compressMiniBlock(s, FieldOptions.DEFAULT);
    MiniBlockCompressed c22 = CTX22.compressMiniBlock(s, FieldOptions.DEFAULT);
    sameChunks(c22, c23, "packed");
    CompressiveEncoding expected = CompressiveEncoding.newBuilder().setPackedStruct(PackedStruct.newBuilder()
        .addBitsPerValue(32).addBitsPerValue(64).addBitsPerValue(8).setValues(G23.flat(104))).build();
    assertEquals(expected, c23.encoding());
    // 62: case 12 (packed_struct); 0a 03 20 40 08: the widths, packed; 12 04 0a 02 08 68: values Flat{104}
    assertEquals("620b0a0320400812040a020868", HexFormat.of().formatHex(expected.toByteArray()));
    assertEquals(Codec23.decodeChunks(c22, CTX22.miniBlock(c22.encoding()), false),
        Codec23.decodeChunks(c23, CTX.miniBlock(c23.encoding()), false));
    assertEquals("packed_struct(flat(104))", CTX.describe(expected).toString());
  }

  /** Full-zip rows of every shape the built-in codecs take: the 2.2 rows, 2.3 descriptors, the same decoded rows. */
  @Test
  void perValueRowsAreThe22Rows() {
    Map<String, DataBlock> blocks = new java.util.TreeMap<>();
    blocks.put("i64", Codec23.ints(64, 500, 9, 64));
    blocks.put("fsb12", Codec23.ints(8, 12 * 40, 10, 8));
    blocks.put("utf8", Codec23.strings(300, 32, 40, 11));
    blocks.put("large_utf8", Codec23.strings(300, 64, 400, 12));
    for (String k : List.of("i32x4", "f32x3x2", "i64x5 items", "i16x2x3 both", "u8x4x2 inner", "boolx16")) {
      blocks.put(k, LISTS.get(k).apply(77));
    }
    blocks.put("packed variable", new DataBlock.Struct(List.of(Codec23.ints(32, 200, 13, 32), Codec23.strings(200, 32, 30, 14),
        Codec23.strings(200, 64, 5, 15)), 200));
    for (var e : blocks.entrySet()) {
      Encoded<DataBlock> r23 = CTX.compressPerValue(e.getValue(), FieldOptions.DEFAULT);
      Encoded<DataBlock> r22 = CTX22.compressPerValue(e.getValue(), FieldOptions.DEFAULT);
      assertEquals(Codec23.text(r22.data()), Codec23.text(r23.data()), e.getKey());
      Codec23.assertAll23(r23.encoding());
      PerValueDecompressor d23 = CTX.perValue(r23.encoding());
      PerValueDecompressor d22 = CTX22.perValue(r22.encoding());
      assertEquals(d22.plainBits(), d23.plainBits(), e.getKey());
      assertEquals(Codec23.text(d22.decompress(r22.data(), null)), Codec23.text(d23.decompress(r23.data(), null)), e.getKey());
    }
    Encoded<DataBlock> vps = CTX.compressPerValue(blocks.get("packed variable"), FieldOptions.DEFAULT);
    assertEquals("variable_packed_struct(flat(32), variable(flat(32)), variable(flat(64)))", CTX.describe(vps.encoding()).toString());
    assertEquals("variable(flat(64))", CTX.describe(CTX.compressPerValue(blocks.get("large_utf8"), FieldOptions.DEFAULT).encoding()).toString());
  }

  /** Dictionary items: strings in the 2.2 variable block form, fixed-width items of any width as Flat. */
  @Test
  void variableAndWideFlatBlocks() {
    byte[] offsets = G23.u32s(0, 1, 3);
    DataBlock.VariableWidth ab = new DataBlock.VariableWidth(offsets, 32, "abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 2);
    Encoded<byte[]> e = CTX.compressBlock(ab, FieldOptions.DEFAULT);
    assertEquals(Builtin23.variable(G23.flat(32)), e.encoding());
    // [u32 32][u32 values start = 8 + 4 * 3][offsets 0, 1, 3]["abc"]
    assertArrayEquals(G23.hex("20000000 14000000 00000000 01000000 03000000 616263"), e.data());
    assertEquals("v2:61,6263,", Codec23.text(CTX.block(e.encoding()).decompress(e.data(), 2)));
    for (int bits : new int[] {32, 64}) {
      DataBlock.VariableWidth vw = Codec23.strings(1000, bits, 20, bits);
      Encoded<byte[]> r23 = CTX.compressBlock(vw, FieldOptions.DEFAULT);
      assertArrayEquals(CTX22.compressBlock(vw, FieldOptions.DEFAULT).data(), r23.data());
      assertEquals(Codec23.text(vw), Codec23.text(CTX.block(r23.encoding()).decompress(r23.data(), 1000)));
    }
    DataBlock.FixedWidth decimals = Codec23.ints(64, 2 * 50, 21, 64);
    DataBlock.FixedWidth d128 = new DataBlock.FixedWidth(decimals.data(), 128, 50);
    Encoded<byte[]> flat = CTX.compressBlock(d128, FieldOptions.DEFAULT);
    assertEquals(G23.flat(128), flat.encoding());
    assertArrayEquals(decimals.data(), flat.data());
    assertEquals(Codec23.text(d128), Codec23.text(CTX.block(flat.encoding()).decompress(flat.data(), 50)));
  }

  /** Every proposal the registry takes in 2.3 is a tree of 2.3 messages, whatever the block. */
  @Test
  void no21MessageInA23Tree() {
    List<DataBlock> blocks = List.of(Codec23.ints(8, 3000, 1, 3), Codec23.ints(16, 3000, 2, 16), Codec23.ints(32, 5000, 3, 11),
        Codec23.ints(64, 5000, 4, 64), Codec23.runs(32, 5000, 5, 300), Codec23.runs(64, 5000, 6, 3), Codec23.bools(777, 7),
        Codec23.strings(2000, 32, 12, 8), Codec23.strings(2000, 64, 12, 9), fixedStruct(900), LISTS.get("i16x2x3 both").apply(50),
        LISTS.get("boolx16").apply(64));
    for (DataBlock b : blocks) {
      Codec23.assertAll23(CTX.compressMiniBlock(b, FieldOptions.DEFAULT).encoding());
      if (!(b instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == 1) && !(b instanceof DataBlock.Struct)) {
        Codec23.assertAll23(CTX.compressPerValue(b, FieldOptions.DEFAULT).encoding());
      }
      if (b instanceof DataBlock.FixedWidth || b instanceof DataBlock.VariableWidth) {
        Codec23.assertAll23(CTX.compressBlock(b, FieldOptions.DEFAULT).encoding());
      }
    }
  }

  static CompressiveEncoding fsl(long items, boolean validity, CompressiveEncoding values) {
    FixedSizeList.Builder f = FixedSizeList.newBuilder().setItemsPerValue(items).setHasValidity(validity);
    if (values != null) {
      f.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setFixedSizeList(f).build();
  }

  static CompressiveEncoding variable(CompressiveEncoding offsets) {
    Variable.Builder v = Variable.newBuilder();
    if (offsets != null) {
      v.setOffsets(offsets);
    }
    return CompressiveEncoding.newBuilder().setVariable(v).build();
  }

  static CompressiveEncoding packed(CompressiveEncoding values, long... bits) {
    PackedStruct.Builder p = PackedStruct.newBuilder();
    for (long b : bits) {
      p.addBitsPerValue(b);
    }
    if (values != null) {
      p.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setPackedStruct(p).build();
  }

  static CompressiveEncoding vps(VariablePackedStruct.FieldEncoding... fields) {
    return CompressiveEncoding.newBuilder().setVariablePackedStruct(VariablePackedStruct.newBuilder().addAllFields(List.of(fields))).build();
  }

  static VariablePackedStruct.FieldEncoding.Builder field(CompressiveEncoding value) {
    VariablePackedStruct.FieldEncoding.Builder f = VariablePackedStruct.FieldEncoding.newBuilder();
    if (value != null) {
      f.setValue(value);
    }
    return f;
  }

  /** Each malformed 2.3 descriptor of a built-in codec is refused when opened, as one CORRUPT line. */
  @Test
  void malformedDescriptorsAreCorrupt() {
    CompressiveEncoding range = CompressiveEncoding.newBuilder()
        .setRange(Range.newBuilder().setUncompressedBitsPerValue(32).setStart(0).setStep(4)).build();
    List<Message> miniBlock = List.of(
        fsl(4, false, null), // values missing
        fsl(0, false, G23.flat(32)), // no items
        fsl(-1, false, G23.flat(32)), // 2^64 - 1 items
        fsl(1L << 20, false, fsl(1L << 20, false, G23.flat(8))), // rows beyond the row limit
        fsl(4, false, G23.flat(12)), // not whole bytes
        fsl(2, true, fsl(2, false, null)),
        packed(null, 32, 32), // values missing
        packed(G23.flat(64)), // no children
        packed(G23.flat(64), 32, 12),
        packed(G23.flat(72), 32, 32), // rows wider than the children
        packed(G23.inline(64), 32, 32),
        variable(null));
    for (Message e : miniBlock) {
      G23.corrupt(() -> CTX.miniBlock(e));
    }
    // a leaf that is not a leaf encoding names the capability (FslLeafTest has the rest)
    for (Message e : List.of(fsl(4, false, G23.constant(new byte[4])), fsl(4, false, variable(G23.flat(32))))) {
      LanceCodecException u = assertThrows(LanceCodecException.class, () -> CTX.perValue(e));
      assertEquals(LanceCodecException.Kind.UNSUPPORTED, u.kind(), u.getMessage());
      assertTrue(u.getMessage().contains("needs fixed-size-list-leaf-compression"), u.getMessage());
    }
    List<Message> perValue = List.of(
        fsl(16, true, G23.flat(1)), // booleans with validity have no full-zip rows
        fsl(12, false, G23.flat(1)), // nor rows of part of a byte
        variable(range), // generic offsets exist only in mini-blocks
        variable(G23.flat(16)),
        variable(null),
        vps(),
        vps(field(null).setBitsPerValue(32).build()),
        vps(field(G23.flat(32)).build()), // neither width nor length width
        vps(field(G23.flat(32)).setBitsPerValue(12).build()),
        vps(field(variable(G23.flat(32))).setBitsPerLength(16).build()),
        G23.flat(0),
        G23.flat(7));
    for (Message e : perValue) {
      G23.corrupt(() -> CTX.perValue(e));
    }
    for (Message e : List.of(variable(range), variable(G23.flat(8)), variable(null), G23.flat(-8))) {
      G23.corrupt(() -> CTX.block(e));
    }
  }

  /**
   * 2.3 buffers are exactly what their values need: a byte more is CORRUPT where 2.1/2.2 readers
   * (like the reference's) read past it.
   */
  @Test
  void exactBuffers() {
    io.lancecodec.spi.MiniBlockBuffers flat = io.lancecodec.spi.MiniBlockBuffers.of(new byte[13]);
    assertEquals(3, CTX22.miniBlock(BuiltinCodecs.flat(32)).decompress(flat, 3, null).numValues());
    G23.corrupt(() -> CTX.miniBlock(G23.flat(32)).decompress(flat, 3, null));
    G23.corrupt(() -> CTX.miniBlock(G23.flat(1)).decompress(io.lancecodec.spi.MiniBlockBuffers.of(new byte[2]), 8, null));
    assertEquals(9, CTX.miniBlock(G23.flat(1)).decompress(io.lancecodec.spi.MiniBlockBuffers.of(new byte[2]), 9, null).numValues());
    // one list of 4 nullable i32: validity of 1 byte, values of 16
    CompressiveEncoding lists = fsl(4, true, G23.flat(32));
    assertEquals(1, CTX.miniBlock(lists).decompress(io.lancecodec.spi.MiniBlockBuffers.of(new byte[1], new byte[16]), 1, null).numValues());
    G23.corrupt(() -> CTX.miniBlock(lists).decompress(io.lancecodec.spi.MiniBlockBuffers.of(new byte[2], new byte[16]), 1, null));
    G23.corrupt(() -> CTX.miniBlock(lists).decompress(io.lancecodec.spi.MiniBlockBuffers.of(new byte[1], new byte[17]), 1, null));
    // a legacy string chunk: offsets 12, 13, 15 then "abc", padded to 4 bytes
    byte[] chunk = G23.hex("0c000000 0d000000 0f000000 616263 48");
    CompressiveEncoding strings = Builtin23.variable(G23.flat(32));
    assertEquals("v2:61,6263,", Codec23.text(CTX.miniBlock(strings).decompress(io.lancecodec.spi.MiniBlockBuffers.of(chunk), 2, null)));
    byte[] longer = java.util.Arrays.copyOf(chunk, chunk.length + 4);
    assertEquals(2, CTX22.miniBlock(BuiltinCodecs.variable(32)).decompress(io.lancecodec.spi.MiniBlockBuffers.of(longer), 2, null).numValues());
    G23.corrupt(() -> CTX.miniBlock(strings).decompress(io.lancecodec.spi.MiniBlockBuffers.of(longer), 2, null));
    byte[] block = G23.hex("20000000 14000000 00000000 01000000 03000000 616263 00");
    assertEquals(2, CTX22.block(BuiltinCodecs.variable(32)).decompress(block, 2).numValues());
    G23.corrupt(() -> CTX.block(strings).decompress(block, 2));
  }

  /** Well-formed trees whose payloads do not fit them fail as CORRUPT when decoded, never as anything else. */
  @Test
  void shortPayloadsAreCorrupt() {
    CompressiveEncoding lists = fsl(4, true, G23.flat(32));
    G23.corrupt(() -> CTX.perValue(lists).decompress(new DataBlock.FixedWidth(new byte[8], 64, 1), null));
    G23.corrupt(() -> CTX.miniBlock(lists).decompress(io.lancecodec.spi.MiniBlockBuffers.of(new byte[1], new byte[15]), 1, null));
    G23.corrupt(() -> CTX.block(variable(G23.flat(32))).decompress(G23.hex("20000000 10000000 00000000"), 2));
    CompressiveEncoding vps = vps(field(G23.flat(32)).setBitsPerValue(32).build(), field(variable(G23.flat(32))).setBitsPerLength(32).build());
    byte[] row = G23.hex("01000000 05000000 6162");
    G23.corrupt(() -> CTX.perValue(vps).decompress(new DataBlock.VariableWidth(G23.u32s(0, row.length), 32, row, 1), null));
    G23.corrupt(() -> CTX.perValue(G23.flat(32)).decompress(new DataBlock.FixedWidth(new byte[8], 64, 1), null));
    G23.corrupt(() -> CTX.perValue(variable(G23.flat(32))).decompress(new DataBlock.FixedWidth(new byte[8], 64, 1), null));
  }
}
