package io.lancecodec.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.format.pb.v23.BufferCompression;
import io.lancecodec.format.pb.v23.CompressionScheme;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.FixedSizeList;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.General;
import io.lancecodec.format.pb.v23.InlineBitpacking;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reader's side of fixed-size-list leaf compression with the built-in codecs only: a leaf
 * that is not a leaf encoding, or one no plugin here reads, or one in a 2.1 tree, is refused with
 * the encoding and the capability named; a Flat leaf in the leaf form (forced by hand) decodes
 * rows with and without item validity; forged counts and short rows are CORRUPT.
 */
class FslLeafTest {
  static final Decoders DECODERS = new Plugins(List.of(), List.of()).decoders();

  static CompressiveEncoding flat(int bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding fsl(long dim, boolean validity, CompressiveEncoding values) {
    return CompressiveEncoding.newBuilder()
        .setFixedSizeList(FixedSizeList.newBuilder().setItemsPerValue(dim).setHasValidity(validity).setValues(values))
        .build();
  }

  static LanceCodecException refused(LanceCodecException.Kind kind, Runnable r) {
    LanceCodecException e = assertThrows(LanceCodecException.class, r::run);
    assertEquals(kind, e.kind(), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    return e;
  }

  @Test
  void leavesThatAreNotLeafEncodingsNameTheCapability() {
    CompressiveEncoding variable = CompressiveEncoding.newBuilder().setVariable(Variable.newBuilder().setOffsets(flat(32))).build();
    LanceCodecException e = refused(LanceCodecException.Kind.UNSUPPORTED, () -> DECODERS.miniBlock(fsl(4, false, variable)));
    assertTrue(e.getMessage().startsWith("unsupported FixedSizeList leaf encoding: variable (needs fixed-size-list-leaf-compression"),
        e.getMessage());
    // nested layers reach the same leaf
    refused(LanceCodecException.Kind.UNSUPPORTED, () -> DECODERS.perValue(fsl(2, false, fsl(3, true, variable))));
    // per value, general compression wraps the whole row, never the leaf
    CompressiveEncoding general = CompressiveEncoding.newBuilder().setGeneral(General.newBuilder()
        .setCompression(BufferCompression.newBuilder().setScheme(CompressionScheme.COMPRESSION_ALGORITHM_ZSTD)).setValues(flat(32))).build();
    e = refused(LanceCodecException.Kind.UNSUPPORTED, () -> DECODERS.perValue(fsl(8, false, general)));
    assertTrue(e.getMessage().contains("General{FixedSizeList"), e.getMessage());
  }

  @Test
  void aLeafWhosePluginIsAbsentNamesTheJar() {
    CompressiveEncoding packed = CompressiveEncoding.newBuilder()
        .setInlineBitpacking(InlineBitpacking.newBuilder().setUncompressedBitsPerValue(64)).build();
    LanceCodecException e = refused(LanceCodecException.Kind.MISSING_PLUGIN, () -> DECODERS.miniBlock(fsl(2048, false, packed)));
    assertTrue(e.getMessage().contains("io.lancecodec:codec-bitpack"), e.getMessage());
  }

  @Test
  void aCompressedLeafInA21TreeIsA23Capability() {
    io.lancecodec.format.pb.v21.CompressiveEncoding packed = io.lancecodec.format.pb.v21.CompressiveEncoding.newBuilder()
        .setInlineBitpacking(io.lancecodec.format.pb.v21.InlineBitpacking.newBuilder().setUncompressedBitsPerValue(64)).build();
    io.lancecodec.format.pb.v21.CompressiveEncoding tree = io.lancecodec.format.pb.v21.CompressiveEncoding.newBuilder()
        .setFixedSizeList(io.lancecodec.format.pb.v21.FixedSizeList.newBuilder().setItemsPerValue(2048).setValues(packed)).build();
    LanceCodecException e = refused(LanceCodecException.Kind.UNSUPPORTED, () -> DECODERS.perValue(tree));
    assertTrue(e.getMessage().contains("needs fixed-size-list-leaf-compression") && e.getMessage().contains("2.3"), e.getMessage());
  }

  @Test
  void rowsWithItemValidityDecodeAroundTheLeafChunk() {
    // two rows of FixedSizeList<u16>[3] with item validity, through the leaf path by hand (Flat in
    // the leaf form, decoded as any leaf codec's chunk would be): the validity buffer (6 bits),
    // then one leaf chunk of 6 values
    MiniBlockDecompressor d = FslLeaf.openMiniBlock(FslLeaf.layers(fsl(3, true, flat(16)).getFixedSizeList()), DECODERS);
    byte[] validity = {0b101101};
    byte[] values = {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0};
    DataBlock.FixedWidth rows = (DataBlock.FixedWidth) d.decompress(MiniBlockBuffers.of(validity, values), 2, null);
    // each decoded row: its validity byte, then its values
    assertEquals(8 * 7, rows.bitsPerValue());
    assertArrayEquals(new byte[] {0b101, 1, 0, 2, 0, 3, 0, 0b101, 4, 0, 5, 0, 6, 0}, rows.data());
    refused(LanceCodecException.Kind.CORRUPT, () -> d.decompress(MiniBlockBuffers.of(validity), 2, null));
    refused(LanceCodecException.Kind.CORRUPT, () -> d.decompress(MiniBlockBuffers.of(new byte[] {1, 2}, values), 2, null));
    refused(LanceCodecException.Kind.CORRUPT, () -> d.decompress(MiniBlockBuffers.of(validity, values), 1 << 30, null));
  }

  @Test
  void zippedRowsDecodeTheirLeafChunkAndNullRowsStayEmpty() {
    PerValueDecompressor d = FslLeaf.openPerValue(FslLeaf.layers(fsl(2, false, flat(32)).getFixedSizeList()), DECODERS);
    byte[] data = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
    byte[] offsets = new byte[4 * 4];
    int[] at = {0, 8, 8, 16};
    for (int i = 0; i < at.length; i++) {
      io.lancecodec.spi.LittleEndian.putInt(offsets, 4 * i, at[i]);
    }
    DataBlock.FixedWidth rows = (DataBlock.FixedWidth) d.decompress(new DataBlock.VariableWidth(offsets, 32, data, 3), null);
    assertArrayEquals(new byte[] {1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}, rows.data());
    // a row one byte short of its leaf chunk
    refused(LanceCodecException.Kind.CORRUPT, () -> d.decompress(new DataBlock.FixedWidth(new byte[7], 56, 1), null));
  }
}
