package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Learns a symbol table from a sample of a page, following the paper's iterative algorithm:
 * compress the sample with the current table while counting how often each symbol and each pair
 * of adjacent symbols occurs, then keep the 255 candidates (symbols, single bytes and
 * concatenated pairs, at most 8 bytes) with the highest gain = count x length, and repeat for a
 * fixed number of generations; the table that saved the most sample bytes wins. Sampling uses a
 * fixed seed, so the same page always gives the same table.
 */
final class SymbolTableBuilder {
  /**
   * Generations of the table. The paper's 5 are too few here: each generation at most doubles a
   * symbol's length and replaces only the weakest candidates, so on mail-like text the sample
   * gain was still rising by 1-2% a generation at the fifth; 21 gave files about 10% smaller
   * (the reference's 6 generations land between). A generation costs one pass over the ~16 KiB
   * sample plus work proportional to the distinct pairs seen, not to the 511 x 511 pair matrix.
   */
  private static final int GENERATIONS = 21;

  /**
   * Generations without a better table, by at least 1/{@link #GAIN_STEP} of the best gain, after
   * which the table is finished early. On mail subjects the sample gain was within 0.5% of its
   * final value by the eighth generation and then moved by tenths of a percent up and down;
   * learning the table was two thirds of writing the column.
   */
  private static final int PATIENCE = 4;

  private static final int GAIN_STEP = 256;

  /**
   * The first generations count over part of the sample, these 128ths of its strings (chosen by
   * a hash of the string's index), as the paper's implementation does: their tables are rough
   * anyway and only seed the next. Learning a table was four fifths of writing mail subjects;
   * this made it about 15% cheaper there, and the corpus's string files moved by -1.0% to +0.6%
   * (mail received -1.0%, message ids +0.6%, subjects +0.2%). Their gains, over fewer strings,
   * are neither the best table nor a stall.
   */
  private static final int[] PARTIAL = {8, 38, 68, 98};

  /** Counter codes: 0..255 are escaped bytes, 256 + i is symbol i of the current table. */
  private static final int CODES = 256 + FsstFormat.MAX_SYMBOLS;

  /**
   * Single bytes get their count multiplied by 8 when ranked: a symbol for a frequent byte
   * spares the 2-byte escape, and fewer escapes also make decoding faster (a heuristic of the
   * paper's implementation).
   */
  private static final int SINGLE_BYTE_BOOST = 8;

  private final byte[] sample;
  private final int[] sampleOffsets;
  private final int[] counts1 = new int[CODES];
  /** Pair counts: chars suffice (a sample has fewer than 2^16 pairs) and halve the matrix every page allocates. */
  private final char[] counts2 = new char[CODES * CODES];
  /** The indices of {@link #counts2} that are non-zero, the first {@link #touchedPairs} of them. */
  private final int[] pairList;
  private int touchedPairs;
  private final Candidates candidates;
  /** The prefix table of the generation's matcher, one per page: each table releases it for the next. */
  private final int[] prefixScratch = new int[SymbolMatcher.PREFIXES];

  private SymbolTableBuilder(byte[] sample, int[] sampleOffsets) {
    this.sample = sample;
    this.sampleOffsets = sampleOffsets;
    // Each sample byte after the first of a string adds at most two pairs.
    int maxPairs = (int) Math.min(CODES * CODES, 2L * sample.length);
    this.pairList = new int[maxPairs + 1]; // + 1: countPair writes one slot past the pairs it keeps
    this.candidates = new Candidates(CODES + maxPairs);
  }

  /** The table learnt from a sample (switched on; the caller decides whether to use it). */
  static SymbolTable build(Sample s) {
    return new SymbolTableBuilder(s.bytes, s.offsets).run();
  }

  /** Sample strings {@code bytes[offsets[i], offsets[i + 1])}. */
  record Sample(byte[] bytes, int[] offsets) {
    /** The sampled bytes (the strings', without the slack). */
    int size() {
      return offsets.length == 0 ? 0 : offsets[offsets.length - 1];
    }
  }

