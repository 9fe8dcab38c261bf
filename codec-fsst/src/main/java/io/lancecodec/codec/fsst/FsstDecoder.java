package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;

/**
 * Decompresses FSST-coded strings, one value after another: each symbol is stored as one 8-byte
 * word (the next symbol overwrites the excess), eight codes at a time when none of them is an
 * escape. Undefined codes and an escape without its literal are CORRUPT; before each group of
 * codes the output buffer is grown to 8 bytes of room per code, so nothing is written or read out
 * of bounds even for hostile input. Thread-safe: its one mutable field is a size guess, and any
 * value a racing thread leaves there is a valid guess.
 *
 * <p>A small output array (a mini-block chunk's) is allocated from that guess (the last block's
 * expansion) and handed out untrimmed when little of it is unused, which saves a copy of every
 * decoded chunk; a large one is a kept per-thread array, copied out at its exact size.
 *
 * <p>An undefined code is caught without a test per code: its length is {@link #UNDEFINED}, which
 * moves the output position past the end of any array (or below 0), so the next store fails its
 * bounds check or the final position check does.
 */
final class FsstDecoder {
  private final boolean compressed;
  /** Symbol words for codes 0..254; unused codes hold 0. */
  private final long[] symbols = new long[256];
  /** Symbol lengths for codes 0..254; {@link #UNDEFINED} for codes the table does not define. */
  private final int[] lengths = new int[256];

  /** The length of an undefined code: no output array is this long. */
  private static final int UNDEFINED = Integer.MAX_VALUE;

  FsstDecoder(SymbolTable table) {
    this.compressed = table.compressed();
    Arrays.fill(lengths, UNDEFINED);
    for (int i = 0; i < table.size(); i++) {
      symbols[i] = table.symbol(i) & SymbolMatcher.MASK[table.length(i)];
      lengths[i] = table.length(i);
    }
  }

  /** False for a switched-off table: values pass through unchanged. */
  boolean compressed() {
    return compressed;
  }

