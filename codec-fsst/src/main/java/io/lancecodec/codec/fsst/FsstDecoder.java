package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.Parallelism;
import java.util.Arrays;

/**
 * Decompresses FSST-coded strings, one value after another: each symbol is stored as one 8-byte
 * word (the next symbol overwrites the excess), eight codes at a time when none of them is an
 * escape. Undefined codes and an escape without its literal are CORRUPT; each group of codes
 * starts with at least 64 bytes of room (8 per code), the buffer growing when there is less, so
 * nothing is written or read out of bounds even for hostile input. Thread-safe: its one mutable
 * field is a size guess, and any value a racing thread leaves there is a valid guess.
 *
 * <p>A caller that copies the values out at once (a scan appending chunk after chunk) passes
 * {@link DecodeBuffers}: the chunk is then decoded into arrays already allocated and in cache.
 * Otherwise the output array is allocated from that guess (the last block's expansion plus an
 * eighth) and handed out untrimmed when at most a third of it is unused, which saves a copy of
 * every decoded block. A kept per-thread array copied out at its exact size was slower for large
 * outputs too: the copy costs more than the zeroing of a fresh array (7.5 against 12.5 GB/s).
 *
 * <p>A block of at least {@link #PARALLEL_MIN_CODES} code bytes is decoded from both ends at once
 * when {@link Parallelism#READS}: this thread takes its windows from the first on, a pool thread
 * from the last back, and the windows meet wherever the two threads do (a late or busy pool
 * thread just leaves more to this one). The pool thread's windows are decoded into an array of
 * their own and copied behind this thread's. A scan of mail recipient lists (2.1, 1,024-row
 * batches) went from 6.1 to 4.8 ms, the pool thread taking 4.3 of 9.2 windows a block.
 *
 * <p>An undefined code is caught without a test per code: its length is {@link #UNDEFINED}, which
 * moves the output position past the end of any array (or below 0), so the next store fails its
 * bounds check or the final position check does.
 */
final class FsstDecoder {
  private final boolean compressed;
  /**
   * Symbol words at {@code [code]} (unused codes hold 0) and symbol lengths at {@code [LENGTH +
   * code]} ({@link #UNDEFINED} for codes the table does not define), in one array of {@link
   * #TABLE} entries. Each call decodes from its own copy: an array allocated in the method has a
   * length the JIT knows, so the table loads of a byte-sized code need no bounds checks and one
   * array (not two) is live in the loop. Measured on the mail corpus, JDK 17, the kernel alone:
   * 2.2 GB/s against 1.5 with two field arrays, which spilled registers.
   */
  private final long[] table = new long[TABLE];

  private static final int LENGTH = 256;
  private static final int TABLE = 2 * LENGTH;

  /** The length of an undefined code: no output array is this long. */
  private static final int UNDEFINED = Integer.MAX_VALUE;

  FsstDecoder(SymbolTable table) {
    this.compressed = table.compressed();
    Arrays.fill(this.table, LENGTH, TABLE, UNDEFINED);
    for (int i = 0; i < table.size(); i++) {
      this.table[i] = table.symbol(i) & SymbolMatcher.MASK[table.length(i)];
      this.table[LENGTH + i] = table.length(i);
    }
  }

  /** False for a switched-off table: values pass through unchanged. */
  boolean compressed() {
    return compressed;
  }

  /** Decodes every value of {@code block}; the result keeps its offset width, offsets from 0. */
  DataBlock.VariableWidth decompress(DataBlock.VariableWidth block) {
    return decompress(block, null);
  }

