package io.lancecodec.layout.physical;

import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.FixedWidthMiniBlockDecompressor;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockBuffers;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageSource;
import io.lancecodec.spi.layout.VariableWidthSink;

/**
 * Reads a flat mini-block page. Opening it loads the search cache (the chunk metadata words,
 * turned into each chunk's byte offset and first row) and validates it against the page: chunk
 * bytes must fit in buffer 1 and chunk values must add up to the page's items. Reads fetch the
 * byte span of the chunks a range touches in one request and decode whole chunks.
 */
public final class MiniBlockPageDecoder implements PageDecoder, io.lancecodec.spi.layout.ElementReader {
  final PageSource source;
  private final MiniBlockSpec layout;
  final long numRows;
  private final int numChunks;
  private final PackedCounts chunkWords; // 8-byte words of each chunk in buffer 1
  final PackedCounts chunkValues; // values (items) of each chunk
  final MiniBlockDecompressor values;
  /** {@link #values} when it writes byte-aligned fixed-width values where asked, else null. */
  final FixedWidthMiniBlockDecompressor fixed;
  final BlockDecompressor def;
  private final BlockDecompressor rep;
  final java.util.List<io.lancecodec.spi.layout.LevelLayer> layers;
  private final boolean nested;
  final int maxRep;
  final int maxVisible;
  final long numItems;
  // With repetition, per chunk: rows starting in it and rows ending in it.
  final PackedCounts rowStarts;
  private final PackedCounts rowEnds;
  // Depth 2 only: per chunk the index's middle word (2 x element starts of its trailing row,
  // plus 1 when it opens inside one), which MiniBlockElements uses to find rows[i][j].
  private final PackedCounts trailingWords;
  private final int numBuffers;
  private final boolean large;
  // The dictionary is decoded on first use and kept in the page cache, under its budget.
  final boolean hasDictionary;
  private final BlockDecompressor dictionaryDecompressor;
  private final PageSource dictionarySource;
  private final long dictionaryItems;
  private final Object dictionaryKey = new Object();
  private final io.lancecodec.spi.layout.PageCache cache;