  /** Decodes every value of {@code block}; the result keeps its offset width, offsets from 0. */
  DataBlock.VariableWidth decompress(DataBlock.VariableWidth block) {
    if (!compressed) {
      return block;
    }
    byte[] in = block.data();
    int n = LanceCodecException.checkedInt(block.numValues(), "fsst: value count");
    boolean wide = block.bitsPerOffset() == 64;
    byte[] inOffsets = block.offsets();
    long firstOffset = block.offset(0);
    long lastOffset = block.offset(n);
    if (firstOffset < 0 || firstOffset > lastOffset || lastOffset > in.length) {
      throw LanceCodecException.corrupt(
          "fsst: codes [" + firstOffset + ", " + lastOffset + ") do not lie within " + in.length + " data bytes");
    }
    int first = (int) firstOffset;
    int last = (int) lastOffset;
    long guess = Math.min(Integer.MAX_VALUE - 16, (long) (last - first) * expansion / 16 + 64);
    // Small outputs go to a fresh array of the guessed size, handed out untrimmed; a large one
    // (a whole full-zip batch) is decoded into a kept per-thread array and copied out at its exact
    // size, since zeroing megabytes of fresh memory and then writing them again costs twice.
    byte[] kept = guess > FRESH_BYTES ? SCRATCH.get() : null;
    byte[] out = kept != null && kept.length >= guess ? kept : new byte[(int) guess];
    byte[] outOffsets = new byte[(n + 1) * (wide ? 8 : 4)];
    final long[] sym = symbols;
    final int[] lens = lengths;
    int o = 0;
    // Windows of whole values, about WINDOW code bytes each (one longer value is a window alone).
    int ws = first;
    for (int a = 0; a < n; ) {
      int b = windowEnd(inOffsets, wide, a, n, ws, last);
      long windowEnd = end(inOffsets, wide, b);
      if (windowEnd < ws || windowEnd > last) {
        throw outOfOrder(b, windowEnd, last);
      }
      int we = (int) windowEnd;
      // at[p - ws]: where the output of the code at p starts, -1 at an escape's literal. Value
      // ends are looked up here afterwards, which keeps the loop free of per-value branches.
      int[] at = positions(we - ws + 1);
      int p = ws;
      try {
        while (p < we) {
          if (o + 64 > out.length) {
            if (o > out.length) {
              throw corrupt(in, first, last);
            }
            out = grow(out, o + 64L + 8L * (last - p));
          }
          long x;
          if (p + 8 <= we
              && (((~(x = LittleEndian.getLong(in, p))) - 0x0101010101010101L) & x & 0x8080808080808080L) == 0) {
            // Eight codes and no escape among them (the zero-byte test on the complement).
            int q = p - ws;
            int c = (int) x & 0xFF;
            at[q] = o;
            LittleEndian.putLong(out, o, sym[c]);
            o += lens[c];
            c = (int) (x >>> 8) & 0xFF;
            at[q + 1] = o;
            LittleEndian.putLong(out, o, sym[c]);
            o += lens[c];
            c = (int) (x >>> 16) & 0xFF;
            at[q + 2] = o;
            LittleEndian.putLong(out, o, sym[c]);
            o += lens[c];
            c = (int) (x >>> 24) & 0xFF;
            at[q + 3] = o;
            LittleEndian.putLong(out, o, sym[c]);
            o += lens[c];
            c = (int) (x >>> 32) & 0xFF;
            at[q + 4] = o;
            LittleEndian.putLong(out, o, sym[c]);
            o += lens[c];
            c = (int) (x >>> 40) & 0xFF;
            at[q + 5] = o;
            LittleEndian.putLong(out, o, sym[c]);
            o += lens[c];
            c = (int) (x >>> 48) & 0xFF;
            at[q + 6] = o;
            LittleEndian.putLong(out, o, sym[c]);
            o += lens[c];
            c = (int) (x >>> 56);
            at[q + 7] = o;
            LittleEndian.putLong(out, o, sym[c]);
            o += lens[c];
            p += 8;
          } else {
            int c = in[p] & 0xFF;
            at[p - ws] = o;
            if (c == FsstFormat.ESCAPE) {
              if (p + 1 >= we) {
                throw danglingEscape(b);
              }
              at[p + 1 - ws] = -1;
              out[o++] = in[p + 1];
              p += 2;
            } else {
              LittleEndian.putLong(out, o, sym[c]);
              o += lens[c];
              p++;
            }
          }
        }
      } catch (IndexOutOfBoundsException e) {
        // the store after an undefined code (see the class comment)
        throw corrupt(in, first, last);
      }
      if (o < 0 || o > out.length) {
        throw corrupt(in, first, last);
      }
      at[we - ws] = o;
      // The window's value ends, checked here: in order and inside the window.
      int prev = ws;
      for (int i = a + 1; i < b; i++) {
        long e = end(inOffsets, wide, i);
        if (e < prev || e > we) {
          throw outOfOrder(i, e, we);
        }
        int pos = at[(int) e - ws];
        if (pos < 0) {
          throw danglingEscape(i);
        }
        prev = (int) e;
        putEnd(outOffsets, wide, i, pos);
      }
      putEnd(outOffsets, wide, b, o);
      a = b;
      ws = we;
    }
    if (last > first) {
      // a benign race: any thread's last ratio is as good a guess as another's
      expansion = (int) Math.min(MAX_EXPANSION, 16L * o / (last - first) + 2);
    }
    byte[] data;
    if (out.length > FRESH_BYTES) {
      if (out.length <= KEEP_BYTES && out != SCRATCH.get()) {
        SCRATCH.set(out);
      }
      data = Arrays.copyOf(out, o);
    } else {
      // data past the last offset is allowed, and the size guess keeps it small
      data = out.length - o <= o / 2 ? out : Arrays.copyOf(out, o);
    }
    return new DataBlock.VariableWidth(outOffsets, block.bitsPerOffset(), data, n);
  }

