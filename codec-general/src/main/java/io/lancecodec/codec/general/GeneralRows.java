package io.lancecodec.codec.general;

import io.lancecodec.format.pb.v23.BufferCompression;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * General compression per value over fixed-width rows, 2.3: {@code General{compression, values =
 * X}} where X is a per-value encoding of fixed-width rows, a {@code FixedSizeList} or an
 * {@code AxisDelta} around one. Each row's bytes as X stores them are one frame (lz4 or zstd, the
 * frames of codecs.md §5.1), so the zipped values are variable width, one frame a row, and a row
 * is still read without its neighbours.
 *
 * <p>A null row may reach the decoder as an empty value (the full-zip layout stores no bytes for
 * it); as with variable-width values an empty frame is no value. For a child whose row width is
 * known (plain lists, an axis delta) it decodes to a row of zeros, which the structure marks null
 * anyway; a child that does not say its width (lists with item validity, a compressed leaf), for
 * which zeros need not be a valid row, gets the rows as variable-width values with the null row
 * empty.
 */
final class GeneralRows {
  private GeneralRows() {}

  /** Rows compressed to choose between candidates, spread over the page: enough to see the data, cheap next to the page. */
  static final int SAMPLE_ROWS = 16;

  /** The bytes of one row's length in the zipped values: offsets are 32-bit (a page is one Java array). */
  private static final int OFFSET_BITS = 32;

  /** Whether {@code values} is a per-value encoding of fixed-width rows that general compression frames row by row. */
  static boolean wraps(CompressiveEncoding values) {
    return values.hasFixedSizeList() || values.hasAxisDelta();
  }

  // ---------------------------------------------------------------- reading

  /**
   * The decoder of {@code General{codec, values}}. The row width comes from the child: an axis
   * delta knows its tensor, a plain fixed-size list reports its rows ({@link
   * PerValueDecompressor#plainBits()}); for any other child (lists with item validity, a leaf
   * another plugin compresses) the frames say it, and must all say the same.
   */
  static PerValueDecompressor open(BufferCodec codec, CompressiveEncoding values, Decoders children) {
    PerValueDecompressor child = children.perValue(values);
    long bits = child instanceof AxisDelta.Decompressor a ? a.rowBits() : child.plainBits();
    if (bits < 0 || bits % 8 != 0 || bits > AxisDelta.MAX_ROW_BITS) {
      throw LanceCodecException.corrupt("general: per-value rows of " + bits + " bits are not whole bytes of at most "
          + AxisDelta.MAX_ROW_BITS + " bits");
    }
    return new Decompressor(codec, child, (int) (bits / 8));
  }

  static final class Decompressor implements PerValueDecompressor {
    private final BufferCodec codec;
    private final PerValueDecompressor child;
    /** Bytes of a row, 0 when only the frames tell. */
    private final int rowBytes;

    Decompressor(BufferCodec codec, PerValueDecompressor child, int rowBytes) {
      this.codec = codec;
      this.child = child;
      this.rowBytes = rowBytes;
    }

