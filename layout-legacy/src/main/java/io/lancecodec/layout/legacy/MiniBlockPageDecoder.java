package io.lancecodec.layout.legacy;

import io.lancecodec.format.pb.v21.MiniBlockLayout;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodedPage;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LayoutContext;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PageDecoder;
import io.lancecodec.spi.PageSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a flat mini-block page. Opening it loads the search cache (the chunk metadata words,
 * turned into each chunk's byte offset and first row) and validates it against the page: chunk
 * bytes must fit in buffer 1 and chunk values must add up to the page's items. Reads fetch the
 * byte span of the chunks a range touches in one request and decode whole chunks.
 */
final class MiniBlockPageDecoder implements PageDecoder {
  private final PageSource source;
  private final MiniBlockLayout layout;
  private final long numRows;
  private final long[] chunkOffset; // byte offset in buffer 1, one extra entry at the end
  private final long[] chunkFirstRow; // one extra entry = numItems
  private final MiniBlockDecompressor values;
  private final BlockDecompressor def;
  private final BlockDecompressor rep;
  private final java.util.List<io.lancecodec.spi.LevelLayer> layers;
  private final boolean nested;
  private final int maxRep;
  private final int maxVisible;
  private final long numItems;
  // With repetition, per chunk: rows starting in it, the first row starting in it, and rows
  // ended by the end of it (one extra leading 0 entry).
  private final long[] rowStarts;
  private final long[] firstStart;
  private final long[] rowsEnded;
  private final int numBuffers;
  private final boolean large;
  private final DictionaryLookup dictionary;

  MiniBlockPageDecoder(MiniBlockLayout layout, PageSource source, long numRows, LayoutContext ctx) {
    this.layout = layout;
    this.source = source;
    this.numRows = numRows;
    this.layers = Levels.fromProto(layout.getLayersList());
    this.nested = Levels.nested(layers);
    this.maxRep = Levels.maxRep(layers);
    this.maxVisible = Levels.maxVisibleDef(layers);
    boolean repeated = layout.hasRepCompression();
    if (repeated != (maxRep > 0)) {
      throw LanceCodecException.corrupt("mini-block: rep_compression " + (repeated ? "present" : "absent") + " but " + maxRep + " list layers");
    }
    if (!repeated && !(layout.getNumItems() == numRows)) {
      throw LanceCodecException.corrupt("mini-block: num_items " + layout.getNumItems() + " differs from page rows " + numRows);
    }
    if (repeated && !(layout.getNumItems() >= 0 && layout.getNumItems() <= Integer.MAX_VALUE)) {
      throw LanceCodecException.corrupt("mini-block: num_items " + layout.getNumItems() + " out of range");
    }
    if (repeated && layout.getRepetitionIndexDepth() < 1) {
      throw LanceCodecException.corrupt("mini-block: lists without a repetition index");
    }
    if (!repeated && layout.getRepetitionIndexDepth() != 0) {
      throw LanceCodecException.corrupt("mini-block: repetition index without lists");
    }
    if (layout.hasDefCompression() != (Levels.maxDef(layers) > 0)) {
      throw LanceCodecException.corrupt("mini-block: def_compression " + (layout.hasDefCompression() ? "present" : "absent") + " for layers " + layers);
    }
    this.numItems = layout.getNumItems();
    if (!(layout.getNumBuffers() >= 1 && layout.getNumBuffers() <= 16)) {
      throw LanceCodecException.corrupt("mini-block: num_buffers " + layout.getNumBuffers() + " outside [1, 16]");
    }
    if (source.numBuffers() < 2) {
      throw LanceCodecException.corrupt("mini-block: page has " + source.numBuffers() + " buffers, needs 2");
    }
    if (!layout.hasValueCompression()) {
      throw LanceCodecException.corrupt("mini-block: value_compression missing");
    }
    this.numBuffers = (int) layout.getNumBuffers();
    this.large = layout.getHasLargeChunk();
    this.values = ctx.miniBlock(layout.getValueCompression());
    this.def = layout.hasDefCompression() ? ctx.block(layout.getDefCompression()) : null;
    this.rep = repeated ? ctx.block(layout.getRepCompression()) : null;

    if (layout.hasDictionary()) {
      if (source.numBuffers() < 3) {
        throw LanceCodecException.corrupt("mini-block: dictionary page has no dictionary buffer");
      }
      long items = layout.getNumDictionaryItems();
      if (!(items >= 0 && items <= Integer.MAX_VALUE)) {
        throw LanceCodecException.corrupt("mini-block: " + items + " dictionary items");
      }
      io.lancecodec.spi.DataBlock dict = ctx.block(layout.getDictionary()).decompress(source.readAll(2), items);
      if (dict.numValues() != items) {
        throw LanceCodecException.corrupt("mini-block: dictionary decoded to " + dict.numValues() + " items, expected " + items);
      }
      this.dictionary = new DictionaryLookup(dict, items);
    } else {
      this.dictionary = null;
    }
    int wordBytes = large ? 4 : 2;
    long metaSize = source.bufferSize(0);
    if (metaSize % wordBytes != 0) {
      throw LanceCodecException.corrupt("mini-block: metadata of " + metaSize + " bytes is not a whole number of " + wordBytes + "-byte words");
    }
    int numChunks = LanceCodecException.checkedInt(metaSize / wordBytes, "mini-block chunk count");
    if (!(numChunks > 0 || numItems == 0)) {
      throw LanceCodecException.corrupt("mini-block: no chunks for " + numItems + " items");
    }
    byte[] meta = source.readAll(0);
    chunkOffset = new long[numChunks + 1];
    chunkFirstRow = new long[numChunks + 1];
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
    if (repeated) {
      int stride = LanceCodecException.checkedInt(layout.getRepetitionIndexDepth() + 1L, "repetition index depth");
      int indexBuffer = source.numBuffers() - 1;
      if (!(indexBuffer >= (layout.hasDictionary() ? 3 : 2) && source.bufferSize(indexBuffer) == (long) numChunks * stride * 8)) {
        throw LanceCodecException.corrupt("mini-block: repetition index of " + source.bufferSize(indexBuffer) + " bytes, expected "
            + numChunks + " chunks x " + stride + " u64");
      }
      byte[] index = source.readAll(indexBuffer);
      rowStarts = new long[numChunks];
      firstStart = new long[numChunks + 1];
      rowsEnded = new long[numChunks + 1];
      boolean prevEnded = true;
      for (int k = 0; k < numChunks; k++) {
        long rows = LittleEndian.getLong(index, k * stride * 8);
        long left = LittleEndian.getLong(index, (k * stride + stride - 1) * 8);
        boolean ends = left == 0;
        // rows ending here, minus the one ended by the chunk's own end, plus one if it opens with a row
        long starts = rows - (ends ? 1 : 0) + (prevEnded ? 1 : 0);
        if (!(rows >= 0 && left >= 0 && rows <= numRows && starts >= 0 && starts <= chunkFirstRow[k + 1] - chunkFirstRow[k] + 0xFFFF)) {
          throw LanceCodecException.corrupt("mini-block: repetition index entry " + k + " (" + rows + " rows, " + left + " left over) is inconsistent");
        }
        rowStarts[k] = starts;
        firstStart[k + 1] = firstStart[k] + starts;
        rowsEnded[k + 1] = rowsEnded[k] + rows;
        prevEnded = ends;
      }
      if (!(numChunks > 0 && (prevEnded && rowsEnded[numChunks] == numRows && firstStart[numChunks] == numRows))) {
        throw LanceCodecException.corrupt("mini-block: repetition index counts " + rowsEnded[numChunks] + " rows, page has " + numRows);
      }
    } else {
      rowStarts = null;
      firstStart = null;
      rowsEnded = null;
    }
  }

  /** The most values a chunk may hold (2^14 for tuned 2.2 writers, with room for the last chunk). */
  private static final long MAX_CHUNK_VALUES = 1 << 16;

  @Override
  public long numRows() {
    return numRows;
  }

  @Override
  public long searchCacheBytes() {
    return 16L * chunkOffset.length + layout.getSerializedSize() + (dictionary == null ? 0 : dictionary.cacheBytes());
  }

  @Override
  public String describe() {
    return "mini-block" + (large ? " (large chunks)" : "") + ", " + (chunkOffset.length - 1) + " chunks, values: "
        + Describe.encoding(layout.getValueCompression())
        + (layout.hasDictionary() ? ", dictionary of " + layout.getNumDictionaryItems() + ": " + Describe.encoding(layout.getDictionary()) : "")
        + (layout.hasRepCompression() ? ", rep: " + Describe.encoding(layout.getRepCompression()) : "")
        + (layout.hasDefCompression() ? ", def: " + Describe.encoding(layout.getDefCompression()) : "")
        + (nested ? ", layers " + layers : "");
  }

  @Override
  public DecodedPage read(long[] ranges) {
    if (rep != null) {
      return readRepeated(ranges);
    }
    long total = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      total += ranges[i + 1] - ranges[i];
    }
    BlockAppender out = new BlockAppender(total);
    int i = 0;
    while (i < ranges.length) {
      // Group consecutive ranges that share chunks into one read of their chunk span.
      int first = chunkOf(ranges[i]);
      int last = chunkOf(ranges[i + 1] - 1);
      int j = i + 2;
      while (j < ranges.length && chunkOf(ranges[j]) <= last + 1) {
        last = Math.max(last, chunkOf(ranges[j + 1] - 1));
        j += 2;
      }
      long spanStart = chunkOffset[first];
      byte[] span = source.read(1, spanStart, LanceCodecException.checkedInt(chunkOffset[last + 1] - spanStart, "chunk span"));
      int r = i;
      for (int k = first; k <= last && r < j; k++) {
        long c0 = chunkFirstRow[k];
        long c1 = chunkFirstRow[k + 1];
        if (ranges[r] >= c1) {
          continue;
        }
        int chunkOff = (int) (chunkOffset[k] - spanStart);
        int chunkLen = (int) (chunkOffset[k + 1] - chunkOffset[k]);
        if (ranges[r] <= c0 && ranges[r + 1] >= c1 && decodeDirect(span, chunkOff, chunkLen, (int) (c1 - c0), k, out)) {
          // the whole chunk went straight into the output
          if (ranges[r + 1] == c1) {
            r += 2;
          }
          continue;
        }
        int next = decodePicked(span, chunkOff, chunkLen, c0, c1, k, ranges, r, j, out);
        if (next >= 0) {
          r = next;
          continue;
        }
        Chunk chunk = decode(span, chunkOff, chunkLen, c1 - c0, k);
        while (r < j && ranges[r] < c1) {
          long s = Math.max(ranges[r], c0);
          long e = Math.min(ranges[r + 1], c1);
          out.append(chunk.values, s - c0, e - c0, chunk.def);
          if (ranges[r + 1] <= c1) {
            r += 2;
          } else {
            break;
          }
        }
      }
      i = j;
    }
    return new DecodedPage(out.block(), null, out.levels(), out.count(), nested ? layers : null);
  }

  /**
   * Rows of a page with lists: the repetition index says which chunks hold each range (from the
   * chunk where its first row starts to the one where its last row ends); the rep levels of
   * those chunks then mark the row starts to cut at.
   */
  private DecodedPage readRepeated(long[] ranges) {
    long rows = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      rows += ranges[i + 1] - ranges[i];
    }
    BlockAppender out = new BlockAppender(rows);
    LevelSink levels = new LevelSink(true, def != null);
    int cachedK = -1;
    Chunk cached = null;
    for (int i = 0; i < ranges.length; i += 2) {
      long a = ranges[i];
      long b = ranges[i + 1];
      int s = startChunk(a);
      int e = endChunk(b);
      long spanStart = chunkOffset[s];
      byte[] span = null;
      long toSkip = a - firstStart[s];
      long rowsLeft = b - a;
      boolean done = false;
      for (int k = s; k <= e && !done; k++) {
        Chunk c;
        if (k == cachedK) {
          c = cached;
        } else {
          if (span == null) {
            span = source.read(1, spanStart, LanceCodecException.checkedInt(chunkOffset[e + 1] - spanStart, "chunk span"));
          }
          c = decode(span, (int) (chunkOffset[k] - spanStart), (int) (chunkOffset[k + 1] - chunkOffset[k]),
              chunkFirstRow[k + 1] - chunkFirstRow[k], k);
          cachedK = k;
          cached = c;
        }
        int from = 0;
        int n = c.rep.length;
        if (k == s) {
          // skip to the start of row a: the toSkip-th row start of this chunk
          from = -1;
          for (int j = 0; j < n; j++) {
            if (c.rep[j] == maxRep && toSkip-- == 0) {
              from = j;
              break;
            }
          }
          if (from < 0) {
            throw LanceCodecException.corrupt("mini-block chunk " + k + ": row " + a + " does not start where the repetition index says");
          }
        }
        int to = from;
        while (to < n) {
          if (c.rep[to] == maxRep) {
            if (rowsLeft == 0) {
              done = true;
              break;
            }
            rowsLeft--;
          }
          to++;
        }
        int v0 = Levels.visible(c.def, 0, from, maxVisible);
        int v1 = v0 + Levels.visible(c.def, from, to, maxVisible);
        out.append(c.values, v0, v1, null);
        levels.append(c.rep, c.def, from, to);
      }
      if (rowsLeft != 0) {
        throw LanceCodecException.corrupt("mini-block: rows [" + a + ", " + b + ") end past the chunks the repetition index names");
      }
    }
    return new DecodedPage(out.block(), levels.rep(), levels.def(), rows, layers);
  }

  /** The chunk in which row {@code row} starts. */
  private int startChunk(long row) {
    int lo = 0;
    int hi = rowStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (firstStart[mid] <= row) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    while (lo > 0 && rowStarts[lo] == 0) {
      lo--;
    }
    return lo;
  }

  /** The chunk in which row {@code end - 1} ends. */
  private int endChunk(long end) {
    int lo = 0;
    int hi = rowStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (rowsEnded[mid + 1] >= end) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private int chunkOf(long row) {
    int lo = 0;
    int hi = chunkFirstRow.length - 2;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (chunkFirstRow[mid] <= row) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private record Chunk(DataBlock values, short[] rep, short[] def) {}

  /** Chunk header: where each value buffer starts and its size, and the decoded levels. */
  private record Header(int[] offsets, int[] sizes, short[] levels, short[] rep) {}

  /**
   * The scan fast path: a whole chunk of fixed-width values decoded straight into the output
   * array, skipping the per-chunk buffers and block. False when it does not apply.
   */
  private boolean decodeDirect(byte[] b, int off, int len, int n, int k, BlockAppender out) {
    int bits = values.directBits();
    if (bits <= 0 || bits % 8 != 0 || dictionary != null || rep != null) {
      return false;
    }
    Header h = header(b, off, len, n, k);
    int at = out.reserveFixed(bits, n, h.levels(), 0);
    if (at < 0) {
      return false;
    }
    values.decodeInto(b, h.offsets(), h.sizes(), n, out.data(), at);
    return true;
  }

  /**
   * Decoding a whole chunk for a few of its values costs more than reading those values where
   * they sit, when the codec can ({@link MiniBlockDecompressor#decodesRanges}): below one value
   * in this many, the wanted values are decoded alone.
   */
  private static final int PICK_RATIO = 16;

  /**
   * The random-access path: ranges {@code [r, j)} that fall in chunk {@code k} (rows
   * {@code [c0, c1)}) decoded value by value straight into the output, when they are few and the
   * values codec can. Returns the index of the first range not finished in this chunk, or -1
   * when the whole chunk must be decoded instead.
   */
  private int decodePicked(byte[] b, int off, int len, long c0, long c1, int k, long[] ranges, int r, int j, BlockAppender out) {
    int bits = values.directBits();
    if (bits <= 0 || bits % 8 != 0 || dictionary != null || rep != null || !values.decodesRanges()) {
      return -1;
    }
    long n = c1 - c0;
    long wanted = 0;
    for (int q = r; q < j && ranges[q] < c1; q += 2) {
      wanted += Math.min(ranges[q + 1], c1) - Math.max(ranges[q], c0);
      if (wanted * PICK_RATIO > n) {
        return -1;
      }
    }
    Header h = header(b, off, len, n, k);
    while (r < j && ranges[r] < c1) {
      int s = (int) (Math.max(ranges[r], c0) - c0);
      int e = (int) (Math.min(ranges[r + 1], c1) - c0);
      int at = out.reserveFixed(bits, e - s, h.levels(), s);
      if (at < 0) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": " + bits + "-bit values in a page of another shape");
      }
      values.decodeRange(b, h.offsets(), h.sizes(), (int) n, s, e, out.data(), at);
      if (ranges[r + 1] <= c1) {
        r += 2;
      } else {
        break;
      }
    }
    return r;
  }

  private Header header(byte[] b, int off, int len, long n, int k) {
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
    if (rep != null) {
      if (pos + repSize > end) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": rep levels run past the chunk");
      }
      byte[] r = java.util.Arrays.copyOfRange(b, pos, pos + repSize);
      repLevels = Levels.shorts(rep.decompress(r, numLevels), numLevels);
      pos = off + MiniBlockPageEncoder.pad8(pos + repSize - off);
    }
    short[] levels = null;
    long defCount = rep != null ? numLevels : n;
    if (def != null) {
      if (pos + defSize > end) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": def levels run past the chunk");
      }
      byte[] d = java.util.Arrays.copyOfRange(b, pos, pos + defSize);
      levels = Levels.shorts(def.decompress(d, defCount), defCount);
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
    if (repLevels != null && Levels.visible(levels, 0, numLevels, maxVisible) != n) {
      throw LanceCodecException.corrupt("mini-block chunk " + k + ": " + numLevels + " levels do not hold its " + n + " values");
    }
    return new Header(offsets, sizes, levels, repLevels);
  }

  private Chunk decode(byte[] b, int off, int len, long n, int k) {
    Header h = header(b, off, len, n, k);
    List<byte[]> bufs = new ArrayList<>(numBuffers);
    for (int i = 0; i < numBuffers; i++) {
      bufs.add(java.util.Arrays.copyOfRange(b, h.offsets()[i], h.offsets()[i] + h.sizes()[i]));
    }
    short[] levels = h.levels();
    DataBlock v = values.decompress(bufs, n);
    if (v.numValues() < n) {
      throw LanceCodecException.corrupt("mini-block chunk " + k + ": decoded " + v.numValues() + " values, expected " + n);
    }
    if (dictionary != null) {
      v = dictionary.resolve(v, h.rep() == null ? levels : valueLevels(levels, n));
    }
    return new Chunk(v, h.rep(), levels);
  }

  /** The def level of each value (visible level), for pages whose levels outnumber values. */
  private short[] valueLevels(short[] levels, long n) {
    if (levels == null) {
      return null;
    }
    short[] out = new short[(int) n];
    int v = 0;
    for (short l : levels) {
      if ((l & 0xFFFF) <= maxVisible) {
        out[v++] = l;
      }
    }
    return out;
  }
}
