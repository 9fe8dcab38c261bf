package io.lancecodec.runtime.plugin;

import static io.lancecodec.runtime.plugin.G23.concat;
import static io.lancecodec.runtime.plugin.G23.corrupt;
import static io.lancecodec.runtime.plugin.G23.hex;
import static io.lancecodec.runtime.plugin.G23.u32s;
import static io.lancecodec.runtime.plugin.G23.u64s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.ByteStreamSplit;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Extension;
import io.lancecodec.format.pb.v23.Fsst;
import io.lancecodec.format.pb.v23.Variable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every rule of the generic unsigned block contract, broken on purpose with crafted descriptors
 * and payloads: each must fail with one CORRUPT line, at open or at decode, never with another
 * exception. Boundaries that still fit decode.
 */
@Timeout(60)
class GenericBlockCorruptTest {
  static final long MAX64 = -1L;
  static final long MAX32 = 0xFFFFFFFFL;

  /** The container's decoder for {@code e}, then the payload: CORRUPT somewhere on the way. */
  static String bad(CompressiveEncoding e, byte[] payload, long n, int bits) {
    return corrupt(() -> G23.CTX.unsignedBlock(e, bits).decompress(payload, n)).getMessage();
  }

  static void message(String msg, String expectedPart) {
    assertTrue(msg.contains(expectedPart), "'" + msg + "' should mention '" + expectedPart + "'");
  }

  @Test
  void rootsOutsideTheGrammar() {
    CompressiveEncoding variable = CompressiveEncoding.newBuilder().setVariable(Variable.newBuilder().setOffsets(G23.flat(32))).build();
    CompressiveEncoding fsst = CompressiveEncoding.newBuilder().setFsst(Fsst.newBuilder().setValues(G23.flat(32))).build();
    CompressiveEncoding bss = CompressiveEncoding.newBuilder().setByteStreamSplit(ByteStreamSplit.newBuilder().setValues(G23.flat(32))).build();
    CompressiveEncoding ext = CompressiveEncoding.newBuilder().setExtension(Extension.newBuilder().setCodecId("com.example.x")).build();
    for (CompressiveEncoding e : new CompressiveEncoding[] {variable, fsst, bss, ext, CompressiveEncoding.getDefaultInstance()}) {
      message(bad(e, new byte[8], 2, 32), "cannot be its root");
    }
  }

  @Test
  void missingChildren() {
    message(bad(G23.delta(32, 0, null), new byte[0], 2, 32), "deltas missing");
    message(bad(G23.rle(null, G23.flat(32)), new byte[16], 0, 32), "values missing");
    message(bad(G23.rle(G23.flat(32), null), new byte[16], 0, 32), "run_lengths missing");
    message(bad(G23.dict(null, G23.flat(32), 0), new byte[0], 0, 32), "indices missing");
    message(bad(G23.dict(G23.flat(32), null, 0), new byte[0], 0, 32), "items missing");
    CompressiveEncoding oolWithoutValues = CompressiveEncoding.newBuilder().setOutOfLineBitpacking(
        io.lancecodec.format.pb.v23.OutOfLineBitpacking.newBuilder().setUncompressedBitsPerValue(32)).build();
    message(bad(oolWithoutValues, new byte[4], 1, 32), "must be Flat");
  }

  @Test
  void unsupportedNesting() {
    CompressiveEncoding inner = G23.delta(32, 0, G23.flat(32));
    message(bad(G23.delta(32, 0, inner), new byte[4], 2, 32), "unsupported nesting");
    message(bad(G23.delta(32, 0, G23.rle(G23.flat(32), G23.flat(32))), new byte[16], 2, 32), "unsupported nesting");
    message(bad(G23.rle(G23.dict(G23.flat(32), G23.flat(32), 1), G23.flat(32)), new byte[16], 0, 32), "unsupported nesting");
    message(bad(G23.rle(G23.flat(32), inner), new byte[16], 0, 32), "unsupported nesting");
    message(bad(G23.dict(G23.rle(G23.flat(32), G23.flat(32)), G23.flat(32), 0), new byte[16], 0, 32), "unsupported nesting");
    message(bad(G23.dict(G23.flat(32), inner, 0), new byte[16], 0, 32), "unsupported nesting");
    CompressiveEncoding general = CompressiveEncoding.newBuilder().setGeneral(
        io.lancecodec.format.pb.v23.General.newBuilder().setValues(G23.flat(32))).build();
    message(bad(G23.delta(32, 0, general), new byte[4], 2, 32), "unsupported nesting");
    message(bad(G23.ool(32, 3).toBuilder().setOutOfLineBitpacking(G23.ool(32, 3).getOutOfLineBitpacking().toBuilder()
        .setValues(G23.range(32, 0, 1))).build(), new byte[4], 1, 32), "must be Flat");
  }

