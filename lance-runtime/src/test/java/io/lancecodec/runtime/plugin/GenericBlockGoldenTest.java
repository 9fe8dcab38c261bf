package io.lancecodec.runtime.plugin;

import static io.lancecodec.runtime.plugin.G23.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import org.junit.jupiter.api.Test;

/**
 * One hand-checked byte vector per generic block root (docs/wire/generic-blocks.md explains each
 * byte), decoded through the container's entry point; where our writer picks that root for the
 * values, it must write exactly these bytes.
 */
class GenericBlockGoldenTest {
  /** Decodes the vector to {@code values}, and when {@code written}, checks the writer produces it. */
  static void golden(CompressiveEncoding e, String payloadHex, int bits, boolean written, long... values) {
    byte[] payload = hex(payloadHex);
    assertArrayEquals(values, G23.decode(e, payload, values.length, bits), e.toString());
    if (written) {
      Encoded<byte[]> enc = G23.CTX.compressUnsigned(G23.block(values, bits), FieldOptions.DEFAULT);
      assertEquals(e, enc.encoding());
      assertArrayEquals(payload, enc.data(), "written payload");
    }
  }

  @Test
  void flat() {
    // u32 3, 1, 2 little-endian; bit-packing would take as many bytes, so Flat it is
    golden(G23.flat(32), "03000000 01000000 02000000", 32, true, 3, 1, 2);
  }

  @Test
  void constant() {
    // the scalar, u64 7 little-endian, is the descriptor; no payload
    golden(G23.constant(hex("0700000000000000")), "", 64, true, 7, 7, 7);
    // the empty sequence: Constant without a value, no payload
    golden(G23.empty(), "", 32, true);
  }

  @Test
  void range() {
    // 5 + 3i: metadata only
    golden(G23.range(32, 5, 3), "", 32, true, 5, 8, 11, 14);
  }

  @Test
  void delta() {
    // 10, then the differences 5, 1, 3 as a Flat u32 leaf (12 bytes against Flat's 16)
    golden(G23.delta(32, 10, G23.flat(32)), "05000000 01000000 03000000", 32, true, 10, 15, 16, 19);
    // 1, 2, 0xFFFFFFFF: differences 1 and 0xFFFFFFFD are Range(1, 0xFFFFFFFC): all metadata
    golden(G23.delta(32, 1, G23.range(32, 1, 0xFFFFFFFCL)), "", 32, true, 1, 2, 0xFFFFFFFFL);
  }

  @Test
  void inlineBitpacking() {
    // one group: width word 1, then 128 bytes of 1-bit words; value 0 is bit 0 of word 0 of lane 0
    golden(G23.inline(32), "01000000 01" + "00".repeat(127), 32, false, 1);
    // 1025 values: group 0 of 1024 zeros has width 0 (its word only), group 1 holds the one 1
    long[] v = new long[1025];
    v[1024] = 1;
    golden(G23.inline(32), "00000000 01000000 01" + "00".repeat(127), 32, false, v);
  }

  @Test
  void outOfLineBitpacking() {
    // width 3 for u64 5, 0, 7: a 3-value tail packed would take a 1024-value group, so it is raw
    golden(G23.ool(64, 3), "0500000000000000 0000000000000000 0700000000000000", 64, false, 5, 0, 7);
    // one full group of width 1: 1023 ones after a zero; value 0 is bit 0 of byte 0
    long[] v = new long[1024];
    java.util.Arrays.fill(v, 1, 1024, 1);
    golden(G23.ool(32, 1), "fe" + "ff".repeat(127), 32, false, v);
  }

  @Test
  void rle() {
    // values_payload_bytes 8, num_runs 2, run values 7 and 9 (Flat u32), lengths 3 and 2 (Flat u32)
    golden(G23.rle(G23.flat(32), G23.flat(32)),
        "0800000000000000 0200000000000000 07000000 09000000 03000000 02000000", 32, false, 7, 7, 7, 9, 9);
    // 100 sevens, 50 nines: run values are Range(7, 2) (no bytes), lengths 100 and 50 Flat
    long[] v = new long[150];
    java.util.Arrays.fill(v, 0, 100, 7);
    java.util.Arrays.fill(v, 100, 150, 9);
    golden(G23.rle(G23.range(32, 7, 2), G23.flat(32)), "0000000000000000 0200000000000000 64000000 32000000", 32, true, v);
  }

  @Test
  void dictionary() {
    // frame 16 + 16 bytes; indices 1 0 1 1 (u32); items 5 and 1000 (u64)
    golden(G23.dict(G23.flat(32), G23.flat(64), 2),
        "1000000000000000 1000000000000000 01000000 00000000 01000000 01000000 0500000000000000 e803000000000000",
        64, false, 1000, 5, 1000, 1000);
    // items Range(100, 10) have no payload: their framed length is 0
    golden(G23.dict(G23.flat(32), G23.range(64, 100, 10), 3),
        "1000000000000000 0000000000000000 02000000 00000000 01000000 02000000", 64, false, 120, 100, 110, 120);
    // two metadata-only children: no payload at all
    golden(G23.dict(G23.range(32, 0, 1), G23.constant(hex("0700000000000000")), 3), "", 64, false, 7, 7, 7);
  }
}
