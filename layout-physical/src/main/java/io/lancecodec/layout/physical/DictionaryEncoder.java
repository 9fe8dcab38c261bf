package io.lancecodec.layout.physical;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.Runs;
import io.lancecodec.spi.Stats;
import io.lancecodec.spi.layout.LayoutContext;
import java.util.Arrays;

/**
 * Dictionary encoding at the structural level: the distinct values of a page in order of first
 * appearance become the dictionary (page buffer 2, decoded into the search cache), and the page
 * stores their indices, which then compress like any integers. Applies to variable-width values
 * and to 64/128-bit fixed-width values (64-bit only from 2.2, as in the reference), on pages of
 * at least {@link FieldOptions#dictTooSmall} values whose distinct count stays within numValues /
 * divisor and {@link FieldOptions#dictMaxCardinality}, and only when the estimate stays below
 * dict-size-ratio of the plain size. Where the reference writes no dictionary, one is still tried
 * unless {@link FieldOptions#dictExtended} is off.
 */
public final class DictionaryEncoder {
  private DictionaryEncoder() {}

  /**
   * Indices (u32, or u64 for 64-bit offsets) and the dictionary items; {@code referencePolicy}
   * is false for the widths the reference never dictionary-encodes (8/16/32-bit values, and
   * 64-bit in 2.1), which the layout keeps only when the page comes out clearly smaller.
   */
  public record Result(DataBlock.FixedWidth indices, DataBlock items, int numItems, boolean referencePolicy) {}

  public static Result tryEncode(DataBlock values, short[] def, FieldOptions options, FileVersion version) {
    return tryEncode(values, def, options, version, null);
  }

  /**
   * With {@code ctx}, the widest value is read from the statistics the context keeps for the
   * page's values, which its compression of them then reuses (one pass over the page instead of
   * two).
   */
  public static Result tryEncode(DataBlock values, short[] def, FieldOptions options, FileVersion version, LayoutContext ctx) {
    Result r = encode(values, def, options, version, ctx);
    // (a trial of runs wrote its indices narrow already; compact then keeps them)
    return r != null && version.atLeast(FileVersion.V2_3) ? compact(r, def, options.compression().isEmpty(), ctx) : r;
  }

  /**
   * Whether {@link #tryEncode} tries an extended dictionary on these values (one the reference
   * would not write, for 16-, 32- and 64-bit values), which a layout keeps only if it beats the
   * values stored alone.
   */
  public static boolean extendedTrial(DataBlock values, FieldOptions options, FileVersion version) {
    if (!(values instanceof DataBlock.FixedWidth fw) || values.numValues() < options.dictTooSmall() || !options.dictExtended()) {
      return false;
    }
    int bits = fw.bitsPerValue();
    return (bits == 16 || bits == 32 || bits == 64) && !referencePolicy(bits, version);
  }

  private static boolean referencePolicy(int bits, FileVersion version) {
    return bits == 128 || (bits == 64 && version.atLeast(FileVersion.V2_2));
  }

  private static Result encode(DataBlock values, short[] def, FieldOptions options, FileVersion version, LayoutContext ctx) {
    long n = values.numValues();
    if (n < options.dictTooSmall()) {
      return null;
    }
    int budget = (int) Math.min(options.dictMaxCardinality(), n / options.dictDivisor());
    if (values instanceof DataBlock.VariableWidth vw) {
      return variable(vw, def, budget, options.dictSizeRatio());
    }
    if (values instanceof DataBlock.FixedWidth fw) {
      int bits = fw.bitsPerValue();
      boolean reference = referencePolicy(bits, version);
      if (reference || (options.dictExtended() && (bits == 16 || bits == 32 || bits == 64))) {
        boolean narrow = version.atLeast(FileVersion.V2_3) && options.compression().isEmpty();
        Result r = fixed(fw, def, budget, options.dictSizeRatio(), reference, narrow, ctx);
        return r == null ? null : new Result(r.indices(), r.items(), r.numItems(), reference);
      }
    }
    return null;
  }

