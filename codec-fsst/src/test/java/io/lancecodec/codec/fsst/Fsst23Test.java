package io.lancecodec.codec.fsst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.Fsst;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * FSST in 2.3 through the real registry: the page's table and codes as in 2.2, under a 2.3 Fsst
 * over Variable (legacy or generic offsets in mini-blocks, Flat offsets per value); the codes
 * decode with and without reused buffers; malformed trees and tables are one CORRUPT line.
 */
class Fsst23Test {
  static final Plugins REGISTRY = Plugins.discover(Fsst23Test.class.getClassLoader());
  static final RuntimeLayoutContext CTX = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_3, b -> 0L);
  static final RuntimeLayoutContext CTX22 = new RuntimeLayoutContext(REGISTRY, FileVersion.V2_2, b -> 0L);

  static DataBlock.VariableWidth realStrings(int n, int bits) {
    List<String> real = TestBlocks.realStrings();
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(real.get((i * 7) % real.size()) + " #" + i);
    }
    return TestBlocks.block(TestBlocks.utf8(out), bits);
  }

  static List<byte[]> decode(MiniBlockCompressed c, MiniBlockDecompressor d, boolean reuse) {
    List<byte[]> out = new ArrayList<>();
    int[] pos = new int[c.buffers().size()];
    long item = 0;
    DecodeBuffers buffers = reuse ? new DecodeBuffers() : null;
    for (int k = 0; k < c.chunks().size(); k++) {
      MiniBlockChunk ch = c.chunks().get(k);
      int n = (int) (k == c.chunks().size() - 1 ? c.numValues() - item : 1L << ch.logNumValues());
      byte[][] b = new byte[pos.length][];
      for (int i = 0; i < pos.length; i++) {
        b[i] = java.util.Arrays.copyOfRange(c.buffers().get(i), pos[i], pos[i] + ch.bufferSizes()[i]);
        pos[i] += ch.bufferSizes()[i];
      }
      out.addAll(TestBlocks.values(d.decompress(MiniBlockBuffers.of(b), n, buffers)));
      item += n;
    }
    return out;
  }

  @Test
  void miniBlocks() {
    for (int bits : new int[] {32, 64}) {
      DataBlock.VariableWidth vw = realStrings(5000, bits);
      MiniBlockCompressed c = CTX.compressMiniBlock(vw, FieldOptions.DEFAULT);
      CompressiveEncoding e = (CompressiveEncoding) c.encoding();
      assertTrue(e.hasFsst() && e.getFsst().getValues().hasVariable(), CTX.describe(e).toString());
      assertTrue(CTX.describe(e).toString().startsWith("fsst(variable("), CTX.describe(e).toString());
      // the table is the page's, learnt as in 2.2 (a fixed-seed sample)
      MiniBlockCompressed c22 = CTX22.compressMiniBlock(vw, FieldOptions.DEFAULT);
      assertEquals(((io.lancecodec.format.pb.v21.CompressiveEncoding) c22.encoding()).getFsst().getSymbolTable(),
          e.getFsst().getSymbolTable());
      TestBlocks.assertSameValues(TestBlocks.values(vw), decode(c, CTX.miniBlock(e), false), "fresh arrays");
      TestBlocks.assertSameValues(TestBlocks.values(vw), decode(c, CTX.miniBlock(e), true), "reused arrays");
    }
  }

  @Test
  void perValueCodesAreThe22Codes() {
    DataBlock.VariableWidth vw = realStrings(3000, 32);
    for (FieldOptions o : List.of(FieldOptions.DEFAULT, TestBlocks.options("compression", "fsst"))) {
      Encoded<DataBlock> r = CTX.compressPerValue(vw, o);
      Encoded<DataBlock> r22 = CTX22.compressPerValue(vw, o);
      assertEquals("fsst(variable(flat(32)))", CTX.describe(r.encoding()).toString());
      DataBlock.VariableWidth codes = (DataBlock.VariableWidth) r.data();
      assertArrayEquals(((DataBlock.VariableWidth) r22.data()).data(), codes.data());
      TestBlocks.assertSameValues(TestBlocks.values(vw), TestBlocks.values(CTX.perValue(r.encoding()).decompress(codes, null)), "fresh");
      TestBlocks.assertSameValues(TestBlocks.values(vw),
          TestBlocks.values(CTX.perValue(r.encoding()).decompress(codes, new DecodeBuffers())), "reused");
    }
  }

  /** The 2.3 tree serializes exactly as 2.1's (both number Fsst, Variable and Flat's fields alike). */
  @Test
  void descriptorBytesAre21s() {
    byte[] table = SymbolTable.uncompressed().serialize();
    Message v23 = FsstPage.encoding(SymbolTable.uncompressed(), variable(flat(32)));
    io.lancecodec.format.pb.v21.CompressiveEncoding v21 = (io.lancecodec.format.pb.v21.CompressiveEncoding) FsstPage.encoding(
        SymbolTable.uncompressed(), FsstPlugin.PLAIN_VARIABLE.compress(TestBlocks.block(List.of(), 32)).encoding());
    assertTrue(v23 instanceof CompressiveEncoding);
    assertArrayEquals(v21.toByteArray(), v23.toByteArray());
    assertEquals(2312, table.length);
  }

  static CompressiveEncoding flat(long bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding variable(CompressiveEncoding offsets) {
    return CompressiveEncoding.newBuilder().setVariable(Variable.newBuilder().setOffsets(offsets)).build();
  }

  static CompressiveEncoding fsst(byte[] table, CompressiveEncoding values) {
    Fsst.Builder f = Fsst.newBuilder().setSymbolTable(ByteString.copyFrom(table));
    if (values != null) {
      f.setValues(values);
    }
    return CompressiveEncoding.newBuilder().setFsst(f).build();
  }

  static void corrupt(Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void malformedTrees() {
    byte[] table = SymbolTable.uncompressed().serialize();
    byte[] noMagic = table.clone();
    noMagic[7] = 0;
    byte[] tooManySymbols = table.clone();
    tooManySymbols[0] = (byte) 255;
    for (CompressiveEncoding e : List.of(fsst(table, null), fsst(table, flat(8)), fsst(table, fsst(table, variable(flat(32)))),
        fsst(new byte[100], variable(flat(32))), fsst(noMagic, variable(flat(32))), fsst(table, variable(flat(16))))) {
      corrupt(() -> CTX.miniBlock(e));
      corrupt(() -> CTX.perValue(e));
    }
    // the inner codes must come back as many variable-width values as asked
    MiniBlockDecompressor d = CTX.miniBlock(fsst(table, variable(flat(32))));
    corrupt(() -> d.decompress(MiniBlockBuffers.of(new byte[] {8, 0, 0, 0, 9, 0, 0, 0}), 1, null));
    assertEquals(1, SymbolTable.parse(table).compressed() ? 0 : 1);
  }
}
