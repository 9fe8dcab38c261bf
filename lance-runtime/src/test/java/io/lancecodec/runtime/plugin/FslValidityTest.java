package io.lancecodec.runtime.plugin;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Fixed-size lists with item validity: mini-block chunks and full-zip rows decode to the same
 * zipped rows the encoder saw, chunk sizes follow the reference's rule, and short or
 * mis-shaped input fails as CORRUPT.
 */
class FslValidityTest {
  static DataBlock.FixedSizeList lists(long seed, int rows, int dim, int itemBits) {
    Random rnd = new Random(seed);
    byte[] items = new byte[rows * dim * itemBits / 8];
    rnd.nextBytes(items);
    byte[] valid = new byte[(rows * dim + 7) / 8];
    rnd.nextBytes(valid);
    return new DataBlock.FixedSizeList(
        new DataBlock.Nullable(new DataBlock.FixedWidth(items, itemBits, (long) rows * dim), valid), dim, rows);
  }

  /** The zipped row of list {@code r}: its validity bits from bit 0, then its item bytes. */
  static byte[] expectedRow(DataBlock.FixedSizeList fsl, int r) {
    int dim = (int) fsl.dimension();
    DataBlock.FixedWidth items = (DataBlock.FixedWidth) ((DataBlock.Nullable) fsl.child()).data();
    int db = dim * items.bitsPerValue() / 8;
    int vb = (dim + 7) / 8;
    byte[] row = new byte[vb + db];
    for (int k = 0; k < dim; k++) {
      long bit = (long) r * dim + k;
      if ((((DataBlock.Nullable) fsl.child()).validity()[(int) (bit >>> 3)] & (1 << (bit & 7))) != 0) {
        row[k >>> 3] |= (byte) (1 << (k & 7));
      }
    }
    System.arraycopy(items.data(), r * db, row, vb, db);
    return row;
  }

  static FslShape shape(int dim, int bits) {
    return new FslShape(new long[] {dim}, new boolean[] {true}, bits);
  }

  @ParameterizedTest
  @CsvSource({"1,1,32", "7,3,32", "1000,5,32", "4099,9,8", "300,70,32", "33,17,64", "2,1000,8"})
  void miniBlockChunksDecodeToZippedRows(int rows, int dim, int bits) {
    DataBlock.FixedSizeList fsl = lists(rows * 31L + dim, rows, dim, bits);
    MiniBlockCompressed c = new FslValidity.MiniBlock(false, io.lancecodec.spi.MiniBlocks.MAX_VALUES).compress(fsl);
    long est = shape(dim, bits).rowBytes();
    long perChunk = 2;
    // doubling from 2 rows while twice the chunk stays under the limit, as the reference sizes chunks
    while (2 * perChunk * est < FlatMiniBlock.MAX_BYTES && 2 * perChunk <= io.lancecodec.spi.MiniBlocks.MAX_VALUES) {
      perChunk *= 2;
    }
    FslValidity.MiniBlockDecoder d = new FslValidity.MiniBlockDecoder(shape(dim, bits));
    int[] pos = new int[2];
    int row = 0;
    for (MiniBlockChunk chunk : c.chunks()) {
      int n = (int) Math.min(perChunk, rows - row);
      assertEquals(n == perChunk ? Long.numberOfTrailingZeros(perChunk) : 0, chunk.logNumValues());
      byte[] v = Arrays.copyOfRange(c.buffers().get(0), pos[0], pos[0] + chunk.bufferSizes()[0]);
      byte[] x = Arrays.copyOfRange(c.buffers().get(1), pos[1], pos[1] + chunk.bufferSizes()[1]);
      pos[0] += chunk.bufferSizes()[0];
      pos[1] += chunk.bufferSizes()[1];
      DataBlock.FixedWidth out = (DataBlock.FixedWidth) d.decompress(MiniBlockBuffers.of(v, x), n, null);
      int w = out.bitsPerValue() / 8;
      for (int r = 0; r < n; r++) {
        assertArrayEquals(expectedRow(fsl, row + r), Arrays.copyOfRange(out.data(), r * w, (r + 1) * w), "row " + (row + r));
      }
      row += n;
    }
    assertEquals(rows, row);
    assertEquals(c.buffers().get(0).length, pos[0]);
    assertEquals(c.buffers().get(1).length, pos[1]);
  }

