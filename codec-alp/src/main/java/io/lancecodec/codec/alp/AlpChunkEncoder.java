package io.lancecodec.codec.alp;

/**
 * Encodes one chunk of at most 1024 values with a given (e, f) or use_div exponent: scales every
 * value, admits it only if the decoder's formula gives back the same bits, measures the FOR and
 * Delta widths in the same pass and writes the four buffers. Two result slots let the encoder
 * scan a second candidate and keep the smaller without scanning the winner again. Holds its
 * scratch arrays, so one instance serves a whole page without allocating per chunk; not
 * thread-safe.
 */
final class AlpChunkEncoder {
  /** One scanned candidate: integers, exceptions and the widths of both forms. */
  static final class Scan {
    final long[] encoded = new long[AlpFormat.MAX_CHUNK_VALUES];
    final int[] exceptionPositions = new int[AlpFormat.MAX_CHUNK_VALUES];
    final long[] exceptionBits = new long[AlpFormat.MAX_CHUNK_VALUES];
    int count;
    int exceptions;
    int wordBits;
    int e;
    int f;
    boolean div;
    long min;
    int forWidth;
    long minDelta;
    int deltaWidth;
    /** The scan was abandoned over its budget: larger than what it was compared with. */
    boolean aborted;

    /** Stored bytes of the chunk in the FOR or Delta form (see {@link AlpFormat#storedBytes}); MAX_VALUE if impossible. */
    int size(boolean delta) {
      int w = delta ? deltaWidth : forWidth;
      if (w > wordBits || aborted) {
        return Integer.MAX_VALUE;
      }
      int intBytes = wordBits / 8;
      return AlpFormat.storedBytes(BitPacking.packedBytes(wordBits, w, count))
          + AlpFormat.storedBytes(AlpFormat.alpHeaderBytes(delta, intBytes))
          + AlpFormat.storedBytes(exceptions * AlpFormat.EXCEPTION_POSITION_BYTES)
          + AlpFormat.storedBytes(exceptions * intBytes);
    }

    /** Delta only when strictly smaller: FOR decodes without a carried sum. */
    boolean prefersDelta() {
      return size(true) < size(false);
    }

    /** The smaller of the two forms. */
    int size() {
      return Math.min(size(false), size(true));
    }
  }

  private Scan best = new Scan();
  private Scan trial = new Scan();
  private final long[] payload = new long[AlpFormat.MAX_CHUNK_VALUES];
  private final long[] words = new long[AlpFormat.MAX_CHUNK_VALUES];

  /** The scan kept by the last {@link #keepSmaller}, or the last scan if none. */
  Scan best() {
    return best;
  }

  /**
   * Makes the last scan the best one if it is smaller (ties keep the earlier one); returns
   * whether it did.
   */
  boolean keepSmaller() {
    return keepSmaller(false);
  }

  /**
   * As {@link #keepSmaller}, but a scan of the same size replaces the best one when
   * {@code winsTies}: the encoder scans candidates in the order most likely to finish early, and
   * ties still go to the candidate it prefers, whatever the order of the scans.
   */
  boolean keepSmaller(boolean winsTies) {
    int size = trial.size();
    if (size < best.size() || winsTies && size == best.size() && size != Integer.MAX_VALUE) {
      Scan s = best;
      best = trial;
      trial = s;
      return true;
    }
    return false;
  }

  /**
   * The narrowest width (the smaller of FOR and Delta) a use_div scan one decimal above
   * ({@code dir} 1) or below (-1) the best scan's scale can be expected to reach. One decimal
   * more admits the values admitted now with ten times the integer, so the ranges grow at least
   * eightfold (3 bits); one decimal fewer shrinks them at most sixteenfold (4 bits), and only
   * more exceptions can then make that neighbour smaller. An estimate, not a proof: a neighbour
   * admits a different set of values, so it only screens which neighbours are worth a scan and
   * lets their scans stop early ({@link #scan64(double[], int, int, int, int, boolean, int, int)}).
   */
  int neighbourWidth(int dir) {
    Scan r = best;
    int w = Math.min(r.forWidth, r.deltaWidth);
    if (w > r.wordBits) {
      return 0;
    }
    return dir > 0 ? w + 3 : Math.max(0, w - 4);
  }

