package io.lancecodec.codec.pcodec;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.FixedSizeList;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.Pcodec;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlocks;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The spec's Pcodec mini-block chunks: each chunk of {@code n} rows of {@code d} floats (a bare
 * leaf has {@code d = 1}) is one pco standalone file of its {@code n·d} numbers in item-major
 * order (item {@code j} of row {@code i} at {@code j·n + i}), so that each list position is one
 * run of similar numbers. The numbers go between the page's bytes and pco's ordered latents
 * directly, as raw bits: no float is ever materialized, so NaN payloads and signed zeros survive.
 */
final class PcodecMiniBlock {
  /** The spec's budget of one chunk's uncompressed values. */
  static final int CHUNK_BYTES = 32 * 1024;

  private PcodecMiniBlock() {}

  /** Rows of {@code d} leaf items of {@code bits} each (16, 32 or 64); {@code dims} outer to inner, empty for a bare leaf. */
  record Shape(long[] dims, int bits) {
    long items() {
      long d = 1;
      for (long x : dims) {
        d *= x;
      }
      return d;
    }

    long rowBytes() {
      return items() * (bits / 8);
    }

    NumberType type() {
      return bits == 16 ? NumberType.F16 : bits == 32 ? NumberType.F32 : NumberType.F64;
    }

    /** The descriptor: Pcodec around the uncompressed layout of the values. */
    CompressiveEncoding encoding() {
      CompressiveEncoding inner = CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
      for (int k = dims.length - 1; k >= 0; k--) {
        inner = CompressiveEncoding.newBuilder()
            .setFixedSizeList(FixedSizeList.newBuilder().setItemsPerValue(dims[k]).setValues(inner))
            .build();
      }
      return CompressiveEncoding.newBuilder().setPcodec(Pcodec.newBuilder().setValues(inner)).build();
    }

    /** The shape of a block pcodec can take (fixed-size lists without item validity around a 16/32/64-bit leaf), or null. */
    static Shape of(DataBlock block) {
      List<Long> dims = new ArrayList<>();
      DataBlock b = block;
      long expected = block.numValues();
      while (b instanceof DataBlock.FixedSizeList fsl) {
        if (fsl.dimension() <= 0 || fsl.numValues() != expected) {
          return null;
        }
        dims.add(fsl.dimension());
        expected = Math.multiplyExact(expected, fsl.dimension());
        b = fsl.child();
      }
      if (!(b instanceof DataBlock.FixedWidth fw) || fw.numValues() != expected) {
        return null;
      }
      int bits = fw.bitsPerValue();
      if (bits != 16 && bits != 32 && bits != 64) {
        return null;
      }
      long[] d = new long[dims.size()];
      for (int i = 0; i < d.length; i++) {
        d[i] = dims.get(i);
      }
      Shape s = new Shape(d, bits);
      return s.rowBytes() * 8 > MAX_ROW_BITS ? null : s;
    }

    /** The shape a descriptor's {@code values} names; CORRUPT unless Flat{16|32|64} inside FSL layers without validity. */
    static Shape parse(Pcodec p) {
      if (!p.hasValues()) {
        throw LanceCodecException.corrupt("pcodec: values encoding missing");
      }
      List<Long> dims = new ArrayList<>();
      long product = 1;
      CompressiveEncoding e = p.getValues();
      while (e.hasFixedSizeList()) {
        FixedSizeList f = e.getFixedSizeList();
        long d = f.getItemsPerValue();
        if (f.getHasValidity() || d <= 0 || d > MAX_ROW_BITS || dims.size() >= MAX_LAYERS || (product *= d) > MAX_ROW_BITS
            || !f.hasValues()) {
          throw LanceCodecException.corrupt("pcodec: values must be Flat{16|32|64}, possibly inside fixed-size lists without"
              + " item validity, not a list layer of " + Long.toUnsignedString(d) + " items" + (f.getHasValidity() ? " with validity" : ""));
        }
        dims.add(d);
        e = f.getValues();
      }
      long bits = e.hasFlat() ? e.getFlat().getBitsPerValue() : -1;
      if (bits != 16 && bits != 32 && bits != 64) {
        throw LanceCodecException.corrupt("pcodec: values must be Flat{16|32|64}, possibly inside fixed-size lists without"
            + " item validity, not " + e.getCompressionCase() + (e.hasFlat() ? "{" + Long.toUnsignedString(bits) + "}" : ""));
      }
      if (product * bits > MAX_ROW_BITS) {
        throw LanceCodecException.corrupt("pcodec: rows of " + product + " x " + bits + " bits, over " + MAX_ROW_BITS);
      }
      long[] d = new long[dims.size()];
      for (int i = 0; i < d.length; i++) {
        d[i] = dims.get(i);
      }
      return new Shape(d, (int) bits);
    }
  }