  @Test
  void incompatibleWidths() {
    message(bad(G23.range(32, 0, 1), new byte[0], 2, 64), "32-bit values in a container of 64");
    message(bad(G23.flat(16), new byte[4], 2, 32), "16-bit values in a container of 32");
    message(bad(G23.constant(u32s(7)), new byte[0], 2, 64), "32-bit values in a container of 64");
    message(bad(G23.inline(32), new byte[4], 1, 64), "container of 64");
    message(bad(G23.delta(32, 0, G23.flat(64)), new byte[8], 2, 32), "64-bit values where 32");
    message(bad(G23.rle(G23.flat(32), G23.flat(64)), new byte[16], 0, 32), "64-bit values where 32");
    message(bad(G23.rle(G23.flat(16), G23.flat(32)), new byte[16], 0, 32), "16-bit values where 32 or 64");
    message(bad(G23.dict(G23.flat(64), G23.flat(32), 0), new byte[16], 0, 32), "64-bit values where 32");
    message(bad(G23.dict(G23.flat(32), G23.flat(32), 0), new byte[16], 0, 64), "container of 64");
    message(bad(G23.range(16, 0, 1), new byte[0], 2, 32), "not 32 or 64");
    message(bad(G23.delta(48, 0, G23.flat(48)), new byte[6], 2, 32), "not 32 or 64");
    message(bad(G23.ool(32, 33), new byte[4], 1, 32), "exceeds 32");
    // RLE run lengths are u32: lengths near 2^64 cannot even be expressed
    message(bad(G23.rle(G23.flat(64), G23.flat(64)), concat(u64s(8, 1), u64s(5), u64s(MAX64)), 5, 64), "64-bit values where 32");
  }

  @Test
  void wrongPayloadArity() {
    message(bad(G23.range(32, 0, 1), new byte[1], 2, 32), "metadata-only");
    message(bad(G23.constant(u32s(7)), new byte[4], 2, 32), "metadata-only");
    message(bad(G23.empty(), new byte[4], 0, 32), "metadata-only");
    message(bad(G23.delta(32, 0, G23.range(32, 1, 1)), new byte[4], 3, 32), "metadata-only");
    message(bad(G23.dict(G23.range(32, 0, 1), G23.constant(u32s(1)), 2), new byte[16], 2, 32), "metadata-only");
    message(bad(G23.flat(32), new byte[7], 2, 32), "the payload has 7");
    message(bad(G23.flat(32), new byte[12], 2, 32), "the payload has 12");
    message(bad(G23.flat(64), new byte[0], 1, 64), "the payload has 0");
  }

