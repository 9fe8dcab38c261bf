package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Parallelism;
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

  /** The pair counter that takes the pairs that are not counted. */
  private static final int SINK = CODES * CODES;

  /**
   * Samples of at least this many bytes are counted in two halves, the second on another core
   * when one is free: counting is three fifths of learning, and at 16 KiB a pass takes about a
   * fifth of a millisecond, enough to pay for the two threads' hand-offs.
   */
  static final int TWO_HALVES_MIN_BYTES = 4096;

  private final byte[] sample;
  private final int[] sampleOffsets;
  /** The counts of strings {@code [0, split)} and {@code [split, n)} of the sample. */
  private final Counter[] halves;
  private final int split;
  private final Candidates candidates;

  private SymbolTableBuilder(byte[] sample, int[] sampleOffsets, Scratch scratch) {
    this.sample = sample;
    this.sampleOffsets = sampleOffsets;
    this.candidates = scratch.candidates;
    int strings = Math.max(0, sampleOffsets.length - 1);
    int bytes = strings == 0 ? 0 : sampleOffsets[strings];
    if (bytes >= TWO_HALVES_MIN_BYTES) {
      int s = 0;
      while (s < strings && sampleOffsets[s] < bytes / 2) {
        s++;
      }
      this.split = s;
      this.halves = new Counter[] {scratch.first, scratch.second};
    } else {
      this.split = strings;
      this.halves = new Counter[] {scratch.first};
    }
  }

  /** The table learnt from a sample (switched on; the caller decides whether to use it). */
  static SymbolTable build(Sample s) {
    if (s.bytes.length > MAX_SAMPLE_BYTES) {
      throw new IllegalArgumentException("sample of " + s.bytes.length + " bytes");
    }
    Scratch scratch = Scratch.take();
    SymbolTable table = new SymbolTableBuilder(s.bytes, s.offsets, scratch).run();
    // only after a build that finished: one cut short may leave counters it did not track
    Scratch.give(scratch);
    return table;
  }

  /** The largest sample: a page's strings up to the target, or sampled strings up to one piece past it. */
  private static final int MAX_SAMPLE_BYTES = FsstFormat.SAMPLE_TARGET + FsstFormat.SAMPLE_LINE;

  /**
   * A build's counters and candidates, about 3.5 MB, kept for the next build: allocating and
   * zeroing them for every page was a fifth of learning its table. Spares are softly
   * referenced, so that memory pressure takes them back, and there are at most as many as
   * processors.
   */
  private static final class Scratch {
    private static final java.util.concurrent.ConcurrentLinkedDeque<java.lang.ref.SoftReference<Scratch>> SPARE =
        new java.util.concurrent.ConcurrentLinkedDeque<>();
    private static final int MAX_SPARE = Runtime.getRuntime().availableProcessors();

    /** Counts the first half (or all) of the sample; the second half's counts are added to it. */
    final Counter first = new Counter(MAX_SAMPLE_BYTES, false);
    final Counter second = new Counter(MAX_SAMPLE_BYTES, true);
    // Each sample byte after the first of a string adds at most two pairs.
    final Candidates candidates = new Candidates(CODES + 2 * MAX_SAMPLE_BYTES);

    static Scratch take() {
      for (java.lang.ref.SoftReference<Scratch> r; (r = SPARE.pollFirst()) != null; ) {
        Scratch s = r.get();
        if (s != null) {
          return s;
        }
      }
      return new Scratch();
    }

    static void give(Scratch s) {
      if (SPARE.size() < MAX_SPARE) {
        SPARE.offerFirst(new java.lang.ref.SoftReference<>(s));
      }
    }
  }

  /**
   * Symbol and pair counts of one pass over part of the sample, and what the pass needs of its
   * own: a half counted on another core reads and writes only its counter (the table's symbols
   * aside), since every cache line the two cores share in a pass costs a transfer.
   */
  private static final class Counter {
    /** The prefix table of the pass's matcher, released after each pass. */
    final int[] prefixScratch = new int[SymbolMatcher.PREFIXES];
    final int[] codeLength = new int[CODES];
    final int[] counts1 = new int[CODES];
    /**
     * Pair counts: chars suffice (a sample has fewer than 2^16 pairs) and halve the matrix. One
     * more counter, {@link #SINK}, takes the pairs that are not counted.
     */
    final char[] counts2 = new char[CODES * CODES + 1];
    /** The indices of {@link #counts2} that are non-zero, the first {@link #touchedPairs} of them. */
    final int[] pairList;
    int touchedPairs;
    /** The bytes the pass saved (escapes cost one byte each). */
    long gain;
    /**
     * The second half's pairs after a pass, index << 16 | count, in one array the first half's
     * core reads front to back instead of 511 x 511 counters scattered over the other core's
     * cache.
     */
    final long[] packed;

    Counter(int bytes, boolean packs) {
      // Each byte after the first of a string adds at most two pairs; + 2: the sink, and a
      // pass writes one slot past the pairs it keeps.
      pairList = new int[(int) Math.min(CODES * CODES, 2L * bytes) + 2];
      packed = packs ? new long[pairList.length] : null;
    }

    /** Adds the counts of {@code other} (a pass over other strings with the same table) to these. */
    void add(Counter other) {
      for (int c = 0; c < CODES; c++) {
        counts1[c] += other.counts1[c];
      }
      for (int k = 0; k < other.touchedPairs; k++) {
        long e = other.packed[k];
        int index = (int) (e >>> 16);
        int before = counts2[index];
        counts2[index] = (char) (before + (int) (e & 0xFFFF));
        pairList[touchedPairs] = index;
        touchedPairs += before == 0 ? 1 : 0;
      }
      gain += other.gain;
    }
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
    /** The length of each counter code: 1 for escaped bytes, then the symbols'. */
    final int[] codeLength = new int[CODES];
    int size;

    Table seal() {
      lengths(codeLength);
      return this;
    }

    void lengths(int[] codeLength) {
      java.util.Arrays.fill(codeLength, 0, 256, 1);
      System.arraycopy(lengths, 0, codeLength, 256, size);
    }

    long value(int code) {
      return code < 256 ? code : values[code - 256];
    }

    int length(int code) {
      return codeLength[code];
    }
  }

  private SymbolTable run() {
    try (Parallelism.Partner partner = halves.length == 2 ? Parallelism.Partner.start() : null) {
      return run(partner);
    }
  }

  private SymbolTable run(Parallelism.Partner partner) {
    Table table = new Table().seal();
    Table best = table;
    long bestGain = Long.MIN_VALUE;
    int stalled = 0;
    for (int g = 0; g < GENERATIONS; g++) {
      // the last generation keeps the strongest symbols without growing new ones
      boolean last = g == GENERATIONS - 1 || stalled >= PATIENCE;
      int fraction = g < PARTIAL.length && !last ? PARTIAL[g] : 128;
      long gain = compressCount(partner, table, !last, fraction);
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
    if (compressCount(partner, table, false, 128) >= bestGain) {
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
   * {@code pairs}) into {@link #halves}; returns the bytes saved (escapes cost one byte each).
   */
  private long compressCount(Parallelism.Partner partner, Table table, boolean pairs, int fraction) {
    Counter first = halves[0];
    if (halves.length == 1) {
      count(first, table, pairs, fraction, 0, split);
    } else {
      java.util.function.IntConsumer half =
          h -> count(halves[h], table, pairs, fraction, h == 0 ? 0 : split, h == 0 ? split : sampleOffsets.length - 1);
      if (partner != null) {
        partner.run(half);
      } else {
        half.accept(0);
        half.accept(1);
      }
      first.add(halves[1]);
    }
    return first.gain;
  }

  /** Counts strings {@code [from, to)} of the sample into {@code c}. */
  private void count(Counter c, Table table, boolean pairs, int fraction, int from, int to) {
    int[] counts1 = c.counts1;
    char[] counts2 = c.counts2;
    int[] pairList = c.pairList;
    java.util.Arrays.fill(counts1, 0);
    // Only the pairs that occurred are reset: most of the 511 x 511 matrix stays zero.
    for (int k = 0; k < c.touchedPairs; k++) {
      counts2[pairList[k]] = 0;
    }
    // The pass's state lives in locals, not in the counter's fields: the two halves' counters
    // may share a cache line, which the two cores would otherwise pass back and forth.
    int touched = 0;
    int[] codeLength = c.codeLength;
    table.lengths(codeLength);
    SymbolMatcher matcher = new SymbolMatcher(table.values, table.lengths, table.size, c.prefixScratch);
    long gain = 0;
    for (int s = from; s < to; s++) {
      int p = sampleOffsets[s];
      int end = sampleOffsets[s + 1];
      if (p == end || ((s * 0x9E3779B9) >>> 25) >= fraction) {
        continue;
      }
      // Counting takes no branch on what was matched (text makes each a coin toss): an escape
      // (code < 256) saves -1 byte and a symbol its length - 1, and a pair that does not apply
      // is counted into the sink.
      int prev = next(matcher, p, end);
      int prevLen = codeLength[prev];
      gain += prevLen - 2 + (prev >>> 8);
      p += prevLen;
      while (p < end) {
        counts1[prev]++;
        int b = sample[p] & 0xFF;
        // the byte after a multi-byte symbol is itself a candidate (single-byte growth)
        counts1[b] += prevLen == 1 ? 0 : 1;
        int cur = next(matcher, p, end);
        int curLen = codeLength[cur];
        gain += curLen - 2 + (cur >>> 8);
        if (pairs) {
          // A pair's index is written always and kept only for a first occurrence: a branch on
          // "first time?" mispredicted on about every other pair of the early generations.
          int pair = prev * CODES + cur;
          int before = counts2[pair]++;
          pairList[touched] = pair;
          touched += before == 0 ? 1 : 0;
          // extend the previous symbol by one byte only: when the current symbol is longer
          pair = curLen > 1 ? prev * CODES + b : SINK;
          before = counts2[pair]++;
          pairList[touched] = pair;
          touched += before == 0 ? 1 : 0;
        }
        p += curLen;
        prev = cur;
        prevLen = curLen;
      }
      counts1[prev]++;
    }
    c.gain = gain;
    c.touchedPairs = touched;
    matcher.release();
    if (c.packed != null) {
      for (int k = 0; k < touched; k++) {
        int index = pairList[k];
        c.packed[k] = (long) index << 16 | counts2[index];
      }
    }
  }

  private int next(SymbolMatcher matcher, int p, int end) {
    return matcher.match(SymbolMatcher.load(sample, p, end), end - p);
  }

  /** The next generation: the best candidates of the counted symbols and (if {@code grow}) pairs. */
  private Table makeTable(Table table, int minCount, boolean grow) {
    candidates.clear();
    int codes = 256 + table.size;
    Counter counts = halves[0]; // with the second half's counts added
    for (int c1 = 0; c1 < codes; c1++) {
      int n1 = counts.counts1[c1];
      if (n1 != 0 && n1 >= minCount) {
        int len1 = table.length(c1);
        candidates.add(table.value(c1), len1, (long) n1 * len1 * (len1 == 1 ? SINGLE_BYTE_BOOST : 1));
      }
    }
    if (grow) {
      for (int k = 0; k < counts.touchedPairs; k++) {
        int index = counts.pairList[k];
        if (index == SINK) {
          continue;
        }
        int n2 = counts.counts2[index];
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
    return next.seal();
  }

  /**
   * Candidate symbols with their summed gains, so that a generation allocates nothing per
   * candidate. The candidates themselves sit in insertion order in dense arrays, which the
   * selection reads front to back; the open-addressing index over them holds only entry numbers
   * tagged with hash bits, so a probe rarely leaves the index. (Keys, lengths and gains in the
   * hash slots themselves cost three cache misses per new candidate and one per candidate in the
   * selection: tables of 10,000-30,000 pairs a generation overflow the core's cache.)
   */
  private static final class Candidates {
    private static final int ENTRY_BITS = 20;
    private static final int ENTRY_MASK = (1 << ENTRY_BITS) - 1;
    /** Per slot: 0 when free, else (entry + 1) | hash tag << ENTRY_BITS. */
    private final int[] index;
    private final int[] slotOf;
    private final long[] keys;
    private final int[] lens;
    private final long[] gains;
    private final int[] histogram = new int[1024];
    /** Sort keys of {@link #best}. */
    private final long[] order;
    /** Above any gain: a sample of 16 KiB sums to gains of a few million at most. */
    private static final long MAX_GAIN = (1L << 39) - 1;
    private int size;
    private final int mask;

    Candidates(int maxEntries) {
      if (maxEntries >= ENTRY_MASK) {
        throw new IllegalArgumentException("too many candidates: " + maxEntries);
      }
      int cap = Integer.highestOneBit(Math.max(16, maxEntries) * 2 - 1) * 2;
      index = new int[cap];
      slotOf = new int[maxEntries];
      keys = new long[maxEntries];
      lens = new int[maxEntries];
      gains = new long[maxEntries];
      order = new long[maxEntries];
      mask = cap - 1;
    }

    void clear() {
      for (int k = 0; k < size; k++) {
        index[slotOf[k]] = 0;
      }
      size = 0;
    }

    void add(long value, int len, long gain) {
      long h = (value ^ len) * 0x9E3779B97F4A7C15L;
      int slot = (int) (h >>> 40) & mask;
      int tag = ((int) (h >>> 28) & (1 << (32 - ENTRY_BITS)) - 1) << ENTRY_BITS; // bits apart from the slot's
      int e;
      while ((e = index[slot]) != 0) {
        if ((e & ~ENTRY_MASK) == tag) {
          int at = (e & ENTRY_MASK) - 1;
          if (lens[at] == len && keys[at] == value) {
            gains[at] += gain;
            return;
          }
        }
        slot = (slot + 1) & mask;
      }
      index[slot] = tag | (size + 1);
      slotOf[size] = slot;
      keys[size] = value;
      lens[size] = len;
      gains[size] = gain;
      size++;
    }

    /**
     * Copies the {@code k} best candidates, best first, into {@code values}/{@code lengths} and
     * returns how many there were: highest gain first; ties go to the longer symbol, then the
     * smaller value, so the result does not depend on the table's layout.
     */
    int best(int k, long[] values, int[] lengths) {
      // Only the candidates whose gain reaches the k-th highest (rounded down to a histogram
      // bucket) are ordered: the k best and the ties at the floor, not the thousands of pairs
      // below it. Each gets one sort key, gain then length descending, so that a primitive sort
      // does the work; runs of equal gain and length are then put in value order.
      long floor = floor(k);
      long[] order = this.order;
      int m = 0;
      for (int e = 0; e < size; e++) {
        if (gains[e] >= floor) {
          order[m++] = (MAX_GAIN - gains[e]) << 24 | (long) (8 - lens[e]) << ENTRY_BITS | e;
        }
      }
      java.util.Arrays.sort(order, 0, m);
      for (int run = 0; run < m; ) {
        int end = run + 1;
        while (end < m && order[end] >>> ENTRY_BITS == order[run] >>> ENTRY_BITS) {
          end++;
        }
        for (int i = run + 1; i < end; i++) {
          long o = order[i];
          long key = keys[(int) o & ENTRY_MASK];
          int j = i - 1;
          for (; j >= run && Long.compareUnsigned(keys[(int) order[j] & ENTRY_MASK], key) > 0; j--) {
            order[j + 1] = order[j];
          }
          order[j + 1] = o;
        }
        run = end;
      }
      int n = Math.min(k, m);
      for (int i = 0; i < n; i++) {
        int e = (int) order[i] & ENTRY_MASK;
        values[i] = keys[e];
        lengths[i] = lens[e];
      }
      return n;
    }

    /**
     * A gain that at least {@code k} candidates reach (0 when there are fewer): the k-th highest
     * gain, or less when it exceeds the histogram's last bucket.
     */
    private long floor(int k) {
      if (size <= k) {
        return Long.MIN_VALUE;
      }
      int[] histogram = this.histogram;
      java.util.Arrays.fill(histogram, 0);
      int top = histogram.length - 1;
      for (int e = 0; e < size; e++) {
        histogram[(int) Math.max(0, Math.min(top, gains[e]))]++;
      }
      int reached = 0;
      for (int g = top; g > 0; g--) {
        reached += histogram[g];
        if (reached >= k) {
          return g;
        }
      }
      return Long.MIN_VALUE;
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