  public MiniBlockPageDecoder(MiniBlockSpec layout, PageSource source, long numRows, LayoutContext ctx) {
    this.layout = layout;
    this.source = source;
    this.numRows = numRows;
    this.layers = Levels.checked(layout.layers());
    this.nested = Levels.nested(layers);
    this.maxRep = Levels.maxRep(layers);
    this.maxVisible = Levels.maxVisibleDef(layers);
    boolean repeated = layout.repCompression() != null;
    if (repeated != (maxRep > 0)) {
      throw LanceCodecException.corrupt("mini-block: rep_compression " + (repeated ? "present" : "absent") + " but " + maxRep + " list layers");
    }
    if (!repeated && !(layout.numItems() == numRows)) {
      throw LanceCodecException.corrupt("mini-block: num_items " + layout.numItems() + " differs from page rows " + numRows);
    }
    if (repeated && !(layout.numItems() >= 0 && layout.numItems() <= Integer.MAX_VALUE)) {
      throw LanceCodecException.corrupt("mini-block: num_items " + layout.numItems() + " out of range");
    }
    if (repeated && layout.repetitionIndexDepth() < 1) {
      throw LanceCodecException.corrupt("mini-block: lists without a repetition index");
    }
    if (repeated && layout.repetitionIndexDepth() > Math.max(1, maxRep)) {
      throw LanceCodecException.corrupt("mini-block: repetition index of depth " + layout.repetitionIndexDepth() + " for " + maxRep + " list levels");
    }
    if (!repeated && layout.repetitionIndexDepth() != 0) {
      throw LanceCodecException.corrupt("mini-block: repetition index without lists");
    }
    if ((layout.defCompression() != null) != Levels.maxDef(layers) > 0) {
      throw LanceCodecException.corrupt("mini-block: def_compression " + (layout.defCompression() != null ? "present" : "absent") + " for layers " + layers);
    }
    this.numItems = layout.numItems();
    if (!(layout.numBuffers() >= 1 && layout.numBuffers() <= 16)) {
      throw LanceCodecException.corrupt("mini-block: num_buffers " + layout.numBuffers() + " outside [1, 16]");
    }
    if (source.numBuffers() < 2) {
      throw LanceCodecException.corrupt("mini-block: page has " + source.numBuffers() + " buffers, needs 2");
    }
    if (layout.valueCompression() == null) {
      throw LanceCodecException.corrupt("mini-block: value_compression missing");
    }
    this.numBuffers = (int) layout.numBuffers();
    this.large = layout.largeChunks();
    this.values = ctx.miniBlock(layout.valueCompression());
    this.fixed = values instanceof FixedWidthMiniBlockDecompressor f && f.bitsPerValue() % 8 == 0 && f.bitsPerValue() > 0 ? f : null;
    this.def = layout.defCompression() != null ? ctx.block(layout.defCompression()) : null;
    this.rep = repeated ? ctx.block(layout.repCompression()) : null;

    this.cache = ctx.cache();
    this.hasDictionary = layout.dictionary() != null;
    if (hasDictionary) {
      if (source.numBuffers() < 3) {
        throw LanceCodecException.corrupt("mini-block: dictionary page has no dictionary buffer");
      }
      long items = layout.numDictionaryItems();
      if (!(items >= 0 && items <= Integer.MAX_VALUE)) {
        throw LanceCodecException.corrupt("mini-block: " + items + " dictionary items");
      }
      this.dictionaryItems = items;
      this.dictionaryDecompressor = ctx.block(layout.dictionary());
      this.dictionarySource = source;
    } else {
      this.dictionaryItems = 0;
      this.dictionaryDecompressor = null;
      this.dictionarySource = null;
    }
    int wordBytes = large ? 4 : 2;
    long metaSize = source.bufferSize(0);
    if (metaSize % wordBytes != 0) {
      throw LanceCodecException.corrupt("mini-block: metadata of " + metaSize + " bytes is not a whole number of " + wordBytes + "-byte words");
    }
    int numChunks = LanceCodecException.checkedInt(metaSize / wordBytes, "mini-block chunk count");
    this.numChunks = numChunks;
    if (!(numChunks > 0 || numItems == 0)) {
      throw LanceCodecException.corrupt("mini-block: no chunks for " + numItems + " items");
    }
    byte[] meta = source.readAll(0);
    long[] chunkOffset = new long[numChunks + 1];
    long[] chunkFirstRow = new long[numChunks + 1];
    long dataSize = source.bufferSize(1);
    for (int k = 0; k < numChunks; k++) {
      long word = LittleEndian.getUnsigned(meta, k * wordBytes, wordBytes);
      long bytes = ((word >>> 4) + 1) * 8;
      int log = (int) (word & 0xF);
      chunkOffset[k + 1] = chunkOffset[k] + bytes;
      long n = k == numChunks - 1 ? numItems - chunkFirstRow[k] : 1L << log;
      if (!(n > 0 && log <= 14 && n <= MAX_CHUNK_VALUES)) {
        throw LanceCodecException.corrupt("mini-block: chunk " + k + " has an invalid value count (log2 " + log + ", remaining " + n + ")");
      }
      chunkFirstRow[k + 1] = chunkFirstRow[k] + n;
    }
    if (chunkOffset[numChunks] > dataSize) {
      throw LanceCodecException.corrupt("mini-block: chunks span " + chunkOffset[numChunks] + " bytes but buffer 1 has " + dataSize);
    }
    if (!(numChunks == 0 || chunkFirstRow[numChunks] == numItems)) {
      throw LanceCodecException.corrupt("mini-block: chunks hold " + chunkFirstRow[numChunks] + " values, page has " + numItems);
    }
    long[] scratch = new long[numChunks];
    for (int k = 0; k < numChunks; k++) {
      scratch[k] = (chunkOffset[k + 1] - chunkOffset[k]) / 8;
    }
    chunkWords = new PackedCounts(scratch, numChunks);
    for (int k = 0; k < numChunks; k++) {
      scratch[k] = chunkFirstRow[k + 1] - chunkFirstRow[k];
    }
    chunkValues = new PackedCounts(scratch, numChunks);
    if (repeated) {
      int stride = LanceCodecException.checkedInt(layout.repetitionIndexDepth() + 1L, "repetition index depth");
      int indexBuffer = source.numBuffers() - 1;
      if (!(indexBuffer >= (hasDictionary ? 3 : 2) && source.bufferSize(indexBuffer) == (long) numChunks * stride * 8)) {
        throw LanceCodecException.corrupt("mini-block: repetition index of " + source.bufferSize(indexBuffer) + " bytes, expected "
            + numChunks + " chunks x " + stride + " u64");
      }
      byte[] index = source.readAll(indexBuffer);
      long[] starts = new long[numChunks];
      long[] firstStart = new long[numChunks + 1];
      long[] rowsEnded = new long[numChunks + 1];
      long[] words = stride == 3 ? new long[numChunks] : null;
      boolean prevEnded = true;
      for (int k = 0; k < numChunks; k++) {
        long rows = LittleEndian.getLong(index, k * stride * 8);
        long left = LittleEndian.getLong(index, (k * stride + stride - 1) * 8);
        // a depth-2 word is non-zero exactly with a trailing row, and counts at most its levels
        long word = stride == 3 ? LittleEndian.getLong(index, (k * stride + 1) * 8) : left > 0 ? 1 : 0;
        if (!((word > 0) == (left > 0) && word >= 0 && (word >>> 1) <= left)) {
          throw LanceCodecException.corrupt("mini-block: repetition index entry " + k + " has depth-2 word " + word + " for " + left + " left-over items");
        }
        if (words != null) {
          words[k] = word;
        }
        boolean ends = left == 0;
        // rows ending here, minus the one ended by the chunk's own end, plus one if it opens with a row
        long rowStarts = rows - (ends ? 1 : 0) + (prevEnded ? 1 : 0);
        if (!(rows >= 0 && left >= 0 && rows <= numRows && rowStarts >= 0 && rowStarts <= chunkFirstRow[k + 1] - chunkFirstRow[k] + 0xFFFF)) {
          throw LanceCodecException.corrupt("mini-block: repetition index entry " + k + " (" + rows + " rows, " + left + " left over) is inconsistent");
        }
        starts[k] = rowStarts;
        firstStart[k + 1] = firstStart[k] + rowStarts;
        rowsEnded[k + 1] = rowsEnded[k] + rows;
        prevEnded = ends;
      }
      if (!(numChunks > 0 && (prevEnded && rowsEnded[numChunks] == numRows && firstStart[numChunks] == numRows))) {
        throw LanceCodecException.corrupt("mini-block: repetition index counts " + rowsEnded[numChunks] + " rows, page has " + numRows);
      }
      this.rowStarts = new PackedCounts(starts, numChunks);
      for (int k = 0; k < numChunks; k++) {
        scratch[k] = rowsEnded[k + 1] - rowsEnded[k];
      }
      this.rowEnds = new PackedCounts(scratch, numChunks);
      this.trailingWords = words == null ? null : new PackedCounts(words, numChunks);
    } else {
      rowStarts = null;
      rowEnds = null;
      trailingWords = null;
    }
  }