  /**
   * As {@link #decompress(DataBlock.VariableWidth)}, into {@code reuse}'s arrays when given (the
   * result is then only valid until their next use), else into new ones.
   */
  DataBlock.VariableWidth decompress(DataBlock.VariableWidth block, DecodeBuffers reuse) {
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
    // The last rate plus an eighth: chunks of one page differ in rate, and running out of room
    // costs a copy, while unused room only costs zeroing.
    byte[] out = reuse == null ? new byte[guess(last - first)] : reuse.data(guess(last - first));
    byte[] outOffsets = reuse == null ? new byte[(n + 1) * (wide ? 8 : 4)] : reuse.offsets((n + 1L) * (wide ? 8 : 4));
    putEnd(outOffsets, wide, 0, 0);
    Output front = new Output(out);
    if (Parallelism.READS && last - first >= PARALLEL_MIN_CODES) {
      decodeFromBothEnds(in, inOffsets, wide, n, first, last, front, outOffsets, reuse);
    } else {
      // Windows of whole values, about WINDOW code bytes each (one longer value is a window alone).
      int ws = first;
      for (int a = 0; a < n; ) {
        int b = windowEnd(inOffsets, wide, a, n, ws, last);
        int we = checkedEnd(inOffsets, wide, b, ws, last);
        decodeWindowValues(in, inOffsets, wide, a, b, ws, we, last, front, outOffsets, reuse);
        a = b;
        ws = we;
      }
    }
    out = front.data;
    int o = front.used;
    if (last > first) {
      // a benign race: any thread's last ratio is as good a guess as another's
      expansion = (int) Math.min(MAX_EXPANSION, 16L * o / (last - first) + 2);
    }
    // Data past the last offset is allowed, and the size guess keeps it small.
    byte[] data = reuse != null || out.length - o <= o / 2 ? out : Arrays.copyOf(out, o);
    return new DataBlock.VariableWidth(outOffsets, block.bitsPerOffset(), data, n);
  }

  /** An output array and how much of it is written. */
  private static final class Output {
    byte[] data;
    int used;

    Output(byte[] data) {
      this.data = data;
    }
  }

  /** Output bytes to allocate for {@code codes} code bytes: the last rate plus an eighth. */
  private int guess(long codes) {
    return (int) Math.min(Integer.MAX_VALUE - 16, codes * expansion * 9 / 128 + 64);
  }

  /** The end of value {@code b}'s codes, which ends a window that starts at {@code ws}. */
  private static int checkedEnd(byte[] inOffsets, boolean wide, int b, int ws, int last) {
    long windowEnd = end(inOffsets, wide, b);
    if (windowEnd < ws || windowEnd > last) {
      throw outOfOrder(b, windowEnd, last);
    }
    return (int) windowEnd;
  }

  /**
   * Decodes a large block's windows on two cores ({@link Parallelism#fromBothEnds}): this
   * thread from the first window into {@code front}, a pool thread from the last into an array
   * of its own, whose windows are then copied behind this thread's and their value ends
   * moved with them. The copy costs a tenth of what decoding those bytes does.
   */
  private void decodeFromBothEnds(byte[] in, byte[] inOffsets, boolean wide, int n, int first, int last, Output front,
      byte[] outOffsets, DecodeBuffers reuse) {
    Windows w = Windows.of(inOffsets, wide, n, first, last);
    int windows = w.count();
    int[] starts = w.values();
    int[] codeStarts = w.codes();
    // The pool thread's array, new for every block and allocated by that thread: it zeroes the
    // array into its own cache. An array kept for the next block was slower to write (2.5 against
    // 1.2 ns a code byte on a 2-core EPYC): this thread has read its lines since (the copy
    // below), so every store of the next block waited for them to be taken back from this core.
    Output back = new Output(null);
    int[] backStarts = new int[windows];
    int[] backEnds = new int[windows];
    int split = Parallelism.fromBothEnds(windows, (k, isFront) -> {
      Output into = isFront ? front : back;
      if (!isFront) {
        if (into.data == null) {
          into.data = new byte[guess((last - first) / 2 + WINDOW)];
        }
        backStarts[k] = into.used;
      }
      decodeWindowValues(in, inOffsets, wide, starts[k], starts[k + 1], codeStarts[k], codeStarts[k + 1], last, into,
          outOffsets, isFront ? reuse : null);
      if (!isFront) {
        backEnds[k] = into.used;
      }
    });
    if (split < windows) {
      int o = front.used;
      long need = (long) o + back.used + 64;
      if (need > front.data.length) {
        front.data = reuse == null ? grow(front.data, need) : reuse.growData(need, o);
      }
      for (int k = split; k < windows; k++) {
        int len = backEnds[k] - backStarts[k];
        System.arraycopy(back.data, backStarts[k], front.data, o, len);
        int move = o - backStarts[k];
        for (int i = starts[k] + 1; i <= starts[k + 1]; i++) {
          putEnd(outOffsets, wide, i, (int) end(outOffsets, wide, i) + move);
        }
        o += len;
      }
      front.used = o;
    }
  }