  /**
   * 2.3's indices (the grammar is ours there, and its readers take 8- to 64-bit indices): a null
   * slot repeats the index before it (the first valid one before any), so run-length encoding
   * runs across nulls instead of breaking on the reference's 0 at every null, and, unless the
   * field asks for general compression, the indices are stored 8 or 16 bits wide when the item
   * count allows. A 99%-null delay column's indices went from runs of u32 broken twice per value
   * to one u8 run per value. Under zstd or lz4 the indices stay u32: byte-stream split then hands
   * the compressor a stream of zero bytes, which beat the narrow indices compressed (3.36 MB
   * against 2.71 MB for 3 M flight delays).
   */
  static Result compact(Result r, short[] def, boolean narrow, LayoutContext ctx) {
    DataBlock.FixedWidth idx = r.indices();
    int iw = idx.bitsPerValue() / 8;
    int ow = narrowWidth(narrow, r.numItems());
    if (iw != 4 || (ow == 4 && def == null)) {
      return r; // nothing to narrow and no null slot to fill: the indices are already these
    }
    int n = (int) idx.numValues();
    byte[] in = idx.data();
    int fill = -1;
    for (int i = 0; i < n && fill < 0; i++) {
      if (def == null || def[i] == 0) {
        fill = LittleEndian.getInt(in, i * 4);
      }
    }
    fill = Math.max(fill, 0);
    byte[] out = new byte[n * ow];
    // the statistics of the new indices are counted here, so that compressing them (the next
    // thing the page does) need not pass over them again
    int prev = fill;
    int or = 0;
    long runs = n == 0 ? 0 : 1;
    for (int i = 0; i < n; i++) {
      if (def == null || def[i] == 0) {
        fill = LittleEndian.getInt(in, i * 4);
      }
      or |= fill;
      runs += fill != prev ? 1 : 0;
      prev = fill;
      if (ow == 1) {
        out[i] = (byte) fill;
      } else if (ow == 2) {
        LittleEndian.putShort(out, i * 2, (short) fill);
      } else {
        LittleEndian.putInt(out, i * 4, fill);
      }
    }
    DataBlock.FixedWidth narrowed = new DataBlock.FixedWidth(out, ow * 8, n);
    if (ctx != null) {
      ctx.keepStats(narrowed, new Stats.FixedWidth(n, ow * 8, 32 - Integer.numberOfLeadingZeros(or), runs, narrowed.usedBytes()));
    }
    return new Result(narrowed, r.items(), r.numItems(), r.referencePolicy());
  }

  /** Open-addressing table of item ids keyed by content hash; equality is checked on the bytes. */
  /**
   * Index slots allocated before the first doubling: a page the dictionary cannot win is given up
   * after a few thousand values, and sizing the indices for the whole page (4 MB for a million
   * token ids) cost more than the scan itself.
   */
  private static final int FIRST_INDICES = 4096;

  /** The indices grown to {@code bytes} (null slots after the last valid one leave them short). */
  private static byte[] fullLength(byte[] idx, long bytes) {
    return idx.length == bytes ? idx : Arrays.copyOf(idx, (int) bytes);
  }

  private static final class Table {
    int[] slots;
    int mask;

    Table(int capacity) {
      int size = Integer.highestOneBit(Math.max(16, capacity * 2 - 1)) << 1;
      slots = new int[size];
      Arrays.fill(slots, -1);
      mask = size - 1;
    }
  }

  private static Result variable(DataBlock.VariableWidth vw, short[] def, int budget, double ratio) {
    int n = (int) vw.numValues();
    int ow = vw.bitsPerOffset() / 8;
    byte[] d = vw.data();
    double limit = ratio * ((vw.offset(n) - vw.offset(0)) + (long) (n + 1) * ow);
    Table table = new Table(budget + 1);
    int[] itemStart = new int[budget + 1];
    int[] itemEnd = new int[budget + 1];
    int items = 0;
    long itemBytes = 0;
    byte[] idx = new byte[Math.min(n, FIRST_INDICES) * ow];
    for (int i = 0; i < n; i++) {
      if (def != null && def[i] != 0) {
        continue;
      }
      if ((i + 1) * ow > idx.length) {
        idx = Arrays.copyOf(idx, (int) Math.min((long) n * ow, Math.max((i + 1L) * ow, 2L * idx.length)));
      }
      int s = (int) vw.offset(i);
      int e = (int) vw.offset(i + 1);
      int h = hash(d, s, e);
      int slot = h & table.mask;
      int id;
      while (true) {
        id = table.slots[slot];
        if (id < 0) {
          if (items == budget) {
            return null;
          }
          id = items++;
          table.slots[slot] = id;
          itemStart[id] = s;
          itemEnd[id] = e;
          itemBytes += e - s;
          if (variableEstimate(itemBytes, items, n, ow) >= limit) {
            // the estimate only grows from here: the dictionary cannot win
            return null;
          }
          break;
        }
        if (Arrays.equals(d, itemStart[id], itemEnd[id], d, s, e)) {
          break;
        }
        slot = (slot + 1) & table.mask;
      }
      LittleEndian.putUnsigned(idx, i * ow, ow, id);
    }
    if (items == 0) {
      return null;
    }
    if (variableEstimate(itemBytes, items, n, ow) >= limit) {
      return null;
    }
    byte[] offs = new byte[(items + 1) * ow];
    byte[] data = new byte[(int) itemBytes];
    int pos = 0;
    for (int k = 0; k < items; k++) {
      int len = itemEnd[k] - itemStart[k];
      System.arraycopy(d, itemStart[k], data, pos, len);
      pos += len;
      LittleEndian.putUnsigned(offs, (k + 1) * ow, ow, pos);
    }
    return new Result(
        new DataBlock.FixedWidth(fullLength(idx, (long) n * ow), ow * 8, n), new DataBlock.VariableWidth(offs, vw.bitsPerOffset(), data, items), items, true);
  }

