package io.lancecodec.codec.alp;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.kernel.KernelClasses;
import java.nio.ByteBuffer;

/**
 * Decodes ALP and ALP-RD chunks (layout in {@code package-info.java}) into a caller's
 * {@code double[]} or {@code float[]}. Every size, width and position read from the chunk is
 * checked before it is used, and all of them before the output is written, so a hostile chunk
 * fails with one {@link LanceCodecException} of kind CORRUPT and never allocates. Holds scratch
 * arrays for ALP-RD; not thread-safe, use one per reading thread.
 */
public final class AlpDecoder {
  private static final int PAYLOAD = 0;
  private static final int HEADER = 1;
  private static final int POSITIONS = 2;
  private static final int VALUES = 3;

  private final byte[][] src = new byte[4][];
  private final int[] at = new int[4];
  private final int[] len = new int[4];
  private final int[] index = new int[AlpFormat.MAX_CHUNK_VALUES];
  private final long[] left = new long[AlpFormat.MAX_CHUNK_VALUES];
  private final Alp alp = new Alp();

  /** Whether whole FOR chunks take the generated kernels ({@link AlpKernels}; see {@link KernelClasses#fusedEnabled}). */
  private final boolean kernels = KernelClasses.fusedEnabled();

  /**
   * Decodes a float64 chunk of {@code n} values whose buffer {@code i} is
   * {@code chunk[offsets[i], offsets[i] + sizes[i])} to {@code out[outOffset..outOffset+n)}.
   */
  public void decodeChunk(byte[] chunk, int[] offsets, int[] sizes, int n, double[] out, int outOffset) {
    view(chunk, offsets, sizes);
    decode64(n, out, outOffset);
  }

  /** The float32 form of {@link #decodeChunk(byte[], int[], int[], int, double[], int)}. */
  public void decodeChunk(byte[] chunk, int[] offsets, int[] sizes, int n, float[] out, int outOffset) {
    view(chunk, offsets, sizes);
    decode32(n, out, outOffset);
  }

  /**
   * Decodes values {@code [from, to)} of the float64 chunk of {@code n} values that
   * {@link #decodeChunk(byte[], int[], int[], int, double[], int)} would decode, to
   * {@code out[outOffset..outOffset+to-from)}, reading only those values, when the chunk is ALP
   * in the FOR form; returns false, having written nothing, for Delta and ALP-RD chunks, which the
   * caller decodes whole. The chunk's header, sizes and exception positions are checked all the
   * same.
   */
  public boolean decodeRange(byte[] chunk, int[] offsets, int[] sizes, int n, int from, int to, double[] out, int outOffset) {
    view(chunk, offsets, sizes);
    checkRange(n, from, to, out.length, outOffset);
    int mode = mode(true);
    if ((mode & (AlpFormat.MODE_RD | AlpFormat.MODE_DELTA)) != 0) {
      return false;
    }
    Alp h = header(mode, 64, n);
    long base = LittleEndian.getLong(src[HEADER], at[HEADER] + AlpFormat.ALP_HEADER_FIXED);
    double m1 = h.div ? PowersOfTen.F64[h.e] : PowersOfTen.F64[h.f];
    double m2 = PowersOfTen.INV_F64[h.e];
    FusedDecode.pick64(src[PAYLOAD], at[PAYLOAD], h.raw, h.width, from, to, base, h.div, m1, m2, out, outOffset);
    byte[] vb = src[VALUES];
    for (int x = 0; x < h.exceptions; x++) {
      int p = position(x);
      if (p >= from && p < to) {
        out[outOffset + p - from] = Double.longBitsToDouble(LittleEndian.getLong(vb, at[VALUES] + 8 * x));
      }
    }
    return true;
  }

  /** The float32 form of {@link #decodeRange(byte[], int[], int[], int, int, int, double[], int)}. */
  public boolean decodeRange(byte[] chunk, int[] offsets, int[] sizes, int n, int from, int to, float[] out, int outOffset) {
    view(chunk, offsets, sizes);
    checkRange(n, from, to, out.length, outOffset);
    int mode = mode(false);
    if ((mode & AlpFormat.MODE_DELTA) != 0) {
      return false;
    }
    Alp h = header(mode, 32, n);
    int base = LittleEndian.getInt(src[HEADER], at[HEADER] + AlpFormat.ALP_HEADER_FIXED);
    float m1 = h.div ? PowersOfTen.F32[h.e] : PowersOfTen.F32[h.f];
    float m2 = PowersOfTen.INV_F32[h.e];
    FusedDecode.pick32(src[PAYLOAD], at[PAYLOAD], h.raw, h.width, from, to, base, h.div, m1, m2, out, outOffset);
    byte[] vb = src[VALUES];
    for (int x = 0; x < h.exceptions; x++) {
      int p = position(x);
      if (p >= from && p < to) {
        out[outOffset + p - from] = Float.intBitsToFloat(LittleEndian.getInt(vb, at[VALUES] + 4 * x));
      }
    }
    return true;
  }