    @Override
    public DataBlock decompress(DataBlock block, DecodeBuffers reuse) {
      if (!(block instanceof DataBlock.VariableWidth vw)) {
        throw LanceCodecException.corrupt("general: per-value frames must be variable-width values, got "
            + AxisDelta.describeBlock(block));
      }
      int n = LanceCodecException.checkedInt(vw.numValues(), "general: row count");
      byte[] src = vw.data();
      // First pass: every frame inside the values and declaring the row width, before anything
      // is allocated for the rows.
      long width = rowBytes;
      long budget = rowBytes > 0 ? rowBytes : AxisDelta.MAX_ROW_BITS / 8;
      long prev = vw.offset(0);
      for (int i = 0; i < n; i++) {
        long end = vw.offset(i + 1);
        if (!(prev >= 0 && prev <= end && end <= src.length)) {
          throw LanceCodecException.corrupt("general: row " + i + " spans bytes [" + prev + ", " + end + ") outside " + src.length);
        }
        if (end > prev) {
          long declared = declared(src, (int) prev, (int) (end - prev), budget, i);
          if (width == 0) {
            width = declared;
          } else if (declared != width) {
            throw LanceCodecException.corrupt("general(" + codec.name() + "): the frame of row " + i + " declares " + declared
                + " bytes, " + (rowBytes > 0 ? "a row takes " : "earlier rows declare ") + width);
          }
        }
        prev = end;
      }
      if (width == 0) {
        // every row empty (all null) and nothing says how wide the child's rows are
        return new DataBlock.AllNull(n);
      }
      long total = n * width;
      if (total > GeneralFormat.MAX_PER_VALUE_OUTPUT) {
        throw LanceCodecException.corrupt("general: " + n + " rows of " + width + " bytes exceed a Java array");
      }
      int w = (int) width;
      byte[] rows = reuse == null ? new byte[(int) total] : reuse.inner().data(total);
      // A child that does not say its width (a compressed leaf, lists with item validity) may not
      // read a row of zeros as a valid row: it gets the rows as variable-width values, a null row
      // (an empty frame) as an empty one.
      boolean sized = rowBytes > 0;
      byte[] offsets = sized ? null : new byte[LanceCodecException.checkedInt(4L * (n + 1), "general: offsets")];
      int filled = 0;
      // Frames decode straight into the rows' array: both decoders refuse a match reaching before
      // the start of the frame's own output, so a forged frame cannot copy a neighbouring row.
      prev = vw.offset(0);
      for (int i = 0; i < n; i++) {
        long end = vw.offset(i + 1);
        int at = sized ? i * w : filled;
        if (end > prev) {
          codec.decompressInto(src, (int) prev, (int) (end - prev), rows, at, w);
          filled = at + w;
        } else if (sized) {
          java.util.Arrays.fill(rows, at, at + w, (byte) 0);
        }
        if (!sized) {
          io.lancecodec.spi.LittleEndian.putInt(offsets, 4 * (i + 1), filled);
        }
        prev = end;
      }
      DataBlock stored = sized ? new DataBlock.FixedWidth(rows, 8 * w, n) : new DataBlock.VariableWidth(offsets, 32, rows, n);
      return child.decompress(stored, reuse);
    }

    private long declared(byte[] src, int off, int len, long budget, int row) {
      long d = codec.declaredLength(src, off, len, budget);
      if (d < 0) {
        // 2.3 writers always write the length prefix; a bare zstd stream (or a frame under 8
        // bytes) could only be checked against the row width after decoding it
        throw LanceCodecException.corrupt("general(" + codec.name() + "): the frame of row " + row + " (" + len
            + " bytes) has no length prefix");
      }
      if (d == 0) {
        throw LanceCodecException.corrupt("general(" + codec.name() + "): the frame of row " + row + " declares an empty row");
      }
      return d;
    }
  }

  // ---------------------------------------------------------------- writing