  /**
   * {@code reference}: the reference's estimate (index bits + 7 per value); otherwise indices at their
   * bit-packed width, since the layout then compares the real pages anyway. {@code narrow}: the
   * indices will be stored as narrow as the item count allows ({@link #compact}).
   */
  private static Result fixed(DataBlock.FixedWidth fw, short[] def, int budget, double ratio, boolean reference, boolean narrow,
      LayoutContext ctx) {
    int n = (int) fw.numValues();
    int w = fw.bitsPerValue() / 8;
    byte[] d = fw.data();
    long plain = (long) n * w;
    long runCount = -1;
    int width = fw.bitsPerValue();
    if (!reference) {
      // Compare with the values bit-packed at the page's widest value (cheap to know), so pages
      // that packing shrinks about as well (token ids) are not encoded twice by the layout.
      Stats.FixedWidth stats = ctx == null ? null : (Stats.FixedWidth) ctx.stats(fw);
      width = stats == null ? packedWidth(fw) : stats.maxBitWidth();
      runCount = stats == null ? -1 : stats.runCount();
      plain = Math.min(plain, ((long) n * width + 7) / 8);
    }
    // The estimate grows with the item count, so the scan stops as soon as it can no longer win:
    // high-cardinality pages (token ids) are rejected after a few thousand values, not a page.
    budget = Math.min(budget, maxItems(n, w, ratio * plain, reference));
    if (budget <= 0) {
      return null;
    }
    if (w == 2) {
      return fixedShorts(fw, def, budget, ratio * plain, reference, ctx);
    }
    if ((w == 4 || w == 8) && def == null && runCount >= 0 && runCount <= budget) {
      return fixedRuns(fw, (int) runCount, budget, ratio * plain, reference, narrow, ctx);
    }
    if (w == 4 || w == 8) {
      return fixedWords(fw, def, budget, ratio * plain, reference, width, ctx);
    }
    Table table = new Table(budget + 1);
    int[] first = new int[budget + 1];
    int items = 0;
    byte[] idx = new byte[Math.min(n, FIRST_INDICES) * 4];
    for (int i = 0; i < n; i++) {
      if (def != null && def[i] != 0) {
        continue;
      }
      idx = roomForIndex(idx, i, n);
      int h = hash(d, i * w, i * w + w);
      int slot = h & table.mask;
      int id;
      while (true) {
        id = table.slots[slot];
        if (id < 0) {
          if (items == budget) {
            return null;
          }
          id = items++;
          table.slots[slot] = id;
          first[id] = i;
          break;
        }
        if (Arrays.equals(d, first[id] * w, first[id] * w + w, d, i * w, i * w + w)) {
          break;
        }
        slot = (slot + 1) & table.mask;
      }
      LittleEndian.putInt(idx, i * 4, id);
    }
    if (items == 0 || fixedEstimate(items, n, w, reference) >= ratio * plain) {
      return null;
    }
    byte[] data = new byte[items * w];
    for (int k = 0; k < items; k++) {
      System.arraycopy(d, first[k] * w, data, k * w, w);
    }
    return new Result(new DataBlock.FixedWidth(fullLength(idx, 4L * n), 32, n), new DataBlock.FixedWidth(data, fw.bitsPerValue(), items), items, true);
  }