  /** Every how many values of a chunk {@link #neighbourMayWin} looks at. */
  private static final int SCREEN_STEP = 8;

  /**
   * Whether use_div at {@code e}, one decimal below the best scan's scale, may give a smaller
   * chunk, judged on every {@value #SCREEN_STEP}th value: one decimal fewer narrows the widths
   * by at most 4 bits, so only that many exceptions can pay for it, and the sampled exceptions,
   * scaled to the chunk, must leave room for them. A value admitted now with an integer that is
   * not a multiple of ten is usually lost below, but not always (beyond the significand several
   * integers give back the same value), so the sample decides rather than the integers in hand.
   * Ends as soon as the sample rules the neighbour out; an estimate: a neighbour it passes is
   * then scanned in full to be compared exactly.
   */
  boolean neighbourMayWin(float[] v32, double[] v64, int off, int e) {
    Scan r = best;
    int t = r.wordBits;
    int n = r.count;
    int size = r.size();
    if (size == Integer.MAX_VALUE) {
      return true;
    }
    int floor = AlpFormat.storedBytes(BitPacking.packedBytes(t, neighbourWidth(-1), n))
        + AlpFormat.storedBytes(AlpFormat.alpHeaderBytes(false, t / 8));
    int perException = AlpFormat.EXCEPTION_POSITION_BYTES + t / 8;
    // sampled exceptions at which the estimate reaches the best size
    long limit = (long) (size - floor) * ((n + SCREEN_STEP - 1) / SCREEN_STEP) / ((long) perException * n);
    if (floor >= size) {
      return false;
    }
    int exceptions = 0;
    for (int i = 0; i < n; i += SCREEN_STEP) {
      boolean ok = v64 != null ? admits64(v64[off + i], e) : admits32(v32[off + i], e);
      if (!ok && ++exceptions > limit) {
        return false;
      }
    }
    return true;
  }

  private static boolean admits64(double x, int e) {
    double q = Math.rint(x * PowersOfTen.F64[e]);
    return Double.doubleToRawLongBits((long) q / PowersOfTen.F64[e]) == Double.doubleToRawLongBits(x);
  }

  private static boolean admits32(float x, int e) {
    return admit32(x, PowersOfTen.F32[e], 1f, PowersOfTen.F32[e], 1f, true) != NOT_ADMITTED_32;
  }

  /** Makes the last scan the best one whatever its size. */
  void keep() {
    Scan s = best;
    best = trial;
    trial = s;
  }

  /**
   * Scales {@code v[off..off+n)} (float64) with exponent {@code e} and factor {@code f}, or with
   * {@code e} alone when {@code div}, into the trial slot; returns the number of exceptions.
   * Exception slots take the previous admitted integer (leading ones the first), which leaves
   * the FOR range unchanged and gives Delta a zero step. One pass measures both widths.
   */
  int scan64(double[] v, int off, int n, int e, int f, boolean div) {
    return scan64(v, off, n, e, f, div, Integer.MAX_VALUE);
  }

  /**
   * {@link #scan64}, abandoned (returning -1, the trial then never kept) as soon as the chunk
   * provably takes at least {@code budget} stored bytes: widths and exceptions only grow as the
   * pass goes on, so the bytes they already imply are a lower bound.
   */
  int scan64(double[] v, int off, int n, int e, int f, boolean div, int budget) {
    return scan64(v, off, n, e, f, div, budget, 0);
  }

