package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.Parallelism;
import java.util.Arrays;

/**
 * Compresses strings with a finished table: at each position the longest matching symbol is
 * replaced by its code, a byte no symbol covers by the escape code followed by the byte. Each
 * string is compressed on its own, so compressed offsets line up with the original values.
 */
final class FsstEncoder {
  /**
   * Buckets of the symbols of 3+ bytes, by a hash of their first three bytes: 2^12 for at most
   * 255 symbols, so most input positions find theirs empty.
   */
  private static final int BUCKET_BITS = 12;

  private final SymbolTable table;
  /**
   * Per 2-byte input prefix (first byte low) the longest symbol of at most 2 bytes it starts
   * with, or an escape of its first byte, as a step: code | input bytes << 8 | output bytes << 12.
   * Chars, not ints: the table is looked up at random for every output code, and at 128 KiB it
   * stays in the second-level cache.
   */
  private final char[] shortStep = new char[1 << 16];
  /** The same for an input of one byte (the last of a string). */
  private final int[] byteStep = new int[256];
  /** Per bucket: (first slot << 8) | symbol count; slots hold the bucket's symbols longest first. */
  private final int[] buckets = new int[1 << BUCKET_BITS];
  private final long[] longValue;
  private final long[] longMask;
  private final int[] longStep;

  FsstEncoder(SymbolTable table) {
    this.table = table;
    int n = table.size();
    for (int b = 0; b < 256; b++) {
      byteStep[b] = FsstFormat.ESCAPE | 1 << 8 | 2 << 12;
    }
    // the lowest code wins among equal symbols, as the learner's matcher decides
    for (int i = n - 1; i >= 0; i--) {
      if (table.length(i) == 1) {
        byteStep[(int) table.symbol(i) & 0xFF] = i | 1 << 8 | 1 << 12;
      }
    }
    // Every row of 256 (one second byte) starts as the single-byte steps: copied row by row, as
    // an element-wise fill with a gather was a tenth of planning a page.
    char[] row = new char[256];
    for (int b = 0; b < 256; b++) {
      row[b] = (char) byteStep[b];
    }
    for (int pre = 0; pre < 1 << 16; pre += 256) {
      System.arraycopy(row, 0, shortStep, pre, 256);
    }
    long[] keys = new long[n];
    int multi = 0;
    for (int i = n - 1; i >= 0; i--) {
      if (table.length(i) == 2) {
        shortStep[(int) table.symbol(i) & 0xFFFF] = (char) (i | 2 << 8 | 1 << 12);
      }
    }
    for (int i = 0; i < n; i++) {
      int len = table.length(i);
      if (len >= 3) {
        keys[multi++] = ((long) bucket(table.symbol(i)) << 16) | ((long) (8 - len) << 8) | i;
      }
    }
    java.util.Arrays.sort(keys, 0, multi);
    longValue = new long[multi];
    longMask = new long[multi];
    longStep = new int[multi];
    for (int at = 0; at < multi; at++) {
      int i = (int) keys[at] & 0xFF;
      int len = table.length(i);
      int b = (int) (keys[at] >>> 16);
      longValue[at] = table.symbol(i) & SymbolMatcher.MASK[len];
      longMask[at] = SymbolMatcher.MASK[len];
      longStep[at] = i | len << 8 | 1 << 12;
      buckets[b] = buckets[b] == 0 ? (at << 8) | 1 : buckets[b] + 1;
    }
  }

  private static int bucket(long word) {
    return ((int) word & 0xFFFFFF) * 0x9E3779B1 >>> (32 - BUCKET_BITS);
  }

  SymbolTable table() {
    return table;
  }

  /**
   * Compresses bytes {@code [start, end)} of {@code in} into {@code out} at {@code pos}, which
   * must have room for {@code 2 * (end - start) + 1} bytes; returns the position after the output.
   * At each position the longest symbol that equals the input is taken, else the byte is escaped.
   */
  int compress(byte[] in, int start, int end, byte[] out, int pos) {
    int p = start;
    int o = pos;
    // While 8 bytes remain every symbol fits, so a step needs no length test and no branch on
    // whether it escapes: the code and the input byte are both written, the output advanced by
    // one or two (hence the extra byte of room).
    for (int last = end - 8; p <= last; ) {
      long word = LittleEndian.getLong(in, p);
      int step = shortStep[(int) word & 0xFFFF];
      int b = buckets[bucket(word)];
      for (int k = b >>> 8, e = k + (b & 0xFF); k < e; k++) {
        if ((word & longMask[k]) == longValue[k]) {
          step = longStep[k];
          break;
        }
      }
      out[o] = (byte) step;
      out[o + 1] = (byte) word;
      o += step >>> 12;
      p += step >>> 8 & 0xF;
    }
    while (p < end) {
      int remaining = end - p;
      long word = SymbolMatcher.load(in, p, end);
      int step = remaining >= 2 ? shortStep[(int) word & 0xFFFF] : byteStep[(int) word & 0xFF];
      if (remaining >= 3) {
        int b = buckets[bucket(word)];
        for (int k = b >>> 8, e = k + (b & 0xFF); k < e; k++) {
          if ((longStep[k] >>> 8 & 0xF) <= remaining && (word & longMask[k]) == longValue[k]) {
            step = longStep[k];
            break;
          }
        }
      }
      out[o] = (byte) step;
      out[o + 1] = (byte) word;
      o += step >>> 12;
      p += step >>> 8 & 0xF;
    }
    return o;
  }

