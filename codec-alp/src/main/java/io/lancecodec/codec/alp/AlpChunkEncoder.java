package io.lancecodec.codec.alp;

/**
 * Encodes one chunk of at most 1024 values with a given (e, f) or use_div exponent: scales every
 * value, admits it only if the decoder's formula gives back the same bits, measures the FOR and
 * Delta widths and writes the four buffers. Holds its scratch arrays, so one instance serves a
 * whole page without allocating per chunk; not thread-safe.
 */
final class AlpChunkEncoder {
  private final long[] encoded = new long[AlpFormat.MAX_CHUNK_VALUES];
  private final int[] exceptionPositions = new int[AlpFormat.MAX_CHUNK_VALUES];
  private final long[] exceptionBits = new long[AlpFormat.MAX_CHUNK_VALUES];
  private final long[] payload = new long[AlpFormat.MAX_CHUNK_VALUES];
  private final long[] words = new long[AlpFormat.MAX_CHUNK_VALUES];

  private int count;
  private int exceptions;
  private int wordBits;
  private int e;
  private int f;
  private boolean div;

  private long min;
  private int forWidth;
  private long minDelta;
  private int deltaWidth;

  /**
   * Scales {@code v[off..off+n)} (float64) with exponent {@code e} and factor {@code f}, or with
   * {@code e} alone when {@code div}; returns the number of exceptions. Exception slots take the
   * previous admitted integer (leading ones the first), which leaves the FOR range unchanged and
   * gives Delta a zero step.
   */
  int scan64(double[] v, int off, int n, int e, int f, boolean div) {
    begin(n, 64, e, f, div);
    double up = PowersOfTen.F64[e];
    double upFactor = PowersOfTen.INV_F64[f];
    double down = div ? PowersOfTen.F64[e] : PowersOfTen.F64[f];
    double downExponent = PowersOfTen.INV_F64[e];
    int firstAdmitted = -1;
    long last = 0;
    for (int i = 0; i < n; i++) {
      double x = v[off + i];
      long q = (long) Math.rint(div ? x * up : x * up * upFactor);
      double back = div ? q / down : q * down * downExponent;
      long bits = Double.doubleToRawLongBits(x);
      if (Double.doubleToRawLongBits(back) == bits) {
        last = q;
        if (firstAdmitted < 0) {
          firstAdmitted = i;
        }
      } else {
        exceptionPositions[exceptions] = i;
        exceptionBits[exceptions++] = bits;
      }
      encoded[i] = last;
    }
    fillLeading(firstAdmitted);
    measure();
    return exceptions;
  }

  /** The float32 form of {@link #scan64}: float arithmetic throughout, 32-bit integers. */
  int scan32(float[] v, int off, int n, int e, int f, boolean div) {
    begin(n, 32, e, f, div);
    float up = PowersOfTen.F32[e];
    float upFactor = PowersOfTen.INV_F32[f];
    float down = div ? PowersOfTen.F32[e] : PowersOfTen.F32[f];
    float downExponent = PowersOfTen.INV_F32[e];
    int firstAdmitted = -1;
    long last = 0;
    for (int i = 0; i < n; i++) {
      float x = v[off + i];
      double r = Math.rint(div ? x * up : x * up * upFactor);
      int bits = Float.floatToRawIntBits(x);
      // NaN fails both comparisons; the range check keeps (int) from saturating.
      boolean admitted = r >= Integer.MIN_VALUE && r <= Integer.MAX_VALUE;
      if (admitted) {
        int q = (int) r;
        float back = div ? q / down : q * down * downExponent;
        admitted = Float.floatToRawIntBits(back) == bits;
        if (admitted) {
          last = q;
          if (firstAdmitted < 0) {
            firstAdmitted = i;
          }
        }
      }
      if (!admitted) {
        exceptionPositions[exceptions] = i;
        exceptionBits[exceptions++] = bits & 0xFFFF_FFFFL;
      }
      encoded[i] = last;
    }
    fillLeading(firstAdmitted);
    measure();
    return exceptions;
  }