  /**
   * As {@link #scan64(double[], int, int, int, int, boolean, int)}, the bound taking the
   * payload at least {@code minWidth} bits wide (see {@link #neighbourWidth}).
   */
  int scan64(double[] v, int off, int n, int e, int f, boolean div, int budget, int minWidth) {
    Scan r = begin(n, 64, e, f, div);
    if (minWidth > 0 && lowerBound(r, 0, 0, 0, minWidth) >= budget) {
      r.aborted = true;
      return -1;
    }
    double up = PowersOfTen.F64[e];
    double upFactor = PowersOfTen.INV_F64[r.f];
    double down = div ? PowersOfTen.F64[e] : PowersOfTen.F64[r.f];
    double downExponent = PowersOfTen.INV_F64[e];
    long[] enc = r.encoded;
    int[] positions = r.exceptionPositions;
    long[] bits = r.exceptionBits;
    int exceptions = 0;
    // Up to the first admitted value on its own: it has no step, and the exceptions before it
    // take its integer.
    int start = 0;
    long last = 0;
    for (; start < n; start++) {
      double x = v[off + start];
      last = (long) Math.rint(div ? x * up : x * up * upFactor);
      long b = Double.doubleToRawLongBits(x);
      if (Double.doubleToRawLongBits(div ? last / down : last * down * downExponent) == b) {
        break;
      }
      positions[exceptions] = start;
      bits[exceptions++] = b;
    }
    if (start == n) {
      return none(r);
    }
    java.util.Arrays.fill(enc, 0, start + 1, last);
    long lo = last;
    long hi = last;
    long dlo = start > 0 ? 0 : Long.MAX_VALUE;
    long dhi = start > 0 ? 0 : Long.MIN_VALUE;
    // In blocks checked against the budget between them, as in scan32.
    for (int i = start + 1; i < n; ) {
      int blockEnd = Math.min(n, (i | CHECK_EVERY) + 1);
      for (; i < blockEnd; i++) {
        double x = v[off + i];
        long q = (long) Math.rint(div ? x * up : x * up * upFactor);
        double back = div ? q / down : q * down * downExponent;
        long b = Double.doubleToRawLongBits(x);
        if (Double.doubleToRawLongBits(back) != b) {
          positions[exceptions] = i;
          bits[exceptions++] = b;
          q = last;
        }
        long d = q - last;
        dlo = Math.min(dlo, d);
        dhi = Math.max(dhi, d);
        lo = Math.min(lo, q);
        hi = Math.max(hi, q);
        enc[i] = q;
        last = q;
      }
      if (i < n && lowerBound(r, exceptions, hi - lo, dhi - dlo, minWidth) >= budget) {
        r.aborted = true;
        return -1;
      }
    }
    return finish(r, exceptions, lo, hi, dlo, dhi);
  }

  /** The float32 form of {@link #scan64}: float arithmetic throughout, 32-bit integers. */
  int scan32(float[] v, int off, int n, int e, int f, boolean div) {
    return scan32(v, off, n, e, f, div, Integer.MAX_VALUE);
  }

  /** The float32 form of {@link #scan64(double[], int, int, int, int, boolean, int)}. */
  int scan32(float[] v, int off, int n, int e, int f, boolean div, int budget) {
    return scan32(v, off, n, e, f, div, budget, 0);
  }