  private static void checkRange(int n, int from, int to, int outLength, int outOffset) {
    if (n < 1 || n > AlpFormat.MAX_CHUNK_VALUES) {
      throw LanceCodecException.corrupt("alp: chunk of " + n + " values, expected 1 to "
          + AlpFormat.MAX_CHUNK_VALUES);
    }
    if (from < 0 || from > to || to > n || outOffset < 0 || (long) outOffset + (to - from) > outLength) {
      throw LanceCodecException.invalidArgument("alp: values [" + from + ", " + to + ") of " + n
          + " do not fit an output of " + outLength + " from " + outOffset);
    }
  }

  /** Decodes a float64 chunk from four buffers, each read from its position to its limit. */
  public void decodeChunk(ByteBuffer payload, ByteBuffer header, ByteBuffer positions, ByteBuffer values,
      int n, double[] out, int outOffset) {
    view(payload, header, positions, values);
    decode64(n, out, outOffset);
  }

  /** The float32 form of {@link #decodeChunk(ByteBuffer, ByteBuffer, ByteBuffer, ByteBuffer, int, double[], int)}. */
  public void decodeChunk(ByteBuffer payload, ByteBuffer header, ByteBuffer positions, ByteBuffer values,
      int n, float[] out, int outOffset) {
    view(payload, header, positions, values);
    decode32(n, out, outOffset);
  }

  /** Decodes every chunk of a float64 page, in order, to {@code out} from {@code outOffset}. */
  public void decodePage(AlpPage page, double[] out, int outOffset) {
    int[] offsets = new int[4];
    for (int c = 0; c < page.numChunks(); c++) {
      for (int i = 0; i < 4; i++) {
        src[i] = page.buffer(i);
        at[i] = offsets[i];
        len[i] = page.chunks().get(c).bufferSizes()[i];
        offsets[i] += len[i];
      }
      decode64(page.chunkValues(c), out, outOffset);
      outOffset += page.chunkValues(c);
    }
  }

  /** Decodes every chunk of a float32 page, in order, to {@code out} from {@code outOffset}. */
  public void decodePage(AlpPage page, float[] out, int outOffset) {
    int[] offsets = new int[4];
    for (int c = 0; c < page.numChunks(); c++) {
      for (int i = 0; i < 4; i++) {
        src[i] = page.buffer(i);
        at[i] = offsets[i];
        len[i] = page.chunks().get(c).bufferSizes()[i];
        offsets[i] += len[i];
      }
      decode32(page.chunkValues(c), out, outOffset);
      outOffset += page.chunkValues(c);
    }
  }

  private void view(byte[] chunk, int[] offsets, int[] sizes) {
    if (offsets.length != 4 || sizes.length != 4) {
      throw LanceCodecException.corrupt("alp: a chunk has " + sizes.length + " buffers, expected 4");
    }
    for (int i = 0; i < 4; i++) {
      if (offsets[i] < 0 || sizes[i] < 0 || (long) offsets[i] + sizes[i] > chunk.length) {
        throw LanceCodecException.corrupt("alp: buffer " + i + " [" + offsets[i] + ", +" + sizes[i]
            + ") lies outside the chunk's " + chunk.length + " bytes");
      }
      src[i] = chunk;
      at[i] = offsets[i];
      len[i] = sizes[i];
    }
  }

  private void view(ByteBuffer... buffers) {
    for (int i = 0; i < 4; i++) {
      ByteBuffer b = buffers[i];
      if (b.hasArray()) {
        src[i] = b.array();
        at[i] = b.arrayOffset() + b.position();
      } else {
        src[i] = new byte[b.remaining()];
        b.duplicate().get(src[i]);
        at[i] = 0;
      }
      len[i] = b.remaining();
    }
  }

  private static void checkCount(int n, int outLength, int outOffset) {
    if (n < 1 || n > AlpFormat.MAX_CHUNK_VALUES) {
      throw LanceCodecException.corrupt("alp: chunk of " + n + " values, expected 1 to "
          + AlpFormat.MAX_CHUNK_VALUES);
    }
    if (outOffset < 0 || (long) outOffset + n > outLength) {
      throw LanceCodecException.invalidArgument("alp: " + n + " values do not fit an output of "
          + outLength + " from " + outOffset);
    }
  }

