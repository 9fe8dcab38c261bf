package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.General;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hostile frames: every failure is a one-line CORRUPT LanceCodecException, nothing over-allocated. */
class GeneralCorruptInputTest {
  static Stream<Arguments> schemes() {
    return TestCodecs.SCHEMES.stream().map(Arguments::of);
  }

  private static LanceCodecException corrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
    return e;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemes")
  void everyTruncationFails(Scheme s) {
    byte[] in = TestCodecs.data(20_000, 7, true);
    BufferCodec c = TestCodecs.codec(s);
    byte[] frame = c.compress(in, 0, in.length);
    for (int cut = 1; cut < frame.length; cut += Math.max(1, frame.length / 97)) {
      byte[] t = Arrays.copyOf(frame, cut);
      corrupt(() -> c.decompress(t, 0, t.length, in.length));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemes")
  void wrongLengthPrefixFails(Scheme s) {
    byte[] in = TestCodecs.data(5000, 8, true);
    BufferCodec c = TestCodecs.codec(s);
    byte[] frame = c.compress(in, 0, in.length);
    for (long wrong : new long[] {4999, 5001, 0, 1}) {
      byte[] f = frame.clone();
      if (s == Scheme.ZSTD) {
        LittleEndian.putLong(f, 0, wrong);
      } else if (s == Scheme.LZ4) {
        LittleEndian.putInt(f, 0, (int) wrong);
      } else {
        // snappy's varint: 5000 = 0x88 0x27 (2 bytes); rewrite it with another 2-byte varint
        long v = Math.max(wrong, 128);
        f[0] = (byte) (0x80 | (v & 0x7F));
        f[1] = (byte) (v >> 7);
        if (v == 5000) {
          continue;
        }
      }
      corrupt(() -> c.decompress(f, 0, f.length, 1 << 20));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemes")
  void bombIsRejectedBeforeAllocation(Scheme s) {
    byte[] in = new byte[4096];
    BufferCodec c = TestCodecs.codec(s);
    byte[] frame = c.compress(in, 0, in.length);
    byte[] bomb = frame.clone();
    long declared = 1L << 40;
    if (s == Scheme.ZSTD) {
      LittleEndian.putLong(bomb, 0, declared);
    } else if (s == Scheme.LZ4) {
      LittleEndian.putInt(bomb, 0, 0x7FFF_FFF0);
      declared = 0x7FFF_FFF0;
    } else {
      bomb = new byte[] {(byte) 0xF0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 0, 0, 0};
      declared = 0x7FFF_FFF0L;
    }
    long budget = 32 * 1024;
    byte[] b = bomb;
    // Far over the budget: named in the message, never allocated (a 1 TiB array cannot exist).
    LanceCodecException e = corrupt(() -> c.decompress(b, 0, b.length, budget));
    assertTrue(e.getMessage().contains("budget"), e.getMessage());
    // Within a huge budget, the ratio bound still refuses what the frame cannot expand to.
    corrupt(() -> c.decompress(b, 0, b.length, Long.MAX_VALUE));
  }

  @Test
  void miniBlockBudgetComesFromTheInnerEncoding() {
    // A chunk of 512 f64 values behind byte-stream-split holds exactly 4096 bytes.
    assertEquals(4096, GeneralMiniBlock.budget(new ByteStreamSplit.Decompressor(64), 512));
    byte[] frame = TestCodecs.codec(Scheme.ZSTD).compress(new byte[8192], 0, 8192);
    MiniBlockDecompressor d =
        TestCodecs.DECODERS.miniBlock(GeneralMiniBlock.wrap(Scheme.ZSTD.describe(java.util.OptionalInt.empty()), TestCodecs.flat(64)));
    LanceCodecException e = corrupt(() -> d.decompress(MiniBlockBuffers.of(frame), (int) (512), null));
    assertTrue(e.getMessage().contains("budget of 4096"), e.getMessage());
  }

  @Test
  void unknownSchemeIsUnsupported() {
    CompressiveEncoding e =
        CompressiveEncoding.newBuilder()
            .setGeneral(General.newBuilder().setCompression(BufferCompression.newBuilder().setSchemeValue(77)).setValues(TestCodecs.flat(8)))
            .build();
    LanceCodecException x = assertThrows(LanceCodecException.class, () -> TestCodecs.DECODERS.miniBlock(e));
    assertEquals(LanceCodecException.Kind.UNSUPPORTED, x.kind());
    CompressiveEncoding noInner =
        CompressiveEncoding.newBuilder().setGeneral(General.newBuilder().setCompression(Scheme.LZ4.describe(java.util.OptionalInt.empty()))).build();
    corrupt(() -> TestCodecs.DECODERS.block(noInner));
  }

  /**
   * An LZ4 block whose match points before the start of its output: a decoder writing into a
   * shared or reused buffer would copy earlier bytes (another value, another read) into the
   * result. It must fail instead, in every context.
   */
  @Test
  void backReferenceBeforeOutputStartNeverLeaks() {
    byte[] forged = {
      16, 0, 0, 0, // declares 16 bytes
      0x0C, 0x10, 0x00, // token: 0 literals, match length 4 + 12 = 16; offset 16 (before the start)
      0x00 // trailing literals token
    };
    BufferCodec lz4 = TestCodecs.codec(Scheme.LZ4);
    corrupt(() -> lz4.decompress(forged, 0, forged.length, 1 << 20));
    // The same frame as the second value of a full-zip page, after a secret first value.
    byte[] secret = "SECRET-SECRET-SECRET-SECRET".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] first = lz4.compress(secret, 0, secret.length);
    byte[] data = new byte[first.length + forged.length];
    System.arraycopy(first, 0, data, 0, first.length);
    System.arraycopy(forged, 0, data, first.length, forged.length);
    byte[] offsets = new byte[12];
    LittleEndian.putInt(offsets, 4, first.length);
    LittleEndian.putInt(offsets, 8, data.length);
    CompressiveEncoding e = GeneralPerValue.encoding(Scheme.LZ4.describe(java.util.OptionalInt.empty()), 32);
    corrupt(() -> TestCodecs.DECODERS.perValue(e).decompress(new DataBlock.VariableWidth(offsets, 32, data, 2), null));
  }

  /** Outputs are fresh arrays: decoding into a "reused" buffer full of secrets changes nothing. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("schemes")
  void dirtyOutputNeverLeaks(Scheme s) {
    BufferCodec c = TestCodecs.codec(s);
    byte[] plain = new byte[3000];
    byte[] frame = c.compress(plain, 0, plain.length);
    byte[] dirty = new byte[3000];
    Arrays.fill(dirty, (byte) 0xAA);
    byte[] out1 = c.decompress(frame, 0, frame.length, 3000);
    assertArrayEquals(plain, out1);
    // decompressInto a dirty buffer must overwrite every declared byte or fail.
    c.decompressInto(frame, 0, frame.length, dirty, 0, 3000);
    assertArrayEquals(plain, dirty);
    byte[] cut = Arrays.copyOf(frame, frame.length - 1);
    byte[] dirty2 = new byte[3000];
    Arrays.fill(dirty2, (byte) 0xAA);
    assertThrows(LanceCodecException.class, () -> c.decompressInto(cut, 0, cut.length, dirty2, 0, 3000));
  }

  @Test
  void byteStreamSplitChecksSizes() {
    corrupt(() -> new ByteStreamSplit.Decompressor(64).decompress(MiniBlockBuffers.of(new byte[4095]), (int) (512), null));
    corrupt(() -> new ByteStreamSplit.Decompressor(32).decompress(MiniBlockBuffers.of(new byte[4]), (int) (-1), null));
    corrupt(() -> new ByteStreamSplit.Decompressor(32).decompress(MiniBlockBuffers.of(new byte[4], new byte[4]), (int) (1), null));
  }

  @Test
  void legacyBareZstdStreamStillReads() {
    byte[] in = TestCodecs.data(10_000, 3, true);
    byte[] framed = TestCodecs.codec(Scheme.ZSTD).compress(in, 0, in.length);
    byte[] bare = Arrays.copyOfRange(framed, ZstdCodec.PREFIX, framed.length);
    assertArrayEquals(in, TestCodecs.codec(Scheme.ZSTD).decompress(bare, 0, bare.length, in.length));
    corrupt(() -> TestCodecs.codec(Scheme.ZSTD).decompress(bare, 0, bare.length, in.length - 1));
  }

  /** The in-place scan path checks what the frame claims against the chunk and the output. */
  @ParameterizedTest
  @EnumSource(value = Scheme.class, names = {"LZ4", "ZSTD"})
  void decodeIntoChecksTheFrame(Scheme s) {
    byte[] in = TestCodecs.data(4096, 9, true);
    byte[] frame = TestCodecs.codec(s).compress(in, 0, in.length);
    FixedWidthMiniBlockDecompressor d = (FixedWidthMiniBlockDecompressor)
        TestCodecs.DECODERS.miniBlock(GeneralMiniBlock.wrap(s.describe(java.util.OptionalInt.empty()), TestCodecs.flat(64)));
    byte[] out = new byte[4096];
    d.decodeInto(MiniBlockBuffers.of(frame), 512, 0, 512, out, 0);
    assertArrayEquals(in, out);
    // a slice past the buffer
    corrupt(() -> d.decodeInto(new MiniBlockBuffers(frame, new int[] {1}, new int[] {frame.length}), 512, 0, 512, out, 0));
    // fewer values than the frame holds: the frame's length exceeds the chunk's budget
    corrupt(() -> d.decodeInto(MiniBlockBuffers.of(frame), 256, 0, 256, out, 0));
    // a frame cut short
    corrupt(() -> d.decodeInto(new MiniBlockBuffers(frame, new int[] {0}, new int[] {frame.length - 3}), 512, 0, 512, new byte[4096], 0));
    // a part of a chunk decodes the frame and copies the part
    byte[] part = new byte[80];
    d.decodeInto(MiniBlockBuffers.of(frame), 512, 3, 13, part, 0);
    assertArrayEquals(Arrays.copyOfRange(in, 24, 104), part);
    // the legacy bare zstd stream still decodes through the copying route
    if (s == Scheme.ZSTD) {
      byte[] bare = Arrays.copyOfRange(frame, ZstdCodec.PREFIX, frame.length);
      byte[] out2 = new byte[4096];
      d.decodeInto(MiniBlockBuffers.of(bare), 512, 0, 512, out2, 0);
      assertArrayEquals(in, out2);
    }
  }
}