  private static final long MAX_CHUNK_VALUES = MiniBlocks.MAX_VALUES_READ;

  @Override
  public long numRows() {
    return numRows;
  }

  @Override
  public long searchCacheBytes() {
    return chunkWords.bytes() + chunkValues.bytes() + layout.metadataBytes()
        + (rowStarts == null ? 0 : rowStarts.bytes() + rowEnds.bytes())
        + (trailingWords == null ? 0 : trailingWords.bytes());
  }

  long chunkOffset(int k) {
    return 8 * chunkWords.prefix(k);
  }

  long chunkBytes(int k) {
    return 8 * chunkWords.get(k);
  }

  long chunkFirstRow(int k) {
    return chunkValues.prefix(k);
  }

  /** The page's dictionary, from the page cache or read and decoded again. */
  DictionaryLookup dictionary() {
    return cache.get(dictionaryKey, this::loadDictionary, DictionaryLookup::cacheBytes);
  }

  private DictionaryLookup loadDictionary() {
    DataBlock dict = dictionaryDecompressor.decompress(dictionarySource.readAll(2), dictionaryItems);
    if (dict.numValues() != dictionaryItems) {
      throw LanceCodecException.corrupt("mini-block: dictionary decoded to " + dict.numValues() + " items, expected " + dictionaryItems);
    }
    return new DictionaryLookup(dict, dictionaryItems);
  }

  @Override
  public DecodedPage readElements(long row, long from, long to) {
    if (trailingWords == null) {
      return null;
    }
    if (!(row >= 0 && row < numRows && from >= 0 && to > from)) {
      throw LanceCodecException.invalidArgument("elements [" + from + ", " + to + ") of page row " + row + " of " + numRows);
    }
    return MiniBlockElements.read(this, trailingWords, row, from, to);
  }

  @Override
  public DecodedPage read(long[] ranges, int bits, io.lancecodec.spi.layout.FixedWidthSink sink) {
    if (bits <= 0 || bits % 8 != 0 || hasDictionary && (rep != null || dictionary().itemBits() != bits)) {
      return read(ranges);
    }
    if (rep == null) {
      DecodedPage d = readFlat(ranges, bits, sink);
      return d != null ? d : read(ranges);
    }
    return directBits() == bits ? MiniBlockRepeated.read(this, ranges, sink) : read(ranges);
  }