  /**
   * About {@link FsstFormat#SAMPLE_TARGET} bytes of the block: all of it when small, else values
   * drawn at random (fixed seed), long values contributing one 512-byte piece each.
   */
  static Sample sample(DataBlock.VariableWidth block) {
    int n = (int) block.numValues();
    long base = block.offset(0);
    long total = n == 0 ? 0 : block.offset(n) - base;
    byte[] data = block.data();
    if (total <= FsstFormat.SAMPLE_TARGET) {
      int[] offs = new int[n + 1];
      for (int i = 0; i <= n; i++) {
        offs[i] = (int) (block.offset(i) - base);
      }
      return new Sample(java.util.Arrays.copyOfRange(data, (int) base, (int) (base + total)), offs);
    }
    SplittableRandom rnd = new SplittableRandom(FsstFormat.SAMPLE_SEED);
    byte[] bytes = new byte[FsstFormat.SAMPLE_TARGET + FsstFormat.SAMPLE_LINE];
    List<Integer> offs = new ArrayList<>();
    offs.add(0);
    int size = 0;
    // Bounded: a page of mostly empty values must not spin; a short sample is still valid.
    for (long tries = 0; size < FsstFormat.SAMPLE_TARGET && tries < 4L * n + 10_000; tries++) {
      int i = rnd.nextInt(n);
      long start = block.offset(i);
      long len = block.offset(i + 1) - start;
      if (len == 0) {
        continue;
      }
      if (len > FsstFormat.SAMPLE_LINE) {
        long pieces = (len + FsstFormat.SAMPLE_LINE - 1) / FsstFormat.SAMPLE_LINE;
        start += (long) rnd.nextInt((int) Math.min(Integer.MAX_VALUE, pieces)) * FsstFormat.SAMPLE_LINE;
        len = Math.min(FsstFormat.SAMPLE_LINE, block.offset(i + 1) - start);
      }
      System.arraycopy(data, (int) start, bytes, size, (int) len);
      size += (int) len;
      offs.add(size);
    }
    int[] o = new int[offs.size()];
    for (int k = 0; k < o.length; k++) {
      o[k] = offs.get(k);
    }
    return new Sample(java.util.Arrays.copyOf(bytes, size), o);
  }

  /** The working table: symbols in selection order (highest gain first). */
  private static final class Table {
    final long[] values = new long[FsstFormat.MAX_SYMBOLS];
    final int[] lengths = new int[FsstFormat.MAX_SYMBOLS];
    int size;
    SymbolMatcher matcher;

    void seal(int[] prefixScratch) {
      matcher = new SymbolMatcher(values, lengths, size, prefixScratch);
    }

    long value(int code) {
      return code < 256 ? code : values[code - 256];
    }

    int length(int code) {
      return code < 256 ? 1 : lengths[code - 256];
    }
  }

  private SymbolTable run() {
    Table table = new Table();
    table.seal(prefixScratch);
    Table best = table;
    long bestGain = Long.MIN_VALUE;
    int stalled = 0;
    for (int g = 0; g < GENERATIONS; g++) {
      // the last generation keeps the strongest symbols without growing new ones
      boolean last = g == GENERATIONS - 1 || stalled >= PATIENCE;
      int fraction = g < PARTIAL.length && !last ? PARTIAL[g] : 128;
      long gain = compressCount(table, !last, fraction);
      if (fraction == 128) {
        stalled = bestGain > 0 && gain - bestGain < bestGain / GAIN_STEP ? stalled + 1 : 0;
        if (gain >= bestGain) {
          bestGain = gain;
          best = table;
        }
      }
      table = makeTable(table, minCount(last ? GENERATIONS - 1 : g), !last);
      if (last) {
        break;
      }
    }
    if (compressCount(table, false, 128) >= bestGain) {
      best = table;
    }
    return finish(best);
  }

  /**
   * The count a candidate needs in generation {@code g}: 0 at first, rising to 5, so that early
   * generations may try anything and the later ones drop what occurs too rarely to pay off.
   */
  private static int minCount(int g) {
    return 5 * (8 + 120 * g / (GENERATIONS - 1)) / 128;
  }

