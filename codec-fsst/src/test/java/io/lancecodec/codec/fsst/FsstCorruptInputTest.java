package io.lancecodec.codec.fsst;

import com.google.protobuf.ByteString;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Fsst;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hostile tables, codes and chunks fail with CORRUPT, never another exception type. */
class FsstCorruptInputTest {
  static final SymbolTable TABLE =
      new SymbolTable(true, 0, 0, new long[] {'a' | 'b' << 8, 'x'}, new int[] {2, 1});

  static LanceCodecException corrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().startsWith("fsst: "), e.getMessage());
    return e;
  }

  static DataBlock.VariableWidth codes(byte[]... values) {
    return TestBlocks.block(Arrays.asList(values), 32);
  }

  @Test
  void tableOfWrongSize() {
    corrupt(() -> SymbolTable.parse(new byte[2311]));
    corrupt(() -> SymbolTable.parse(new byte[0]));
    corrupt(() -> SymbolTable.parse(Arrays.copyOf(TABLE.serialize(), 2313)));
  }

  @Test
  void tableWithoutMagic() {
    byte[] b = TABLE.serialize();
    b[7] = 'X';
    assertTrue(corrupt(() -> SymbolTable.parse(b)).getMessage().contains("magic"));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 9, 200, 255})
  void symbolLengthOutOfRange(int len) {
    byte[] b = TABLE.serialize();
    b[8 + 2 * 8 + 1] = (byte) len;
    assertTrue(corrupt(() -> SymbolTable.parse(b)).getMessage().contains("length " + len));
  }

  @Test
  void tooManySymbols() {
    byte[] b = TABLE.serialize();
    b[0] = (byte) 255;
    // 255 symbols declared, lengths of the unused ones are 0
    corrupt(() -> SymbolTable.parse(b));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 100, 254})
  void undefinedCode(int code) {
    FsstDecoder d = new FsstDecoder(TABLE);
    // the bad code at every position of a value long enough for the 8-code fast path
    for (int at = 0; at < 12; at++) {
      byte[] v = new byte[12];
      Arrays.fill(v, (byte) 0);
      v[at] = (byte) code;
      LanceCodecException e = corrupt(() -> d.decompress(codes(new byte[] {1}, v)));
      assertTrue(e.getMessage().contains("code " + code), e.getMessage());
    }
    // runs of undefined codes (their lengths add up past any int), alone, last, before an escape
    for (int run : new int[] {1, 2, 3, 4, 7, 8, 9, 16, 33}) {
      byte[] bad = new byte[run];
      Arrays.fill(bad, (byte) code);
      byte[] thenEscape = Arrays.copyOf(bad, run + 2);
      thenEscape[run] = (byte) 255;
      thenEscape[run + 1] = 'q';
      for (byte[][] values : new byte[][][] {{bad}, {new byte[] {0, 1, 0}, bad}, {bad, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0}}, {thenEscape}}) {
        LanceCodecException e = corrupt(() -> d.decompress(codes(values)));
        assertTrue(e.getMessage().contains("code " + code), e.getMessage());
      }
    }
  }

  @Test
  void danglingEscape() {
    FsstDecoder d = new FsstDecoder(TABLE);
    corrupt(() -> d.decompress(codes(new byte[] {0, (byte) 255})));
    corrupt(() -> d.decompress(codes(new byte[] {(byte) 255})));
    // an escape whose literal is the first byte of the next value
    corrupt(() -> d.decompress(codes(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 255}, new byte[] {0x41, 0})));
    corrupt(() -> d.decompress(codes(new byte[] {(byte) 255}, new byte[] {0x41})));
  }

  @Test
  void escapeAndLiteralDecode() {
    FsstDecoder d = new FsstDecoder(TABLE);
    DataBlock.VariableWidth out =
        d.decompress(codes(new byte[] {(byte) 255, (byte) 255, 0, 1, (byte) 255, 0}, new byte[0], new byte[] {1}));
    List<byte[]> v = TestBlocks.values(out);
    assertEquals(new String(new byte[] {(byte) 255, 'a', 'b', 'x', 0}, java.nio.charset.StandardCharsets.ISO_8859_1),
        new String(v.get(0), java.nio.charset.StandardCharsets.ISO_8859_1));
    assertEquals(0, v.get(1).length);
    assertEquals("x", new String(v.get(2), java.nio.charset.StandardCharsets.US_ASCII));
  }

  /** The per-thread decode buffer is reused: a small decode after a big one shows none of its bytes. */
  @Test
  void reusedBufferDoesNotLeak() {
    FsstDecoder d = new FsstDecoder(TABLE);
    byte[] big = new byte[10_000];
    d.decompress(codes(big)); // 10,000 x "ab"
    DataBlock.VariableWidth small = d.decompress(codes(new byte[] {1}, new byte[0]));
    assertEquals(1, small.data().length);
    assertEquals('x', small.data()[0]);
    corrupt(() -> d.decompress(codes(big, new byte[] {7})));
    DataBlock.VariableWidth after = d.decompress(codes(new byte[] {(byte) 255, 9}));
    assertEquals(1, after.data().length);
    assertEquals(9, after.data()[0]);
  }

  /**
   * Each result owns its array: the next large decode leaves the previous result intact and shows
   * none of its bytes (an earlier decoder kept a per-thread array for large outputs), and a result
   * whose guessed array was mostly unused comes back trimmed.
   */
  @Test
  void largeOutputsNeverShareAnArray() {
    FsstDecoder d = new FsstDecoder(TABLE);
    DataBlock.VariableWidth first = d.decompress(codes(new byte[200_000])); // 400,000 bytes of "ab"
    DataBlock.VariableWidth second = d.decompress(codes(fill(150_000, (byte) 1), new byte[] {(byte) 255, 9}));
    assertEquals(400_000, first.data().length);
    for (int i = 0; i < 400_000; i++) {
      assertEquals(i % 2 == 0 ? 'a' : 'b', first.data()[i]);
    }
    assertEquals(150_001, second.data().length);
    assertEquals(150_000, second.offset(1));
    for (int i = 0; i < 150_000; i++) {
      assertEquals('x', second.data()[i]);
    }
    assertEquals(9, second.data()[150_000]);
  }

  @Test
  void badOffsets() {
    FsstDecoder d = new FsstDecoder(TABLE);
    byte[] data = {0, 1, 0, 1};
    byte[] offs = new byte[12];
    LittleEndian.putInt(offs, 4, 3);
    LittleEndian.putInt(offs, 8, 2); // goes backwards
    corrupt(() -> d.decompress(new DataBlock.VariableWidth(offs, 32, data, 2)));
    LittleEndian.putInt(offs, 8, 5); // past the data
    corrupt(() -> d.decompress(new DataBlock.VariableWidth(offs, 32, data, 2)));
    byte[] wide = new byte[16];
    LittleEndian.putLong(wide, 0, -1L); // negative first offset
    corrupt(() -> d.decompress(new DataBlock.VariableWidth(wide, 64, data, 1)));
    // 64-bit offsets that would look in range if cut to 32 bits
    byte[] wrap = new byte[24];
    LittleEndian.putLong(wrap, 8, (1L << 32) + 2);
    LittleEndian.putLong(wrap, 16, 4);
    corrupt(() -> d.decompress(new DataBlock.VariableWidth(wrap, 64, data, 2)));
    LittleEndian.putLong(wrap, 8, 2);
    LittleEndian.putLong(wrap, 16, (1L << 32) + 4);
    corrupt(() -> d.decompress(new DataBlock.VariableWidth(wrap, 64, data, 2)));
    // backwards inside one 8-code group
    byte[] group = new byte[16];
    byte[] offs3 = new byte[16];
    LittleEndian.putInt(offs3, 4, 5);
    LittleEndian.putInt(offs3, 8, 4);
    LittleEndian.putInt(offs3, 12, 16);
    corrupt(() -> d.decompress(new DataBlock.VariableWidth(offs3, 32, group, 3)));
  }

  /**
   * Offsets are checked as each window of codes is finished: a large block (several windows) with
   * one offset going backwards, or one past the data, fails in any window.
   */
  @ParameterizedTest
  @ValueSource(ints = {6000, 20_000})
  void badOffsetsInLargeBlocks(int n) {
    FsstDecoder d = new FsstDecoder(TABLE);
    // 10 code bytes each: 60,000 bytes (about four windows, decoded on one thread) or 200,000
    // (from both ends on two)
    byte[] data = new byte[10 * n];
    for (int at : new int[] {1, 1500, 2500, 4000, n / 2, n - 2000, n - 1}) {
      byte[] offs = new byte[4 * (n + 1)];
      for (int i = 0; i <= n; i++) {
        LittleEndian.putInt(offs, 4 * i, 10 * i);
      }
      LittleEndian.putInt(offs, 4 * at, 10 * at - 11); // before the previous end
      corrupt(() -> d.decompress(new DataBlock.VariableWidth(offs, 32, data, n)));
      LittleEndian.putInt(offs, 4 * at, data.length + 1); // past the data
      corrupt(() -> d.decompress(new DataBlock.VariableWidth(offs, 32, data, n)));
    }
  }

  /**
   * An undefined code in the first, a middle or the last window of a block decoded from both ends
   * fails as CORRUPT whichever thread meets it; the same reused arrays then decode a good block
   * right, so no window of the failed block was still being written.
   */
  @Test
  void undefinedCodeAtEitherEndOfALargeBlock() {
    FsstDecoder d = new FsstDecoder(TABLE);
    io.lancecodec.spi.DecodeBuffers reuse = new io.lancecodec.spi.DecodeBuffers();
    int n = 20_000;
    byte[] good = new byte[10 * n];
    for (int i = 0; i < good.length; i++) {
      good[i] = (byte) (i % 3 == 0 ? 1 : 0);
    }
    byte[] offs = new byte[4 * (n + 1)];
    for (int i = 0; i <= n; i++) {
      LittleEndian.putInt(offs, 4 * i, 10 * i);
    }
    for (int round = 0; round < 20; round++) {
      for (int at : new int[] {5, good.length / 2, good.length - 5}) {
        byte[] bad = good.clone();
        bad[at] = 7;
        LanceCodecException e = corrupt(() -> d.decompress(new DataBlock.VariableWidth(offs, 32, bad, n), reuse));
        assertTrue(e.getMessage().contains("code 7"), e.getMessage());
      }
      DataBlock.VariableWidth out = d.decompress(new DataBlock.VariableWidth(offs, 32, good, n), reuse);
      int o = 0;
      for (int i = 0; i < good.length; i++) {
        if (good[i] == 1) {
          assertEquals('x', out.data()[o++]);
        } else {
          assertEquals('a', out.data()[o++]);
          assertEquals('b', out.data()[o++]);
        }
        if (i % 10 == 9) {
          assertEquals(o, out.offset(i / 10 + 1), "end of value " + i / 10);
        }
      }
    }
  }

  /**
   * The output size is guessed from the last block's expansion: a block that expands far more
   * than the one before (or far less) still decodes whole.
   */
  @Test
  void outputSizeGuessNeverLimits() {
    SymbolTable eights = new SymbolTable(true, 0, 0, new long[] {0x3837363534333231L, 'x'}, new int[] {8, 1});
    FsstDecoder d = new FsstDecoder(eights);
    for (int round = 0; round < 3; round++) {
      DataBlock.VariableWidth small = d.decompress(codes(fill(5000, (byte) 1)));
      assertEquals(5000, small.offset(1));
      DataBlock.VariableWidth big = d.decompress(codes(new byte[5000], fill(3, (byte) 1)));
      assertEquals(40_000, big.offset(1));
      assertEquals(40_003, big.offset(2));
      for (int i = 0; i < 40_000; i++) {
        assertEquals('1' + i % 8, big.data()[i]);
      }
      assertEquals('x', big.data()[40_002]);
    }
  }

  private static byte[] fill(int n, byte b) {
    byte[] a = new byte[n];
    Arrays.fill(a, b);
    return a;
  }

  @Test
  void openWithoutInnerEncoding() {
    Fsst node = Fsst.newBuilder().setSymbolTable(ByteString.copyFrom(TABLE.serialize())).build();
    corrupt(() -> new FsstPlugin().openMiniBlock(node, TestBlocks.REGISTRY.decoders()));
    corrupt(() -> new FsstPlugin().openPerValue(node, TestBlocks.REGISTRY.decoders()));
  }

  /**
   * A chunk's codes may not start inside its own offsets, nor offsets overflow it: the inner
   * Variable decoder, which owns that layout, refuses them before FSST sees any code.
   */
  @Test
  void chunkOffsetsStayOutsideTheOffsetArea() {
    List<byte[]> values = TestBlocks.utf8(TestBlocks.realStrings());
    DataBlock.VariableWidth in = TestBlocks.block(values, 32);
    var ctx = TestBlocks.Ctx.of(in, TestBlocks.options());
    MiniBlockCompressed c = new FsstPlugin().proposeMiniBlock(in, ctx).orElseThrow().compressor().compress(in);
    MiniBlockDecompressor dec = TestBlocks.REGISTRY.decoders().miniBlock(c.encoding());
    byte[] chunk = Arrays.copyOf(c.buffers().get(0), c.chunks().get(0).bufferSizes()[0]);
    long n = 1L << c.chunks().get(0).logNumValues();
    assertEquals(n, dec.decompress(MiniBlockBuffers.of(chunk), (int) (n), null).numValues());
    byte[] inside = chunk.clone();
    LittleEndian.putInt(inside, 0, 4);
    innerCorrupt(() -> dec.decompress(MiniBlockBuffers.of(inside), (int) n, null));
    innerCorrupt(() -> dec.decompress(MiniBlockBuffers.of(chunk), chunk.length, null));
    innerCorrupt(() -> dec.decompress(MiniBlockBuffers.of(new byte[0]), 0, null));
  }

  private static void innerCorrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().startsWith("variable chunk: "), e.getMessage());
  }

  /** Random damage to real chunks: each decode either succeeds or fails with CORRUPT. */
  @Test
  void fuzzedChunks() {
    List<byte[]> values = TestBlocks.utf8(TestBlocks.realStrings());
    DataBlock.VariableWidth in = TestBlocks.block(values, 32);
    var ctx = TestBlocks.Ctx.of(in, TestBlocks.options());
    MiniBlockCompressed c = new FsstPlugin().proposeMiniBlock(in, ctx).orElseThrow().compressor().compress(in);
    CompressiveEncoding enc = (CompressiveEncoding) c.encoding();
    MiniBlockDecompressor dec = TestBlocks.REGISTRY.decoders().miniBlock(enc);
    byte[] chunk = Arrays.copyOf(c.buffers().get(0), c.chunks().get(0).bufferSizes()[0]);
    long n = 1L << c.chunks().get(0).logNumValues();
    Random rnd = new Random(42);
    int failures = 0;
    for (int trial = 0; trial < 3000; trial++) {
      byte[] bad = chunk.clone();
      int kind = trial % 3;
      if (kind == 0) {
        bad[rnd.nextInt(bad.length)] = (byte) rnd.nextInt(256);
      } else if (kind == 1) {
        bad = Arrays.copyOf(bad, rnd.nextInt(bad.length));
      } else {
        // damage an offset so it lands anywhere
        LittleEndian.putInt(bad, 4 * rnd.nextInt((int) n + 1), rnd.nextInt(bad.length + 100));
      }
      try {
        dec.decompress(MiniBlockBuffers.of(bad), (int) n, null);
      } catch (LanceCodecException e) {
        assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
        failures++;
      }
    }
    assertTrue(failures > 1000, failures + " of 3000 damaged chunks were rejected");
    // damaged tables as well
    byte[] table = enc.getFsst().getSymbolTable().toByteArray();
    for (int trial = 0; trial < 500; trial++) {
      byte[] t = table.clone();
      t[rnd.nextInt(8 + 255 * 9)] = (byte) rnd.nextInt(256);
      CompressiveEncoding damaged =
          enc.toBuilder().setFsst(enc.getFsst().toBuilder().setSymbolTable(ByteString.copyFrom(t))).build();
      try {
        TestBlocks.REGISTRY.decoders().miniBlock(damaged).decompress(MiniBlockBuffers.of(chunk), (int) (n), null);
      } catch (LanceCodecException e) {
        assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
      }
    }
  }
}
