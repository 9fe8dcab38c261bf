package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.LanceCodecException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real payloads of every payload-bearing root our writer produces, damaged: truncated, their bytes
 * flipped, their cardinality off by one, their descriptor's bytes flipped (all seeded). Each
 * attempt must decode to exactly the cardinality's values or fail with one CORRUPT line; nothing
 * else escapes, and nothing hangs or allocates without bound.
 */
@Timeout(120)
class GenericBlockSweepTest {
  record Sample(CompressiveEncoding encoding, byte[] payload, long n, int bits) {}

  static List<Sample> samples() {
    List<Sample> out = new ArrayList<>();
    long seed = 77;
    for (int bits : new int[] {32, 64}) {
      for (int n : new int[] {5, 1500}) {
        for (String shape : G23.SHAPES) {
          long[] v = G23.make(shape, bits, n, seed++);
          Encoded<byte[]> enc = G23.CTX.compressUnsigned(G23.block(v, bits), FieldOptions.DEFAULT);
          out.add(new Sample((CompressiveEncoding) enc.encoding(), enc.data(), v.length, bits));
        }
      }
    }
    long[] inline = new long[2048];
    Random rnd = new Random(1);
    for (int i = 0; i < inline.length; i++) {
      inline[i] = i < 1024 ? rnd.nextInt(4) : rnd.nextInt(1 << 20);
    }
    Encoded<byte[]> enc = G23.CTX.compressUnsigned(G23.block(inline, 32), FieldOptions.DEFAULT);
    out.add(new Sample((CompressiveEncoding) enc.encoding(), enc.data(), inline.length, 32));
    // hand-made frames whose children both carry payloads
    out.add(new Sample(G23.rle(G23.flat(32), G23.flat(32)),
        G23.hex("0800000000000000 0200000000000000 07000000 09000000 03000000 02000000"), 5, 32));
    out.add(new Sample(G23.dict(G23.flat(32), G23.flat(64), 2),
        G23.hex("1000000000000000 1000000000000000 01000000 00000000 01000000 01000000 0500000000000000 e803000000000000"), 4, 64));
    return out;
  }

  /** Decodes; a result must be exactly {@code n} values of {@code bits}; a failure must be CORRUPT (or, for descriptors, {@code allowed}). */
  static void decodesOrFails(CompressiveEncoding e, byte[] payload, long n, int bits, Set<LanceCodecException.Kind> allowed, String what) {
    try {
      BlockDecompressor d = G23.CTX.unsignedBlock(e, bits);
      DataBlock out = d.decompress(d.consumesPayload() ? payload : new byte[0], n);
      DataBlock.FixedWidth fw = (DataBlock.FixedWidth) out;
      assertEquals(n, fw.numValues(), what);
      assertEquals(bits, fw.bitsPerValue(), what);
    } catch (LanceCodecException ex) {
      assertTrue(allowed.contains(ex.kind()), what + ": " + ex.kind() + " " + ex.getMessage());
      assertTrue(!ex.getMessage().contains("\n"), what + ": one line");
    }
  }

  @Test
  void samplesCoverEveryPayloadRoot() {
    Set<CompressiveEncoding.CompressionCase> roots = EnumSet.noneOf(CompressiveEncoding.CompressionCase.class);
    for (Sample s : samples()) {
      if (s.payload().length > 0) {
        roots.add(s.encoding().getCompressionCase());
      }
    }
    assertEquals(EnumSet.of(CompressiveEncoding.CompressionCase.FLAT, CompressiveEncoding.CompressionCase.DELTA,
        CompressiveEncoding.CompressionCase.RLE, CompressiveEncoding.CompressionCase.DICTIONARY,
        CompressiveEncoding.CompressionCase.OUT_OF_LINE_BITPACKING, CompressiveEncoding.CompressionCase.INLINE_BITPACKING), roots);
  }

  @Test
  void truncatedFlippedAndMiscounted() {
    Set<LanceCodecException.Kind> corrupt = EnumSet.of(LanceCodecException.Kind.CORRUPT);
    Random rnd = new Random(2323);
    int attempts = 0;
    for (Sample s : samples()) {
      byte[] p = s.payload();
      List<Integer> cuts = new ArrayList<>();
      for (int len = 0; len < p.length; len++) {
        if (p.length <= 200 || len < 24 || len > p.length - 24 || rnd.nextInt(p.length / 40) == 0) {
          cuts.add(len);
        }
      }
      for (int len : cuts) {
        decodesOrFails(s.encoding(), java.util.Arrays.copyOf(p, len), s.n(), s.bits(), corrupt, s.encoding().getCompressionCase() + " cut at " + len);
        attempts++;
      }
      for (int k = 0; k < (p.length == 0 ? 0 : 150); k++) {
        byte[] q = p.clone();
        int at = rnd.nextInt(q.length);
        q[at] ^= (byte) (1 + rnd.nextInt(255));
        decodesOrFails(s.encoding(), q, s.n(), s.bits(), corrupt, s.encoding().getCompressionCase() + " flipped at " + at);
        attempts++;
      }
      for (long n : new long[] {s.n() - 1, s.n() + 1, 0, s.n() * 2}) {
        if (n >= 0) {
          decodesOrFails(s.encoding(), p, n, s.bits(), corrupt, s.encoding().getCompressionCase() + " as " + n + " values");
          attempts++;
        }
      }
    }
    assertTrue(attempts > 5000, "attempts: " + attempts);
  }

  /**
   * Flipped descriptor bytes: CORRUPT, or MISSING_PLUGIN when the flip names a codec whose jar
   * this module's tests do not have (General's codec-general); never anything else.
   */
  @Test
  void flippedDescriptors() {
    Set<LanceCodecException.Kind> allowed = EnumSet.of(LanceCodecException.Kind.CORRUPT, LanceCodecException.Kind.MISSING_PLUGIN);
    Random rnd = new Random(99);
    int decoded = 0;
    for (Sample s : samples()) {
      byte[] d = s.encoding().toByteArray();
      for (int k = 0; k < 60 && d.length > 0; k++) {
        byte[] q = d.clone();
        q[rnd.nextInt(q.length)] ^= (byte) (1 + rnd.nextInt(255));
        CompressiveEncoding e;
        try {
          e = CompressiveEncoding.parseFrom(q);
        } catch (InvalidProtocolBufferException ex) {
          continue; // the container's protobuf parse fails first; not the codecs' concern
        }
        decodesOrFails(e, s.payload(), s.n(), s.bits(), allowed, "descriptor " + e);
        decoded++;
      }
    }
    assertTrue(decoded > 500, "descriptors tried: " + decoded);
  }
}