  /**
   * Greedily compresses the sample with {@code table}, counting symbols (and adjacent pairs when
   * {@code pairs}); returns the bytes saved (escapes cost one byte each).
   */
  private long compressCount(Table table, boolean pairs, int fraction) {
    java.util.Arrays.fill(counts1, 0);
    // Only the pairs that occurred are reset: most of the 511 x 511 matrix stays zero.
    for (int k = 0; k < touchedPairs; k++) {
      counts2[pairList[k]] = 0;
    }
    touchedPairs = 0;
    long gain = 0;
    for (int s = 0; s + 1 < sampleOffsets.length; s++) {
      int p = sampleOffsets[s];
      int end = sampleOffsets[s + 1];
      if (p == end || ((s * 0x9E3779B9) >>> 25) >= fraction) {
        continue;
      }
      int prev = next(table, p, end);
      int prevLen = table.length(prev);
      gain += prev < 256 ? -1 : prevLen - 1;
      p += prevLen;
      while (p < end) {
        counts1[prev]++;
        int b = sample[p] & 0xFF;
        if (prevLen != 1) {
          // the byte after a multi-byte symbol is itself a candidate (single-byte growth)
          counts1[b]++;
        }
        int cur = next(table, p, end);
        int curLen = table.length(cur);
        gain += cur < 256 ? -1 : curLen - 1;
        if (pairs) {
          countPair(prev * CODES + cur);
          if (curLen > 1) {
            // extend the previous symbol by one byte only
            countPair(prev * CODES + b);
          }
        }
        p += curLen;
        prev = cur;
        prevLen = curLen;
      }
      counts1[prev]++;
    }
    return gain;
  }

  private void countPair(int index) {
    // the index is written always and kept only for a first occurrence: a branch on "first
    // time?" mispredicted on about every other pair of the early generations
    int before = counts2[index]++;
    pairList[touchedPairs] = index;
    touchedPairs += before == 0 ? 1 : 0;
  }

  private int next(Table table, int p, int end) {
    int i = table.matcher.match(SymbolMatcher.load(sample, p, end), end - p);
    return i >= 0 ? 256 + i : sample[p] & 0xFF;
  }

  /** The next generation: the best candidates of the counted symbols and (if {@code grow}) pairs. */
  private Table makeTable(Table table, int minCount, boolean grow) {
    candidates.clear();
    int codes = 256 + table.size;
    for (int c1 = 0; c1 < codes; c1++) {
      int n1 = counts1[c1];
      if (n1 != 0 && n1 >= minCount) {
        int len1 = table.length(c1);
        candidates.add(table.value(c1), len1, (long) n1 * len1 * (len1 == 1 ? SINGLE_BYTE_BOOST : 1));
      }
    }
    if (grow) {
      for (int k = 0; k < touchedPairs; k++) {
        int index = pairList[k];
        int n2 = counts2[index];
        int c1 = index / CODES;
        int len1 = table.length(c1);
        if (n2 < minCount || len1 == FsstFormat.MAX_SYMBOL_LENGTH) {
          continue;
        }
        int c2 = index - c1 * CODES;
        int len = Math.min(FsstFormat.MAX_SYMBOL_LENGTH, len1 + table.length(c2));
        long v = (table.value(c1) | (table.value(c2) << (8 * len1))) & SymbolMatcher.MASK[len];
        candidates.add(v, len, (long) n2 * len);
      }
    }
    Table next = new Table();
    next.size = candidates.best(FsstFormat.MAX_SYMBOLS, next.values, next.lengths);
    // the old table is only read for its symbols from here on (the best one by finish)
    table.matcher.release();
    next.seal(prefixScratch);
    return next;
  }

  /**
   * Candidate symbols with their summed gains, keyed by (bytes, length) in an open-addressing
   * table, so that a generation allocates nothing per candidate.
   */
  private static final class Candidates {
    private final long[] keys;
    private final int[] lens;
    private final long[] gains;
    private final int[] used;
    private int size;
    private final int mask;

    Candidates(int maxEntries) {
      int cap = Integer.highestOneBit(Math.max(16, maxEntries) * 2 - 1) * 2;
      keys = new long[cap];
      lens = new int[cap];
      gains = new long[cap];
      used = new int[maxEntries];
      mask = cap - 1;
    }

    void clear() {
      for (int k = 0; k < size; k++) {
        lens[used[k]] = 0;
      }
      size = 0;
    }

    void add(long value, int len, long gain) {
      long h = (value ^ len) * 0x9E3779B97F4A7C15L;
      int slot = (int) (h >>> 40) & mask;
      while (lens[slot] != 0) {
        if (lens[slot] == len && keys[slot] == value) {
          gains[slot] += gain;
          return;
        }
        slot = (slot + 1) & mask;
      }
      keys[slot] = value;
      lens[slot] = len;
      gains[slot] = gain;
      used[size++] = slot;
    }