  /**
   * The offer for a page of fixed-size lists, 2.3 full zip: rows as they are, differenced along
   * each natural axis (integer leaves), or as the best other plugin stores them, each framed, the
   * candidate whose frames are smallest on a sample of rows; declined unless the frames and their
   * lengths take less than the rows.
   */
  static Optional<Proposal<Encoded<DataBlock>>> propose(DataBlock block, ProposalContext context) {
    AxisDelta.Shape shape = AxisDelta.shapeOf(block);
    if (shape == null || block.numValues() == 0) {
      return Optional.empty();
    }
    FieldOptions options = context.options();
    Optional<Scheme> scheme = GeneralPlugin.requested(options);
    long n = block.numValues();
    int rowBytes = shape.rowBytes();
    long pageBytes = n * rowBytes;
    if (options.compressionNone() || pageBytes < GeneralFormat.PER_VALUE_MIN_PAGE_BYTES || pageBytes > Integer.MAX_VALUE) {
      return Optional.empty();
    }
    if (scheme.isEmpty() && (options.compression().isPresent() || rowBytes <= GeneralFormat.AUTO_PER_VALUE_MAX_LENGTH)) {
      // another plugin's scheme was asked for, or rows too small to be worth it unasked
      return Optional.empty();
    }
    if (scheme.isPresent() && scheme.get() == Scheme.SNAPPY) {
      // rows are framed under General, which has no snappy value in 2.3; the rows stay unframed
      return Optional.empty();
    }
    Scheme use = scheme.orElse(Scheme.ZSTD);
    // the levels the variable-width per-value offer writes: zstd's explicit (0 unless asked)
    OptionalInt level = use == Scheme.ZSTD ? OptionalInt.of(options.compressionLevel().orElse(0)) : options.compressionLevel();
    BufferCodec codec = use.codec(level);
    BufferCompression compression = use.describe23(level);
    byte[] leaf = AxisDelta.leafBytes(block);
    int[] sample = sample((int) n);
    Sampler sampler = new Sampler(codec, rowBytes);

    Compressor best = new Compressor(codec, compression, shape, 0, 0, null);
    long bestBytes = sampler.measure(leaf, rowBytes, sample, shape, 0, 0);
    if (options.numberKind().integer()) {
      for (int[] axis : axes(shape)) {
        long bytes = sampler.measure(leaf, rowBytes, sample, shape, axis[0], axis[1]);
        if (bytes < bestBytes) {
          best = new Compressor(codec, compression, shape, axis[0], axis[1], null);
          bestBytes = bytes;
        }
      }
    }
    Encoded<DataBlock> innerRows = null;
    Optional<Proposal<Encoded<DataBlock>>> inner = context.innerPerValue(block);
    if (inner.isPresent()) {
      Encoded<DataBlock> r = inner.get().result();
      if (r.data() instanceof DataBlock.FixedWidth fw && r.encoding() instanceof CompressiveEncoding e && wraps(e)
          && !e.equals(shape.encoding()) && fw.numValues() == n && fw.bitsPerValue() % 8 == 0
          && fw.bitsPerValue() <= AxisDelta.MAX_ROW_BITS) {
        long bytes = sampler.measure(fw.data(), fw.bitsPerValue() / 8, sample, null, 0, 0);
        if (bytes < bestBytes) {
          best = new Compressor(codec, compression, null, 0, 0, inner.get().compressor());
          bestBytes = bytes;
          innerRows = r;
        }
      }
    }
    if (bestBytes + (long) sample.length * (OFFSET_BITS / 8) >= (long) sample.length * rowBytes) {
      // the sample already says nothing shrinks (noise, most floats): no pass over the page
      return Optional.empty();
    }
    // the other plugin's rows are at hand already: framed, not made again
    Encoded<DataBlock> out = innerRows != null ? best.frame(innerRows) : best.compress(block);
    long bytes = ((DataBlock.VariableWidth) out.data()).data().length + n * (OFFSET_BITS / 8);
    if (bytes >= pageBytes) {
      return Optional.empty();
    }
    return Optional.of(Proposal.measured("general-" + use.option() + best.label(), bytes, best, out));
  }

  /**
   * The axis choices of a tensor of dimensions d0..dk: along level l, {@code axis_length = d_l}
   * and {@code inner_stride} the elements below it; and the whole tensor as one run. Axes of
   * length 1 change nothing and are left out, as are repeats.
   */
  static List<int[]> axes(AxisDelta.Shape shape) {
    List<int[]> out = new ArrayList<>();
    long below = shape.elements();
    for (long d : shape.dims()) {
      below /= d;
      add(out, (int) d, (int) below);
    }
    add(out, (int) shape.elements(), 1);
    return out;
  }

  private static void add(List<int[]> out, int axisLength, int innerStride) {
    if (axisLength < 2) {
      return;
    }
    for (int[] a : out) {
      if (a[0] == axisLength && a[1] == innerStride) {
        return;
      }
    }
    out.add(new int[] {axisLength, innerStride});
  }

  /** Up to {@link #SAMPLE_ROWS} row indices spread evenly over {@code n} rows. */
  static int[] sample(int n) {
    int m = Math.min(SAMPLE_ROWS, n);
    int[] rows = new int[m];
    for (int k = 0; k < m; k++) {
      rows[k] = (int) ((long) k * n / m);
    }
    return rows;
  }

  /** Compresses sampled rows into arrays it keeps for the whole proposal. */
  private static final class Sampler {
    private final BufferCodec codec;
    private byte[] scratch;
    private byte[] frame;

    Sampler(BufferCodec codec, int rowBytes) {
      this.codec = codec;
      this.scratch = new byte[rowBytes];
      this.frame = new byte[codec.maxFrameBytes(rowBytes)];
    }

