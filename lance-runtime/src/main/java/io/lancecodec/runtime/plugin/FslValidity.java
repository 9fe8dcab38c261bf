package io.lancecodec.runtime.plugin;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixed-size lists that are not plain rows of bytes: some level's children carry validity
 * ({@code FixedSizeList{has_validity: true}}, at any depth), or the leaf is boolean. As the
 * reference writes them, a mini-block chunk holds one buffer per level with validity (outer
 * first; that level's bits for the chunk's rows, starting at a byte boundary) and then the leaf
 * values (bits for booleans, again from a byte boundary); a full-zip row is those levels'
 * validity bits, each rounded up to whole bytes, then the row's values rounded up to bytes.
 * Decoding always yields {@link FslShape#rowBytes()}-wide rows, which the vector filler unzips.
 */
public final class FslValidity {
  private FslValidity() {}

  /** Copies {@code n} bits from {@code src} at bit {@code from} to {@code dst} at bit {@code to}. */
  public static void copyBits(byte[] src, long from, byte[] dst, long to, long n) {
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

  /** Sets bits {@code [from, from + n)}. */
  public static void setBits(byte[] dst, long from, long n) {
    long i = from;
    long end = from + n;
    while (i < end && (i & 7) != 0) {
      dst[(int) (i >>> 3)] |= (byte) (1 << (i & 7));
      i++;
    }
    long full = end & ~7L;
    if (i < full) {
      java.util.Arrays.fill(dst, (int) (i >>> 3), (int) (full >>> 3), (byte) 0xFF);
      i = full;
    }
    while (i < end) {
      dst[(int) (i >>> 3)] |= (byte) (1 << (i & 7));
      i++;
    }
  }

  /** Copies the values of {@code n} rows from row {@code from} of {@code src} to byte {@code at} of {@code dst}. */
  private static void copyValues(FslShape s, byte[] src, long from, byte[] dst, long at, long n) {
    if (s.leafBits() % 8 == 0) {
      long rowBytes = s.valueBytes();
      System.arraycopy(src, (int) (from * rowBytes), dst, (int) at, (int) (n * rowBytes));
    } else {
      long d = s.leafItems();
      copyBits(src, from * d, dst, at * 8, n * d);
    }
  }

  /**
   * The decoded form of {@code n} rows: level validity from column bitmaps (null = all valid),
   * values from bit 0; their size admitted by {@code reuse} (may be null), since null rows expand.
   */
  static byte[] rows(FslShape s, byte[][] validity, byte[] values, long n, DecodeBuffers reuse) {
    long row = s.rowBytes();
    byte[] out = new byte[DecodeBuffers.admit(reuse, n, row, "decoded fixed-size lists")];
    long at = 0;
    for (int l = 0; l < s.levels(); l++) {
      long items = s.items(l);
      for (long r = 0; r < n; r++) {
        if (validity[l] == null) {
          setBits(out, (r * row + at) * 8, items);
        } else {
          copyBits(validity[l], r * items, out, (r * row + at) * 8, items);
        }
      }
      at += s.validityBytes(l);
    }
    long vb = s.valueBytes();
    if (s.leafBits() == 0) {
      return out;
    }
    if (s.leafBits() % 8 == 0) {
      for (long r = 0; r < n; r++) {
        System.arraycopy(values, (int) (r * vb), out, (int) (r * row + at), (int) vb);
      }
    } else {
      long d = s.leafItems();
      for (long r = 0; r < n; r++) {
        copyBits(values, r * d, out, (r * row + at) * 8, d);
      }
    }
    return out;
  }

  /**
   * Mini-block chunks of whole rows, sized as the reference sizes them (see below).
   */
  static final class MiniBlock implements MiniBlockCompressor {
    /** Whether the descriptor is 2.3's ({@code lance.encodings23}); the chunks are the same. */
    private final boolean v23;
    /** Rows in a full chunk, at most: a power of two. */
    private final int maxRows;

    MiniBlock(boolean v23, int maxValues) {
      this.v23 = v23;
      this.maxRows = MiniBlocks.fullChunkValues(maxValues);
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      FslShape.Parts p = FslShape.parts(block);
      if (p == null) {
        throw LanceCodecException.internal("fixed-size list over a fixed-width leaf expected");
      }
      FslShape s = p.shape();
      long rows = p.rows();
      // The reference's estimate per "word": a word is one row, or eight rows when a row's
      // values are not whole bytes (FixedSizeList<Bool>[4]); it holds the word's validity
      // bytes (each level rounded up per row) and its value bytes. Then the flat values' rule:
      // from 2 rows (8 for 8-row words) at twice a word's size, double while twice the size
      // stays under the limit and the rows within 4096.
      long validityBytes = s.zippedRowBytes() - s.valueBytes();
      long rowBits = s.leafItems() * s.leafBits();
      long rowsPerWord = rowBits % 8 == 0 ? 1 : 8;
      long wordBytes = validityBytes * rowsPerWord + (rowBits % 8 == 0 ? rowBits / 8 : rowBits);
      long perChunk = rowsPerWord == 1 ? 2 : 8;
      int log = rowsPerWord == 1 ? 1 : 3;
      long size = 2 * wordBytes;
      if (size >= FlatMiniBlock.MAX_BYTES) {
        // only when mini-block is forced on wide lists (the reference's writer aborts); a chunk
        // of one row is valid
        perChunk = 1;
        log = 0;
      }
      while (perChunk > 1 && 2 * size < FlatMiniBlock.MAX_BYTES && 2 * perChunk <= maxRows) {
        log++;
        size *= 2;
        perChunk *= 2;
      }
      List<Integer> stored = new ArrayList<>();
      for (int l = 0; l < s.levels(); l++) {
        if (s.validity()[l]) {
          stored.add(l);
        }
      }
      int nb = stored.size() + 1;
      long numChunks = (rows + perChunk - 1) / perChunk;
      byte[][] out = new byte[nb][];
      for (int i = 0; i < stored.size(); i++) {
        long perRow = s.items(stored.get(i));
        out[i] = new byte[LanceCodecException.checkedInt(numChunks * ((perChunk * perRow + 7) / 8), "validity bytes")];
      }
      out[nb - 1] = new byte[LanceCodecException.checkedInt(numChunks * ((perChunk * s.leafItems() * s.leafBits() + 7) / 8), "list bytes")];
      int[] pos = new int[nb];
      List<MiniBlockChunk> chunks = new ArrayList<>();
      for (long row = 0; row < rows; row += perChunk) {
        long n = Math.min(perChunk, rows - row);
        int[] sizes = new int[nb];
        for (int i = 0; i < stored.size(); i++) {
          long perRow = s.items(stored.get(i));
          copyBits(p.validity()[stored.get(i)], row * perRow, out[i], (long) pos[i] * 8, n * perRow);
          sizes[i] = (int) ((n * perRow + 7) / 8);
        }
        copyValues(s, p.values(), row, out[nb - 1], pos[nb - 1], n);
        sizes[nb - 1] = (int) ((n * s.leafItems() * s.leafBits() + 7) / 8);
        for (int i = 0; i < nb; i++) {
          pos[i] += sizes[i];
        }
        chunks.add(new MiniBlockChunk(sizes, n == perChunk ? log : 0));
      }
      List<byte[]> buffers = new ArrayList<>(nb);
      for (int i = 0; i < nb; i++) {
        buffers.add(java.util.Arrays.copyOf(out[i], pos[i]));
      }
      return new MiniBlockCompressed(buffers, chunks, rows, s.encoding(v23));
    }
  }

  /** Turns a chunk's buffers (validity per level that has it, then values) into decoded rows. */
  static final class MiniBlockDecoder implements MiniBlockDecompressor {
    private final FslShape shape;
    private final boolean exact;

    MiniBlockDecoder(FslShape shape) {
      this(shape, false);
    }

    /** {@code exact}: 2.3's rule, every buffer exactly the bits its lists need, rounded up to bytes. */
    MiniBlockDecoder(FslShape shape, boolean exact) {
      this.shape = shape;
      this.exact = exact;
    }

    @Override
    public DataBlock decompress(MiniBlockBuffers chunk, int numValues, DecodeBuffers reuse) {
      List<byte[]> buffers = new ArrayList<>(chunk.count());
      for (int i = 0; i < chunk.count(); i++) {
        buffers.add(chunk.copy(i));
      }
      FslShape s = shape;
      int nb = 1;
      for (boolean v : s.validity()) {
        nb += v ? 1 : 0;
      }
      if (s.leafBits() == 0 && buffers.size() == nb - 1) {
        // all items null below: no value buffer
        buffers = new ArrayList<>(buffers);
        buffers.add(new byte[0]);
      }
      if (buffers.size() != nb) {
        throw LanceCodecException.corrupt("fixed_size_list: chunk has " + buffers.size() + " buffers, expected " + nb);
      }
      if (numValues < 0) {
        throw LanceCodecException.corrupt("fixed_size_list: chunk of " + numValues + " lists");
      }
      byte[][] validity = new byte[s.levels()][];
      int b = 0;
      for (int l = 0; l < s.levels(); l++) {
        if (s.validity()[l]) {
          validity[l] = buffers.get(b++);
          long bytes = (numValues * s.items(l) + 7) / 8;
          if (exact ? bytes != validity[l].length : bytes > validity[l].length) {
            throw LanceCodecException.corrupt("fixed_size_list: " + numValues + " lists need " + numValues * s.items(l)
                + " validity bits at depth " + l + ", chunk buffer has " + validity[l].length + " bytes");
          }
        }
      }
      byte[] values = buffers.get(b);
      long need = (numValues * s.leafItems() * s.leafBits() + 7) / 8;
      if (exact ? need != values.length : need > values.length) {
        throw LanceCodecException.corrupt("fixed_size_list: " + numValues + " lists of " + s.leafItems() + " x "
            + s.leafBits() + " bits need " + need + " bytes, chunk buffer has " + values.length);
      }
      return new DataBlock.FixedWidth(rows(s, validity, values, numValues, reuse), (int) (s.rowBytes() * 8), numValues);
    }
  }

  /** Full-zip rows: the validity bytes of each level that has it, then the values, as one fixed-width value. */
  static final class PerValue implements PerValueCompressor {
    /** Whether the descriptor is 2.3's; the rows are the same. */
    private final boolean v23;

    PerValue() {
      this(false);
    }

    PerValue(boolean v23) {
      this.v23 = v23;
    }

    @Override
    public Encoded<DataBlock> compress(DataBlock block) {
      FslShape.Parts p = FslShape.parts(block);
      if (p == null || p.shape().leafBits() % 8 != 0) {
        throw LanceCodecException.internal("fixed-size list over a byte-aligned leaf expected");
      }
      FslShape s = p.shape();
      long row = s.zippedRowBytes();
      long n = p.rows();
      byte[] out = new byte[LanceCodecException.checkedInt(n * row, "zipped lists")];
      long at = 0;
      for (int l = 0; l < s.levels(); l++) {
        if (s.validity()[l]) {
          long items = s.items(l);
          for (long r = 0; r < n; r++) {
            copyBits(p.validity()[l], r * items, out, (r * row + at) * 8, items);
          }
          at += s.validityBytes(l);
        }
      }
      long vb = s.valueBytes();
      for (long r = 0; r < n; r++) {
        System.arraycopy(p.values(), (int) (r * vb), out, (int) (r * row + at), (int) vb);
      }
      return new Encoded<>(new DataBlock.FixedWidth(out, (int) (row * 8), n), s.encoding(v23));
    }
  }

  /** Rows of {@code stored} bytes each, or empty (null rows, which become zeros), as fixed-width rows. */
  private static DataBlock.FixedWidth fixedRows(DataBlock.VariableWidth vw, long stored, DecodeBuffers reuse) {
    int n = LanceCodecException.checkedInt(vw.numValues(), "fixed-size lists");
    byte[] out = new byte[DecodeBuffers.admit(reuse, n, stored, "fixed-size lists")];
    for (int r = 0; r < n; r++) {
      long start = vw.offset(r);
      long len = vw.offset(r + 1) - start;
      if (len == 0) {
        continue;
      }
      if (len != stored || start < 0 || start + len > vw.data().length) {
        throw LanceCodecException.corrupt("fixed_size_list: row " + r + " of " + len + " bytes, rows take " + stored);
      }
      System.arraycopy(vw.data(), (int) start, out, (int) (r * stored), (int) stored);
    }
    return new DataBlock.FixedWidth(out, (int) (stored * 8), n);
  }

  /**
   * One zipped row's validity (the bytes of the levels stored with it, from {@code src[from]}) in
   * its decoded form at {@code out[to]}: every level's bytes, those stored without validity all
   * valid. Returns where the row's values start in {@code src}.
   */
  static long unzipRowValidity(FslShape s, byte[] src, long from, byte[] out, long to) {
    for (int l = 0; l < s.levels(); l++) {
      long vb = s.validityBytes(l);
      if (s.validity()[l]) {
        System.arraycopy(src, (int) from, out, (int) to, (int) vb);
        from += vb;
      } else {
        setBits(out, to * 8, s.items(l));
      }
      to += vb;
    }
    return from;
  }

  /** Stored full-zip rows to decoded rows: levels stored without validity become all valid. */
  static PerValueDecompressor perValueDecoder(FslShape s) {
    long stored = s.zippedRowBytes();
    long full = s.rowBytes();
    return (block, reuse) -> {
      if (stored == 0 && block instanceof DataBlock.AllNull) {
        // zero-width rows (values: Constant{} under levels without validity): those levels are
        // all valid, everything below is null
        return new DataBlock.FixedWidth(rows(s, new byte[s.levels()][], new byte[0], block.numValues(), reuse), (int) (full * 8),
            block.numValues());
      }
      if (block instanceof DataBlock.VariableWidth vw && stored > 0) {
        // rows a wrapping codec hands on one by one (general compression), a null row empty
        block = fixedRows(vw, stored, reuse);
      }
      if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != stored * 8) {
        throw LanceCodecException.corrupt("fixed_size_list: expected " + stored * 8 + "-bit rows");
      }
      if (stored == full) {
        return block;
      }
      long n = fw.numValues();
      byte[] src = fw.data();
      byte[] out = new byte[DecodeBuffers.admit(reuse, n, full, "decoded fixed-size lists")];
      for (long r = 0; r < n; r++) {
        long from = unzipRowValidity(s, src, r * stored, out, r * full);
        System.arraycopy(src, (int) from, out, (int) (r * full + full - s.valueBytes()), (int) s.valueBytes());
      }
      return new DataBlock.FixedWidth(out, (int) (full * 8), n);
    };
  }
}