    /**
     * Copies the {@code k} best candidates, best first, into {@code values}/{@code lengths} and
     * returns how many there were: highest gain first; ties go to the longer symbol, then the
     * smaller value, so the result does not depend on the table's layout.
     */
    int best(int k, long[] values, int[] lengths) {
      // Selection by a binary min-heap of slots over the whole candidate list.
      int[] heap = new int[k];
      int n = 0;
      for (int u = 0; u < size; u++) {
        int slot = used[u];
        if (n < k) {
          heap[n] = slot;
          siftUp(heap, n++);
        } else if (better(slot, heap[0])) {
          heap[0] = slot;
          siftDown(heap, n);
        }
      }
      for (int i = n - 1; i >= 0; i--) {
        // Pop the worst into the last free place: the array ends up best first.
        int worst = heap[0];
        heap[0] = heap[i];
        siftDown(heap, i);
        values[i] = keys[worst];
        lengths[i] = lens[worst];
      }
      return n;
    }

    private boolean better(int a, int b) {
      if (gains[a] != gains[b]) {
        return gains[a] > gains[b];
      }
      if (lens[a] != lens[b]) {
        return lens[a] > lens[b];
      }
      return Long.compareUnsigned(keys[a], keys[b]) < 0;
    }

    private void siftUp(int[] heap, int i) {
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (!better(heap[parent], heap[i])) {
          break;
        }
        int t = heap[parent];
        heap[parent] = heap[i];
        heap[i] = t;
        i = parent;
      }
    }

    private void siftDown(int[] heap, int n) {
      int i = 0;
      while (true) {
        int c = 2 * i + 1;
        if (c >= n) {
          break;
        }
        if (c + 1 < n && better(heap[c], heap[c + 1])) {
          c++;
        }
        if (!better(heap[i], heap[c])) {
          break;
        }
        int t = heap[c];
        heap[c] = heap[i];
        heap[i] = t;
        i = c;
      }
    }
  }

  /**
   * Assigns final codes the way the reference orders its tables: 2-byte symbols first (those
   * that begin a longer symbol lowest, counted by the suffix limit; the others from the top of
   * the 2-byte range down), then lengths 3 to 8, single bytes last; within a length, symbols
   * keep their selection order.
   */
  private SymbolTable finish(Table t) {
    int[] byLength = new int[FsstFormat.MAX_SYMBOL_LENGTH + 1];
    for (int i = 0; i < t.size; i++) {
      byLength[t.lengths[i]]++;
    }
    int[] next = new int[FsstFormat.MAX_SYMBOL_LENGTH + 1];
    int at = 0;
    for (int len = 2; len <= FsstFormat.MAX_SYMBOL_LENGTH; len++) {
      next[len] = at;
      at += byLength[len];
    }
    next[1] = at;
    int suffixLimit = 0;
    int twoByteTop = byLength[2];
    long[] values = new long[t.size];
    int[] lengths = new int[t.size];
    for (int i = 0; i < t.size; i++) {
      int len = t.lengths[i];
      int code;
      if (len == 2) {
        code = hasLongerExtension(t, i) ? suffixLimit++ : --twoByteTop;
      } else {
        code = next[len]++;
      }
      values[code] = t.values[i];
      lengths[code] = len;
    }
    return new SymbolTable(true, leastFrequentByte(), suffixLimit, values, lengths);
  }

  private static boolean hasLongerExtension(Table t, int i) {
    long prefix = t.values[i] & 0xFFFF;
    for (int k = 0; k < t.size; k++) {
      if (k != i && t.lengths[k] > 2 && (t.values[k] & 0xFFFF) == prefix) {
        return true;
      }
    }
    return false;
  }

  /** Recorded in the header like the reference's terminator; decoders ignore it. */
  private int leastFrequentByte() {
    int[] histogram = new int[256];
    for (byte b : sample) {
      histogram[b & 0xFF]++;
    }
    int best = 0;
    for (int b = 1; b < 256; b++) {
      if (histogram[b] < histogram[best]) {
        best = b;
      }
    }
    return best;
  }
}