    /** The frames' bytes of the sampled rows, differenced first when {@code axisLength > 0}. */
    long measure(byte[] rows, int rowBytes, int[] sample, AxisDelta.Shape shape, int axisLength, int innerStride) {
      if (frame.length < codec.maxFrameBytes(rowBytes)) {
        frame = new byte[codec.maxFrameBytes(rowBytes)];
      }
      if (axisLength > 0 && scratch.length < rowBytes) {
        scratch = new byte[rowBytes];
      }
      long total = 0;
      for (int row : sample) {
        int off = LanceCodecException.checkedInt((long) row * rowBytes, "general: row offset");
        if (axisLength > 0) {
          AxisDelta.apply(rows, off, scratch, 0, (int) shape.elements(), shape.bits(), axisLength * innerStride, innerStride);
          total += codec.compressInto(scratch, 0, rowBytes, frame, 0);
        } else {
          total += codec.compressInto(rows, off, rowBytes, frame, 0);
        }
      }
      return total;
    }
  }

  /**
   * Frames every row of a page of the shape it was made for, as they are or differenced along its
   * axis; or, with {@code inner}, the fixed-width rows another plugin's compressor makes of it.
   */
  static final class Compressor implements PerValueCompressor {
    private final BufferCodec codec;
    private final BufferCompression compression;
    private final AxisDelta.Shape shape;
    private final int axisLength;
    private final int innerStride;
    private final io.lancecodec.spi.Compressor<Encoded<DataBlock>> inner;

    Compressor(BufferCodec codec, BufferCompression compression, AxisDelta.Shape shape, int axisLength, int innerStride,
        io.lancecodec.spi.Compressor<Encoded<DataBlock>> inner) {
      this.codec = codec;
      this.compression = compression;
      this.shape = shape;
      this.axisLength = axisLength;
      this.innerStride = innerStride;
      this.inner = inner;
    }

    String label() {
      return inner != null ? "-inner" : axisLength > 0 ? "-axis-delta" : "";
    }

    @Override
    public Encoded<DataBlock> compress(DataBlock block) {
      if (inner != null) {
        return frame(inner.compress(block));
      }
      AxisDelta.Shape s = AxisDelta.shapeOf(block);
      if (!shape.sameAs(s)) {
        throw LanceCodecException.internal("general: rows of " + shape + " expected, got " + (s == null ? block.getClass().getSimpleName() : s));
      }
      CompressiveEncoding values = axisLength > 0 ? AxisDelta.encoding(shape, axisLength, innerStride) : shape.encoding();
      return frames(AxisDelta.leafBytes(block), shape.rowBytes(), LanceCodecException.checkedInt(block.numValues(), "general: rows"), values);
    }

    /** Another plugin's fixed-width rows, each framed as they are. */
    Encoded<DataBlock> frame(Encoded<DataBlock> rows) {
      if (!(rows.data() instanceof DataBlock.FixedWidth fw) || !(rows.encoding() instanceof CompressiveEncoding e) || !wraps(e)) {
        throw LanceCodecException.internal("general: the inner per-value compressor no longer makes fixed-width rows");
      }
      return frames(fw.data(), fw.bitsPerValue() / 8, LanceCodecException.checkedInt(fw.numValues(), "general: rows"), e);
    }

    private Encoded<DataBlock> frames(byte[] rows, int rowBytes, int n, CompressiveEncoding values) {
      int w = OFFSET_BITS / 8;
      byte[] offsets = new byte[LanceCodecException.checkedInt((n + 1L) * w, "general: offsets")];
      int bound = codec.maxFrameBytes(rowBytes);
      byte[] out = new byte[(int) Math.min(GeneralFormat.MAX_PER_VALUE_OUTPUT, Math.max(64L, (long) n * rowBytes / 4 + bound))];
      byte[] scratch = axisLength > 0 ? new byte[rowBytes] : null;
      int pos = 0;
      for (int i = 0; i < n; i++) {
        if (bound > out.length - pos) {
          out = java.util.Arrays.copyOf(out, LanceCodecException.checkedInt(Math.max(2L * out.length, (long) pos + bound), "general: frames"));
        }
        int off = LanceCodecException.checkedInt((long) i * rowBytes, "general: row offset");
        if (scratch != null) {
          AxisDelta.apply(rows, off, scratch, 0, (int) shape.elements(), shape.bits(), axisLength * innerStride, innerStride);
          pos += codec.compressInto(scratch, 0, rowBytes, out, pos);
        } else {
          pos += codec.compressInto(rows, off, rowBytes, out, pos);
        }
        LittleEndian.putInt(offsets, (i + 1) * w, pos);
      }
      return new Encoded<>(new DataBlock.VariableWidth(offsets, OFFSET_BITS, java.util.Arrays.copyOf(out, pos), n),
          GeneralMiniBlock.wrap23(compression, values));
    }
  }
}