  /**
   * {@link #fixed} for 2-, 4- and 8-byte values: each value is read as one word, hashed by a
   * multiply and compared with the items' words, instead of hashing and comparing byte ranges (the
   * trial took 70% of writing a column of low-cardinality timestamps, and half of writing 200,000
   * 16-bit flight distances). Items get the same ids in the same first-seen order, so the output is
   * the same. Two passes: the first only collects the items (and gives up at the budget), the
   * second, for a dictionary that is kept, writes the indices into an array of their exact size;
   * indices written while collecting grew by copies that were a sixth of writing 200,000
   * timestamps. A run repeats its id without a lookup.
   */
  private static Result fixedWords(DataBlock.FixedWidth fw, short[] def, int budget, double limit, boolean reference, int width,
      LayoutContext ctx) {
    int n = (int) fw.numValues();
    int w = fw.bitsPerValue() / 8;
    byte[] d = fw.data();
    WordIds ids = width <= BITMAP_MAX_BITS ? narrowItems(d, w, n, def, budget, width) : hashedItems(d, w, n, def, budget);
    if (ids == null || ids.items == 0 || fixedEstimate(ids.items, n, w, reference) >= limit) {
      return null;
    }
    // null slots keep index 0, as the reference writes them; the indices' runs are counted on
    // the way, for the statistics handed to the context
    byte[] idx = new byte[4 * n];
    long lastKey = 0;
    int lastId = -1;
    int prev = 0;
    long runs = n == 0 ? 0 : 1;
    for (int i = 0; i < n; i++) {
      int id = 0;
      if (def == null || def[i] == 0) {
        long key = w == 4 ? LittleEndian.getInt(d, i << 2) & 0xFFFFFFFFL : LittleEndian.getLong(d, i << 3);
        if (key != lastKey || lastId < 0) {
          lastId = ids.find(key);
          lastKey = key;
        }
        id = lastId;
        LittleEndian.putInt(idx, i * 4, id);
      }
      runs += i > 0 && id != prev ? 1 : 0;
      prev = id;
    }
    return ids.result(fw, idx, runs, ctx);
  }

  /** Values of at most this many bits are collected by {@link #narrowItems} (a bitmap of 128 KiB at most). */
  static final int BITMAP_MAX_BITS = 20;

  /**
   * {@link #fixedWords}' items in first-seen order, or null past the budget. The table grows with
   * the items (sizing it for the budget allocated and filled a megabyte per page of 1,311
   * distinct timestamps); rehashing keeps the ids.
   */
  private static WordIds hashedItems(byte[] d, int w, int n, short[] def, int budget) {
    WordIds ids = new WordIds(budget);
    long lastKey = 0;
    boolean any = false;
    for (int i = 0; i < n; i++) {
      if (def != null && def[i] != 0) {
        continue;
      }
      long key = w == 4 ? LittleEndian.getInt(d, i << 2) & 0xFFFFFFFFL : LittleEndian.getLong(d, i << 3);
      if (key == lastKey && any) {
        continue;
      }
      lastKey = key;
      any = true;
      if (ids.add(key, budget) < 0) {
        return null;
      }
    }
    return ids;
  }

  /**
   * {@link #hashedItems} for values below {@code 2^width}: a bit per possible value marks the
   * items seen, and the hash table is built once, from the items, only for a dictionary within
   * the budget. Token ids (17 bits) went over it only after 50,000 values, each a probe of a
   * table that grew by rehashing; the trial was a sixth of writing them. Same items, same order.
   */
  private static WordIds narrowItems(byte[] d, int w, int n, short[] def, int budget, int width) {
    long[] keys = narrowKeys(d, w, n, def, budget, width);
    return keys == null ? null : WordIds.of(keys, keys.length, budget);
  }

  /**
   * The distinct values of {@code w}-byte values below {@code 2^width} in first-seen order (null
   * slots skipped), or null past the budget: a bit per possible value marks those seen.
   */
  private static long[] narrowKeys(byte[] d, int w, int n, short[] def, int budget, int width) {
    long[] seen = new long[width <= 6 ? 1 : 1 << (width - 6)];
    long[] keys = new long[Math.min(budget, 64) + 1];
    int items = 0;
    for (int i = 0; i < n; i++) {
      if (def != null && def[i] != 0) {
        continue;
      }
      int key = (int) LittleEndian.getUnsigned(d, i * w, w);
      long bit = 1L << key;
      if ((seen[key >>> 6] & bit) != 0) {
        continue;
      }
      if (items == budget) {
        return null;
      }
      seen[key >>> 6] |= bit;
      if (items == keys.length) {
        keys = Arrays.copyOf(keys, (int) Math.min(budget + 1L, 2L * keys.length));
      }
      keys[items++] = key;
    }
    return Arrays.copyOf(keys, items);
  }

