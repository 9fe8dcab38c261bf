package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;

/**
 * Decompresses FSST-coded strings, one value after another: each symbol is stored as one 8-byte
 * word (the next symbol overwrites the excess), eight codes at a time when none of them is an
 * escape. Undefined codes and an escape without its literal are CORRUPT; the output buffer always
 * has 8 bytes of room per remaining code, so nothing is written or read out of bounds even for
 * hostile input. Immutable and thread-safe.
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
    int[] ends = new int[n + 1];
    int first = readEnds(block, in.length, ends);
    int last = ends[n];
    byte[] out = scratch((int) Math.min(Integer.MAX_VALUE - 16, 3L * (last - first) + 64));
    boolean wide = block.bitsPerOffset() == 64;
    byte[] outOffsets = new byte[(n + 1) * (wide ? 8 : 4)];
    final long[] sym = symbols;
    final int[] lens = lengths;
    int o = 0;
    // Windows of whole values, about WINDOW code bytes each (one longer value is a window alone).
    for (int a = 0; a < n; ) {
      int ws = ends[a];
      int b = a + 1;
      while (b < n && ends[b + 1] - ws <= WINDOW) {
        b++;
      }
      int we = ends[b];
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
                throw danglingEscape(ends, p + 1);
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
      for (int i = a + 1; i <= b; i++) {
        int end = at[ends[i] - ws];
        if (end < 0) {
          throw danglingEscape(ends, ends[i]);
        }
        if (wide) {
          LittleEndian.putLong(outOffsets, 8 * i, end);
        } else {
          LittleEndian.putInt(outOffsets, 4 * i, end);
        }
      }
      a = b;
    }
    keep(out);
    // A buffer of our own (not the kept scratch) is handed out as is when little of it is unused:
    // trimming a large output would cost a full copy. Data past the last offset is allowed.
    byte[] data = out != SCRATCH.get() && out.length - o <= o / 2 ? out : Arrays.copyOf(out, o);
    return new DataBlock.VariableWidth(outOffsets, block.bitsPerOffset(), data, n);
  }

  /**
   * Reads the block's offsets into {@code ends[0..n]}, checking that they never decrease and stay
   * within the data; returns the first.
   */
  private static int readEnds(DataBlock.VariableWidth block, int dataLength, int[] ends) {
    int n = ends.length - 1;
    byte[] offsets = block.offsets();
    long first = block.offset(0);
    if (first < 0 || first > dataLength) {
      throw LanceCodecException.corrupt("fsst: first offset " + first + " outside " + dataLength + " data bytes");
    }
    long prev = first;
    boolean wide = block.bitsPerOffset() == 64;
    for (int i = 1; i <= n; i++) {
      long v = wide ? LittleEndian.getLong(offsets, 8 * i) : LittleEndian.getInt(offsets, 4 * i) & 0xFFFFFFFFL;
      if (v < prev || v > dataLength) {
        throw LanceCodecException.corrupt(
            "fsst: offset " + i + " = " + v + " is out of order or past " + dataLength + " data bytes");
      }
      ends[i] = (int) v;
      prev = v;
    }
    ends[0] = (int) first;
    return (int) first;
  }

  /**
   * Per-thread decode buffer: the exact-size result is copied out of it (no zeroing of a large
   * guess per chunk). Buffers above {@link #KEEP_BYTES} are not kept.
   */
  private static final ThreadLocal<byte[]> SCRATCH = new ThreadLocal<>();

  private static final int KEEP_BYTES = 8 << 20;

  /** Code bytes decoded per window: the position table stays in cache. */
  private static final int WINDOW = 16 << 10;

  private static final ThreadLocal<int[]> POSITIONS = new ThreadLocal<>();

  /** An escape whose literal would be the first byte of the next value, or past the end. */
  private static LanceCodecException danglingEscape(int[] ends, int literal) {
    int v = 0;
    while (v + 1 < ends.length - 1 && ends[v + 1] < literal) {
      v++;
    }
    return LanceCodecException.corrupt("fsst: value " + v + " ends with an escape byte and no literal");
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

  private static byte[] scratch(int atLeast) {
    byte[] b = SCRATCH.get();
    return b != null && b.length >= atLeast ? b : new byte[atLeast];
  }

  private static void keep(byte[] b) {
    byte[] kept = SCRATCH.get();
    if (b.length <= KEEP_BYTES && (kept == null || b.length > kept.length)) {
      SCRATCH.set(b);
    }
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
