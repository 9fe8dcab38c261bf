package io.lancecodec.layout.physical;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.FixedWidthSink;

/**
 * Reads rows of a mini-block page with lists ({@link MiniBlockPageDecoder}). Levels are decoded
 * chunk by chunk straight into the read's level arrays; a one-range read (a scan batch) counts
 * its levels first so those arrays need no trimming copy, and reuses one array per thread for
 * its chunk bytes. Byte-aligned values a codec decodes directly go to a {@link FixedWidthSink}
 * when the caller gives one, else into the page.
 */
final class MiniBlockRepeated {
  private MiniBlockRepeated() {}

  /**
   * Rows of a page with lists: the repetition index says which chunks hold each range (from the
   * chunk where its first row starts to the one where its last row ends); the rep levels of
   * those chunks then mark the row starts to cut at. With a {@code sink} (byte-aligned values
   * the codec decodes directly, no dictionary) the values go there instead of into the page.
   */
  static DecodedPage read(MiniBlockPageDecoder d, long[] ranges, FixedWidthSink sink) {
    long rows = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      rows += ranges[i + 1] - ranges[i];
    }
    long expected = expectedItems(d, ranges, rows);
    // A scan reads one range: its levels are counted first, so that the level arrays are
    // allocated at their final size and handed out without a trimming copy.
    byte[] firstSpan = null;
    long exact = -1;
    // The first and last chunks' levels, decoded once for the count and then cut by the read
    // (a one-row take's chunk is both: it used to be decoded three times).
    ChunkLevels first = null;
    ChunkLevels last = null;
    if (ranges.length == 2 && ranges[1] > ranges[0]) {
      int s = d.startChunk(ranges[0]);
      int e = d.endChunk(ranges[1]);
      long spanStart = d.chunkOffset(s);
      int len = LanceCodecException.checkedInt(d.chunkOffset(e + 1) - spanStart, "chunk span");
      firstSpan = ThreadArrays.bytes(SPAN, len, KEEP_SPAN);
      d.source.readInto(1, spanStart, len, firstSpan, 0);
      first = ChunkLevels.decode(d, firstSpan, spanStart, s);
      last = e == s ? first : ChunkLevels.decode(d, firstSpan, spanStart, e);
      exact = first == null || last == null ? -1 : exactLevels(d, ranges[0], ranges[1], s, e, firstSpan, spanStart, first, last);
    }
    LevelSink levels = new LevelSink(true, d.def != null, exact >= 0 ? exact : expected);
    DictionaryLookup dict = d.hasDictionary ? d.dictionary() : null;
    int bits = d.directBits();
    boolean direct = bits > 0 && !d.hasDictionary;
    BlockAppender out = sink == null ? new BlockAppender(expected) : null;
    int width = bits / 8;
    // one chunk's values, decoded whole and kept in cache until appended to the sink
    byte[] scratch = new byte[0];
    if (sink != null) {
      sink.reserve(expected * width);
    }
    // The last chunk whose levels were decoded (a range may start in the chunk the previous one
    // ended in); its values are decoded only when a range takes part of them.
    int cachedK = -1;
    byte[] hSpan = null;
    int hOff = 0;
    MiniBlockPageDecoder.Chunk cached = null;
    for (int i = 0; i < ranges.length; i += 2) {
      long a = ranges[i];
      long b = ranges[i + 1];
      int s = d.startChunk(a);
      int e = d.endChunk(b);
      long spanStart = i == 0 && firstSpan != null ? d.chunkOffset(s) : 0;
      byte[] span = i == 0 ? firstSpan : null;
      long toSkip = a - d.rowStarts.prefix(s);
      long skipped = toSkip;
      long rowsLeft = b - a;
      boolean done = false;
      long chunkAt = d.chunkOffset(s);
      for (int k = s; k <= e && !done; chunkAt += d.chunkBytes(k), k++) {
        long nk = d.chunkValues.get(k);
        if (k != cachedK) {
          if (span == null) {
            // from the first chunk not decoded already: a range starting in the chunk the
            // previous one ended in does not read that chunk again
            spanStart = chunkAt;
            span = d.source.read(1, spanStart, LanceCodecException.checkedInt(d.chunkOffset(e + 1) - spanStart, "chunk span"));
          }
          hSpan = span;
          hOff = (int) (chunkAt - spanStart);
          cachedK = k;
          cached = null;
        }
        // The chunk's levels land past the end of the output's and are then cut to the rows
        // taken; with exact sizing, the first and last chunks (cut) go through their own arrays.
        ChunkLevels decoded = exact < 0 || i != 0 ? null : k == s ? first : k == e ? last : null;
        LevelSink target = decoded != null ? decoded.levels : levels;
        MiniBlockPageDecoder.Header h = decoded != null ? decoded.header : d.header(hSpan, hOff, (int) d.chunkBytes(k), nk, k, target);
        short[] rep = target.repArray();
        short[] def = target.defArray();
        int base = target.count();
        int n = h.numLevels();
        int from = 0;
        if (k == s) {
          // skip to the start of row a: the toSkip-th row start of this chunk
          from = -1;
          for (int j = 0; j < n; j++) {
            if (rep[base + j] == d.maxRep && toSkip-- == 0) {
              from = j;
              break;
            }
          }
          if (from < 0) {
            throw LanceCodecException.corrupt("mini-block chunk " + k + ": row " + a + " does not start where the repetition index says");
          }
        }
        int to = from;
        // Most chunks of a range hold no more row starts than rows are left, and are kept whole:
        // the repetition index counts their starts, where a walk over the levels mispredicted at
        // every row start and a branch-free count still read every level. An index that
        // miscounts cannot slip through: the levels kept then hold more or fewer rows than the
        // range, which the assembler counts from the levels themselves and refuses as corrupt.
        long starts = d.rowStarts.get(k) - (k == s ? skipped : 0);
        if (starts <= rowsLeft) {
          rowsLeft -= starts;
          to = n;
        }
        while (to < n) {
          if (rep[base + to] == d.maxRep) {
            if (rowsLeft == 0) {
              done = true;
              break;
            }
            rowsLeft--;
          }
          to++;
        }
        int v0 = Levels.visible(def, base, base + from, d.maxVisible);
        int v1 = v0 + Levels.visible(def, base + from, base + to, d.maxVisible);
        if (sink != null) {
          int total = LanceCodecException.checkedInt(nk, "chunk values");
          if (scratch.length < total * width) {
            scratch = ThreadArrays.bytes(VALUES, total * width, KEEP_VALUES);
          }
          d.decodeInto(hSpan, h, total, 0, total, scratch, 0);
          sink.append(scratch, v0 * width, (v1 - v0) * width);
          keep(levels, target, base, from, to);
          continue;
        }
        int at = -1;
        if (direct && cached == null && v0 == 0 && v1 == nk) {
          // a scan takes most chunks whole: their values go straight into the output
          at = out.reserveFixed(bits, v1, null, 0);
        }
        if (at >= 0) {
          d.decodeInto(hSpan, h, v1, 0, v1, out.data(), at);
        } else {
          if (cached == null) {
            short[] valueDefs = dict == null ? null : d.valueLevels(def, base, base + n, nk);
            cached = d.decodeValues(hSpan, h, nk, k, dict, valueDefs);
          }
          out.append(cached.values(), v0, v1, null);
        }
        keep(levels, target, base, from, to);
      }
      if (rowsLeft != 0) {
        throw LanceCodecException.corrupt("mini-block: rows [" + a + ", " + b + ") end past the chunks the repetition index names");
      }
    }
    return new DecodedPage(sink == null ? out.block() : null, levels.rep(), levels.def(), rows, d.layers);
  }

  /**
   * Per thread, the chunk bytes of a one-range read (a scan's batch), reused from batch to batch
   * instead of a fresh zeroed array each time. Nothing decoded from them keeps a reference (values
   * and levels are copied out), and a thread runs one read at a time. Arrays above
   * {@link #KEEP_SPAN} bytes are not kept.
   */
  private static final ThreadLocal<byte[]> SPAN = new ThreadLocal<>();

  private static final int KEEP_SPAN = 8 << 20;

  /**
   * Per thread, the array one chunk's values are decoded into before the rows taken are copied
   * to the sink: a take of one row would otherwise allocate (and zero) a whole chunk's worth.
   */
  private static final ThreadLocal<byte[]> VALUES = new ThreadLocal<>();

  private static final int KEEP_VALUES = 1 << 20;

  /** Keeps levels {@code [from, to)} of a chunk decoded into {@code target} from {@code base}. */
  private static void keep(LevelSink levels, LevelSink target, int base, int from, int to) {
    if (target == levels) {
      levels.keep(from, to);
    } else {
      levels.append(target.repArray(), target.defArray(), base + from, base + to);
    }
  }

  /**
   * The levels rows {@code [a, b)} hold: those of chunks {@code s..e} (in {@code span}, which
   * starts at byte {@code spanStart} of the chunks) less the levels of chunk s before row a and
   * of chunk e from row b on, found from those two chunks' rep levels. -1 when the chunks do
   * not add up; the read then sizes by its estimate and reports what is wrong.
   */
  private static long exactLevels(MiniBlockPageDecoder d, long a, long b, int s, int e, byte[] span, long spanStart,
      ChunkLevels first, ChunkLevels last) {
    long total = 0;
    long at = d.chunkOffset(s);
    for (int k = s; k <= e; at += d.chunkBytes(k), k++) {
      long off = at - spanStart;
      if (d.chunkBytes(k) < 2 || off < 0 || off + 2 > span.length) {
        return -1;
      }
      total += LittleEndian.getShort(span, (int) off) & 0xFFFF;
    }
    int from = first.rowStart(d, a - d.rowStarts.prefix(s));
    int lastStart = last.rowStart(d, b - d.rowStarts.prefix(e));
    if (from < 0) {
      return -1;
    }
    long lastLevels = last.header.numLevels();
    long exact = total - from - (lastStart < 0 ? 0 : lastLevels - lastStart);
    return exact >= 0 ? exact : -1;
  }

  /** One chunk's header and levels, decoded into a sink of their own. */
  private record ChunkLevels(LevelSink levels, MiniBlockPageDecoder.Header header) {
    /** Chunk {@code k} of {@code span} (which starts at byte {@code spanStart} of the chunks); null when it cannot be decoded. */
    static ChunkLevels decode(MiniBlockPageDecoder d, byte[] span, long spanStart, int k) {
      int off = (int) (d.chunkOffset(k) - spanStart);
      LevelSink t = new LevelSink(true, d.def != null, off + 2 <= span.length ? LittleEndian.getShort(span, off) & 0xFFFF : 64);
      try {
        return new ChunkLevels(t, d.header(span, off, (int) d.chunkBytes(k), d.chunkValues.get(k), k, t));
      } catch (LanceCodecException ex) {
        // the read decodes the chunk again and reports what is wrong
        return null;
      }
    }

    /** Where the {@code index}-th row start is among the levels; -2 when the chunk has fewer. */
    int rowStart(MiniBlockPageDecoder d, long index) {
      short[] r = levels.repArray();
      long left = index;
      for (int j = 0; j < header.numLevels(); j++) {
        if (r[j] == d.maxRep && left-- == 0) {
          return j;
        }
      }
      return -2;
    }
  }

  /**
   * Items to size the output for, so that a scan does not grow it by doubling: one range reads
   * at most the items of its chunks; several use the page's average items per row.
   */
  private static long expectedItems(MiniBlockPageDecoder d, long[] ranges, long rows) {
    if (ranges.length == 2 && rows > 0) {
      return d.chunkFirstRow(d.endChunk(ranges[1]) + 1) - d.chunkFirstRow(d.startChunk(ranges[0]));
    }
    return d.numRows == 0 ? rows : rows * ((d.numItems + d.numRows - 1) / d.numRows) + 1024;
  }
}