  /** Layers and items per row a reader accepts: the runtime's own fixed-size-list limits. */
  static final int MAX_LAYERS = 16;

  static final long MAX_ROW_BITS = 1L << 27;

  /**
   * Rows in a full chunk: the largest power of two whose values take at most 32 KiB, at most the
   * mini-block maximum, and at least two (the spec: only a page's last chunk holds one value).
   */
  static int rowsPerChunk(long rowBytes, int maxValues) {
    int cap = MiniBlocks.fullChunkValues(maxValues);
    long fit = Math.max(1, CHUNK_BYTES / Math.max(1, rowBytes));
    long rows = Math.min(cap, Long.highestOneBit(fit));
    return (int) Math.max(2, rows);
  }

  static final class Compressor implements MiniBlockCompressor {
    private final int level;
    private final int maxValues;

    Compressor(int level, int maxValues) {
      this.level = level;
      this.maxValues = maxValues;
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      Shape shape = Shape.of(block);
      if (shape == null) {
        throw LanceCodecException.internal("pcodec: a block of another shape than proposed for: " + block.getClass().getSimpleName());
      }
      byte[] data = leaf(block).data();
      int d = (int) shape.items();
      int w = shape.bits() / 8;
      long rows = block.numValues();
      int per = rowsPerChunk(shape.rowBytes(), maxValues);
      PcoConfig cfg = PcoConfig.level(level);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      List<MiniBlockChunk> chunks = new ArrayList<>();
      for (long r0 = 0; r0 < rows; r0 += per) {
        int n = (int) Math.min(per, rows - r0);
        byte[] file = compressChunk(shape.type(), data, Math.multiplyExact(r0, (long) d * w), n, d, w, cfg);
        out.write(file, 0, file.length);
        chunks.add(new MiniBlockChunk(new int[] {file.length}, MiniBlocks.logNumValues(n, r0 + n == rows)));
      }
      return new MiniBlockCompressed(List.of(out.toByteArray()), chunks, rows, shape.encoding());
    }
  }

  private static DataBlock.FixedWidth leaf(DataBlock block) {
    DataBlock b = block;
    while (b instanceof DataBlock.FixedSizeList fsl) {
      b = fsl.child();
    }
    return (DataBlock.FixedWidth) b;
  }

  /** One chunk's pco file: rows {@code [0, n)} of {@code d} items of {@code w} bytes from byte {@code base}, item-major. */
  static byte[] compressChunk(NumberType type, byte[] data, long base, int n, int d, int w, PcoConfig cfg) {
    int total = Math.multiplyExact(n, d);
    int b = (int) base;
    return PcoEncoder.compress(type, total, (ordered, start, count) -> {
      // position k = j·n + i holds item j of row i, at byte base + (i·d + j)·w
      int j = start / n;
      int i = start - j * n;
      for (int k = 0; k < count; k++) {
        int at = b + (i * d + j) * w;
        long raw = w == 2 ? data[at] & 0xFF | (data[at + 1] & 0xFF) << 8
            : w == 4 ? io.lancecodec.spi.LittleEndian.getInt(data, at) & 0xFFFF_FFFFL
            : io.lancecodec.spi.LittleEndian.getLong(data, at);
        ordered[k] = type.toOrdered(raw);
        if (++i == n) {
          i = 0;
          j++;
        }
      }
    }, cfg);
  }