  /**
   * Compresses every value of a block; the result has the block's offset width, offsets from 0.
   * With a switched-off table the values are copied unchanged, as the reference does.
   */
  DataBlock.VariableWidth compress(DataBlock.VariableWidth block) {
    int n = LanceCodecException.checkedInt(block.numValues(), "fsst: value count");
    int w = block.bitsPerOffset() / 8;
    byte[] offsets = new byte[(n + 1) * w];
    long base = block.offset(0);
    long dataLen = block.offset(n) - base;
    if (!table.compressed()) {
      for (int i = 0; i <= n; i++) {
        LittleEndian.putUnsigned(offsets, i * w, w, block.offset(i) - base);
      }
      byte[] data = Arrays.copyOfRange(block.data(), (int) base, (int) (base + dataLen));
      return new DataBlock.VariableWidth(offsets, block.bitsPerOffset(), data, n);
    }
    if (Parallelism.ENABLED && dataLen >= PARALLEL_MIN_BYTES) {
      // Values are compressed one by one, so the page's two halves (by bytes) are independent:
      // the second goes to another core, its offsets shifted by the first half's length after.
      int mid = valueAtByte(block, base + dataLen / 2);
      Parallelism.Part<Range> second = Parallelism.start(() -> compressRange(block, mid, n, offsets, w));
      Range first = compressRange(block, 0, mid, offsets, w);
      Range rest = second.join();
      for (int i = mid + 1; i <= n; i++) {
        LittleEndian.putUnsigned(offsets, i * w, w, LittleEndian.getUnsigned(offsets, i * w, w) + first.length);
      }
      byte[] data = Arrays.copyOf(first.out, LanceCodecException.checkedInt((long) first.length + rest.length, "fsst: compressed page size"));
      System.arraycopy(rest.out, 0, data, first.length, rest.length);
      return new DataBlock.VariableWidth(offsets, block.bitsPerOffset(), data, n);
    }
    Range all = compressRange(block, 0, n, offsets, w);
    return new DataBlock.VariableWidth(offsets, block.bitsPerOffset(), Arrays.copyOf(all.out, all.length), n);
  }

  /** Pages of at least this many string bytes are compressed in two halves on two cores. */
  static final long PARALLEL_MIN_BYTES = 128 * 1024;

  /** Compressed bytes {@code out[0, length)}. */
  private record Range(byte[] out, int length) {}

  /** The first value that ends after byte {@code at} of the block's data (values before it hold at most half the bytes). */
  private static int valueAtByte(DataBlock.VariableWidth block, long at) {
    int lo = 0;
    int hi = (int) block.numValues();
    while (lo < hi) {
      int m = (lo + hi) >>> 1;
      if (block.offset(m + 1) <= at) {
        lo = m + 1;
      } else {
        hi = m;
      }
    }
    return lo;
  }