  /**
   * A page without lists read into a sink: each chunk's wanted values are decoded into one array
   * of at most a chunk, which stays in cache, and appended from there. The values of a whole read
   * went through an array of their own on the heap before, about 1.7 bytes allocated per value
   * byte of a scan of token ids; a fresh JVM paid that memory's first touch in every batch. Codecs
   * that cannot decode a range in place (run-length, general compression) decode the chunk into
   * this thread's reused arrays instead. The chunk's def levels, when the page has them, stay
   * with the piece for the filler. Null, with nothing appended, when the first chunk's values are
   * not {@code bits}-bit values (the caller reads the page as a block then). A page of a
   * fixed-width dictionary resolves the items of the wanted rows into the same chunk array.
   */
  private DecodedPage readFlat(long[] ranges, int bits, io.lancecodec.spi.layout.FixedWidthSink sink) {
    long total = total(ranges);
    int width = bits / 8;
    sink.reserve(total * width);
    // levels (allocated at the first chunk that has any: the values before were valid) and the
    // values appended so far
    short[][] levels = new short[1][];
    int[] at = new int[1];
    DictionaryLookup dict = hasDictionary ? dictionary() : null;
    boolean whole = walk(ranges, true, (span, chunkOff, chunkLen, c0, c1, k, r, j) -> {
      int n = (int) (c1 - c0);
      Header h = header(span, chunkOff, chunkLen, n, k);
      DataBlock.FixedWidth decoded = null;
      DataBlock indices = null;
      if (dict != null) {
        indices = decompressValues(span, h, n, k, REUSE.get());
      } else if (directBits() != bits) {
        DataBlock v = decompressValues(span, h, n, k, REUSE.get());
        if (!(v instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == bits)) {
          if (at[0] == 0) {
            return -1;
          }
          throw LanceCodecException.corrupt("mini-block chunk " + k + ": values are not " + bits + "-bit like the page's first");
        }
        decoded = fw;
      }
      while (r < j && ranges[r] < c1) {
        int from = (int) (Math.max(ranges[r], c0) - c0);
        int to = (int) (Math.min(ranges[r + 1], c1) - c0);
        if (decoded != null) {
          sink.append(decoded.data(), from * width, (to - from) * width);
        } else {
          byte[] scratch = SINK_SCRATCH.get();
          if (scratch.length < (to - from) * width) {
            scratch = new byte[Math.max((to - from) * width, 2 * scratch.length)];
            SINK_SCRATCH.set(scratch);
          }
          if (indices != null) {
            dict.resolveFixedInto(indices, h.levels(), from, to, scratch, 0);
          } else {
            decodeInto(span, h, n, from, to, scratch, 0);
          }
          sink.append(scratch, 0, (to - from) * width);
        }
        if (h.levels() != null) {
          if (levels[0] == null) {
            levels[0] = new short[(int) total];
          }
          System.arraycopy(h.levels(), from, levels[0], at[0], to - from);
        }
        at[0] += to - from;
        if (ranges[r + 1] > c1) {
          break;
        }
        r += 2;
      }
      if (decoded != null || indices != null) {
        REUSE.get().trim(KEEP_REUSE);
      }
      return r;
    });
    return whole ? new DecodedPage(null, null, levels[0], total, nested ? layers : null) : null;
  }

