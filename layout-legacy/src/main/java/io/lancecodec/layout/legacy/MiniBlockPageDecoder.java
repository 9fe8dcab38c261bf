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
  private final int numBuffers;
  private final boolean large;
  private final DictionaryLookup dictionary;

  MiniBlockPageDecoder(MiniBlockLayout layout, PageSource source, long numRows, LayoutContext ctx) {
    this.layout = layout;
    this.source = source;
    this.numRows = numRows;
    Levels.checkFlat(layout.getLayersList());
    if (!(!layout.hasRepCompression())) {
      throw LanceCodecException.corrupt("mini-block: repetition levels in a flat page");
    }
    if (!(layout.getNumItems() == numRows)) {
      throw LanceCodecException.corrupt("mini-block: num_items " + layout.getNumItems() + " differs from page rows " + numRows);
    }
    if (!(layout.getNumBuffers() >= 1 && layout.getNumBuffers() <= 16)) {
      throw LanceCodecException.corrupt("mini-block: num_buffers " + layout.getNumBuffers() + " outside [1, 16]");
    }
    if (!(source.numBuffers() >= 2)) {
      throw LanceCodecException.corrupt("mini-block: page has " + source.numBuffers() + " buffers, needs 2");
    }
    if (!(layout.hasValueCompression())) {
      throw LanceCodecException.corrupt("mini-block: value_compression missing");
    }
    this.numBuffers = (int) layout.getNumBuffers();
    this.large = layout.getHasLargeChunk();
    this.values = ctx.miniBlock(layout.getValueCompression());
    this.def = layout.hasDefCompression() ? ctx.block(layout.getDefCompression()) : null;

    if (layout.hasDictionary()) {
      if (!(source.numBuffers() >= 3)) {
        throw LanceCodecException.corrupt("mini-block: dictionary page has no dictionary buffer");
      }
      long items = layout.getNumDictionaryItems();
      if (!(items >= 0 && items <= Integer.MAX_VALUE)) {
        throw LanceCodecException.corrupt("mini-block: " + items + " dictionary items");
      }
      io.lancecodec.spi.DataBlock dict = ctx.block(layout.getDictionary()).decompress(source.readAll(2), items);
      if (!(dict.numValues() == items)) {
        throw LanceCodecException.corrupt("mini-block: dictionary decoded to " + dict.numValues() + " items, expected " + items);
      }
      this.dictionary = new DictionaryLookup(dict, items);
    } else {
      this.dictionary = null;
    }
    int wordBytes = large ? 4 : 2;
    long metaSize = source.bufferSize(0);
    if (!(metaSize % wordBytes == 0)) {
      throw LanceCodecException.corrupt("mini-block: metadata of " + metaSize + " bytes is not a whole number of " + wordBytes + "-byte words");
    }
    int numChunks = LanceCodecException.checkedInt(metaSize / wordBytes, "mini-block chunk count");
    if (!(numChunks > 0 || numRows == 0)) {
      throw LanceCodecException.corrupt("mini-block: no chunks for " + numRows + " rows");
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
      long n = k == numChunks - 1 ? numRows - chunkFirstRow[k] : 1L << log;
      if (!(n > 0 && log <= 14)) {
        throw LanceCodecException.corrupt("mini-block: chunk " + k + " has an invalid value count (log2 " + log + ", remaining " + n + ")");
      }
      chunkFirstRow[k + 1] = chunkFirstRow[k] + n;
    }
    if (!(chunkOffset[numChunks] <= dataSize)) {
      throw LanceCodecException.corrupt("mini-block: chunks span " + chunkOffset[numChunks] + " bytes but buffer 1 has " + dataSize);
    }
    if (!(numChunks == 0 || chunkFirstRow[numChunks] == numRows)) {
      throw LanceCodecException.corrupt("mini-block: chunks hold " + chunkFirstRow[numChunks] + " values, page has " + numRows);
    }
  }

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
        + (layout.hasDefCompression() ? ", def: " + Describe.encoding(layout.getDefCompression()) : "");
  }

  @Override
  public DecodedPage read(long[] ranges) {
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
    return new DecodedPage(out.block(), null, out.levels(), out.count());
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

  private record Chunk(DataBlock values, short[] def) {}

  /** Chunk header: where each value buffer starts and its size, and the decoded levels. */
  private record Header(int[] offsets, int[] sizes, short[] levels) {}

  /**
   * The scan fast path: a whole chunk of fixed-width values decoded straight into the output
   * array, skipping the per-chunk buffers and block. False when it does not apply.
   */
  private boolean decodeDirect(byte[] b, int off, int len, int n, int k, BlockAppender out) {
    int bits = values.directBits();
    if (bits <= 0 || bits % 8 != 0 || dictionary != null) {
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

  private Header header(byte[] b, int off, int len, long n, int k) {
    int pos = off;
    int end = off + len;
    int header = 2 + (def != null ? 2 : 0) + numBuffers * (large ? 4 : 2);
    if (header > len) {
      throw LanceCodecException.corrupt("mini-block chunk " + k + ": header of " + header + " bytes exceeds chunk of " + len);
    }
    int numLevels = LittleEndian.getShort(b, pos) & 0xFFFF;
    pos += 2;
    int defSize = 0;
    if (def != null) {
      defSize = LittleEndian.getShort(b, pos) & 0xFFFF;
      pos += 2;
      if (numLevels != n) {
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
    short[] levels = null;
    if (def != null) {
      if (pos + defSize > end) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + ": def levels run past the chunk");
      }
      byte[] d = java.util.Arrays.copyOfRange(b, pos, pos + defSize);
      levels = Levels.shorts(def.decompress(d, n), n);
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
    return new Header(offsets, sizes, levels);
  }

  private Chunk decode(byte[] b, int off, int len, long n, int k) {
    Header h = header(b, off, len, n, k);
    List<byte[]> bufs = new ArrayList<>(numBuffers);
    for (int i = 0; i < numBuffers; i++) {
      bufs.add(java.util.Arrays.copyOfRange(b, h.offsets()[i], h.offsets()[i] + h.sizes()[i]));
    }
    short[] levels = h.levels();
    DataBlock v = values.decompress(bufs, n);
    if (!(v.numValues() >= n)) {
      throw LanceCodecException.corrupt("mini-block chunk " + k + ": decoded " + v.numValues() + " values, expected " + n);
    }
    if (dictionary != null) {
      v = dictionary.resolve(v, levels);
    }
    return new Chunk(v, levels);
  }
}