  /**
   * Compresses values {@code [from, to)}, writing their end offsets (from 0 at value {@code from})
   * to {@code offsets} entries {@code from + 1 .. to}.
   */
  private Range compressRange(DataBlock.VariableWidth block, int from, int to, byte[] offsets, int w) {
    long base = block.offset(from);
    long dataLen = block.offset(to) - base;
    int mid = to - from < 2 ? from : Math.min(to - 1, Math.max(from + 1, valueAtByte(block, base + dataLen / 2)));
    if (mid == from) {
      return compressValues(block, from, to, offsets, w);
    }
    // Two lanes, values [from, mid) and [mid, to), a step of each in turn: a step waits on the
    // loads of the one before it (the input word, then its table entries), so one lane left the
    // core idle most of the time. Each lane writes its own output; the second is appended to
    // the first at the end.
    byte[] in = block.data();
    byte[] outA = new byte[capacity(block.offset(mid) - base)];
    byte[] outB = new byte[capacity(block.offset(to) - block.offset(mid))];
    int oa = 0;
    int ob = 0;
    int ia = from;
    int ib = mid;
    int pa = (int) base;
    int ea = (int) block.offset(from + 1);
    int pb = (int) block.offset(mid);
    int eb = (int) block.offset(mid + 1);
    outA = room(outA, oa, ea - pa);
    outB = room(outB, ob, eb - pb);
    boolean aDone;
    while (true) {
      if (ea - pa < 8) {
        oa = compress(in, pa, ea, outA, oa);
        LittleEndian.putUnsigned(offsets, (ia + 1) * w, w, oa);
        if (++ia == mid) {
          aDone = true;
          break;
        }
        pa = ea;
        ea = (int) block.offset(ia + 1);
        outA = room(outA, oa, ea - pa);
        continue;
      }
      if (eb - pb < 8) {
        // relative to the second lane's output until the lanes are joined
        ob = compress(in, pb, eb, outB, ob);
        LittleEndian.putUnsigned(offsets, (ib + 1) * w, w, ob);
        if (++ib == to) {
          aDone = false;
          break;
        }
        pb = eb;
        eb = (int) block.offset(ib + 1);
        outB = room(outB, ob, eb - pb);
        continue;
      }
      long wa = LittleEndian.getLong(in, pa);
      long wb = LittleEndian.getLong(in, pb);
      int sa = shortStep[(int) wa & 0xFFFF];
      int sb = shortStep[(int) wb & 0xFFFF];
      int ba = buckets[bucket(wa)];
      for (int k = ba >>> 8, e = k + (ba & 0xFF); k < e; k++) {
        if ((wa & longMask[k]) == longValue[k]) {
          sa = longStep[k];
          break;
        }
      }
      int bb = buckets[bucket(wb)];
      for (int k = bb >>> 8, e = k + (bb & 0xFF); k < e; k++) {
        if ((wb & longMask[k]) == longValue[k]) {
          sb = longStep[k];
          break;
        }
      }
      outA[oa] = (byte) sa;
      outA[oa + 1] = (byte) wa;
      oa += sa >>> 12;
      pa += sa >>> 8 & 0xF;
      outB[ob] = (byte) sb;
      outB[ob + 1] = (byte) wb;
      ob += sb >>> 12;
      pb += sb >>> 8 & 0xF;
    }
    // one lane has finished: the other finishes its value, then its values alone
    if (aDone) {
      Range rest = finishLane(block, pb, eb, ib, to, outB, ob, offsets, w);
      outB = rest.out;
      ob = rest.length;
    } else {
      Range rest = finishLane(block, pa, ea, ia, mid, outA, oa, offsets, w);
      outA = rest.out;
      oa = rest.length;
    }
    for (int i = mid + 1; i <= to; i++) {
      LittleEndian.putUnsigned(offsets, i * w, w, LittleEndian.getUnsigned(offsets, i * w, w) + oa);
    }
    byte[] out = outA.length - oa >= ob ? outA : Arrays.copyOf(outA, LanceCodecException.checkedInt((long) oa + ob, "fsst: compressed page size"));
    System.arraycopy(outB, 0, out, oa, ob);
    return new Range(out, oa + ob);
  }

  /**
   * A lane of {@link #compressRange} alone: the rest {@code [p, end)} of value {@code i}, then
   * values {@code (i, to)}, into {@code out} from {@code o}.
   */
  private Range finishLane(DataBlock.VariableWidth block, int p, int end, int i, int to, byte[] out, int o, byte[] offsets, int w) {
    byte[] in = block.data();
    o = compress(in, p, end, out, o);
    LittleEndian.putUnsigned(offsets, (i + 1) * w, w, o);
    for (int k = i + 1; k < to; k++) {
      int s = (int) block.offset(k);
      int e = (int) block.offset(k + 1);
      out = room(out, o, e - s);
      o = compress(in, s, e, out, o);
      LittleEndian.putUnsigned(offsets, (k + 1) * w, w, o);
    }
    return new Range(out, o);
  }

  /** Values {@code [from, to)} one after the other, as {@link #compressRange} returns them. */
  private Range compressValues(DataBlock.VariableWidth block, int from, int to, byte[] offsets, int w) {
    byte[] out = new byte[capacity(block.offset(to) - block.offset(from))];
    if (from == to) {
      return new Range(out, 0);
    }
    int p = (int) block.offset(from);
    int e = (int) block.offset(from + 1);
    return finishLane(block, p, e, from, to, room(out, 0, e - p), 0, offsets, w);
  }


  /** The first output size for {@code bytes} of input: compressed output rarely exceeds the input. */
  private static int capacity(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE - 16, bytes + bytes / 8 + 64);
  }

  /** {@code out}, or a larger copy, with room at {@code o} for a value of {@code len} bytes (2 per byte, and one more). */
  private static byte[] room(byte[] out, int o, int len) {
    long need = o + 2L * len + 1;
    if (need <= out.length) {
      return out;
    }
    return Arrays.copyOf(out, LanceCodecException.checkedInt(Math.max(need, out.length + (long) out.length / 2), "fsst: compressed page size"));
  }

}
