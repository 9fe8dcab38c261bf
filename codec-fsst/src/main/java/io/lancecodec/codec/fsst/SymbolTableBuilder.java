package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Learns a symbol table from a sample of a page, following the paper's iterative algorithm:
 * compress the sample with the current table while counting how often each symbol and each pair
 * of adjacent symbols occurs, then keep the 255 candidates (symbols, single bytes and
 * concatenated pairs, at most 8 bytes) with the highest gain = count x length, and repeat for 5
 * generations; the table that saved the most sample bytes wins. Sampling uses a fixed seed, so
 * the same page always gives the same table.
 */
final class SymbolTableBuilder {
  /** The sample fraction (out of 128) of each generation; it sets the minimum candidate count. */
  private static final int[] GENERATIONS = {8, 38, 68, 98, 128};

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
  private final int[] counts2 = new int[CODES * CODES];

  private SymbolTableBuilder(byte[] sample, int[] sampleOffsets) {
    this.sample = sample;
    this.sampleOffsets = sampleOffsets;
  }

  /** The table learnt from a sample (switched on; the caller decides whether to use it). */
  static SymbolTable build(Sample s) {
    return new SymbolTableBuilder(s.bytes, s.offsets).run();
  }

  record Sample(byte[] bytes, int[] offsets) {}

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

    void seal() {
      matcher = new SymbolMatcher(values, lengths, size);
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
    table.seal();
    Table best = table;
    long bestGain = Long.MIN_VALUE;
    for (int frac : GENERATIONS) {
      long gain = compressCount(table, frac < 128);
      if (gain >= bestGain) {
        bestGain = gain;
        best = table;
      }
      table = makeTable(table, frac);
    }
    if (compressCount(table, false) >= bestGain) {
      best = table;
    }
    return finish(best);
  }

  /**
   * Greedily compresses the sample with {@code table}, counting symbols (and adjacent pairs when
   * {@code pairs}); returns the bytes saved (escapes cost one byte each).
   */
  private long compressCount(Table table, boolean pairs) {
    java.util.Arrays.fill(counts1, 0);
    if (pairs) {
      java.util.Arrays.fill(counts2, 0);
    }
    long gain = 0;
    for (int s = 0; s + 1 < sampleOffsets.length; s++) {
      int p = sampleOffsets[s];
      int end = sampleOffsets[s + 1];
      if (p == end) {
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
          counts2[prev * CODES + cur]++;
          if (curLen > 1) {
            // extend the previous symbol by one byte only
            counts2[prev * CODES + b]++;
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

  private int next(Table table, int p, int end) {
    int i = table.matcher.match(SymbolMatcher.load(sample, p, end), end - p);
    return i >= 0 ? 256 + i : sample[p] & 0xFF;
  }

  /** The next generation: the best candidates of the counted symbols and pairs. */
  private Table makeTable(Table table, int frac) {
    int minCount = 5 * frac / 128;
    List<Map<Long, Long>> candidates = new ArrayList<>();
    for (int len = 0; len <= FsstFormat.MAX_SYMBOL_LENGTH; len++) {
      candidates.add(new HashMap<>());
    }
    int codes = 256 + table.size;
    for (int c1 = 0; c1 < codes; c1++) {
      int n1 = counts1[c1];
      if (n1 == 0) {
        continue;
      }
      int len1 = table.length(c1);
      long v1 = table.value(c1);
      if (n1 >= minCount) {
        candidates.get(len1).merge(v1, (long) n1 * len1 * (len1 == 1 ? SINGLE_BYTE_BOOST : 1), Long::sum);
      }
      if (frac >= 128 || len1 == FsstFormat.MAX_SYMBOL_LENGTH) {
        continue;
      }
      for (int c2 = 0; c2 < codes; c2++) {
        int n2 = counts2[c1 * CODES + c2];
        if (n2 == 0 || n2 < minCount) {
          continue;
        }
        int len = Math.min(FsstFormat.MAX_SYMBOL_LENGTH, len1 + table.length(c2));
        long v = (v1 | (table.value(c2) << (8 * len1))) & SymbolMatcher.MASK[len];
        candidates.get(len).merge(v, (long) n2 * len, Long::sum);
      }
    }
    List<long[]> ranked = new ArrayList<>();
    for (int len = 1; len <= FsstFormat.MAX_SYMBOL_LENGTH; len++) {
      for (Map.Entry<Long, Long> e : candidates.get(len).entrySet()) {
        ranked.add(new long[] {e.getValue(), len, e.getKey()});
      }
    }
    // Highest gain first; ties go to the longer symbol, then the smaller value (deterministic).
    ranked.sort(
        (a, b) -> a[0] != b[0] ? Long.compare(b[0], a[0]) : a[1] != b[1] ? Long.compare(b[1], a[1]) : Long.compareUnsigned(a[2], b[2]));
    Table next = new Table();
    for (long[] r : ranked) {
      if (next.size == FsstFormat.MAX_SYMBOLS) {
        break;
      }
      next.values[next.size] = r[2];
      next.lengths[next.size] = (int) r[1];
      next.size++;
    }
    next.seal();
    return next;
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