  private void begin(int n, int wordBits, int e, int f, boolean div) {
    this.count = n;
    this.wordBits = wordBits;
    this.e = e;
    this.f = div ? 0 : f;
    this.div = div;
    this.exceptions = 0;
  }

  private void fillLeading(int firstAdmitted) {
    if (firstAdmitted > 0) {
      java.util.Arrays.fill(encoded, 0, firstAdmitted, encoded[firstAdmitted]);
    }
  }

  /** Signed difference of consecutive integers, wrapped to the word width. */
  private long step(int i) {
    long d = encoded[i] - encoded[i - 1];
    return wordBits == 32 ? (int) d : d;
  }

  private void measure() {
    long lo = encoded[0];
    long hi = lo;
    for (int i = 1; i < count; i++) {
      long x = encoded[i];
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    min = lo;
    // Both ends are signed and lo <= hi, so the wrapped difference read as unsigned is exact.
    forWidth = AlpFormat.bitWidth(hi - lo);
    if (count < 2) {
      deltaWidth = Integer.MAX_VALUE;
      return;
    }
    long dlo = step(1);
    long dhi = dlo;
    for (int i = 2; i < count; i++) {
      long d = step(i);
      dlo = Math.min(dlo, d);
      dhi = Math.max(dhi, d);
    }
    minDelta = dlo;
    deltaWidth = AlpFormat.bitWidth(dhi - dlo);
  }

  int exceptions() {
    return exceptions;
  }

  /** FOR bit width of the last scan: the estimate the samplers rank candidates by. */
  int forWidth() {
    return forWidth;
  }

  /** Bytes of the chunk in the FOR ({@code delta = false}) or Delta form; MAX_VALUE if impossible. */
  int size(boolean delta) {
    int w = delta ? deltaWidth : forWidth;
    if (w > wordBits) {
      return Integer.MAX_VALUE;
    }
    int intBytes = wordBits / 8;
    return BitPacking.packedBytes(wordBits, w, count)
        + AlpFormat.alpHeaderBytes(delta, intBytes)
        + exceptions * (AlpFormat.EXCEPTION_POSITION_BYTES + intBytes);
  }

  /** Delta only when strictly smaller: FOR decodes without a carried sum. */
  boolean prefersDelta() {
    return size(true) < size(false);
  }

  /** Appends the chunk's four buffers to {@code out[0..3]} and returns its total bytes. */
  int write(boolean delta, ByteSink[] out) {
    int intBytes = wordBits / 8;
    long wordMask = wordBits == 64 ? -1L : 0xFFFF_FFFFL;
    int w = delta ? deltaWidth : forWidth;
    if (delta) {
      payload[0] = 0;
      for (int i = 1; i < count; i++) {
        payload[i] = (step(i) - minDelta) & wordMask;
      }
    } else {
      for (int i = 0; i < count; i++) {
        payload[i] = (encoded[i] - min) & wordMask;
      }
    }
    ByteSink packed = out[0];
    int bytes = BitPacking.packedBytes(wordBits, w, count);
    BitPacking.pack(payload, count, wordBits, w, packed.reserve(bytes), packed.size(), words);
    packed.advance(bytes);

    ByteSink header = out[1];
    header.putByte((delta ? AlpFormat.MODE_DELTA : 0) | (div ? AlpFormat.MODE_DIV : 0));
    header.putByte(e);
    header.putByte(f);
    header.putByte(w);
    header.putWord(intBytes, delta ? encoded[0] : min);
    if (delta) {
      header.putWord(intBytes, minDelta);
    }
    for (int x = 0; x < exceptions; x++) {
      out[2].putShort(exceptionPositions[x]);
      out[3].putWord(intBytes, exceptionBits[x]);
    }
    return size(delta);
  }
}