  /**
   * The windows {@link #decompress} walks, checked as it checks them: window {@code k} holds
   * values {@code (values[k], values[k + 1]]}, whose codes are {@code [codes[k], codes[k + 1])}.
   */
  private record Windows(int count, int[] values, int[] codes) {
    static Windows of(byte[] inOffsets, boolean wide, int n, int first, int last) {
      int[] values = new int[16];
      int[] codes = new int[16];
      int count = 0;
      int ws = first;
      for (int a = 0; ; count++) {
        if (count + 1 >= values.length) {
          values = Arrays.copyOf(values, values.length * 2);
          codes = Arrays.copyOf(codes, values.length);
        }
        values[count] = a;
        codes[count] = ws;
        if (a == n) {
          return new Windows(count, values, codes);
        }
        int b = windowEnd(inOffsets, wide, a, n, ws, last);
        ws = checkedEnd(inOffsets, wide, b, ws, last);
        a = b;
      }
    }
  }

  /**
   * Decodes the window of values {@code (a, b]} (codes {@code [ws, we)}) into {@code into} from its
   * used length on, and writes each value's end there at {@code outOffsets[i]}; the array grows
   * through {@code reuse} when given, by the rate so far over the codes up to {@code last}.
   */
  private void decodeWindowValues(byte[] in, byte[] inOffsets, boolean wide, int a, int b, int ws, int we, int last,
      Output into, byte[] outOffsets, DecodeBuffers reuse) {
    byte[] out = into.data;
    int o = into.used;
    // at[p - ws]: where the output of the code at p starts, -1 at an escape's literal. Value
    // ends are looked up here afterwards, which keeps the loop free of per-value branches.
    int[] at = positions(we - ws + 1);
    int p = ws;
    try {
      while (true) {
        long r = we - p < SHORT ? decodeShort(in, p, ws, we, out, o, table, at, b) : decodeWindow(in, p, ws, we, out, o, table, at, b);
        p = (int) (r >>> 32);
        o = (int) r;
        if (p >= we || o < 0 || o > out.length) {
          break;
        }
        // out of room: grow by twice the last expansion rate for the codes left
        long need = o + 64L + (long) (last - p) * expansion / 8;
        out = reuse == null ? grow(out, need) : reuse.growData(Math.max(need, out.length + (long) out.length / 2), o);
      }
    } catch (IndexOutOfBoundsException e) {
      // the store after an undefined code (see the class comment)
      throw corrupt(in, ws, we);
    }
    if (o < 0 || o > out.length) {
      throw corrupt(in, ws, we);
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
    into.data = out;
    into.used = o;
  }

  /**
   * Decodes the window's codes {@code [p, we)} into {@code out} from {@code o}, noting each code's
   * output position in {@code at[p - ws]}, until done or fewer than 64 bytes of room are left;
   * returns the code position then (high half) and the output position (low half), which is out
   * of range after an undefined code. Kept apart from {@link #decompress} so that the loop has
   * registers for what it uses (in the larger method the JIT spilled the table and output arrays),
   * with its own copy of the table (see {@link #table}). Inside a group of eight the output
   * position is a long: C2 on JDK 17 then adds each length straight from the table and addresses
   * the stores from that one register, where an int position was kept twice, as an int and
   * widened (121 instead of 137 instructions per group). An undefined code's length still makes
   * the next store fail: the position cast to int is then negative or past any array.
   */
  private static long decodeWindow(byte[] in, int p, int ws, int we, byte[] out, int o, long[] table, int[] at, int b) {
    final long[] t = new long[TABLE];
    System.arraycopy(table, 0, t, 0, TABLE);
    int limit = out.length - 64;
    while (p < we && o <= limit) {
      long x;
      if (p + 8 <= we
          && (((~(x = LittleEndian.getLong(in, p))) - 0x0101010101010101L) & x & 0x8080808080808080L) == 0) {
        // Eight codes and no escape among them (the zero-byte test on the complement).
        int q = p - ws;
        int lo = (int) x;
        int hi = (int) (x >>> 32);
        long w = o;
        int c = lo & 0xFF;
        at[q] = (int) w;
        LittleEndian.putLong(out, (int) w, t[c]);
        w += t[LENGTH + c];
        c = (lo >>> 8) & 0xFF;
        at[q + 1] = (int) w;
        LittleEndian.putLong(out, (int) w, t[c]);
        w += t[LENGTH + c];
        c = (lo >>> 16) & 0xFF;
        at[q + 2] = (int) w;
        LittleEndian.putLong(out, (int) w, t[c]);
        w += t[LENGTH + c];
        c = lo >>> 24;
        at[q + 3] = (int) w;
        LittleEndian.putLong(out, (int) w, t[c]);
        w += t[LENGTH + c];
        c = hi & 0xFF;
        at[q + 4] = (int) w;
        LittleEndian.putLong(out, (int) w, t[c]);
        w += t[LENGTH + c];
        c = (hi >>> 8) & 0xFF;
        at[q + 5] = (int) w;
        LittleEndian.putLong(out, (int) w, t[c]);
        w += t[LENGTH + c];
        c = (hi >>> 16) & 0xFF;
        at[q + 6] = (int) w;
        LittleEndian.putLong(out, (int) w, t[c]);
        w += t[LENGTH + c];
        c = hi >>> 24;
        at[q + 7] = (int) w;
        LittleEndian.putLong(out, (int) w, t[c]);
        w += t[LENGTH + c];
        o = (int) w;
        p += 8;
      } else {
        long r = step(in, p, ws, we, out, o, t, at, b);
        p = (int) (r >>> 32);
        o = (int) r;
      }
    }
    return (long) p << 32 | (o & 0xFFFFFFFFL);
  }

  /**
   * Decodes the one code at {@code p} (an escape with its literal, or a symbol), noting its
   * output position as {@link #decodeWindow} does; returns the next code position (high half) and
   * output position (low half).
   */
  private static long step(byte[] in, int p, int ws, int we, byte[] out, int o, long[] t, int[] at, int b) {
    int c = in[p] & 0xFF;
    at[p - ws] = o;
    if (c == FsstFormat.ESCAPE) {
      if (p + 1 >= we) {
        throw danglingEscape(b);
      }
      at[p + 1 - ws] = -1;
      out[o] = in[p + 1];
      return (long) (p + 2) << 32 | ((o + 1) & 0xFFFFFFFFL);
    }
    LittleEndian.putLong(out, o, t[c]);
    return (long) (p + 1) << 32 | ((o + (int) t[LENGTH + c]) & 0xFFFFFFFFL);
  }

  /**
   * Windows of fewer code bytes than this (a random access decoding a value or two) are decoded
   * by {@link #decodeShort}: copying the 4 KiB table for them cost more than the decoding (a take
   * of 10,000 single rows of mail lines, each its own call, ran at 40% of its former speed).
   */
  private static final int SHORT = 256;

  /**
   * {@link #decodeWindow} for a few codes: one code at a time, from the shared table (its loads
   * keep their bounds checks, which is cheaper here than copying it).
   */
  private static long decodeShort(byte[] in, int p, int ws, int we, byte[] out, int o, long[] t, int[] at, int b) {
    int limit = out.length - 64;
    while (p < we && o <= limit) {
      long r = step(in, p, ws, we, out, o, t, at, b);
      p = (int) (r >>> 32);
      o = (int) r;
    }
    return (long) p << 32 | (o & 0xFFFFFFFFL);
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

  /** Code bytes decoded per window: the position table stays in cache. */
  private static final int WINDOW = 16 << 10;

  private static final ThreadLocal<int[]> POSITIONS = new ThreadLocal<>();

  /**
   * Code bytes from which a block is decoded from both ends on two cores: about 30 µs of
   * decoding, several times what waking a pool thread costs on a virtual machine.
   */
  private static final int PARALLEL_MIN_CODES = 64 << 10;

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
      } else if (table[LENGTH + c] == UNDEFINED) {
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
    while (n < 255 && table[LENGTH + n] != UNDEFINED) {
      n++;
    }
    return n;
  }
}
