package io.lancecodec.layout.physical;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.Parallelism;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageInput;
import io.lancecodec.spi.layout.PageSource;
import java.util.List;

/**
 * The full-zip layout for wide values: each item is its control word (the def level, when the
 * page has levels), then for variable-width values a u32/u64 length and the bytes (nulls carry
 * the control word only), for fixed-width values the value bytes (nulls included). Variable
 * pages add buffer 1, the byte offset of every item plus the end, in the narrowest of 1/2/4/8
 * bytes that holds an upper bound of buffer 0's size.
 */
public final class FullZipPage {
  private FullZipPage() {}

  public static PhysicalPage<FullZipSpec> encode(PageInput page, LayoutContext ctx) {
    Encoded<DataBlock> enc = ctx.compressPerValue(page.values(), page.options());
    short[] rep = page.repLevels();
    short[] def = page.defLevels();
    if (rep == null && Levels.max(def) == 0) {
      // a def stream of zeros would need control words that bits_def = 0 cannot announce
      def = null;
    }
    int numValues = (int) page.values().numValues();
    // Items are levels when there are lists (empty and null lists have a level but no value).
    int n = rep != null ? rep.length : numValues;
    int maxRep = Levels.max(rep);
    int bitsRep = Levels.bitLength(maxRep);
    int bitsDef = Levels.bitLength(Levels.max(def));
    int ctrl = controlBytes(bitsRep, bitsDef, rep != null || def != null);
    int maxVisible = rep == null ? Integer.MAX_VALUE : Levels.maxVisibleDef(page.layers());
    if (enc.data() instanceof DataBlock.FixedWidth fw) {
      int w = fw.bitsPerValue() / 8;
      if (fw.bitsPerValue() % 8 != 0) {
        throw LanceCodecException.unsupported("full-zip needs byte-aligned values, got " + fw.bitsPerValue() + " bits");
      }
      FullZipSpec layout = new FullZipSpec(page.layers(), bitsRep, bitsDef, n, numValues, enc.encoding(), fw.bitsPerValue(), -1, 0);
      if (ctrl == 0) {
        // the rows are the values as they are: handed on, not copied (a stream grown by doubling
        // had copied a 30 MB page of 768-float vectors about three times)
        int bytes = LanceCodecException.checkedInt((long) n * w, "full-zip page size");
        byte[] rows = fw.data().length == bytes ? fw.data() : java.util.Arrays.copyOf(fw.data(), bytes);
        return new PhysicalPage<>(List.of(rows), layout);
      }
      // an upper bound, exact without nulls: rows go straight into one array
      long estimate = (long) numValues * w + (long) ctrl * n;
      RowIndex index = rep == null ? null : new RowIndex(page.numRows(), estimate);
      byte[] out = new byte[LanceCodecException.checkedInt(estimate, "full-zip page size")];
      int pos = 0;
      int v = 0;
      for (int i = 0; i < n; i++) {
        int r = rep == null ? 0 : rep[i] & 0xFFFF;
        int d = def == null ? 0 : def[i] & 0xFFFF;
        if (index != null && r == maxRep) {
          index.add(pos);
        }
        LittleEndian.putUnsigned(out, pos, ctrl, ((long) r << bitsDef) | d);
        pos += ctrl;
        if (d <= maxVisible) {
          System.arraycopy(fw.data(), v * w, out, pos, w);
          pos += w;
          v++;
        }
      }
      byte[] rows = pos == out.length ? out : java.util.Arrays.copyOf(out, pos);
      if (index == null) {
        return new PhysicalPage<>(List.of(rows), layout);
      }
      index.add(pos);
      return new PhysicalPage<>(List.of(rows, index.bytes()), layout);
    }
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) enc.data();
    int lw = vw.bitsPerOffset() / 8;
    FullZipSpec layout = new FullZipSpec(page.layers(), bitsRep, bitsDef, n, numValues, enc.encoding(), -1, vw.bitsPerOffset(), 0);
    long estimate = (vw.offset(numValues) - vw.offset(0)) + (long) ctrl * n + (long) lw * numValues;
    RowIndex index = new RowIndex(rep == null ? n : page.numRows(), estimate);
    // The estimate is an upper bound (exact without nulls): rows go straight into one array
    // instead of a stream that grew by doubling copies and was copied out once more.
    byte[] out = new byte[LanceCodecException.checkedInt(estimate, "full-zip page size")];
    int pos = 0;
    int v = 0;
    for (int i = 0; i < n; i++) {
      int r = rep == null ? 0 : rep[i] & 0xFFFF;
      int d = def == null ? 0 : def[i] & 0xFFFF;
      if (rep == null || r == maxRep) {
        index.add(pos);
      }
      if (ctrl > 0) {
        LittleEndian.putUnsigned(out, pos, ctrl, ((long) r << bitsDef) | d);
        pos += ctrl;
      }
      if (d > maxVisible) {
        continue;
      }
      if (d == 0) {
        long start = vw.offset(v);
        int l = (int) (vw.offset(v + 1) - start);
        LittleEndian.putUnsigned(out, pos, lw, l);
        pos += lw;
        System.arraycopy(vw.data(), (int) start, out, pos, l);
        pos += l;
      }
      v++;
    }
    index.add(pos);
    return new PhysicalPage<>(List.of(pos == out.length ? out : java.util.Arrays.copyOf(out, pos), index.bytes()), layout);
  }

  /** Control word bytes: 1, 2 or 4 for the rep and def bits together; 0 without levels. */
  static int controlBytes(int bitsRep, int bitsDef, boolean levels) {
    int bits = bitsRep + bitsDef;
    if (!levels) {
      return 0;
    }
    return bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
  }

  /**
   * The byte offset where each row starts, plus the end, in the narrowest of 1/2/4/8 bytes
   * that holds an upper bound of the data size (the reader derives the width from the size).
   */
  private static final class RowIndex {
    private final byte[] bytes;
    private final int width;
    private int count;

    RowIndex(long rows, long estimate) {
      width = estimate <= 0xFF ? 1 : estimate <= 0xFFFF ? 2 : estimate <= 0xFFFFFFFFL ? 4 : 8;
      bytes = new byte[LanceCodecException.checkedInt((rows + 1) * width, "full-zip repetition index")];
    }

    void add(long offset) {
      LittleEndian.putUnsigned(bytes, count * width, width, offset);
      count++;
    }

    byte[] bytes() {
      if (count * width != bytes.length) {
        throw LanceCodecException.internal("full-zip: " + (count - 1) + " rows indexed, page has " + (bytes.length / width - 1));
      }
      return bytes;
    }
  }

  /**
   * Reads a full-zip page. Without lists, fixed-width rows map to byte ranges directly and
   * variable-width rows through the index; with lists the index gives each row's bytes, whose
   * control words hold the rep and def levels of its items.
   */
  public static final class Decoder implements PageDecoder {
    private final FullZipSpec layout;
    private final PageSource source;
    private final long numRows;
    private final PerValueDecompressor values;
    private final int ctrl;
    private final boolean variable;
    private final int width;
    private final int indexWidth;
    private final java.util.List<io.lancecodec.spi.layout.LevelLayer> layers;
    private final boolean nested;
    private final int bitsRep;
    private final int bitsDef;
    private final int maxVisible;
    private final boolean zeroWidth;
    /** Bits of a value whose tree stores it as plain bytes ({@link PerValueDecompressor#plainBits}), else 0. */
    private final long plainBits;

    public Decoder(FullZipSpec layout, PageSource source, long numRows, LayoutContext ctx) {
      this.layout = layout;
      this.source = source;
      this.numRows = numRows;
      this.layers = Levels.checked(layout.layers());
      this.nested = Levels.nested(layers);
      this.bitsRep = layout.bitsRep();
      this.bitsDef = layout.bitsDef();
      if (!(bitsDef <= 16 && bitsRep <= 16)) {
        throw LanceCodecException.corrupt("full-zip: bits_rep " + bitsRep + " / bits_def " + bitsDef + " exceed 16");
      }
      if (bitsRep > 0 && Levels.maxRep(layers) == 0) {
        throw LanceCodecException.corrupt("full-zip: repetition bits without list layers");
      }
      if (bitsRep == 0 && !(layout.numItems() == numRows && layout.numVisibleItems() == numRows)) {
        throw LanceCodecException.corrupt("full-zip: num_items " + layout.numItems() + " differs from page rows " + numRows);
      }
      if (bitsRep > 0 && !(layout.numVisibleItems() <= layout.numItems() && layout.numItems() >= numRows)) {
        throw LanceCodecException.corrupt("full-zip: " + layout.numVisibleItems() + " visible of " + layout.numItems() + " items for " + numRows + " rows");
      }
      this.maxVisible = bitsRep > 0 ? Levels.maxVisibleDef(layers) : Integer.MAX_VALUE;
      this.ctrl = controlBytes(bitsRep, bitsDef, bitsRep + bitsDef > 0);
      if (layout.valueCompression() == null) {
        throw LanceCodecException.corrupt("full-zip: value_compression missing");
      }
      // The reference writes fixed-size lists whose items are all null as zero-width rows (of
      // a tree ending in a Constant without value): the rows are their control words only.
      // Zero-width rows are handed to the value tree as all-null values, which a fixed-size list
      // decoder turns into its rows (levels above the constant valid, below it null). A tree that
      // hands them back as they are has no values at all: the levels alone say which lists are
      // valid (their items all null). A zero-row probe asks the tree which it is.
      PerValueDecompressor tree = ctx.perValue(layout.valueCompression());
      this.zeroWidth = layout.bitsPerValue() == 0;
      boolean noValues = zeroWidth && tree.decompress(new DataBlock.AllNull(0), null) instanceof DataBlock.AllNull;
      this.values = noValues ? null : tree;
      this.plainBits = tree.plainBits();
      if (source.numBuffers() < 1) {
        throw LanceCodecException.corrupt("full-zip: page has no buffers");
      }
      if (layout.bitsPerValue() >= 0) {
        variable = false;
        int bits = layout.bitsPerValue();
        if (!((bits > 0 || this.zeroWidth) && bits % 8 == 0 && bits <= 1 << 27)) {
          throw LanceCodecException.corrupt("full-zip: bits_per_value " + bits + " is not a positive multiple of 8");
        }
        width = bits / 8;
        if (bitsRep == 0) {
          long need = (ctrl + (long) width) * numRows;
          if (source.bufferSize(0) < need) {
            throw LanceCodecException.corrupt("full-zip: buffer 0 has " + source.bufferSize(0) + " bytes, " + numRows + " rows need " + need);
          }
        }
      } else if (layout.bitsPerOffset() >= 0) {
        variable = true;
        int bits = layout.bitsPerOffset();
        if (!(bits == 32 || bits == 64)) {
          throw LanceCodecException.corrupt("full-zip: bits_per_offset " + bits + " is not 32 or 64");
        }
        width = bits / 8;
      } else {
        throw LanceCodecException.corrupt("full-zip: neither bits_per_value nor bits_per_offset set");
      }
      if (variable || bitsRep > 0) {
        if (source.numBuffers() < 2) {
          throw LanceCodecException.corrupt("full-zip: page lacks its repetition index");
        }
        long size = source.bufferSize(1);
        long w = size / (numRows + 1);
        if (!(w * (numRows + 1) == size && (w == 1 || w == 2 || w == 4 || w == 8))) {
          throw LanceCodecException.corrupt("full-zip: repetition index of " + size + " bytes does not hold " + (numRows + 1) + " entries of 1/2/4/8 bytes");
        }
        indexWidth = (int) w;
      } else {
        indexWidth = 0;
      }
    }

    @Override
    public long numRows() {
      return numRows;
    }

    @Override
    public long searchCacheBytes() {
      return layout.metadataBytes();
    }

    /**
     * Rows of plain fixed-width values without lists (a vector column, say) go from the file to
     * {@code sink} through a small per-thread array: no array of the whole read, no appender.
     */
    @Override
    public DecodedPage read(long[] ranges, int bits, io.lancecodec.spi.layout.FixedWidthSink sink) {
      if (bitsRep == 0 && !zeroWidth && values != null && bits > 0 && plainBits == 0 && values.decodedBits() == bits) {
        return readDecoded(ranges, bits, sink);
      }
      if (bitsRep > 0 || variable || zeroWidth || values == null || bits <= 0 || bits != plainBits || bits != width * 8L) {
        return read(ranges);
      }
      long total = rows(ranges);
      int n = LanceCodecException.checkedInt(total, "rows in one read");
      sink.reserve(total * width);
      short[] def = ctrl > 0 ? new short[n] : null;
      int stride = ctrl + width;
      int perStep = Math.max(1, STREAM_BYTES / stride);
      byte[] raw = kept(ROWS, (long) Math.min(perStep, n) * stride);
      byte[] vals = ctrl > 0 ? kept(STREAM_VALUES, (long) Math.min(perStep, n) * width) : null;
      int row = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        for (long a = ranges[i]; a < ranges[i + 1]; ) {
          int k = (int) Math.min(perStep, ranges[i + 1] - a);
          source.readInto(0, a * stride, k * stride, raw, 0);
          if (ctrl == 0) {
            sink.append(raw, 0, k * width);
          } else {
            for (int r = 0; r < k; r++) {
              def[row + r] = (short) LittleEndian.getUnsigned(raw, r * stride, ctrl);
              System.arraycopy(raw, r * stride + ctrl, vals, r * width, width);
            }
            sink.append(vals, 0, k * width);
          }
          row += k;
          a += k;
        }
      }
      return new DecodedPage(null, null, def, total, nested ? layers : null);
    }

    /** Row bytes streamed per step of a sink read: a few hundred KiB stays in the L2 cache. */
    private static final int STREAM_BYTES = 256 << 10;

    /** Per thread, a sink read's values cut out of rows with control words (raw rows go through {@link #ROWS}). */
    private static final ThreadLocal<byte[]> STREAM_VALUES = new ThreadLocal<>();

    /** The thread's kept array if it holds {@code need} bytes, else a new one, kept up to {@link #KEEP_GATHER}. */
    private static byte[] kept(ThreadLocal<byte[]> slot, long need) {
      return ThreadArrays.bytes(slot, need, KEEP_GATHER);
    }

    @Override
    public DecodedPage read(long[] ranges) {
      long total = rows(ranges);
      BlockAppender out = new BlockAppender(total);
      LevelSink levels = bitsRep > 0 ? new LevelSink(true, bitsDef > 0) : null;
      Items items = bitsRep > 0 ? new Items() : null;
      for (int i = 0; i < ranges.length; i += 2) {
        long a = ranges[i];
        long b = ranges[i + 1];
        if (bitsRep > 0) {
          readItems(a, b, rowSpan(a, b), items, levels);
        } else if (variable) {
          readVariable(a, b, out);
        } else {
          readFixed(a, b, out);
        }
      }
      if (levels != null) {
        if (items.count > 0) {
          DataBlock visible = !zeroWidth ? items.detach(values.decompress(items.view(), null))
              : values == null ? new DataBlock.AllNull(items.count) : values.decompress(new DataBlock.AllNull(items.count), null);
          out.append(visible, 0, items.count, null);
        }
        return new DecodedPage(out.block(), levels.rep(), levels.def(), total, layers);
      }
      return new DecodedPage(out.block(), null, out.levels(), out.count(), nested ? layers : null);
    }

    /**
     * Rows with lists of variable-width values (a {@code list<string>} column, say) are read in
     * steps of about {@link #STREAM_BYTES} of row bytes: each step's items are gathered,
     * decompressed into this thread's reused arrays and appended to {@code sink} while still in
     * cache, instead of one block of the whole read that is then copied again. A range is split
     * into steps through its repetition index entries (one more read); a short range costs the
     * same two reads as {@link #read(long[])}, and items of short ranges are decompressed together.
     */
    @Override
    public DecodedPage read(long[] ranges, io.lancecodec.spi.layout.VariableWidthSink sink) {
      if (bitsRep == 0 || !variable || zeroWidth || values == null) {
        return read(ranges);
      }
      long total = rows(ranges);
      // Levels and values sized up front from the page's items per row (a scan of short lists
      // otherwise grew both by doubling, copying each several times), at most SIZE_HINT each so
      // that a page claiming many items costs no large allocation.
      double perRow = (double) layout.numItems() / Math.max(1, numRows);
      LevelSink levels = new LevelSink(true, bitsDef > 0, (long) Math.min(SIZE_HINT, total * perRow * 1.0625));
      sink.reserveValues((long) Math.min(SIZE_HINT, total * ((double) layout.numVisibleItems() / Math.max(1, numRows)) * 1.0625));
      Items items = new Items();
      io.lancecodec.spi.DecodeBuffers reuse = REUSE.get();
      long rowBytes = 0;
      long decodedBytes = 0;
      double expansion = rowExpansion;
      try {
        for (int i = 0; i < ranges.length; i += 2) {
          long a = ranges[i];
          long b = ranges[i + 1];
          long[] span = rowSpan(a, b);
          rowBytes += span[1] - span[0];
          if (expansion > 0) {
            // the sink's data at its likely size at once: appended segment by segment, it would
            // otherwise grow by doubling, each time a new buffer and a copy; a guess, so capped
            // (rows that expand more than the last read's still grow the buffer as they decode)
            sink.reserve((long) Math.min(RESERVE_CAP, (span[1] - span[0]) * expansion * 1.0625));
          }
          if (span[1] - span[0] <= STREAM_BYTES && segments(a, b, span) < 2) {
            readItems(a, b, span, items, levels);
          } else {
            // earlier short ranges first, so that the first step's expansion is its own
            decodedBytes += flush(items, sink, reuse);
            long[] starts = span[1] - span[0] <= STREAM_BYTES ? null : rowStarts(a, b, span);
            for (long s = a; s < b; ) {
              long e = starts == null ? b : stepEnd(starts, a, s, b);
              long[] step = starts == null ? span : new long[] {starts[(int) (s - a)], starts[(int) (e - a)]};
              long decoded = decodeSegments(s, e, step, starts, (int) (s - a), items, levels, sink, reuse);
              decodedBytes += decoded;
              if (s == a && step[1] > step[0] && expansion == 0) {
                // the first step's expansion, projected over the range: one allocation, no doublings
                sink.reserve((long) ((double) decoded / (step[1] - step[0]) * (span[1] - step[1]) * 1.0625));
              }
              s = e;
            }
          }
          if (items.valsLen >= STREAM_BYTES) {
            decodedBytes += flush(items, sink, reuse);
          }
        }
        decodedBytes += flush(items, sink, reuse);
      } finally {
        reuse.trim(KEEP_GATHER);
      }
      if (rowBytes > 0) {
        rowExpansion = (double) decodedBytes / rowBytes;
      }
      return new DecodedPage(null, levels.rep(), levels.def(), total, layers);
    }

    /**
     * Decoded value bytes per row byte of this page's last sink read, 0 before the first: the
     * next read's size guess. Written by whichever thread read last (a guess, so unsynchronized).
     */
    private double rowExpansion;

    /** The most data bytes a sink read reserves from {@link #rowExpansion} per range. */
    private static final double RESERVE_CAP = 64 << 20;

    /** The most levels or values a sink read reserves from the page's counts alone. */
    private static final double SIZE_HINT = 1 << 20;

    /** Per thread, the arrays a sink read's steps are decompressed into. */
    private static final ThreadLocal<io.lancecodec.spi.DecodeBuffers> REUSE =
        ThreadLocal.withInitial(io.lancecodec.spi.DecodeBuffers::new);

    /**
     * Decompresses the gathered items into {@code reuse}, appends them to {@code sink} and empties
     * the gathering; returns the bytes appended.
     */
    private long flush(Items items, io.lancecodec.spi.layout.VariableWidthSink sink, io.lancecodec.spi.DecodeBuffers reuse) {
      if (items.count == 0) {
        return 0;
      }
      long bytes = append(sink, decompressed(items, reuse));
      items.clear();
      return bytes;
    }

    /** Appends {@code vw} to {@code sink}; returns its data bytes. */
    private static long append(io.lancecodec.spi.layout.VariableWidthSink sink, DataBlock.VariableWidth vw) {
      sink.append(vw);
      return vw.offset((int) vw.numValues()) - vw.offset(0);
    }

    /** The gathered items decompressed, checked to be one variable-width value each. */
    private DataBlock.VariableWidth decompressed(Items items, io.lancecodec.spi.DecodeBuffers reuse) {
      DataBlock v = values.decompress(items.view(), reuse);
      if (!(v instanceof DataBlock.VariableWidth vw) || vw.numValues() != items.count) {
        throw LanceCodecException.corrupt("full-zip: " + items.count + " items decompressed to " + v.numValues() + " "
            + v.getClass().getSimpleName() + " values");
      }
      return vw;
    }

    /**
     * Rows {@code [a, b)} (bytes {@code span}) gathered and decompressed in segments of about
     * {@link #SEGMENT_BYTES}, appended to {@code sink} in order; returns the bytes appended. This
     * thread takes segments from the front, decompressing and appending each as soon as it is
     * gathered; a pool thread takes them from the back ({@link Parallelism#fromBothEnds}) and
     * decompresses each into arrays of its own, appended after this thread's. Each segment's
     * items are decoded by the core that gathered them, while they are in its cache; the read
     * meets the pool thread once (not once to gather and once to decompress); and neither the
     * back's items nor its decoded values are copied behind the front's before the sink copies
     * them.
     * {@code known}: where rows {@code [a, b]} start, from {@code known[from]} on, when the caller
     * has read them already (null: read here if the rows are split); {@code items} is empty.
     */
    private long decodeSegments(long a, long b, long[] span, long[] known, int from, Items items, LevelSink levels,
        io.lancecodec.spi.layout.VariableWidthSink sink, io.lancecodec.spi.DecodeBuffers reuse) {
      int segments = segments(a, b, span);
      if (!Parallelism.READS || segments < 2) {
        readItems(a, b, span, items, levels);
        return flush(items, sink, reuse);
      }
      long[] starts = known != null ? known : rowStarts(a, b, span);
      int at0 = known != null ? from : 0;
      long[] first = cuts(a, b, span, starts, at0, segments);
      int count = first.length - 1;
      DataBlock.VariableWidth[] backValues = new DataBlock.VariableWidth[count];
      LevelSink[] backLevels = new LevelSink[count];
      long[] appended = new long[1];
      double perRow = (double) layout.numItems() / Math.max(1, numRows);
      int split = Parallelism.fromBothEnds(count, (k, front) -> {
        long s = first[k];
        long e = first[k + 1];
        long[] segSpan = {starts[at0 + (int) (s - a)], starts[at0 + (int) (e - a)]};
        if (front) {
          readItems(s, e, segSpan, items, levels);
          appended[0] += flush(items, sink, reuse);
        } else {
          Items own = new Items(false);
          LevelSink ownLevels = new LevelSink(true, bitsDef > 0, (long) Math.min(SIZE_HINT, (e - s) * perRow * 1.0625));
          readItems(s, e, segSpan, own, ownLevels);
          backValues[k] = own.count == 0 ? null : decompressed(own, null);
          backLevels[k] = ownLevels;
        }
      });
      for (int k = split; k < count; k++) {
        levels.append(backLevels[k].repArray(), backLevels[k].defArray(), 0, backLevels[k].count());
        if (backValues[k] != null) {
          appended[0] += append(sink, backValues[k]);
        }
      }
      return appended[0];
    }

    /** How many segments {@link #decodeSegments} cuts rows {@code [a, b)} (bytes {@code span}) into. */
    private static int segments(long a, long b, long[] span) {
      return (int) Math.min(MAX_SEGMENTS, Math.min(b - a, (span[1] - span[0]) / SEGMENT_BYTES));
    }

    /**
     * The first row of each of about {@code segments} segments of rows {@code [a, b)}, and
     * {@code b}: segment k starts at the first row starting past k/segments of the bytes; row
     * {@code a} starts at {@code starts[at0]}.
     */
    private static long[] cuts(long a, long b, long[] span, long[] starts, int at0, int segments) {
      long bytes = span[1] - span[0];
      long[] first = new long[segments + 1];
      first[0] = a;
      int cuts = 1;
      for (int k = 1; k < segments; k++) {
        long row = firstRowFrom(starts, at0, a, b, span[0] + bytes * k / segments);
        if (row > first[cuts - 1] && row < b) {
          first[cuts++] = row;
        }
      }
      first[cuts] = b;
      return cuts == segments ? first : java.util.Arrays.copyOf(first, cuts + 1);
    }

    /** Row bytes per segment of {@link #decodeSegments}, and the most segments it cuts one read into. */
    private static final int SEGMENT_BYTES = 16 << 10;

    private static final int MAX_SEGMENTS = 32;

    /**
     * The first of rows {@code [a, b)} that starts at or after byte {@code at} ({@code b} if none);
     * row {@code a} starts at {@code starts[from]}.
     */
    private static long firstRowFrom(long[] starts, int from, long a, long b, long at) {
      int lo = 0;
      int hi = (int) (b - a);
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (starts[from + mid] >= at) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return a + lo;
    }

    /**
     * Where each of rows {@code [a, b]} starts in buffer 0, from the repetition index, checked to
     * be in order and inside {@code span} (the bytes of rows [a, b)).
     */
    private long[] rowStarts(long a, long b, long[] span) {
      int n = LanceCodecException.checkedInt(b - a + 1, "rows in one read");
      byte[] idx = source.read(1, a * indexWidth, LanceCodecException.checkedInt((long) n * indexWidth, "index read"));
      long[] starts = new long[n];
      long prev = span[0];
      for (int i = 0; i < n; i++) {
        long v = LittleEndian.getUnsigned(idx, i * indexWidth, indexWidth);
        if (v < prev || v > span[1]) {
          throw LanceCodecException.corrupt("full-zip: repetition index entry of row " + (a + i) + " = " + v
              + " is out of order or outside bytes [" + span[0] + ", " + span[1] + ")");
        }
        starts[i] = v;
        prev = v;
      }
      return starts;
    }

    /** The end of the step from row {@code s}: the furthest row within {@link #STREAM_BYTES} of it, at least s + 1. */
    private static long stepEnd(long[] starts, long a, long s, long b) {
      long limit = starts[(int) (s - a)] + STREAM_BYTES;
      int lo = (int) (s - a) + 1;
      int hi = (int) (b - a);
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        if (starts[mid] <= limit) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      return a + lo;
    }

    /** Bytes {@code [start, end)} of buffer 0 holding rows {@code [a, b)}, checked. */
    private long[] rowSpan(long a, long b) {
      byte[] idx = source.read(1, a * indexWidth, LanceCodecException.checkedInt((b - a + 1) * indexWidth, "index read"));
      long start = LittleEndian.getUnsigned(idx, 0, indexWidth);
      long end = LittleEndian.getUnsigned(idx, (int) (b - a) * indexWidth, indexWidth);
      if (!(start >= 0 && start <= end && end <= source.bufferSize(0))) {
        throw LanceCodecException.corrupt("full-zip: rows [" + a + ", " + b + ") map to bytes [" + start + ", " + end + ") outside buffer 0");
      }
      LanceCodecException.checkedInt(end - start, "full-zip read");
      return new long[] {start, end};
    }

    /**
     * Per thread, the row bytes a read goes through (rows with lists, or a sink read's steps; one
     * read at a time per thread): their values are copied out, so a scan reuses the array from
     * batch to batch instead of allocating and zeroing one per batch. Arrays above
     * {@link #KEEP_GATHER} are not kept.
     */
    private static final ThreadLocal<byte[]> ROWS = new ThreadLocal<>();

    /**
     * Items of the ranges read so far, gathered raw so that the values are decompressed once per
     * read rather than once per range (a take of single rows would otherwise pay it per row).
     */
    private final class Items {
      byte[] vals = new byte[64];
      int valsLen;
      byte[] offs = variable ? new byte[64] : null;
      int count;
      long dataLen;
      /**
       * Whether the arrays may be this thread's kept ones: not for a pool thread's segment of
       * {@link #decodeSegments}, whose items the decompressor may hand back as they are, read
       * after the thread has moved on to other work.
       */
      private final boolean threadArrays;

      Items() {
        this(true);
      }

      Items(boolean threadArrays) {
        this.threadArrays = threadArrays;
      }

      private byte[] moved(ThreadLocal<byte[]> kept, byte[] a, int used, long need) {
        return threadArrays ? regather(kept, a, used, need) : java.util.Arrays.copyOf(a, grow(a.length, need));
      }

      /**
       * Room for {@code rawLen} more bytes of rows: all of them as values, and offsets for the
       * items if each had at least a length and a byte (null and empty items have only a
       * control word, so offsets can still run out: {@link #moreOffsets} grows them then). Sizing
       * offsets for one item per control word instead allocated and zeroed several times the
       * rows' bytes per read.
       */
      void reserve(int rawLen) {
        long needVals = (long) valsLen + rawLen;
        if (needVals > vals.length) {
          vals = moved(GATHER_VALUES, vals, valsLen, needVals);
        }
        if (variable) {
          long needOffs = ((long) count + rawLen / (ctrl + width + 1) + 2) * width;
          if (needOffs > offs.length) {
            offs = moved(GATHER_OFFSETS, offs, (count + 1) * width, needOffs);
          }
        }
      }

      /** Offsets with room for at least one more item after {@code count}. */
      byte[] moreOffsets(int count) {
        offs = moved(GATHER_OFFSETS, offs, (count + 1) * width, ((long) count + 2) * width);
        return offs;
      }

      /**
       * The gathered items as a block over the gathering arrays, which may be this thread's kept
       * ones: for the value decompressor only, whose result goes through {@link #detach}.
       */
      DataBlock view() {
        return variable ? new DataBlock.VariableWidth(offs, width * 8, vals, count) : new DataBlock.FixedWidth(vals, width * 8, count);
      }

      /** Empties the gathering (its arrays are kept). */
      void clear() {
        count = 0;
        valsLen = 0;
        dataLen = 0;
      }

      /**
       * {@code b} with every array it shares with the gathering arrays copied out at its used
       * size: a decompressor that keeps the bytes as they are (no compression) returns them, and
       * the kept arrays are overwritten by the thread's next read. A decompressor that builds new
       * arrays (FSST, zstd) costs no copy of the compressed items at all.
       */
      DataBlock detach(DataBlock b) {
        if (b instanceof DataBlock.FixedWidth fw) {
          return fw.data() == vals ? new DataBlock.FixedWidth(java.util.Arrays.copyOf(vals, valsLen), fw.bitsPerValue(), fw.numValues()) : fw;
        }
        if (b instanceof DataBlock.VariableWidth vw) {
          boolean o = vw.offsets() == offs;
          boolean d = vw.data() == vals;
          return !o && !d ? vw
              : new DataBlock.VariableWidth(o ? java.util.Arrays.copyOf(offs, (count + 1) * width) : vw.offsets(), vw.bitsPerOffset(),
                  d ? java.util.Arrays.copyOf(vals, valsLen) : vw.data(), vw.numValues());
        }
        if (b instanceof DataBlock.FixedSizeList l) {
          DataBlock c = detach(l.child());
          return c == l.child() ? l : new DataBlock.FixedSizeList(c, l.dimension(), l.numValues());
        }
        if (b instanceof DataBlock.Nullable nb) {
          DataBlock c = detach(nb.data());
          byte[] v = nb.validity() == vals ? java.util.Arrays.copyOf(vals, valsLen) : nb.validity() == offs ? java.util.Arrays.copyOf(offs, offs.length) : nb.validity();
          return c == nb.data() && v == nb.validity() ? nb : new DataBlock.Nullable(c, v);
        }
        if (b instanceof DataBlock.Struct st) {
          java.util.List<DataBlock> kids = new java.util.ArrayList<>(st.children().size());
          boolean same = true;
          for (DataBlock k : st.children()) {
            DataBlock c = detach(k);
            same &= c == k;
            kids.add(c);
          }
          return same ? st : new DataBlock.Struct(kids, st.numValues());
        }
        return b;
      }
    }

    /**
     * Per thread, the arrays a read gathers its items and their offsets in (one read at a time
     * per thread): both are copied out at their exact size, so a scan does not allocate and zero
     * arrays sized for each batch's row bytes only to trim them. Arrays above
     * {@link #KEEP_GATHER} bytes are not kept.
     */
    private static final ThreadLocal<byte[]> GATHER_VALUES = new ThreadLocal<>();

    private static final ThreadLocal<byte[]> GATHER_OFFSETS = new ThreadLocal<>();

    private static final int KEEP_GATHER = 8 << 20;

    /** {@code a}'s first {@code used} bytes moved to an array of at least {@code need} bytes, the kept one if it fits. */
    private static byte[] regather(ThreadLocal<byte[]> kept, byte[] a, int used, long need) {
      byte[] k = kept.get();
      byte[] next = k != null && k != a && k.length >= need ? k : new byte[grow(a.length, need)];
      System.arraycopy(a, 0, next, 0, used);
      if (next != k && next.length <= KEEP_GATHER) {
        kept.set(next);
      }
      return next;
    }

    private static int grow(int cap, long need) {
      if (need > Integer.MAX_VALUE - 16) {
        throw LanceCodecException.unsupported("full-zip: a read of over 2 GiB of list items; use a smaller batch size");
      }
      return (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, cap * 2L));
    }

    /**
     * Items of rows with lists, whose bytes are {@code span} of buffer 0: control word, then the
     * value if visible (length + bytes if variable).
     */
    private void readItems(long a, long b, long[] span, Items items, LevelSink levels) {
      int rawLen = (int) (span[1] - span[0]);
      byte[] raw = kept(ROWS, rawLen);
      source.readInto(0, span[0], rawLen, raw, 0);
      int defMask = (1 << bitsDef) - 1;
      int repMask = (1 << bitsRep) - 1;
      int rowRep = Levels.maxRep(layers);
      // The page's shape in locals: the loop copies each value with a call, after which fields
      // would be loaded again, and the width switches of the reads below were taken per item.
      int ctrl = this.ctrl;
      int width = this.width;
      int maxVisible = this.maxVisible;
      boolean variable = this.variable;
      int shift = bitsDef;
      items.reserve(rawLen);
      byte[] vals = items.vals;
      byte[] offs = items.offs;
      int valsLen = items.valsLen;
      int count = items.count;
      long dataLen = items.dataLen;
      int pos = 0;
      long rowsSeen = 0;
      int firstRep = -1;
      // Levels are written in place, into the room the sink has (grown by LEVEL_STEP or more
      // when full), rather than through a call per item; the common one-byte control word and
      // four-byte lengths are read without the width switch.
      int lv = levels.count();
      int lvEnd = lv + room(levels);
      short[] repOut = levels.repArray();
      short[] defOut = levels.defArray();
      while (pos < rawLen) {
        if (pos + ctrl > rawLen) {
          throw LanceCodecException.corrupt("full-zip: control word runs past rows [" + a + ", " + b + ")");
        }
        int word = ctrl == 1 ? raw[pos] & 0xFF : (int) LittleEndian.getUnsigned(raw, pos, ctrl);
        pos += ctrl;
        int r = (word >>> shift) & repMask;
        int d = word & defMask;
        if (firstRep < 0 && r != rowRep) {
          throw LanceCodecException.corrupt("full-zip: row " + a + " does not start with a row-level control word");
        }
        firstRep = r;
        rowsSeen += r == rowRep ? 1 : 0;
        if (lv == lvEnd) {
          // levels.count() is where this step's levels start until keep moves it to lv
          levels.keep(0, lv - levels.count());
          lvEnd = lv + room(levels);
          repOut = levels.repArray();
          defOut = levels.defArray();
        }
        repOut[lv] = (short) r;
        if (defOut != null) {
          defOut[lv] = (short) d;
        }
        lv++;
        if (d > maxVisible) {
          continue;
        }
        if (!variable) {
          if (pos + width > rawLen) {
            throw LanceCodecException.corrupt("full-zip: value runs past rows [" + a + ", " + b + ")");
          }
          System.arraycopy(raw, pos, vals, valsLen, width);
          valsLen += width;
          pos += width;
        } else {
          if (d == 0) {
            if (pos + width > rawLen) {
              throw LanceCodecException.corrupt("full-zip: value length runs past rows [" + a + ", " + b + ")");
            }
            long len = width == 4 ? LittleEndian.getInt(raw, pos) & 0xFFFFFFFFL : LittleEndian.getUnsigned(raw, pos, width);
            pos += width;
            if (!(len >= 0 && len <= rawLen - pos)) {
              throw LanceCodecException.corrupt("full-zip: value length " + len + " runs past rows [" + a + ", " + b + ")");
            }
            System.arraycopy(raw, pos, vals, valsLen, (int) len);
            valsLen += (int) len;
            pos += (int) len;
            dataLen += len;
          }
          if ((count + 2L) * width > offs.length) {
            offs = items.moreOffsets(count);
          }
          if (width == 4) {
            LittleEndian.putInt(offs, (count + 1) * 4, (int) dataLen);
          } else {
            LittleEndian.putUnsigned(offs, (count + 1) * width, width, dataLen);
          }
        }
        count++;
      }
      levels.keep(0, lv - levels.count());
      if (rowsSeen != b - a) {
        throw LanceCodecException.corrupt("full-zip: rows [" + a + ", " + b + ") hold " + rowsSeen + " row starts");
      }
      items.valsLen = valsLen;
      items.count = count;
      items.dataLen = dataLen;
    }

    /** Levels {@link #readItems} makes room for at least when the sink is full. */
    private static final int LEVEL_STEP = 4096;

    /** The room past the sink's end, made when there is none (the arrays then at least double). */
    private static int room(LevelSink levels) {
      if (levels.room() <= 0) {
        levels.reserve(LEVEL_STEP);
      }
      return levels.room();
    }

    /** The stored rows {@code [a, b)} as the per-value decompressor takes them, and their control words' levels. */
    private record Stored(DataBlock block, short[] def) {}

    /** {@code kept}: the row bytes and values in this thread's kept arrays (valid until its next read). */
    private Stored storedFixed(long a, long b, boolean kept) {
      int stride = ctrl + width;
      int n = (int) (b - a);
      int len = LanceCodecException.checkedInt((long) n * stride, "full-zip read");
      byte[] raw;
      if (kept) {
        raw = kept(ROWS, len);
        source.readInto(0, a * stride, len, raw, 0);
      } else {
        raw = source.read(0, a * stride, len);
      }
      short[] def = null;
      byte[] vals = raw;
      if (ctrl > 0) {
        def = new short[n];
        vals = kept ? kept(STEP_DATA, (long) n * width) : new byte[n * width];
        for (int i = 0; i < n; i++) {
          def[i] = (short) LittleEndian.getUnsigned(raw, i * stride, ctrl);
          System.arraycopy(raw, i * stride + ctrl, vals, i * width, width);
        }
      }
      return new Stored(zeroWidth ? new DataBlock.AllNull(n) : new DataBlock.FixedWidth(vals, width * 8, n), def);
    }

    /**
     * Rows whose per-value decompressor yields plain rows of {@code bits} (a fixed-size list with a
     * compressed leaf and no item validity): decoded a step at a time into this thread's reused
     * arrays and appended to {@code sink} while in cache, instead of one array of the whole read
     * that is then copied twice more (into the page's block, then into the vector).
     */
    private DecodedPage readDecoded(long[] ranges, int bits, io.lancecodec.spi.layout.FixedWidthSink sink) {
      long total = rows(ranges);
      int n = LanceCodecException.checkedInt(total, "rows in one read");
      int rowBytes = bits / 8;
      sink.reserve(total * rowBytes);
      short[] def = ctrl > 0 ? new short[n] : null;
      io.lancecodec.spi.DecodeBuffers reuse = DECODED.get();
      int perStep = Math.max(1, STREAM_BYTES * 4 / rowBytes);
      int row = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        for (long a = ranges[i]; a < ranges[i + 1]; ) {
          int k = (int) Math.min(perStep, ranges[i + 1] - a);
          Stored st = variable ? storedVariable(a, a + k, true) : storedFixed(a, a + k, true);
          if (def != null) {
            System.arraycopy(st.def(), 0, def, row, k);
          }
          DataBlock v = values.decompress(st.block(), reuse);
          if (!(v instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != bits || fw.numValues() != k) {
            throw LanceCodecException.corrupt("full-zip: rows [" + a + ", " + (a + k) + ") did not decode to " + k + " values of " + bits + " bits");
          }
          sink.append(fw.data(), 0, k * rowBytes);
          row += k;
          a += k;
        }
      }
      reuse.trim(KEEP_GATHER);
      return new DecodedPage(null, null, def, total, nested ? layers : null);
    }

    /** Rows in {@code [start, end)} pairs. */
    private static long rows(long[] ranges) {
      long total = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        total += ranges[i + 1] - ranges[i];
      }
      return total;
    }

    /** Per thread, a step's values and offsets cut out of variable-width rows in {@link #readDecoded}. */
    private static final ThreadLocal<byte[]> STEP_DATA = new ThreadLocal<>();

    private static final ThreadLocal<byte[]> STEP_OFFSETS = new ThreadLocal<>();

    /** Per thread, the arrays {@link #readDecoded} decodes a step into. */
    private static final ThreadLocal<io.lancecodec.spi.DecodeBuffers> DECODED = ThreadLocal.withInitial(io.lancecodec.spi.DecodeBuffers::new);

    private void readFixed(long a, long b, BlockAppender out) {
      int n = (int) (b - a);
      Stored st = storedFixed(a, b, false);
      short[] def = st.def();
      if (values == null && def == null) {
        // rows without values and without nulls of their own: valid rows whose items are all null
        def = new short[n];
      }
      DataBlock block = values == null ? new DataBlock.AllNull(n) : values.decompress(st.block(), null);
      out.append(block, 0, n, def);
    }

    private void readVariable(long a, long b, BlockAppender out) {
      Stored st = storedVariable(a, b);
      out.append(values.decompress(st.block(), null), 0, (int) (b - a), st.def());
    }

    private Stored storedVariable(long a, long b) {
      return storedVariable(a, b, false);
    }

    /** {@code kept}: the row bytes, values and offsets in this thread's kept arrays (valid until its next read). */
    private Stored storedVariable(long a, long b, boolean kept) {
      long[] span = rowSpan(a, b);
      int rawLen = (int) (span[1] - span[0]);
      byte[] raw;
      if (kept) {
        raw = kept(ROWS, rawLen);
        source.readInto(0, span[0], rawLen, raw, 0);
      } else {
        raw = source.read(0, span[0], rawLen);
      }
      int n = (int) (b - a);
      short[] def = ctrl > 0 ? new short[n] : null;
      byte[] offsets = kept ? kept(STEP_OFFSETS, (long) (n + 1) * width) : new byte[(n + 1) * width];
      byte[] data = kept ? kept(STEP_DATA, rawLen) : new byte[rawLen];
      int pos = 0;
      long dataLen = 0;
      for (int i = 0; i < n; i++) {
        int level = 0;
        if (ctrl > 0) {
          if (pos + ctrl > rawLen) {
            throw LanceCodecException.corrupt("full-zip: item " + (a + i) + " runs past its row range");
          }
          level = (int) LittleEndian.getUnsigned(raw, pos, ctrl);
          def[i] = (short) level;
          pos += ctrl;
        }
        if (level == 0) {
          if (pos + width > rawLen) {
            throw LanceCodecException.corrupt("full-zip: item " + (a + i) + " length runs past its row range");
          }
          long len = LittleEndian.getUnsigned(raw, pos, width);
          pos += width;
          if (!(len >= 0 && len <= rawLen - pos)) {
            throw LanceCodecException.corrupt("full-zip: item " + (a + i) + " length " + len + " runs past its row range");
          }
          System.arraycopy(raw, pos, data, (int) dataLen, (int) len);
          pos += (int) len;
          dataLen += len;
        }
        LittleEndian.putUnsigned(offsets, (i + 1) * width, width, dataLen);
      }
      return new Stored(new DataBlock.VariableWidth(offsets, width * 8, data, n), def);
    }
  }
}