  /**
   * {@link #fixedWords} for a page without nulls whose runs are no more than the budget, so the
   * dictionary cannot be given up (its items are at most the runs, and the budget keeps the
   * estimate below the limit): one pass, run by run, looks each run's value up once and writes
   * its id over the run, where collecting and then writing read every value twice (the trial was
   * half of writing 200,000 sorted timestamps). Same ids in the same first-seen order.
   */
  private static Result fixedRuns(DataBlock.FixedWidth fw, int runCount, int budget, double limit, boolean reference, boolean narrow,
      LayoutContext ctx) {
    int n = (int) fw.numValues();
    int w = fw.bitsPerValue() / 8;
    byte[] d = fw.data();
    WordIds ids = new WordIds(budget);
    // each run's id and end, so that the indices are written once at their final width (2.3
    // narrows them by the item count, known only at the end; writing u32 and then narrowing cost
    // as much as the trial)
    int[] runId = new int[runCount];
    int[] runEnd = new int[runCount];
    int runs = 0;
    int i = 0;
    while (i < n) {
      long key = w == 4 ? LittleEndian.getInt(d, i << 2) & 0xFFFFFFFFL : LittleEndian.getLong(d, i << 3);
      int j = Runs.end(d, i, n, w);
      // the runs are within the budget, so every run's value finds room; adjacent runs hold
      // different values, so different ids
      runId[runs] = ids.add(key, Integer.MAX_VALUE);
      runEnd[runs++] = j;
      i = j;
    }
    if (ids.items == 0 || fixedEstimate(ids.items, n, w, reference) >= limit) {
      return null;
    }
    int ow = narrowWidth(narrow, ids.items);
    byte[] idx = new byte[n * ow];
    int from = 0;
    for (int r = 0; r < runs; r++) {
      int id = runId[r];
      int to = runEnd[r];
      if (ow == 1) {
        Arrays.fill(idx, from, to, (byte) id);
      } else if (ow == 2) {
        for (int k = from; k < to; k++) {
          LittleEndian.putShort(idx, k << 1, (short) id);
        }
      } else {
        for (int k = from; k < to; k++) {
          LittleEndian.putInt(idx, k << 2, id);
        }
      }
      from = to;
    }
    return ids.result(fw, idx, ow * 8, runs, ctx);
  }

  /** 2.3's index width for {@code items} ({@link #compact}): one or two bytes when they suffice, else four. */
  private static int narrowWidth(boolean narrow, int items) {
    return !narrow ? 4 : items <= 1 << 8 ? 1 : items <= 1 << 16 ? 2 : 4;
  }

  /**
   * Hands the context the statistics of indices just written: every id below the item count
   * occurs (null slots hold 0), so the widest is that of the last id.
   */
  private static void keepIndexStats(LayoutContext ctx, DataBlock.FixedWidth indices, int items, long runs) {
    if (ctx != null) {
      int width = 32 - Integer.numberOfLeadingZeros(items - 1);
      ctx.keepStats(indices, new Stats.FixedWidth(indices.numValues(), indices.bitsPerValue(), width, runs, indices.usedBytes()));
    }
  }

  /**
   * The items of a word-keyed trial in first-seen order, with an open-addressing table of their
   * ids that grows with them (rehashing keeps the ids).
   */
  private static final class WordIds {
    int[] slots = newSlots(64);
    long[] keys;
    int items;
    private final int budget;

    WordIds(int budget) {
      this.budget = budget;
      keys = new long[Math.min(budget, 64) + 1];
    }

    /** The table of distinct {@code keys[0, items)}, ids in that order. */
    static WordIds of(long[] keys, int items, int budget) {
      WordIds ids = new WordIds(budget);
      int size = ids.slots.length;
      while (size < 2 * items) {
        size <<= 1;
      }
      ids.keys = keys;
      ids.items = items;
      ids.slots = rehash(keys, items, size);
      return ids;
    }

