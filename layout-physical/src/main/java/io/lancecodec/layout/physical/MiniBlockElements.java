package io.lancecodec.layout.physical;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.LevelLayer;
import java.util.List;

/**
 * {@code rows[i][from..to)} on a mini-block page with a depth-2 repetition index. An element
 * (an item of the row's outer list) starts at a level whose rep is at least {@code maxRep - 1}.
 * The index's middle word counts those starts in the part of each chunk that belongs to the
 * chunk's trailing row, so summing it over the chunks a long row spans (all in the search
 * cache) names the chunk where element {@code from} starts and the one where element {@code to}
 * starts; only the chunks in between are read, in one request.
 */
final class MiniBlockElements {
  private MiniBlockElements() {}

  static DecodedPage read(MiniBlockPageDecoder d, PackedCounts words, long row, long from, long to) {
    int maxRep = d.maxRep;
    int s0 = d.startChunk(row);
    int e0 = d.endChunk(row + 1);
    // p = element starts of the row in chunks [s0, k); chunk e0 holds the row's end, and its
    // word describes the next row, so the search stops there
    int kFrom = s0;
    long pFrom = 0;
    int kTo = s0;
    long pTo = 0;
    long p = 0;
    for (int k = s0; k <= e0 && p <= to; k++) {
      if (p <= from) {
        kFrom = k;
        pFrom = p;
      }
      kTo = k;
      pTo = p;
      if (k < e0) {
        p += words.get(k) >>> 1;
      }
    }
    // Element `to` opening chunk kTo (inside the row, not inside an inner list: low bit 0) means
    // element to - 1 ended with the chunk before, which is then the last one needed.
    int kEnd = kTo > s0 && kTo < e0 && pTo == to && (words.get(kTo) & 1) == 0 ? kTo - 1 : kTo;

    long spanStart = d.chunkOffset(kFrom);
    byte[] span = d.source.read(1, spanStart, LanceCodecException.checkedInt(d.chunkOffset(kEnd + 1) - spanStart, "chunk span"));
    DictionaryLookup dict = d.hasDictionary ? d.dictionary() : null;
    BlockAppender out = new BlockAppender(to - from);
    LevelSink levels = new LevelSink(true, d.layers != null && Levels.maxDef(d.layers) > 0);
    int emptyRowDef = emptyRowDef(d.layers);
    long skip = from - pFrom; // element starts to pass before element `from`
    long taken = 0;
    boolean started = false;
    boolean done = false;
    boolean rowEnded = false;
    for (int k = kFrom; k <= kEnd && !done && !rowEnded; k++) {
      int off = (int) (d.chunkOffset(k) - spanStart);
      MiniBlockPageDecoder.Chunk c = d.decode(span, off, (int) (d.chunkOffset(k + 1) - spanStart) - off, d.chunkValues.get(k), k, dict);
      short[] rep = c.rep();
      short[] def = c.def();
      int n = rep.length;
      int j = 0;
      int rowStart = -1;
      if (k == s0) {
        long toSkip = row - d.rowStarts.prefix(s0);
        for (; j < n; j++) {
          if (rep[j] == maxRep && toSkip-- == 0) {
            break;
          }
        }
        if (j == n) {
          throw LanceCodecException.corrupt("mini-block chunk " + k + ": row " + row + " does not start where the repetition index says");
        }
        rowStart = j;
        if (def != null && (def[j] & 0xFFFF) >= emptyRowDef) {
          throw LanceCodecException.invalidArgument("row " + row + " is null or empty (0 elements), asked for [" + from + ", " + to + ")");
        }
      } else if (n > 0 && rep[0] == maxRep) {
        throw LanceCodecException.corrupt("mini-block chunk " + k + " starts a row, but the repetition index says row " + row + " continues in it");
      }
      if (k < e0) {
        checkWord(rep, rowStart < 0 ? 0 : rowStart, k > s0, maxRep, words.get(k), k);
      }
      int cut = started ? j : -1;
      for (; j < n; j++) {
        int r = rep[j];
        if (r == maxRep && j != rowStart) {
          rowEnded = true;
          break;
        }
        if (r >= maxRep - 1) {
          if (started) {
            if (taken == to - from) {
              done = true;
              break;
            }
            taken++;
          } else if (skip == 0) {
            started = true;
            cut = j;
            taken = 1;
          } else {
            skip--;
          }
        }
      }
      if (started) {
        int v0 = Levels.visible(def, 0, cut, d.maxVisible);
        int v1 = v0 + Levels.visible(def, cut, j, d.maxVisible);
        out.append(c.values(), v0, v1, null);
        levels.append(rep, def, cut, j);
      }
      rowEnded |= k == e0 && j == n;
    }
    if (!started || taken < to - from) {
      long count = started ? from + taken : from - skip;
      if (rowEnded) {
        throw LanceCodecException.invalidArgument("row " + row + " has " + count + " elements, asked for [" + from + ", " + to + ")");
      }
      throw LanceCodecException.corrupt("mini-block: the depth-2 repetition index places elements [" + from + ", " + to + ") of row " + row
          + " in chunks " + kFrom + ".." + kEnd + ", which hold " + count);
    }
    short[] rep = levels.rep();
    rep[0] = (short) maxRep; // the cut starts a (one-row) page
    return new DecodedPage(out.block(), rep, levels.def(), 1, d.layers);
  }

  /**
   * The chunks read are checked against their words (a chunk inside the row holds only its
   * levels), so a wrong word there fails instead of shifting the elements returned; a wrong word
   * of a chunk not read cannot be seen, as with any index.
   */
  private static void checkWord(short[] rep, int from, boolean continues, int maxRep, long word, int k) {
    long starts = 0;
    for (int t = from; t < rep.length; t++) {
      starts += rep[t] >= maxRep - 1 ? 1 : 0;
    }
    long inside = continues && rep.length > 0 && rep[0] < maxRep - 1 ? 1 : 0;
    if (word != 2 * starts + inside) {
      throw LanceCodecException.corrupt("mini-block chunk " + k + ": repetition index word " + word + ", but its levels give " + (2 * starts + inside));
    }
  }

  /**
   * The lowest def level meaning the row's outer list (or something above it) is null or
   * empty, so the row has no elements; above any level when the outer list has neither.
   */
  private static int emptyRowDef(List<LevelLayer> layers) {
    int base = 1;
    int outer = -1;
    int outerBase = 0;
    for (int i = 0; i < layers.size(); i++) {
      if (layers.get(i).isList()) {
        outer = i;
        outerBase = base;
      }
      base += layers.get(i).defLevels();
    }
    return outer >= 0 && base > outerBase ? outerBase : Integer.MAX_VALUE;
  }
}