  @ParameterizedTest
  @CsvSource({"1,1,32", "50,96,32", "9,13,16"})
  void perValueRowsAreZippedRows(int rows, int dim, int bits) {
    DataBlock.FixedSizeList fsl = lists(rows + dim, rows, dim, bits);
    DataBlock.FixedWidth out = (DataBlock.FixedWidth) new FslValidity.PerValue().compress(fsl).data();
    int w = out.bitsPerValue() / 8;
    assertEquals(shape(dim, bits).rowBytes(), w);
    for (int r = 0; r < rows; r++) {
      assertArrayEquals(expectedRow(fsl, r), Arrays.copyOfRange(out.data(), r * w, (r + 1) * w));
    }
    assertEquals(out, FslValidity.perValueDecoder(shape(dim, bits)).decompress(out, null));
  }

  @ParameterizedTest
  @CsvSource({"10,4,32"})
  void shortOrMisshapedInputIsCorrupt(int rows, int dim, int bits) {
    FslValidity.MiniBlockDecoder d = new FslValidity.MiniBlockDecoder(shape(dim, bits));
    byte[] valid = new byte[(rows * dim + 7) / 8];
    byte[] data = new byte[rows * dim * bits / 8];
    assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(data), rows, null));
    assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(Arrays.copyOf(valid, valid.length - 1), data), rows, null));
    assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(valid, Arrays.copyOf(data, data.length - 1)), rows, null));
    assertCorrupt(() -> FslValidity.perValueDecoder(shape(dim, bits)).decompress(new DataBlock.FixedWidth(data, dim * bits, rows), null));
  }

  /** Rows too wide for two per chunk (only when mini-block is forced) get one row per chunk. */
  @ParameterizedTest
  @CsvSource({"2048,64", "1100,32"})
  void rowsTooWideForTwoPerChunkGetOneEach(int dim, int bits) {
    DataBlock.FixedSizeList fsl = lists(dim, 3, dim, bits);
    MiniBlockCompressed c = new FslValidity.MiniBlock(false, io.lancecodec.spi.MiniBlocks.MAX_VALUES).compress(fsl);
    assertEquals(3, c.chunks().size());
    FslValidity.MiniBlockDecoder d = new FslValidity.MiniBlockDecoder(shape(dim, bits));
    int[] pos = new int[2];
    for (int r = 0; r < 3; r++) {
      MiniBlockChunk chunk = c.chunks().get(r);
      assertEquals(0, chunk.logNumValues());
      byte[] v = Arrays.copyOfRange(c.buffers().get(0), pos[0], pos[0] + chunk.bufferSizes()[0]);
      byte[] x = Arrays.copyOfRange(c.buffers().get(1), pos[1], pos[1] + chunk.bufferSizes()[1]);
      pos[0] += chunk.bufferSizes()[0];
      pos[1] += chunk.bufferSizes()[1];
      assertArrayEquals(expectedRow(fsl, r), ((DataBlock.FixedWidth) d.decompress(MiniBlockBuffers.of(v, x), 1, null)).data());
    }
  }

  static io.lancecodec.format.pb.v21.FixedSizeList nested(long outer, boolean v0, long inner, boolean v1, int bits) {
    io.lancecodec.format.pb.v21.CompressiveEncoding leaf = BuiltinCodecs.flat(bits);
    io.lancecodec.format.pb.v21.CompressiveEncoding in = io.lancecodec.format.pb.v21.CompressiveEncoding.newBuilder()
        .setFixedSizeList(io.lancecodec.format.pb.v21.FixedSizeList.newBuilder().setItemsPerValue(inner).setHasValidity(v1).setValues(leaf))
        .build();
    return io.lancecodec.format.pb.v21.FixedSizeList.newBuilder().setItemsPerValue(outer).setHasValidity(v0).setValues(in).build();
  }

  /** Two levels with validity: the chunk has three buffers (outer validity, inner validity, values), each checked. */
  @ParameterizedTest
  @CsvSource({"10,3,2,32", "5,4,4,1", "3,2,9,8"})
  void nestedChunksAreChecked(int rows, int outer, int inner, int bits) {
    FslShape s = FslShape.parse(nested(outer, true, inner, true, bits));
    assertEquals(2, s.levels());
    assertEquals((outer + 7) / 8 + (outer * inner + 7) / 8 + (outer * inner * bits + 7) / 8, s.rowBytes());
    FslValidity.MiniBlockDecoder d = new FslValidity.MiniBlockDecoder(s);
    byte[] v0 = new byte[(rows * outer + 7) / 8];
    byte[] v1 = new byte[(rows * outer * inner + 7) / 8];
    byte[] data = new byte[(rows * outer * inner * bits + 7) / 8];
    assertEquals(rows * s.rowBytes() * 8, ((DataBlock.FixedWidth) d.decompress(MiniBlockBuffers.of(v0, v1, data), rows, null)).usedBytes() * 8L);
    assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(v0, data), rows, null));
    assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(Arrays.copyOf(v0, v0.length - 1), v1, data), rows, null));
    assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(v0, Arrays.copyOf(v1, v1.length - 1), data), rows, null));
    assertCorrupt(() -> d.decompress(MiniBlockBuffers.of(v0, v1, Arrays.copyOf(data, data.length - 1)), rows, null));
    PerValueDecompressorCheck.check(FslValidity.perValueDecoder(s), s, rows);
  }

  /** Stored full-zip rows of the wrong width are CORRUPT. */
  static final class PerValueDecompressorCheck {
    static void check(io.lancecodec.spi.PerValueDecompressor d, FslShape s, int rows) {
      long w = s.zippedRowBytes();
      assertEquals(rows, d.decompress(new DataBlock.FixedWidth(new byte[(int) (rows * w)], (int) (w * 8), rows), null).numValues());
      assertCorrupt(() -> d.decompress(new DataBlock.FixedWidth(new byte[(int) (rows * (w + 1))], (int) ((w + 1) * 8), rows), null));
    }
  }

  /** Sizes and depths from the file are checked before anything is allocated. */
  @org.junit.jupiter.api.Test
  void badShapesAreCorrupt() {
    assertCorrupt(() -> FslShape.parse(nested(0, false, 2, false, 32)));
    assertCorrupt(() -> FslShape.parse(nested(3, false, 0, false, 32)));
    assertCorrupt(() -> FslShape.parse(nested(1L << 20, false, 1L << 20, false, 32)));
    assertCorrupt(() -> FslShape.parse(nested(1L << 14, false, 1L << 10, false, 64)));
    assertCorrupt(() -> FslShape.parse(nested(3, false, 2, false, 12)));
    io.lancecodec.format.pb.v21.CompressiveEncoding e = BuiltinCodecs.flat(8);
    for (int i = 0; i < FslShape.MAX_LEVELS + 1; i++) {
      e = io.lancecodec.format.pb.v21.CompressiveEncoding.newBuilder()
          .setFixedSizeList(io.lancecodec.format.pb.v21.FixedSizeList.newBuilder().setItemsPerValue(1).setValues(e)).build();
    }
    io.lancecodec.format.pb.v21.FixedSizeList deep = e.getFixedSizeList();
    assertCorrupt(() -> FslShape.parse(deep));
    assertCorrupt(() -> FslShape.parse(io.lancecodec.format.pb.v21.FixedSizeList.newBuilder().setItemsPerValue(2).build()));
  }

  private static void assertCorrupt(org.junit.jupiter.api.function.Executable run) {
    LanceCodecException e = assertThrows(LanceCodecException.class, run);
    assertEquals(LanceCodecException.Kind.CORRUPT, e.kind(), e.getMessage());
  }
}