  private int mode(boolean f64) {
    LanceCodecException.check(len[HEADER] >= 1, "alp: empty chunk header");
    int mode = src[HEADER][at[HEADER]] & 0xFF;
    if ((mode & ~AlpFormat.MODE_KNOWN) != 0) {
      throw LanceCodecException.corrupt("alp: mode byte 0x" + Integer.toHexString(mode) + " has unknown bits");
    }
    if ((mode & AlpFormat.MODE_RD) != 0 && !f64) {
      throw LanceCodecException.corrupt("alp: ALP-RD chunk in a float32 page");
    }
    return mode;
  }

  private void decode64(int n, double[] out, int oo) {
    checkCount(n, out.length, oo);
    int mode = mode(true);
    if ((mode & AlpFormat.MODE_RD) != 0) {
      decodeRd(mode, n, out, oo);
      return;
    }
    Alp h = header(mode, 64, n);
    byte[] hb = src[HEADER];
    long base = LittleEndian.getLong(hb, at[HEADER] + AlpFormat.ALP_HEADER_FIXED);
    long step = h.delta ? LittleEndian.getLong(hb, at[HEADER] + AlpFormat.ALP_HEADER_FIXED + 8) : 0;
    double m1 = h.div ? PowersOfTen.F64[h.e] : PowersOfTen.F64[h.f];
    double m2 = PowersOfTen.INV_F64[h.e];
    FusedDecode.alp64(src[PAYLOAD], at[PAYLOAD], h.raw, h.width, n, h.delta, base, step, h.div, m1, m2, kernels, out, oo);
    byte[] vb = src[VALUES];
    for (int x = 0; x < h.exceptions; x++) {
      out[oo + position(x)] = Double.longBitsToDouble(LittleEndian.getLong(vb, at[VALUES] + 8 * x));
    }
  }

  private void decode32(int n, float[] out, int oo) {
    checkCount(n, out.length, oo);
    Alp h = header(mode(false), 32, n);
    byte[] hb = src[HEADER];
    int base = LittleEndian.getInt(hb, at[HEADER] + AlpFormat.ALP_HEADER_FIXED);
    int step = h.delta ? LittleEndian.getInt(hb, at[HEADER] + AlpFormat.ALP_HEADER_FIXED + 4) : 0;
    float m1 = h.div ? PowersOfTen.F32[h.e] : PowersOfTen.F32[h.f];
    float m2 = PowersOfTen.INV_F32[h.e];
    FusedDecode.alp32(src[PAYLOAD], at[PAYLOAD], h.raw, h.width, n, h.delta, base, step, h.div, m1, m2, kernels, out, oo);
    byte[] vb = src[VALUES];
    for (int x = 0; x < h.exceptions; x++) {
      out[oo + position(x)] = Float.intBitsToFloat(LittleEndian.getInt(vb, at[VALUES] + 4 * x));
    }
  }

  private int position(int x) {
    return LittleEndian.getShort(src[POSITIONS], at[POSITIONS] + 2 * x) & 0xFFFF;
  }

  /** The checked fields of an ALP header. */
  private static final class Alp {
    boolean delta;
    boolean div;
    int e;
    int f;
    int width;
    boolean raw;
    int exceptions;
  }

  private Alp header(int mode, int t, int n) {
    Alp h = alp;
    h.delta = (mode & AlpFormat.MODE_DELTA) != 0;
    h.div = (mode & AlpFormat.MODE_DIV) != 0;
    int intBytes = t / 8;
    int expected = AlpFormat.alpHeaderBytes(h.delta, intBytes);
    if (len[HEADER] != expected) {
      throw LanceCodecException.corrupt("alp: chunk header of " + len[HEADER] + " bytes, expected "
          + expected + " for mode 0x" + Integer.toHexString(mode));
    }
    byte[] hb = src[HEADER];
    int p = at[HEADER];
    h.e = hb[p + 1] & 0xFF;
    h.f = h.div ? 0 : hb[p + 2] & 0xFF;
    h.width = hb[p + 3] & 0xFF;
    int maxE = t == 64 ? AlpFormat.MAX_EXPONENT_F64 : AlpFormat.MAX_EXPONENT_F32;
    if (h.e > maxE || h.f > h.e) {
      throw LanceCodecException.corrupt("alp: exponents e=" + h.e + " f=" + h.f + " outside 0 <= f <= e <= " + maxE);
    }
    if (h.width > t) {
      throw LanceCodecException.corrupt("alp: bit width " + h.width + " exceeds the " + t + "-bit integers");
    }
    h.raw = rawForm(PAYLOAD, "payload", t, h.width, n);
    // (if, not LanceCodecException.check: the message would be built for every chunk)
    if (len[POSITIONS] % 2 != 0) {
      throw LanceCodecException.corrupt("alp: exception positions take " + len[POSITIONS] + " bytes, not a multiple of 2");
    }
    h.exceptions = len[POSITIONS] / 2;
    if (h.exceptions > n || (long) h.exceptions * intBytes != len[VALUES]) {
      throw LanceCodecException.corrupt("alp: " + h.exceptions + " exception positions and "
          + len[VALUES] + " bytes of exception values do not match a chunk of " + n + " values");
    }
    for (int x = 0; x < h.exceptions; x++) {
      int pos = position(x);
      if (pos >= n) {
        throw LanceCodecException.corrupt("alp: exception position " + pos + " outside the chunk's " + n + " values");
      }
    }
    return h;
  }