  @Test
  void malformedRleFrames() {
    CompressiveEncoding rle = G23.rle(G23.flat(32), G23.flat(32));
    message(bad(rle, new byte[15], 1, 32), "no 16-byte header");
    message(bad(rle, concat(u64s(9, 1), u32s(7, 1)), 1, 32), "values payload of 9 bytes");
    message(bad(rle, concat(u64s(MAX64, 1), u32s(7, 1)), 1, 32), "values payload of 18446744073709551615");
    message(bad(rle, concat(u64s(4, 2), u32s(7, 1)), 1, 32), "2 runs");
    message(bad(rle, concat(u64s(0, 0)), 3, 32), "0 runs");
    message(bad(rle, concat(u64s(8, 2), u32s(7, 9, 1)), 2, 32), "the payload has 4"); // lengths 4 bytes for 2 runs
    CompressiveEncoding metaValues = G23.rle(G23.range(32, 7, 1), G23.flat(32));
    message(bad(metaValues, concat(u64s(4, 1), u32s(7, 1)), 1, 32), "metadata-only child");
    CompressiveEncoding metaLengths = G23.rle(G23.flat(32), G23.constant(u32s(1)));
    message(bad(metaLengths, concat(u64s(4, 1), u32s(7, 1)), 1, 32), "metadata-only child");
    // metadata children frame nothing: header only decodes
    assertArrayEquals(new long[] {7, 8, 9}, G23.decode(G23.rle(G23.range(32, 7, 1), G23.constant(u32s(1))), u64s(0, 3), 3, 32));
  }

  @Test
  void malformedDictionaryFrames() {
    CompressiveEncoding dict = G23.dict(G23.flat(32), G23.flat(32), 1);
    message(bad(dict, new byte[12], 1, 32), "no 16-byte frame header");
    message(bad(dict, concat(u64s(8, 4), u32s(0, 5)), 1, 32), "frame of 8 + 4 bytes");
    message(bad(dict, concat(u64s(4, 8), u32s(0, 5)), 1, 32), "frame of 4 + 8 bytes");
    message(bad(dict, concat(u64s(4, 4), u32s(0, 5, 6)), 1, 32), "frame of 4 + 4 bytes, 12 follow");
    message(bad(dict, concat(u64s(MAX64, 4), u32s(0, 5)), 1, 32), "frame of 18446744073709551615");
    CompressiveEncoding metaItems = G23.dict(G23.flat(32), G23.range(32, 5, 1), 1);
    message(bad(metaItems, concat(u64s(4, 4), u32s(0, 5)), 1, 32), "metadata-only child");
  }

  @Test
  void malformedBitpacking() {
    byte[] group = concat(u32s(1), new byte[128]);
    message(bad(G23.inline(32), concat(group, new byte[1]), 1, 32), "after the last group");
    message(bad(G23.inline(32), java.util.Arrays.copyOf(group, 100), 1, 32), "needs 132 bytes");
    message(bad(G23.inline(32), concat(u32s(33), new byte[128]), 1, 32), "bit width 33");
    message(bad(G23.inline(32), new byte[2], 1, 32), "cannot hold");
    message(bad(G23.inline(32), group, 1025, 32), "group 1 at byte 132 has no width word");
    // a second group of width 0 is its width word alone
    assertArrayEquals(new long[1025], G23.decode(G23.inline(32), concat(u32s(0), u32s(0)), 1025, 32));
    message(bad(G23.inline(32), concat(group, u32s(1)), 2048, 32), "needs 132 bytes, 4 remain");
    message(bad(G23.ool(64, 3), new byte[23], 3, 64), "fit neither layout");
  }

