package io.lancecodec.codec.general;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.BufferCompression;
import io.lancecodec.format.pb.v23.CompressionScheme;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.General;
import io.lancecodec.format.pb.v23.Range;
import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 2.3 {@code General(Flat)} as a generic unsigned block, with the real registry: offered only when
 * asked (lz4 or zstd), chosen only when smallest, decoded to exactly the container's bytes; a
 * hand-checked lz4 vector; every malformed tree or frame is one CORRUPT line.
 */
@Timeout(60)
class General23Test {
  static final RuntimeLayoutContext CTX =
      new RuntimeLayoutContext(Plugins.discover(General23Test.class.getClassLoader()), FileVersion.V2_3, b -> 0L);

  static FieldOptions asking(String scheme) {
    return CodecRegistry.discover().parseOptions(Map.of("lance-encoding:compression", scheme));
  }

  static CompressiveEncoding general(int scheme, CompressiveEncoding values) {
    General.Builder g = General.newBuilder().setCompression(BufferCompression.newBuilder().setSchemeValue(scheme));
    if (values != null) {
      g.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setGeneral(g).build();
  }

  static CompressiveEncoding flat(int bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  /** 5000 u64 values repeating a period of 100 random ones: zstd sees the repeats, the integer codecs do not. */
  static DataBlock.FixedWidth periodic() {
    Random rnd = new Random(4);
    long[] period = new long[100];
    for (int i = 0; i < period.length; i++) {
      period[i] = rnd.nextLong();
    }
    byte[] d = new byte[5000 * 8];
    for (int i = 0; i < 5000; i++) {
      LittleEndian.putLong(d, 8 * i, period[i % 100]);
    }
    return new DataBlock.FixedWidth(d, 64, 5000);
  }

  static long[] decode(CompressiveEncoding e, byte[] payload, long n, int bits) {
    BlockDecompressor d = CTX.unsignedBlock(e, bits);
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) d.decompress(payload, n);
    long[] out = new long[(int) n];
    for (int i = 0; i < n; i++) {
      out[i] = LittleEndian.getUnsigned(fw.data(), i * bits / 8, bits / 8);
    }
    return out;
  }

  @Test
  void lz4Golden() {
    // u32 length 8, then one LZ4 sequence: token 0x80 (8 literals, no match) and the literals 1, 2
    byte[] payload = HexFormat.of().parseHex("08000000" + "80" + "01000000" + "02000000");
    CompressiveEncoding e = General23.encoding(Scheme.LZ4, java.util.OptionalInt.empty(), 32);
    assertEquals(general(1, flat(32)), e);
    assertArrayEquals(new long[] {1, 2}, decode(e, payload, 2, 32));
    DataBlock.FixedWidth fw = new DataBlock.FixedWidth(HexFormat.of().parseHex("0100000002000000"), 32, 2);
    Proposal<Encoded<byte[]>> p = General23.proposeBlock(fw, new Context(asking("lz4"), List.of())).orElseThrow();
    assertArrayEquals(payload, p.result().data(), "lz4-java writes the same frame");
    assertEquals("general(lz4, flat(32))", CTX.describe(e).toString());
  }

  @Test
  void chosenWhenAskedAndSmallest() {
    DataBlock.FixedWidth fw = periodic();
    for (String scheme : new String[] {"zstd", "lz4"}) {
      Encoded<byte[]> enc = CTX.compressUnsigned(fw, asking(scheme));
      CompressiveEncoding e = (CompressiveEncoding) enc.encoding();
      assertTrue(e.hasGeneral() && e.getGeneral().getValues().equals(flat(64)), scheme + ": " + e);
      assertTrue(enc.data().length < 5000, scheme + ": " + enc.data().length);
      long[] back = decode(e, enc.data(), 5000, 64);
      assertEquals(LittleEndian.getLong(fw.data(), 8 * 4321), back[4321]);
      assertArrayEquals(fw.data(), Seq64.bytes(back));
    }
    // not asked: never general; asked but small: the smaller codec wins
    assertTrue(!((CompressiveEncoding) CTX.compressUnsigned(fw, FieldOptions.DEFAULT).encoding()).hasGeneral());
    DataBlock.FixedWidth tiny = new DataBlock.FixedWidth(new byte[16], 64, 2);
    assertTrue(((CompressiveEncoding) CTX.compressUnsigned(tiny, asking("zstd")).encoding()).hasConstant());
    assertTrue(General23.proposeBlock(fw, new Context(FieldOptions.DEFAULT, List.of())).isEmpty());
    assertTrue(General23.proposeBlock(fw, new Context(asking("snappy"), List.of())).isEmpty(), "2.3 snappy frames no blocks");
  }

  @Test
  void familySharesOneDescriptor() {
    DataBlock.FixedWidth a = periodic();
    DataBlock.FixedWidth b = new DataBlock.FixedWidth(java.util.Arrays.copyOf(a.data(), 800), 64, 100);
    Proposal<Encoded<byte[]>> p = General23.proposeBlock(a, new Context(asking("zstd"), List.of(a, b))).orElseThrow();
    Encoded<byte[]> rb = p.compressor().compress(b);
    assertEquals(p.result().encoding(), rb.encoding());
    assertEquals(p.result().data().length + rb.data().length, p.estimatedBytes());
    assertArrayEquals(b.data(), Seq64.bytes(decode((CompressiveEncoding) rb.encoding(), rb.data(), 100, 64)));
  }

  static void corrupt(CompressiveEncoding e, byte[] payload, long n, int bits, String part) {
    LanceCodecException x = assertThrows(LanceCodecException.class, () -> CTX.unsignedBlock(e, bits).decompress(payload, n));
    assertEquals(LanceCodecException.Kind.CORRUPT, x.kind(), x.getMessage());
    assertTrue(x.getMessage().contains(part) && !x.getMessage().contains("\n"), x.getMessage());
  }

  @Test
  void malformedTreesAndFrames() {
    byte[] ok = HexFormat.of().parseHex("08000000800100000002000000");
    CompressiveEncoding range = CompressiveEncoding.newBuilder()
        .setRange(Range.newBuilder().setUncompressedBitsPerValue(32).setStep(1)).build();
    corrupt(general(1, range), ok, 2, 32, "wraps only Flat");
    corrupt(general(1, general(1, flat(32))), ok, 2, 32, "wraps only Flat");
    corrupt(general(1, null), ok, 2, 32, "inner encoding missing");
    corrupt(general(0, flat(32)), ok, 2, 32, "unspecified");
    corrupt(CompressiveEncoding.newBuilder().setGeneral(General.newBuilder().setValues(flat(32))).build(), ok, 2, 32, "config missing");
    corrupt(general(1, flat(32)), ok, 2, 64, "container of 64");
    corrupt(general(1, flat(32)), ok, 3, 32, "decoded to 8 bytes"); // a frame of 8 bytes for 12
    corrupt(general(1, flat(32)), ok, 1, 32, "exceeds the budget of 4"); // 8 declared, 4 expected
    corrupt(general(1, flat(32)), new byte[0], 2, 32, "decoded to 0 bytes");
    assertEquals(CompressionScheme.COMPRESSION_ALGORITHM_ZSTD_VALUE, 2);
  }

  @Test
  void damagedFramesSweep() {
    Random rnd = new Random(6);
    DataBlock.FixedWidth fw = periodic();
    int tries = 0;
    for (String scheme : new String[] {"zstd", "lz4"}) {
      Encoded<byte[]> enc = CTX.compressUnsigned(fw, asking(scheme));
      byte[] p = enc.data();
      for (int k = 0; k < 300; k++) {
        byte[] q = k < 100 ? java.util.Arrays.copyOf(p, rnd.nextInt(p.length)) : p.clone();
        if (k >= 100) {
          q[rnd.nextInt(q.length)] ^= (byte) (1 + rnd.nextInt(255));
        }
        try {
          DataBlock.FixedWidth out = (DataBlock.FixedWidth) CTX.unsignedBlock(enc.encoding(), 64).decompress(q, 5000);
          assertEquals(5000, out.numValues());
        } catch (LanceCodecException x) {
          assertEquals(LanceCodecException.Kind.CORRUPT, x.kind(), scheme + ": " + x.getMessage());
        }
        tries++;
      }
    }
    assertEquals(600, tries);
  }

  /** u64 values back to little-endian bytes. */
  static final class Seq64 {
    static byte[] bytes(long[] v) {
      byte[] out = new byte[8 * v.length];
      for (int i = 0; i < v.length; i++) {
        LittleEndian.putLong(out, 8 * i, v[i]);
      }
      return out;
    }
  }

  record Context(FieldOptions options, List<DataBlock.FixedWidth> family) implements ProposalContext {
    @Override
    public Stats stats() {
      return new Stats.Other(0);
    }

    @Override
    public FileVersion version() {
      return FileVersion.V2_3;
    }

    @Override
    public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock block) {
      return Optional.empty();
    }

    @Override
    public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock block) {
      return Optional.empty();
    }
  }
}