  /**
   * The last value of the window that starts with value {@code a} at code position {@code ws}:
   * the furthest whose end is at most WINDOW code bytes on (found by halving, the offsets are
   * checked as the window is finished), and at least value a + 1.
   */
  private static int windowEnd(byte[] offsets, boolean wide, int a, int n, int ws, int last) {
    if (last - ws <= WINDOW) {
      return n;
    }
    int lo = a + 1;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (end(offsets, wide, mid) - ws <= WINDOW) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private static long end(byte[] offsets, boolean wide, int i) {
    return wide ? LittleEndian.getLong(offsets, 8 * i) : LittleEndian.getInt(offsets, 4 * i) & 0xFFFFFFFFL;
  }

  private static void putEnd(byte[] offsets, boolean wide, int i, int end) {
    if (wide) {
      LittleEndian.putLong(offsets, 8 * i, end);
    } else {
      LittleEndian.putInt(offsets, 4 * i, end);
    }
  }

  private static LanceCodecException outOfOrder(int i, long offset, int limit) {
    return LanceCodecException.corrupt("fsst: offset " + i + " = " + offset + " is out of order or past " + limit);
  }

  /** Output bytes per code byte, times 16, of the last page decoded: the next page's size guess. */
  private int expansion = 48;

  /** A symbol is at most 8 bytes: 8 output bytes per code byte, times 16. */
  private static final int MAX_EXPANSION = 8 * 16;

  /** Outputs up to this size are decoded into a fresh array (a mini-block chunk's are far smaller). */
  private static final int FRESH_BYTES = 256 << 10;

  /**
   * Per-thread array for larger outputs, kept up to {@link #KEEP_BYTES}: a scan's full-zip batch
   * of strings decodes to a few MiB, and allocating that fresh per batch was most of its cost.
   * The limit is 32 MiB, not 8: a 65,536-row batch of mail lines in lists decodes to 8.6 MB, and
   * when it was not kept that scan took about 15% longer (two fresh large arrays per batch).
   */
  private static final ThreadLocal<byte[]> SCRATCH = new ThreadLocal<>();

  private static final int KEEP_BYTES = 32 << 20;

  /** Code bytes decoded per window: the position table stays in cache. */
  private static final int WINDOW = 16 << 10;

  private static final ThreadLocal<int[]> POSITIONS = new ThreadLocal<>();

  /** An escape whose literal would be the first byte of the next value, or past the end. */
  private static LanceCodecException danglingEscape(int value) {
    return LanceCodecException.corrupt("fsst: value " + (value - 1) + " ends with an escape byte and no literal");
  }

  /** Per-thread code-position table; every entry the caller reads is written first. */
  private static int[] positions(int atLeast) {
    int[] a = POSITIONS.get();
    if (a != null && a.length >= atLeast) {
      return a;
    }
    a = new int[atLeast];
    if (atLeast <= WINDOW + 1) {
      POSITIONS.set(a);
    }
    return a;
  }

  private static byte[] grow(byte[] out, long need) {
    long size = Math.max(need, out.length + (long) out.length / 2);
    return Arrays.copyOf(out, LanceCodecException.checkedInt(size, "fsst: decoded chunk size"));
  }

  /** Names the first undefined code of codes that failed to decode. */
  private LanceCodecException corrupt(byte[] in, int p, int end) {
    while (p < end) {
      int c = in[p] & 0xFF;
      if (c == FsstFormat.ESCAPE) {
        p += 2;
      } else if (lengths[c] == UNDEFINED) {
        return LanceCodecException.corrupt(
            "fsst: code " + c + " at byte " + p + " is not defined, the table has " + countSymbols() + " symbols");
      } else {
        p++;
      }
    }
    return LanceCodecException.corrupt("fsst: codes do not decode");
  }

  private int countSymbols() {
    int n = 0;
    while (n < 255 && lengths[n] != UNDEFINED) {
      n++;
    }
    return n;
  }
}