  @Test
  void arithmeticOverflow() {
    // Range: start + step * (n - 1) must fit; the boundary itself decodes
    assertArrayEquals(new long[] {0xFFFFFFF0L, 0xFFFFFFF5L, 0xFFFFFFFAL, MAX32}, G23.decode(G23.range(32, 0xFFFFFFF0L, 5), new byte[0], 4, 32));
    message(bad(G23.range(32, 0xFFFFFFF0L, 5), new byte[0], 5, 32), "overflows 32 bits");
    assertArrayEquals(new long[] {0, 1L << 62, 2L << 62, 3L << 62}, G23.decode(G23.range(64, 0, 1L << 62), new byte[0], 4, 64));
    message(bad(G23.range(64, 0, 1L << 62), new byte[0], 5, 64), "overflows 64 bits");
    message(bad(G23.range(64, MAX64 - 10, 5), new byte[0], 4, 64), "overflows 64 bits");
    message(bad(G23.range(64, 1, MAX64), new byte[0], 2, 64), "overflows 64 bits");
    message(bad(G23.range(64, 2, 1L << 40), new byte[0], (1L << 24) + 1, 64), "overflows 64 bits"); // caught before any allocation
    // Delta: checked prefix sums
    assertArrayEquals(new long[] {MAX64 - 2, MAX64 - 1, MAX64}, G23.decode(G23.delta(64, MAX64 - 2, G23.flat(64)), u64s(1, 1), 3, 64));
    message(bad(G23.delta(64, MAX64 - 2, G23.flat(64)), u64s(1, 2), 3, 64), "overflows 64 bits");
    message(bad(G23.delta(64, 1, G23.flat(64)), u64s(MAX64), 2, 64), "overflows 64 bits");
    message(bad(G23.delta(64, 5, G23.range(64, 1L << 62, 1L << 62)), new byte[0], 4, 64), "overflows 64 bits");
    assertArrayEquals(new long[] {MAX32 - 1, MAX32, MAX32}, G23.decode(G23.delta(32, MAX32 - 1, G23.flat(32)), u32s(1, 0), 3, 32));
    message(bad(G23.delta(32, MAX32 - 1, G23.flat(32)), u32s(1, 1), 3, 32), "overflows 32 bits");
    message(bad(G23.delta(32, 1, G23.flat(32)), u32s(MAX32), 2, 32), "overflows 32 bits");
    // RLE: lengths are unsigned u32 (0xFFFFFFFF is not -1) and may not sum past the cardinality
    CompressiveEncoding rle = G23.rle(G23.flat(32), G23.flat(32));
    message(bad(rle, concat(u64s(4, 1), u32s(7), u32s(MAX32)), 5, 32), "sum past 5 values");
    message(bad(rle, concat(u64s(8, 2), u32s(7, 8), u32s(MAX32, MAX32)), 5, 32), "sum past 5 values");
    message(bad(rle, concat(u64s(8, 2), u32s(7, 8), u32s(3, MAX32)), 5, 32), "sum past 5 values at run 1");
  }

  @Test
  void valuesTheContractForbids() {
    message(bad(G23.range(32, 0, 0), new byte[0], 2, 32), "not a positive");
    message(bad(G23.range(32, MAX32 + 1, 1), new byte[0], 1, 32), "does not fit 32 bits");
    message(bad(G23.range(32, 0, MAX32 + 1), new byte[0], 1, 32), "not a positive 32-bit");
    message(bad(G23.delta(32, MAX32 + 1, G23.flat(32)), new byte[0], 1, 32), "does not fit 32 bits");
    message(bad(G23.delta(32, 0, G23.flat(32)), new byte[0], 0, 32), "0 values");
    message(bad(G23.empty(), new byte[0], 3, 32), "asked for 3 values");
    message(bad(G23.constant(new byte[0]), new byte[0], 1, 32), "scalar of 0 bytes");
    message(bad(G23.constant(new byte[33]), new byte[0], 1, 32), "scalar of 33 bytes");
    message(bad(G23.rle(G23.flat(32), G23.flat(32)), concat(u64s(8, 2), u32s(7, 8), u32s(0, 3)), 3, 32), "length 0");
    message(bad(G23.rle(G23.flat(32), G23.flat(32)), concat(u64s(8, 2), u32s(7, 8), u32s(1, 1)), 3, 32), "cover 2 values");
    message(bad(G23.dict(G23.flat(32), G23.flat(32), 1), concat(u64s(8, 4), u32s(0, 1), u32s(5)), 2, 32), "index 1 of value 1");
    message(bad(G23.dict(G23.flat(32), G23.flat(32), 3), concat(u64s(8, 12), u32s(0, 1), u32s(5, 6, 7)), 2, 32), "3 items for 2 values");
    message(bad(G23.dict(G23.flat(32), G23.range(32, 0, 1), 1L << 40), concat(u64s(4, 0), u32s(0)), 1, 32), "items for 1 values");
    message(bad(G23.dict(G23.range(32, 0, 1), G23.range(32, 0, 1), 0), new byte[0], 2, 32), "index 0 of value 0");
    message(bad(G23.flat(32), new byte[0], -1, 32), "negative");
  }
}