  /** Writes decoded latents straight to row-major bytes, undoing the transpose as they arrive. */
  private static final class RowSink extends NumberSink {
    private final byte[] out;
    private final int base;
    private final int n;
    private final int d;
    private final int w;
    private int i;
    private int j;

    RowSink(NumberType type, byte[] out, int base, int n, int d) {
      super(type, (long) n * d);
      this.out = out;
      this.base = base;
      this.n = n;
      this.d = d;
      this.w = type.bits / 8;
    }

    @Override
    void accept(long[] ordered, int len) {
      // admit() has bounded the total by n·d, so every position lands inside the rows
      for (int k = 0; k < len; k++) {
        int at = base + (i * d + j) * w;
        long raw = type.fromOrdered(ordered[k]);
        if (w == 2) {
          out[at] = (byte) raw;
          out[at + 1] = (byte) (raw >>> 8);
        } else if (w == 4) {
          io.lancecodec.spi.LittleEndian.putInt(out, at, (int) raw);
        } else {
          io.lancecodec.spi.LittleEndian.putLong(out, at, raw);
        }
        if (++i == n) {
          i = 0;
          j++;
        }
      }
      count += len;
    }
  }

  /** Decodes a chunk to rows of {@code shape.rowBytes()} bytes; CORRUPT on any damage or count other than {@code n·d}. */
  static final class Decompressor implements FixedWidthMiniBlockDecompressor {
    private final Shape shape;
    private final int rowBits;

    Decompressor(Shape shape) {
      this.shape = shape;
      this.rowBits = LanceCodecException.checkedInt(shape.rowBytes() * 8, "pcodec row bits");
    }

    @Override
    public int bitsPerValue() {
      return rowBits;
    }

    @Override
    public long maxBufferBytes(int buffer, int numValues) {
      return -1;
    }

    /** Decodes the whole chunk into {@code dst} from {@code dstOffset}. */
    private void decodeAll(MiniBlockBuffers chunk, int numValues, byte[] dst, int dstOffset) {
      chunk.expect(1, "pcodec");
      if (numValues <= 0 || numValues > MiniBlocks.MAX_VALUES_READ) {
        throw LanceCodecException.corrupt("pcodec: a chunk of " + numValues + " values");
      }
      int d = (int) shape.items();
      RowSink sink = new RowSink(shape.type(), dst, dstOffset, numValues, d);
      long got;
      try {
        got = PcoDecoder.decode(chunk.bytes(), chunk.offset(0), chunk.size(0), sink);
      } catch (LanceCodecException e) {
        throw e;
      } catch (RuntimeException e) {
        throw LanceCodecException.corrupt("pcodec: damaged chunk (" + e + ")");
      }
      if (got != (long) numValues * d) {
        throw LanceCodecException.corrupt("pcodec: the chunk holds " + got + " numbers, expected " + numValues + " rows of " + d);
      }
    }

    @Override
    public void decodeInto(MiniBlockBuffers chunk, int numValues, int from, int to, byte[] dst, int dstOffset) {
      if (from < 0 || from > to || to > numValues) {
        throw LanceCodecException.internal("pcodec: range [" + from + ", " + to + ") of " + numValues + " values");
      }
      long rowBytes = shape.rowBytes();
      if (from == 0 && to == numValues) {
        decodeAll(chunk, numValues, dst, dstOffset);
        return;
      }
      // pco has no random access inside a file: decode the chunk, copy the rows asked for
      byte[] all = new byte[LanceCodecException.checkedInt(rowBytes * numValues, "pcodec chunk bytes")];
      decodeAll(chunk, numValues, all, 0);
      System.arraycopy(all, (int) (from * rowBytes), dst, dstOffset, (int) ((to - from) * rowBytes));
    }
  }
}