    /** The id of {@code key}, added as the next item if new; -1 when it is new and {@code limit} items are held. */
    int add(long key, int limit) {
      int mask = slots.length - 1;
      int slot = slot(key, mask);
      while (true) {
        int id = slots[slot];
        if (id < 0) {
          if (items == limit) {
            return -1;
          }
          if (items == keys.length) {
            keys = Arrays.copyOf(keys, (int) Math.min(budget + 1L, 2L * keys.length));
          }
          id = items;
          keys[items] = key;
          slots[slot] = items++;
          if (2 * items > slots.length) {
            slots = rehash(keys, items, 2 * slots.length);
          }
          return id;
        }
        if (keys[id] == key) {
          return id;
        }
        slot = (slot + 1) & mask;
      }
    }

    /** The id of a key known to be an item. */
    int find(long key) {
      int mask = slots.length - 1;
      int slot = slot(key, mask);
      while (keys[slots[slot]] != key) {
        slot = (slot + 1) & mask;
      }
      return slots[slot];
    }

    /** The dictionary of these items over the 32-bit indices {@code idx} (with {@code runs} runs). */
    Result result(DataBlock.FixedWidth fw, byte[] idx, long runs, LayoutContext ctx) {
      return result(fw, idx, 32, runs, ctx);
    }

    /** {@code indexBits}: the width the indices were written at. */
    Result result(DataBlock.FixedWidth fw, byte[] idx, int indexBits, long runs, LayoutContext ctx) {
      int w = fw.bitsPerValue() / 8;
      byte[] data = new byte[items * w];
      for (int k = 0; k < items; k++) {
        LittleEndian.putUnsigned(data, k * w, w, keys[k]);
      }
      DataBlock.FixedWidth indices = new DataBlock.FixedWidth(idx, indexBits, fw.numValues());
      keepIndexStats(ctx, indices, items, runs);
      return new Result(indices, new DataBlock.FixedWidth(data, fw.bitsPerValue(), items), items, true);
    }
  }

  private static int[] newSlots(int size) {
    int[] slots = new int[size];
    Arrays.fill(slots, -1);
    return slots;
  }