  private static long total(long[] ranges) {
    long total = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      total += ranges[i + 1] - ranges[i];
    }
    return total;
  }

  /** What a read does with chunk {@code k} (rows {@code [c0, c1)}, at {@code span[chunkOff, +chunkLen)}) for ranges {@code [r, j)}. */
  private interface ChunkStep {
    /** The first range not finished in this chunk, or -1 to stop the read. */
    int take(byte[] span, int chunkOff, int chunkLen, long c0, long c1, int k, int r, int j);
  }

  /**
   * Walks sorted ranges over the chunks: consecutive ranges that share chunks are one read of
   * their chunk span (into this thread's reused array when {@code reuseSpan}: the step must then
   * keep nothing that points into it), and every chunk a range falls in goes to {@code step}.
   * False when a step stopped the read.
   */
  private boolean walk(long[] ranges, boolean reuseSpan, ChunkStep step) {
    int i = 0;
    while (i < ranges.length) {
      int first = chunkOf(ranges[i]);
      int last = chunkOf(ranges[i + 1] - 1);
      int j = i + 2;
      while (j < ranges.length && chunkOf(ranges[j]) <= last + 1) {
        last = Math.max(last, chunkOf(ranges[j + 1] - 1));
        j += 2;
      }
      long spanStart = chunkOffset(first);
      int spanLen = LanceCodecException.checkedInt(chunkOffset(last + 1) - spanStart, "chunk span");
      byte[] span;
      if (reuseSpan) {
        span = SINK_SPAN.get();
        if (span.length < spanLen) {
          span = new byte[spanLen];
          if (spanLen <= KEEP_SPAN) {
            SINK_SPAN.set(span);
          }
        }
        source.readInto(1, spanStart, spanLen, span, 0);
      } else {
        span = source.read(1, spanStart, spanLen);
      }
      int r = i;
      long c1 = chunkFirstRow(first);
      long o1 = spanStart;
      for (int k = first; k <= last && r < j; k++) {
        long c0 = c1;
        c1 = c0 + chunkValues.get(k);
        long o0 = o1;
        o1 = o0 + chunkBytes(k);
        if (ranges[r] < c1) {
          r = step.take(span, (int) (o0 - spanStart), (int) (o1 - o0), c0, c1, k, r, j);
          if (r < 0) {
            return false;
          }
        }
      }
      i = j;
    }
    return true;
  }

  /** The chunk-sized array a sinking read decodes into, kept per thread so scans allocate none per chunk. */
  private static final ThreadLocal<byte[]> SINK_SCRATCH = ThreadLocal.withInitial(() -> new byte[8 << 10]);

  /** The chunk bytes a sinking read decodes from, kept per thread up to {@link #KEEP_SPAN} bytes. */
  private static final ThreadLocal<byte[]> SINK_SPAN = ThreadLocal.withInitial(() -> new byte[0]);

  private static final int KEEP_SPAN = 4 << 20;

  @Override
  public DecodedPage read(long[] ranges) {
    if (rep != null) {
      return MiniBlockRepeated.read(this, ranges, null);
    }
    BlockAppender out = new BlockAppender(total(ranges));
    readFlat(ranges, out, false, null);
    return new DecodedPage(out.block(), null, out.levels(), out.count(), nested ? layers : null);
  }

  /**
   * A flat page of variable-width values read chunk by chunk into {@code sink}: each chunk's
   * values are gathered in this thread's reused arrays, still in cache when the sink copies them,
   * so no array of the whole read is allocated, zeroed and copied again. The page returned holds
   * only the levels.
   */
  @Override
  public DecodedPage read(long[] ranges, VariableWidthSink sink) {
    boolean variable = hasDictionary ? dictionary().variable() : directBits() == 0;
    if (rep != null || nested || !variable) {
      return read(ranges);
    }
    long total = total(ranges);
    BlockAppender step = STEP.get();
    step.clearForReuse();
    short[][] levels = new short[1][];
    long[] done = new long[1];
    try {
      readFlat(ranges, step, true, () -> {
        if (step.count() == 0) {
          return;
        }
        int n = (int) step.count();
        DataBlock b = step.block();
        if (b instanceof DataBlock.VariableWidth vw) {
          if (done[0] == 0 && n < total) {
            // room for the whole read at the first chunk's bytes per value, so the sink grows once
            long bytes = vw.offset(n) - vw.offset(0);
            sink.reserve((long) ((double) bytes / n * total * 1.125));
          }
          sink.append(vw);
        } else if (b instanceof DataBlock.AllNull) {
          sink.append(new DataBlock.VariableWidth(new byte[(n + 1) * 4], 32, new byte[0], n));
        } else {
          throw LanceCodecException.corrupt("mini-block page decoded to " + b.getClass().getSimpleName()
              + " values where variable-width values were asked for");
        }
        if (step.levelsView() != null) {
          if (levels[0] == null) {
            levels[0] = new short[LanceCodecException.checkedInt(total, "values in one read")];
          }
          System.arraycopy(step.levelsView(), 0, levels[0], (int) done[0], n);
        }
        done[0] += n;
        step.clearForReuse();
      });
    } finally {
      if (step.retainedBytes() > KEEP_REUSE) {
        STEP.remove();
      }
    }
    return new DecodedPage(null, null, levels[0], done[0], null);
  }

  /** Per thread, the appender one chunk of a sinking read gathers into (see {@link #read(long[], VariableWidthSink)}). */
  private static final ThreadLocal<BlockAppender> STEP = ThreadLocal.withInitial(() -> new BlockAppender(0));

  /**
   * The ranges of a page without lists appended to {@code out}, chunk by chunk; after each chunk,
   * {@code afterChunk} (if any) runs. {@code reuseSpan}: the chunk bytes may be read into this
   * thread's reused array, for callers that keep nothing of a chunk past its step.
   */
  private void readFlat(long[] ranges, BlockAppender out, boolean reuseSpan, Runnable afterChunk) {
    DictionaryLookup dict = hasDictionary ? dictionary() : null;
    walk(ranges, reuseSpan, (span, chunkOff, chunkLen, c0, c1, k, r, j) -> {
      int next = readChunk(span, chunkOff, chunkLen, c0, c1, k, ranges, r, j, out, dict);
      if (afterChunk != null) {
        afterChunk.run();
      }
      return next;
    });
  }

  /** One chunk's part of {@link #readFlat}: returns the first range not finished in it. */
  private int readChunk(byte[] span, int chunkOff, int chunkLen, long c0, long c1, int k, long[] ranges, int r, int j,
      BlockAppender out, DictionaryLookup dict) {
    if (ranges[r] <= c0 && ranges[r + 1] >= c1 && decodeDirect(span, chunkOff, chunkLen, (int) (c1 - c0), k, out, dict)) {
      // the whole chunk went straight into the output
      return ranges[r + 1] == c1 ? r + 2 : r;
    }
    int next = decodePicked(span, chunkOff, chunkLen, c0, c1, k, ranges, r, j, out);
    if (next >= 0) {
      return next;
    }
    if (dict != null && dict.variable()) {
      return resolvePicked(span, chunkOff, chunkLen, c0, c1, k, ranges, r, j, out, dict);
    }
    if (dict != null && dict.itemBits() > 0 && dict.itemBits() % 8 == 0) {
      int picked = resolvePickedFixed(span, chunkOff, chunkLen, c0, c1, k, ranges, r, j, out, dict);
      if (picked >= 0) {
        return picked;
      }
    }
    // a fixed-width dictionary resolves only the rows the ranges take from this chunk
    int q = r;
    while (q < j && ranges[q] < c1) {
      q += 2;
    }
    int wantFrom = (int) (Math.max(ranges[r], c0) - c0);
    int wantTo = q > r ? (int) (Math.min(ranges[q - 1], c1) - c0) : wantFrom;
    Chunk chunk = decode(span, chunkOff, chunkLen, c1 - c0, k, dict, wantFrom, wantTo);
    while (r < j && ranges[r] < c1) {
      long s = Math.max(ranges[r], c0);
      long e = Math.min(ranges[r + 1], c1);
      out.append(chunk.values, s - c0, e - c0, chunk.def);
      if (ranges[r + 1] > c1) {
        break;
      }
      r += 2;
    }
    return r;
  }

  /**
   * The rows the ranges take from a chunk of a fixed-width dictionary page (a scan's whole chunk
   * too), looked up straight into the output, so that a take of one row does not build a block
   * of all the chunk's items (32 KiB for 4,096 float64 values) to copy one from. Returns the
   * next range as {@link #readChunk} does, or -1 with nothing appended when the output's shape
   * differs (the caller takes the block route then).
   */
  private int resolvePickedFixed(byte[] span, int chunkOff, int chunkLen, long c0, long c1, int k, long[] ranges, int r,
      int j, BlockAppender out, DictionaryLookup dict) {
    int n = (int) (c1 - c0);
    Header h = header(span, chunkOff, chunkLen, n, k);
    DecodeBuffers reuse = REUSE.get();
    DataBlock indices = decompressValues(span, h, n, k, reuse);
    int bits = dict.itemBits();
    boolean first = true;
    while (r < j && ranges[r] < c1) {
      int s = (int) (Math.max(ranges[r], c0) - c0);
      int e = (int) (Math.min(ranges[r + 1], c1) - c0);
      int at = out.reserveFixed(bits, e - s, h.levels(), s);
      if (at < 0) {
        if (first) {
          return -1;
        }
        throw LanceCodecException.internal("mini-block: the output changed shape inside chunk " + k);
      }
      first = false;
      dict.resolveFixedInto(indices, h.levels(), s, e, out.data(), at);
      if (ranges[r + 1] > c1) {
        break;
      }
      r += 2;
    }
    reuse.trim(KEEP_REUSE);
    return r;
  }

  /** The chunk in which row {@code row} starts. */
  int startChunk(long row) {
    int lo = Math.min(rowStarts.search(row), numChunks - 1);
    while (lo > 0 && rowStarts.get(lo) == 0) {
      lo--;
    }
    return lo;
  }

  /** The chunk in which row {@code end - 1} ends: the first whose end has {@code end} rows ended. */
  int endChunk(long end) {
    return Math.min(rowEnds.search(end - 1), numChunks - 1);
  }

  private int chunkOf(long row) {
    return Math.min(chunkValues.search(row), numChunks - 1);
  }

  record Chunk(DataBlock values, short[] rep, short[] def) {}

  /** Chunk header: where each value buffer starts and its size, and the decoded levels. */
  record Header(int[] offsets, int[] sizes, short[] levels, short[] rep, int numLevels) {}

  /**
   * The scan fast path for a whole chunk of a page without lists: fixed-width values decoded
   * straight into the output array, skipping the per-chunk buffers and block; a flat page's
   * indices into a variable-width dictionary, whose items are copied straight into the output;
   * other values decoded into this thread's reused arrays and copied from there while still in
   * cache. False when it does not apply (dictionaries of fixed-width items, pages with lists).
   */
  private boolean decodeDirect(byte[] b, int off, int len, int n, int k, BlockAppender out, DictionaryLookup dict) {
    if (dict != null && rep == null && dict.variable()) {
      // the indices are decoded as usual, the items go straight into the output
      Header h = header(b, off, len, n, k);
      DecodeBuffers reuse = REUSE.get();
      dict.resolveInto(decompressValues(b, h, n, k, reuse), h.levels(), out);
      reuse.trim(KEEP_REUSE);
      return true;
    }
    if (hasDictionary || rep != null) {
      return false;
    }
    int bits = directBits();
    if (bits == 0) {
      // decoded into this thread's reused arrays (no fresh array per chunk), then copied out
      Header h = header(b, off, len, n, k);
      DecodeBuffers reuse = REUSE.get();
      out.appendBorrowed(decompressValues(b, h, n, k, reuse), 0, n, h.levels());
      reuse.trim(KEEP_REUSE);
      return true;
    }
    Header h = header(b, off, len, n, k);
    int at = out.reserveFixed(bits, n, h.levels(), 0);
    if (at < 0) {
      return false;
    }
    decodeInto(b, h, n, 0, n, out.data(), at);
    return true;
  }

  /** The width of the values {@link #fixed} writes where asked, 0 without it. */
  int directBits() {
    return fixed == null ? 0 : fixed.bitsPerValue();
  }

  /** Values {@code [from, to)} of a chunk of {@code n} whose header {@code h} locates its buffers in {@code b}. */
  void decodeInto(byte[] b, Header h, int n, int from, int to, byte[] dst, int at) {
    fixed.decodeInto(new MiniBlockBuffers(b, h.offsets(), h.sizes()), n, from, to, dst, at);
  }

  /**
   * Decoding a whole chunk for a few of its values costs more than decoding only those (bit-packed
   * values are read where they sit, flat ones copied): below one value in this many, the wanted
   * values are decoded alone.
   */
  private static final int PICK_RATIO = 16;

  /**
   * The random-access path: ranges {@code [r, j)} that fall in chunk {@code k} (rows
   * {@code [c0, c1)}) decoded value by value straight into the output, when they are few and the
   * values codec can. Returns the index of the first range not finished in this chunk, or -1
   * when the whole chunk must be decoded instead.
   */
  private int decodePicked(byte[] b, int off, int len, long c0, long c1, int k, long[] ranges, int r, int j, BlockAppender out) {
    int bits = directBits();
    if (bits == 0 || hasDictionary || rep != null) {
      return -1;
    }
    long n = c1 - c0;
    long wanted = 0;
    int q = r;
    for (; q < j && ranges[q] < c1; q += 2) {
      wanted += Math.min(ranges[q + 1], c1) - Math.max(ranges[q], c0);
      if (wanted * PICK_RATIO > n) {
        return -1;
      }
    }
    Header h = header(b, off, len, n, k);
    // several ranges: their span decoded once (a codec that decodes whole frames does it once),
    // the whole chunk when the span is most of it
    boolean single = q == r + 2;
    int spanFrom = (int) (Math.max(ranges[r], c0) - c0);
    int spanTo = (int) (Math.min(ranges[q - 1], c1) - c0);
    if (!single && 2L * (spanTo - spanFrom) > n) {
      spanFrom = 0;
      spanTo = (int) n;
    }
    byte[] span = null;
    if (!single) {
      span = PICK_SCRATCH.get();
      int need = (spanTo - spanFrom) * (bits / 8);
      if (span.length < need) {
        span = new byte[need];
        PICK_SCRATCH.set(span);
      }
      decodeInto(b, h, (int) n, spanFrom, spanTo, span, 0);
    }
    while (r < j && ranges[r] < c1) {
      int s = (int) (Math.max(ranges[r], c0) - c0);
      int e = (int) (Math.min(ranges[r + 1], c1) - c0);
      int at = out.reserveFixed(bits, e - s, h.levels(), s);
      if (at < 0) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": " + bits + "-bit values in a page of another shape");
      }
      if (single) {
        decodeInto(b, h, (int) n, s, e, out.data(), at);
      } else {
        System.arraycopy(span, (s - spanFrom) * (bits / 8), out.data(), at, (e - s) * (bits / 8));
      }
      if (ranges[r + 1] <= c1) {
        r += 2;
      } else {
        break;
      }
    }
    return r;
  }

  /**
   * Part of a flat page's chunk of indices into a variable-width dictionary: the indices are
   * decoded whole (into this thread's reused arrays), and only the items of ranges {@code [r, j)}
   * inside rows {@code [c0, c1)} are copied out, rather than the chunk's items resolved first.
   */
  private int resolvePicked(byte[] b, int off, int len, long c0, long c1, int k, long[] ranges, int r, int j,
      BlockAppender out, DictionaryLookup dict) {
    int n = (int) (c1 - c0);
    Header h = header(b, off, len, n, k);
    DecodeBuffers reuse = REUSE.get();
    DataBlock indices = decompressValues(b, h, n, k, reuse);
    while (r < j && ranges[r] < c1) {
      int s = (int) (Math.max(ranges[r], c0) - c0);
      int e = (int) (Math.min(ranges[r + 1], c1) - c0);
      dict.resolveInto(indices, h.levels(), s, e, out);
      if (ranges[r + 1] > c1) {
        break;
      }
      r += 2;
    }
    reuse.trim(KEEP_REUSE);
    return r;
  }

  /** Per thread, the span of a chunk's values decoded once for several picked ranges. */
  private static final ThreadLocal<byte[]> PICK_SCRATCH = ThreadLocal.withInitial(() -> new byte[0]);

  private Header header(byte[] b, int off, int len, long n, int k) {
    return header(b, off, len, n, k, null);
  }

  /**
   * The chunk's header; with a {@code sink}, a repeated chunk's levels are decoded into it past
   * its end (see {@link LevelSink#keep}) instead of into arrays of their own.
   */
  Header header(byte[] b, int off, int len, long n, int k, LevelSink sink) {
    int pos = off;
    int end = off + len;
    int header = 2 + (rep != null ? 2 : 0) + (def != null ? 2 : 0) + numBuffers * (large ? 4 : 2);
    if (header > len) {
      throw LanceCodecException.corrupt("mini-block chunk " + k + ": header of " + header + " bytes exceeds chunk of " + len);
    }
    int numLevels = LittleEndian.getShort(b, pos) & 0xFFFF;
    pos += 2;
    int repSize = 0;
    if (rep != null) {
      repSize = LittleEndian.getShort(b, pos) & 0xFFFF;
      pos += 2;
    }
    int defSize = 0;
    if (def != null) {
      defSize = LittleEndian.getShort(b, pos) & 0xFFFF;
      pos += 2;
      if (rep == null && numLevels != n) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": " + numLevels + " levels for " + n + " values");
      }
    }
    int[] sizes = new int[numBuffers];
    for (int i = 0; i < numBuffers; i++) {
      long s = large ? LittleEndian.getInt(b, pos) & 0xFFFFFFFFL : LittleEndian.getShort(b, pos) & 0xFFFF;
      pos += large ? 4 : 2;
      if (s > len) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": buffer " + i + " size " + s + " exceeds chunk of " + len);
      }
      sizes[i] = (int) s;
    }
    pos = off + MiniBlockPageEncoder.pad8(pos - off);
    short[] repLevels = null;
    boolean inSink = sink != null && rep != null;
    if (inSink) {
      sink.reserve(numLevels);
    }
    int at = inSink ? sink.count() : 0;
    if (rep != null) {
      if (pos + repSize > end) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": rep levels run past the chunk");
      }
      if (inSink) {
        rep.decompressLevels(b, pos, repSize, numLevels, sink.repArray(), at);
      } else {
        byte[] r = java.util.Arrays.copyOfRange(b, pos, pos + repSize);
        repLevels = Levels.shorts(rep.decompress(r, numLevels), numLevels);
      }
      pos = off + MiniBlockPageEncoder.pad8(pos + repSize - off);
    }
    short[] levels = null;
    long defCount = rep != null ? numLevels : n;
    if (def != null) {
      if (pos + defSize > end) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": def levels run past the chunk");
      }
      if (inSink) {
        def.decompressLevels(b, pos, defSize, numLevels, sink.defArray(), at);
      } else {
        byte[] d = java.util.Arrays.copyOfRange(b, pos, pos + defSize);
        levels = Levels.shorts(def.decompress(d, defCount), defCount);
      }
      pos = off + MiniBlockPageEncoder.pad8(pos + defSize - off);
    }
    int[] offsets = new int[numBuffers];
    for (int i = 0; i < numBuffers; i++) {
      if (pos + sizes[i] > end) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": buffer " + i + " runs past the chunk");
      }
      offsets[i] = pos;
      pos = off + MiniBlockPageEncoder.pad8(pos + sizes[i] - off);
    }
    if (rep != null && (inSink ? Levels.visible(sink.defArray(), at, at + numLevels, maxVisible)
        : Levels.visible(levels, 0, numLevels, maxVisible)) != n) {
      throw LanceCodecException.corrupt("mini-block chunk " + k + ": " + numLevels + " levels do not hold its " + n + " values");
    }
    return new Header(offsets, sizes, levels, repLevels, numLevels);
  }

  Chunk decode(byte[] b, int off, int len, long n, int k, DictionaryLookup dictionary) {
    return decode(b, off, len, n, k, dictionary, 0, Integer.MAX_VALUE);
  }

  /**
   * As {@link #decode(byte[], int, int, long, int, DictionaryLookup)}; a fixed-width dictionary
   * resolves only values {@code [from, to)}, the chunk's other values are left unset.
   */
  Chunk decode(byte[] b, int off, int len, long n, int k, DictionaryLookup dictionary, int from, int to) {
    Header h = header(b, off, len, n, k);
    short[] valueDefs = dictionary == null ? null
        : h.rep() == null ? h.levels() : valueLevels(h.levels(), 0, h.levels() == null ? 0 : h.levels().length, n);
    return decodeValues(b, h, n, k, dictionary, valueDefs, from, to);
  }

  /**
   * The values of the chunk in {@code b} whose header is {@code h}; a dictionary resolves them
   * with {@code valueDefs}, the def level of each value (null: all valid).
   */
  Chunk decodeValues(byte[] b, Header h, long n, int k, DictionaryLookup dictionary, short[] valueDefs) {
    return decodeValues(b, h, n, k, dictionary, valueDefs, 0, Integer.MAX_VALUE);
  }

  private Chunk decodeValues(byte[] b, Header h, long n, int k, DictionaryLookup dictionary, short[] valueDefs, int from, int to) {
    DataBlock v = decompressValues(b, h, n, k);
    if (dictionary != null) {
      v = dictionary.resolve(v, valueDefs, from, to);
    }
    return new Chunk(v, h.rep(), h.levels());
  }

  /** Per thread, the arrays whole chunks of a scan decode into before the appender copies them. */
  private static final ThreadLocal<DecodeBuffers> REUSE = ThreadLocal.withInitial(DecodeBuffers::new);

  /** Reused arrays above this size (a chunk of unusually long values) are dropped after the chunk. */
  private static final long KEEP_REUSE = 1 << 20;

  /** The chunk's values (dictionary indices on a dictionary page), at least {@code n} of them. */
  private DataBlock decompressValues(byte[] b, Header h, long n, int k) {
    return decompressValues(b, h, n, k, null);
  }

  /** As {@link #decompressValues(byte[], Header, long, int)}, on {@code reuse}'s arrays when the codec can. */
  private DataBlock decompressValues(byte[] b, Header h, long n, int k, DecodeBuffers reuse) {
    DataBlock v = values.decompress(new MiniBlockBuffers(b, h.offsets(), h.sizes()), (int) n, reuse);
    if (v.numValues() < n) {
      throw LanceCodecException.corrupt("mini-block chunk " + k + ": decoded " + v.numValues() + " values, expected " + n);
    }
    return v;
  }

  /**
   * The def level of each value (visible level) among {@code levels[from, to)}, which hold
   * {@code n} values (checked by the header), for pages whose levels outnumber values.
   */
  short[] valueLevels(short[] levels, int from, int to, long n) {
    if (levels == null) {
      return null;
    }
    short[] out = new short[(int) n];
    int v = 0;
    for (int i = from; i < to; i++) {
      if ((levels[i] & 0xFFFF) <= maxVisible) {
        out[v++] = levels[i];
      }
    }
    return out;
  }
}