  /** The float32 form of {@link #scan64(double[], int, int, int, int, boolean, int, int)}. */
  int scan32(float[] v, int off, int n, int e, int f, boolean div, int budget, int minWidth) {
    Scan r = begin(n, 32, e, f, div);
    if (minWidth > 0 && lowerBound(r, 0, 0, 0, minWidth) >= budget) {
      r.aborted = true;
      return -1;
    }
    float up = PowersOfTen.F32[e];
    float upFactor = PowersOfTen.INV_F32[r.f];
    float down = div ? PowersOfTen.F32[e] : PowersOfTen.F32[r.f];
    float downExponent = PowersOfTen.INV_F32[e];
    long[] enc = r.encoded;
    int[] positions = r.exceptionPositions;
    long[] bits = r.exceptionBits;
    int exceptions = 0;
    // Up to the first admitted value on its own, as in scan64.
    int start = 0;
    int last = 0;
    for (; start < n; start++) {
      long q = admit32(v[off + start], up, upFactor, down, downExponent, div);
      if (q != NOT_ADMITTED_32) {
        last = (int) q;
        break;
      }
      positions[exceptions] = start;
      bits[exceptions++] = Float.floatToRawIntBits(v[off + start]) & 0xFFFF_FFFFL;
    }
    if (start == n) {
      return none(r);
    }
    java.util.Arrays.fill(enc, 0, start + 1, last);
    int lo = last;
    int hi = last;
    int dlo = start > 0 ? 0 : Integer.MAX_VALUE;
    int dhi = start > 0 ? 0 : Integer.MIN_VALUE;
    // In blocks that end at multiples of CHECK_EVERY + 1, the budget checked between them: a
    // loop with no call in it is one the JIT unrolls.
    for (int i = start + 1; i < n; ) {
      int blockEnd = Math.min(n, (i | CHECK_EVERY) + 1);
      for (; i < blockEnd; i++) {
        float x = v[off + i];
        double s = Math.rint(div ? x * up : x * up * upFactor);
        int q = (int) s;
        float back = div ? q / down : q * down * downExponent;
        int b = Float.floatToRawIntBits(x);
        // NaN fails the range check, which also keeps (int) from saturating.
        if (!(s >= Integer.MIN_VALUE && s <= Integer.MAX_VALUE) || Float.floatToRawIntBits(back) != b) {
          positions[exceptions] = i;
          bits[exceptions++] = b & 0xFFFF_FFFFL;
          q = last;
        }
        int d = q - last;
        dlo = Math.min(dlo, d);
        dhi = Math.max(dhi, d);
        lo = Math.min(lo, q);
        hi = Math.max(hi, q);
        enc[i] = q;
        last = q;
      }
      if (i < n && lowerBound(r, exceptions, ((long) hi - lo) & 0xFFFF_FFFFL, ((long) dhi - dlo) & 0xFFFF_FFFFL, minWidth) >= budget) {
        r.aborted = true;
        return -1;
      }
    }
    return finish(r, exceptions, lo, hi, dlo, dhi);
  }

  /** What {@link #admit32} returns for a value the candidate does not admit. */
  private static final long NOT_ADMITTED_32 = Long.MIN_VALUE;

  /** The integer of one float32 value, or {@link #NOT_ADMITTED_32}. */
  private static long admit32(float x, float up, float upFactor, float down, float downExponent, boolean div) {
    double s = Math.rint(div ? x * up : x * up * upFactor);
    if (!(s >= Integer.MIN_VALUE && s <= Integer.MAX_VALUE)) {
      return NOT_ADMITTED_32;
    }
    int q = (int) s;
    float back = div ? q / down : q * down * downExponent;
    return Float.floatToRawIntBits(back) == Float.floatToRawIntBits(x) ? q : NOT_ADMITTED_32;
  }

  /** Values between two checks of a scan's budget, minus one. */
  private static final int CHECK_EVERY = 127;

  /**
   * Stored bytes a chunk takes at least, with the exceptions found so far and integer and step
   * ranges (unsigned) at least as wide as those seen so far.
   */
  private static int lowerBound(Scan r, int exceptions, long range, long stepRange, int minWidth) {
    int t = r.wordBits;
    int intBytes = t / 8;
    int forWidth = Math.min(t, AlpFormat.bitWidth(range));
    int deltaWidth = Math.min(t, AlpFormat.bitWidth(stepRange));
    int width = Math.min(t, Math.max(minWidth, Math.min(forWidth, deltaWidth)));
    int payload = AlpFormat.storedBytes(BitPacking.packedBytes(t, width, r.count));
    return payload + AlpFormat.storedBytes(AlpFormat.alpHeaderBytes(false, intBytes))
        + AlpFormat.storedBytes(exceptions * AlpFormat.EXCEPTION_POSITION_BYTES)
        + AlpFormat.storedBytes(exceptions * intBytes);
  }