  private static int[] rehash(long[] keys, int items, int size) {
    int[] slots = newSlots(size);
    int mask = size - 1;
    for (int id = 0; id < items; id++) {
      int slot = slot(keys[id], mask);
      while (slots[slot] >= 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = id;
    }
    return slots;
  }

  /**
   * {@link #fixedWords} for 16-bit values, keyed by the value itself: a bit per possible value
   * marks the items seen (8 KiB), so collecting does no hashing or probing (it was two fifths of
   * writing 200,000 flight distances, whose dictionary is given up after most of the page), and a
   * kept dictionary's ids are looked up in a table indexed by value. Same ids in the same
   * first-seen order.
   */
  private static Result fixedShorts(DataBlock.FixedWidth fw, short[] def, int budget, double limit, boolean reference, LayoutContext ctx) {
    int n = (int) fw.numValues();
    byte[] d = fw.data();
    long[] keys = narrowKeys(d, 2, n, def, budget, 16);
    int items = keys == null ? 0 : keys.length;
    if (items == 0 || fixedEstimate(items, n, 2, reference) >= limit) {
      return null;
    }
    char[] idOf = new char[1 << 16];
    for (int k = 0; k < items; k++) {
      idOf[(int) keys[k]] = (char) k;
    }
    // null slots keep index 0, as the reference writes them
    byte[] idx = new byte[4 * n];
    int prev = 0;
    long runs = n == 0 ? 0 : 1;
    for (int i = 0; i < n; i++) {
      int id = 0;
      if (def == null || def[i] == 0) {
        id = idOf[LittleEndian.getShort(d, i * 2) & 0xFFFF];
        LittleEndian.putInt(idx, i * 4, id);
      }
      runs += i > 0 && id != prev ? 1 : 0;
      prev = id;
    }
    byte[] data = new byte[items * 2];
    for (int k = 0; k < items; k++) {
      LittleEndian.putShort(data, k * 2, (short) keys[k]);
    }
    DataBlock.FixedWidth indices = new DataBlock.FixedWidth(idx, 32, n);
    keepIndexStats(ctx, indices, items, runs);
    return new Result(indices, new DataBlock.FixedWidth(data, 16, items), items, true);
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  /** {@code idx} with room for the 4-byte index of value {@code i} of {@code n}, doubling as it grows. */
  private static byte[] roomForIndex(byte[] idx, int i, int n) {
    if ((i + 1) * 4 <= idx.length) {
      return idx;
    }
    return Arrays.copyOf(idx, (int) Math.min(4L * n, Math.max(4L * (i + 1), 2L * idx.length)));
  }

  /** Bytes of a variable-width dictionary page: the items, their offsets and the indices. */
  private static long variableEstimate(long itemBytes, int items, int n, int ow) {
    return itemBytes + (long) (items + 1) * ow + (long) n * ((32 - Integer.numberOfLeadingZeros(items)) + 7) / 8;
  }

  /** Bytes of a fixed-width dictionary page of {@code items} entries: the items and the indices. */
  private static long fixedEstimate(int items, int n, int w, boolean reference) {
    int indexBits = 32 - Integer.numberOfLeadingZeros(items);
    return (long) items * w + (reference ? (long) n * (indexBits + 7) / 8 : ((long) n * indexBits + 7) / 8);
  }

  /** The most items whose estimate stays below {@code limit} (found by halving: it only grows). */
  static int maxItems(int n, int w, double limit, boolean reference) {
    int lo = 0;
    int hi = Math.max(n, 0);
    while (lo < hi) {
      int mid = (int) (((long) lo + hi + 1) >>> 1);
      if (fixedEstimate(mid, n, w, reference) < limit) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** Bits of the widest value read as unsigned (a negative value needs the full width). */
  private static int packedWidth(DataBlock.FixedWidth fw) {
    int bits = fw.bitsPerValue();
    if (bits != 16 && bits != 32 && bits != 64) {
      return bits;
    }
    byte[] d = fw.data();
    int wb = bits / 8;
    int len = (int) fw.numValues() * wb;
    // whole 8-byte words ORed, then folded down to one value's width: a quarter of the loads of
    // reading 16-bit values one by one. The top bit of a word is the top bit of a value, so once
    // it is set the width is the full one.
    long or = 0;
    int i = 0;
    for (; i + 8 <= len && or >= 0; i += 8) {
      or |= LittleEndian.getLong(d, i);
    }
    if (or < 0) {
      return bits;
    }
    if (wb == 2) {
      or |= or >>> 32;
      or = (or | or >>> 16) & 0xFFFFL;
    } else if (wb == 4) {
      or = (or | or >>> 32) & 0xFFFFFFFFL;
    }
    for (; i < len; i += wb) {
      or |= LittleEndian.getUnsigned(d, i, wb);
    }
    return 64 - Long.numberOfLeadingZeros(or);
  }

  /**
   * A hash of bytes {@code [s, e)} of {@code d} for the trial's table (its ids do not depend on
   * it). Two lanes of 16 bytes a step, whose multiplies do not wait on each other, and a tail of
   * one load: the last 8 bytes, overlapping what came before, or the few bytes of a short value
   * read as one word and masked. A chain of one multiply and rotate per 8 bytes, then a multiply
   * per tail byte, was half of the trial on 50,000 URLs.
   */
  private static int hash(byte[] d, int s, int e) {
    int len = e - s;
    long a = 0x9E3779B97F4A7C15L;
    long b = len;
    int i = s;
    for (; i + 16 <= e; i += 16) {
      a = (a + LittleEndian.getLong(d, i)) * 0xC2B2AE3D27D4EB4FL;
      b = (b + LittleEndian.getLong(d, i + 8)) * 0x165667B19E3779F9L;
    }
    if (i + 8 <= e) {
      a = (a ^ LittleEndian.getLong(d, i)) * 0x165667B19E3779F9L;
      i += 8;
    }
    long tail = 0;
    if (i < e) {
      if (len >= 8) {
        tail = LittleEndian.getLong(d, e - 8);
      } else if (d.length - s >= 8) {
        tail = LittleEndian.getLong(d, s) & ((1L << (8 * len)) - 1);
      } else {
        for (int k = e - 1; k >= s; k--) {
          tail = tail << 8 | (d[k] & 0xFF);
        }
      }
    }
    long h = a ^ Long.rotateLeft(b, 29) ^ (tail + len) * 0x9E3779B97F4A7C15L;
    h ^= h >>> 32;
    h *= 0xD6E8FEB86659FD93L;
    return (int) (h ^ h >>> 32);
  }
}
