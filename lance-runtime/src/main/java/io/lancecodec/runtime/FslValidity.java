package io.lancecodec.runtime;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixed-size lists whose items carry their own validity ({@code FixedSizeList{has_validity:
 * true}}). Mini-block chunks hold two buffers, the items' validity bits of the chunk's rows
 * (starting at a byte boundary) and then their values; full-zip rows are the row's validity bits
 * rounded up to whole bytes followed by its values. Decoding always yields the full-zip form,
 * one fixed-width "row" of {@link #rowBytes} per list, which the vector filler unzips.
 */
final class FslValidity {
  private FslValidity() {}

  /** The lists of {@code block} when they are byte-aligned items with a validity bitmap; else null. */
  static DataBlock.FixedSizeList of(DataBlock block) {
    if (block instanceof DataBlock.FixedSizeList fsl
        && fsl.child() instanceof DataBlock.Nullable nb
        && nb.data() instanceof DataBlock.FixedWidth items
        && items.bitsPerValue() % 8 == 0
        && fsl.dimension() > 0
        && fsl.dimension() * items.bitsPerValue() <= 1 << 27) {
      return fsl;
    }
    return null;
  }

  static DataBlock.FixedWidth items(DataBlock.FixedSizeList fsl) {
    return (DataBlock.FixedWidth) ((DataBlock.Nullable) fsl.child()).data();
  }

  static byte[] validity(DataBlock.FixedSizeList fsl) {
    return ((DataBlock.Nullable) fsl.child()).validity();
  }

  /** Bytes of one zipped row: validity rounded up to bytes, then the items. */
  static long rowBytes(long dim, int itemBits) {
    return (dim + 7) / 8 + dim * itemBits / 8;
  }

  static CompressiveEncoding encoding(long dim, int itemBits) {
    return CompressiveEncoding.newBuilder()
        .setFixedSizeList(io.lancecodec.format.pb.v21.FixedSizeList.newBuilder()
            .setItemsPerValue(dim).setHasValidity(true).setValues(BuiltinCodecs.flat(itemBits)))
        .build();
  }

  /** Copies {@code n} bits from {@code src} at bit {@code from} to {@code dst} at bit {@code to}. */
  static void copyBits(byte[] src, long from, byte[] dst, long to, long n) {
    if ((from & 7) == 0 && (to & 7) == 0) {
      int whole = (int) (n >>> 3);
      System.arraycopy(src, (int) (from >>> 3), dst, (int) (to >>> 3), whole);
      for (long i = (long) whole * 8; i < n; i++) {
        copyBit(src, from + i, dst, to + i);
      }
      return;
    }
    for (long i = 0; i < n; i++) {
      copyBit(src, from + i, dst, to + i);
    }
  }

  private static void copyBit(byte[] src, long s, byte[] dst, long d) {
    if ((src[(int) (s >>> 3)] & (1 << (s & 7))) != 0) {
      dst[(int) (d >>> 3)] |= (byte) (1 << (d & 7));
    } else {
      dst[(int) (d >>> 3)] &= (byte) ~(1 << (d & 7));
    }
  }

  /**
   * The reference's chunking: rows per chunk is the largest power of two (at least 2, at most
   * 4096) whose estimated size (validity bytes of a row plus its values, times rows) stays under
   * {@link FlatMiniBlock#MAX_BYTES}; no row is split across chunks.
   */
  static final class MiniBlock implements MiniBlockCompressor {
    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      DataBlock.FixedSizeList fsl = of(block);
      if (fsl == null) {
        throw new LanceCodecException(LanceCodecException.Kind.INTERNAL, "fixed-size list with validity expected");
      }
      DataBlock.FixedWidth items = items(fsl);
      byte[] valid = validity(fsl);
      long dim = fsl.dimension();
      int bits = items.bitsPerValue();
      long rows = fsl.numValues();
      long est = rowBytes(dim, bits);
      long perChunk = 2;
      int log = 1;
      long size = 2 * est;
      if (size >= FlatMiniBlock.MAX_BYTES) {
        // only when mini-block is forced on wide lists; see FlatMiniBlock
        perChunk = 1;
        log = 0;
      }
      while (perChunk > 1 && 2 * size < FlatMiniBlock.MAX_BYTES && 2 * perChunk <= FlatMiniBlock.MAX_VALUES) {
        log++;
        size *= 2;
        perChunk *= 2;
      }
      long rowData = dim * bits / 8;
      long numChunks = (rows + perChunk - 1) / perChunk;
      byte[] validOut = new byte[LanceCodecException.checkedInt(numChunks * ((perChunk * dim + 7) / 8), "validity bytes")];
      List<MiniBlockChunk> chunks = new ArrayList<>();
      int vpos = 0;
      for (long row = 0; row < rows; row += perChunk) {
        long n = Math.min(perChunk, rows - row);
        int vbytes = (int) ((n * dim + 7) / 8);
        copyBits(valid, row * dim, validOut, (long) vpos * 8, n * dim);
        vpos += vbytes;
        chunks.add(new MiniBlockChunk(new int[] {vbytes, (int) (n * rowData)}, n == perChunk ? log : 0));
      }
      byte[] data = java.util.Arrays.copyOf(items.data(), LanceCodecException.checkedInt(rows * rowData, "list bytes"));
      return new MiniBlockCompressed(List.of(java.util.Arrays.copyOf(validOut, vpos), data), chunks, rows,
          encoding(dim, bits));
    }
  }

  /** Turns a chunk's two buffers into zipped rows. */
  static final class MiniBlockDecoder implements MiniBlockDecompressor {
    private final long dim;
    private final int itemBits;

    MiniBlockDecoder(long dim, int itemBits) {
      this.dim = dim;
      this.itemBits = itemBits;
    }

    @Override
    public DataBlock decompress(List<byte[]> buffers, long numValues) {
      if (buffers.size() != 2) {
        throw LanceCodecException.corrupt("fixed_size_list with validity: chunk has " + buffers.size() + " buffers, expected 2");
      }
      byte[] valid = buffers.get(0);
      byte[] data = buffers.get(1);
      long vb = (dim + 7) / 8;
      long db = dim * itemBits / 8;
      if ((numValues * dim + 7) / 8 > valid.length || numValues * db > data.length) {
        throw LanceCodecException.corrupt("fixed_size_list with validity: " + numValues + " lists of " + dim
            + " items do not fit the chunk's " + valid.length + " validity and " + data.length + " value bytes");
      }
      long row = vb + db;
      byte[] out = new byte[LanceCodecException.checkedInt(numValues * row, "decoded lists")];
      for (long r = 0; r < numValues; r++) {
        copyBits(valid, r * dim, out, r * row * 8, dim);
        System.arraycopy(data, (int) (r * db), out, (int) (r * row + vb), (int) db);
      }
      return new DataBlock.FixedWidth(out, (int) (row * 8), numValues);
    }
  }

  /** Full-zip rows: each list's validity bytes then its items, as one fixed-width value. */
  static final class PerValue implements PerValueCompressor {
    @Override
    public Encoded<DataBlock> compress(DataBlock block) {
      DataBlock.FixedSizeList fsl = of(block);
      if (fsl == null) {
        throw new LanceCodecException(LanceCodecException.Kind.INTERNAL, "fixed-size list with validity expected");
      }
      DataBlock.FixedWidth items = items(fsl);
      byte[] valid = validity(fsl);
      long dim = fsl.dimension();
      int bits = items.bitsPerValue();
      long vb = (dim + 7) / 8;
      long db = dim * bits / 8;
      long row = vb + db;
      long n = fsl.numValues();
      byte[] out = new byte[LanceCodecException.checkedInt(n * row, "zipped lists")];
      for (long r = 0; r < n; r++) {
        copyBits(valid, r * dim, out, r * row * 8, dim);
        System.arraycopy(items.data(), (int) (r * db), out, (int) (r * row + vb), (int) db);
      }
      return new Encoded<>(new DataBlock.FixedWidth(out, (int) (row * 8), n), encoding(dim, bits));
    }
  }

  /** Full-zip rows are already in the decoded form; only their width is checked. */
  static PerValueDecompressor perValueDecoder(long dim, int itemBits) {
    long bits = rowBytes(dim, itemBits) * 8;
    return block -> {
      if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != bits) {
        throw LanceCodecException.corrupt("fixed_size_list with validity: expected " + bits + "-bit rows");
      }
      return block;
    };
  }
}