  /**
   * Whether buffer {@code k} holds {@code n} raw words (true) or one packed block (false); as
   * upstream's out-of-line reader decides, a short chunk's buffer of exactly n words is raw.
   */
  private boolean rawForm(int k, String what, int t, int w, int n) {
    int bytes = len[k];
    if (n < AlpFormat.MAX_CHUNK_VALUES && bytes == n * (t / 8)) {
      return true;
    }
    if (bytes != 128 * w) {
      throw LanceCodecException.corrupt("alp: " + what + " of " + bytes + " bytes fits neither " + n
          + " values of " + w + " bits packed (" + 128 * w + ") nor raw (" + n * (t / 8) + ")");
    }
    return false;
  }

  private void decodeRd(int mode, int n, double[] out, int oo) {
    byte[] hb = src[HEADER];
    int p = at[HEADER];
    if (len[HEADER] != AlpFormat.RD_HEADER_BYTES) {
      throw LanceCodecException.corrupt("alp: ALP-RD header of " + len[HEADER] + " bytes, expected "
          + AlpFormat.RD_HEADER_BYTES);
    }
    int d = hb[p + 1] & 0xFF;
    int ib = hb[p + 2] & 0xFF;
    long size = LittleEndian.getInt(hb, p + 4) & 0xFFFF_FFFFL;
    if (mode != AlpFormat.MODE_RD || hb[p + AlpFormat.RD_RESERVED] != 0) {
      throw LanceCodecException.corrupt("alp: ALP-RD header has mode 0x" + Integer.toHexString(mode)
          + " and reserved byte " + (hb[p + AlpFormat.RD_RESERVED] & 0xFF) + ", expected 0x4 and 0");
    }
    if (d < 1 || d > 63 || ib > AlpFormat.RD_INDEX_WORD_BITS) {
      throw LanceCodecException.corrupt("alp: ALP-RD right width " + d + " or index width " + ib
          + " outside 1..63 and 0.." + AlpFormat.RD_INDEX_WORD_BITS);
    }
    if (size < 1 || size > n || size * AlpFormat.RD_DICT_ENTRY_BYTES != len[POSITIONS]) {
      throw LanceCodecException.corrupt("alp: ALP-RD dictionary of " + size + " entries in "
          + len[POSITIONS] + " bytes, for a chunk of " + n + " values");
    }
    boolean raw = rawForm(PAYLOAD, "ALP-RD right parts", 64, d, n);
    int entries = (int) size;
    for (int j = 0; j < entries; j++) {
      long part = LittleEndian.getLong(src[POSITIONS], at[POSITIONS] + 8 * j);
      if (part >>> (64 - d) != 0) {
        throw LanceCodecException.corrupt("alp: ALP-RD left part " + j + " is wider than " + (64 - d) + " bits");
      }
      left[j] = part << d;
    }
    if (ib == 0) {
      if (len[VALUES] != 0) {
        throw LanceCodecException.corrupt("alp: ALP-RD index stream of " + len[VALUES] + " bytes with an index width of 0");
      }
      java.util.Arrays.fill(index, 0, n, 0);
    } else {
      boolean rawIndex = rawForm(VALUES, "ALP-RD index stream", AlpFormat.RD_INDEX_WORD_BITS, ib, n);
      int max = BitPacking.unpack16(src[VALUES], at[VALUES], rawIndex, ib, n, index);
      if (max >= entries) {
        int i = 0;
        while (index[i] < entries) {
          i++;
        }
        throw LanceCodecException.corrupt("alp: ALP-RD index " + index[i] + " at " + i
            + " outside the dictionary's " + entries + " entries");
      }
    }
    FusedDecode.rd64(src[PAYLOAD], at[PAYLOAD], raw, d, n, index, left, out, oo);
  }
}