  private Scan begin(int n, int wordBits, int e, int f, boolean div) {
    Scan r = trial;
    r.aborted = false;
    r.count = n;
    r.wordBits = wordBits;
    r.e = e;
    r.f = div ? 0 : f;
    r.div = div;
    return r;
  }

  /** A pass that admitted no value: every slot 0, no steps. */
  private int none(Scan r) {
    int n = r.count;
    r.exceptions = n;
    java.util.Arrays.fill(r.encoded, 0, n, 0L);
    r.min = 0;
    r.forWidth = 0;
    r.minDelta = 0;
    r.deltaWidth = n < 2 ? Integer.MAX_VALUE : 0;
    return n;
  }

  private int finish(Scan r, int exceptions, long lo, long hi, long dlo, long dhi) {
    r.exceptions = exceptions;
    set(r, lo, hi, dlo, dhi);
    return exceptions;
  }

  private void set(Scan r, long lo, long hi, long dlo, long dhi) {
    r.min = lo;
    // Both ends are signed and lo <= hi, so the wrapped difference read as unsigned is exact.
    r.forWidth = width(r.wordBits, hi - lo);
    if (r.count < 2) {
      r.minDelta = 0;
      r.deltaWidth = Integer.MAX_VALUE;
    } else {
      r.minDelta = dlo;
      r.deltaWidth = width(r.wordBits, dhi - dlo);
    }
  }

  private static int width(int wordBits, long range) {
    return AlpFormat.bitWidth(wordBits == 32 ? range & 0xFFFF_FFFFL : range);
  }

  /** Appends the best scan's four buffers to {@code out[0..3]} in the smaller form; returns their bytes. */
  int write(ByteSink[] out) {
    return write(best.prefersDelta(), out);
  }

  /** Appends the best scan's four buffers to {@code out[0..3]} in the given form; returns their bytes. */
  int write(boolean delta, ByteSink[] out) {
    Scan r = best;
    int count = r.count;
    int wordBits = r.wordBits;
    int intBytes = wordBits / 8;
    long wordMask = wordBits == 64 ? -1L : 0xFFFF_FFFFL;
    int w = delta ? r.deltaWidth : r.forWidth;
    long[] enc = r.encoded;
    if (delta) {
      long minDelta = r.minDelta;
      payload[0] = 0;
      for (int i = 1; i < count; i++) {
        payload[i] = (enc[i] - enc[i - 1] - minDelta) & wordMask;
      }
    } else {
      long min = r.min;
      for (int i = 0; i < count; i++) {
        payload[i] = (enc[i] - min) & wordMask;
      }
    }
    ByteSink packed = out[0];
    int bytes = BitPacking.packedBytes(wordBits, w, count);
    BitPacking.pack(payload, count, wordBits, w, packed.reserve(bytes), packed.size(), words);
    packed.advance(bytes);

    ByteSink header = out[1];
    header.putByte((delta ? AlpFormat.MODE_DELTA : 0) | (r.div ? AlpFormat.MODE_DIV : 0));
    header.putByte(r.e);
    header.putByte(r.f);
    header.putByte(w);
    header.putWord(intBytes, delta ? enc[0] : r.min);
    if (delta) {
      header.putWord(intBytes, r.minDelta);
    }
    for (int x = 0; x < r.exceptions; x++) {
      out[2].putShort(r.exceptionPositions[x]);
      out[3].putWord(intBytes, r.exceptionBits[x]);
    }
    return bytes + AlpFormat.alpHeaderBytes(delta, intBytes) + r.exceptions * (AlpFormat.EXCEPTION_POSITION_BYTES + intBytes);
  }
}
