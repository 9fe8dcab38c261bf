package io.lancecodec.codec.alp;

import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlocks;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a page of float64 or float32 values into ALP chunks of 1024 values (the last one
 * shorter), choosing per chunk: the exponents by the paper's two-level sampling
 * ({@link AlpSampler}), FOR or Delta by exact size, and for float64 ALP-RD instead of ALP when the
 * row group's sample or the chunk itself needs 48 bits or more per value and ALP-RD is smaller.
 * Returns {@code null} when ALP is not worth it (the page's buffers would not be smaller than
 * its raw bytes, or a chunk would exceed the byte budget): the caller then stores the page flat.
 *
 * <p>Holds scratch state for one page at a time; not thread-safe, use one per writing thread.
 */
public final class AlpEncoder {
  private final AlpChunkEncoder alp = new AlpChunkEncoder();
  private final AlpRdEncoder rd = new AlpRdEncoder();
  private final AlpSampler sampler = new AlpSampler(alp);

  private double[] values64;
  private float[] values32;

  /** {@link #encodePage(double[], int, int, int)} with the 2.1 mini-block chunk budget. */
  public AlpPage encodePage(double[] v, int off, int n) {
    return encodePage(v, off, n, MiniBlocks.MAX_CHUNK_BYTES_SMALL);
  }

  /**
   * Encodes {@code v[off..off+n)}, or returns {@code null} when ALP would not make the page
   * smaller or a chunk's four buffers would together exceed {@code maxChunkBytes}.
   */
  public AlpPage encodePage(double[] v, int off, int n, int maxChunkBytes) {
    checkRange(v.length, off, n);
    values64 = v;
    values32 = null;
    sampler.bind(v);
    try {
      return encode(off, n, 64, maxChunkBytes);
    } finally {
      values64 = null;
    }
  }

  /** {@link #encodePage(float[], int, int, int)} with the 2.1 mini-block chunk budget. */
  public AlpPage encodePage(float[] v, int off, int n) {
    return encodePage(v, off, n, MiniBlocks.MAX_CHUNK_BYTES_SMALL);
  }

  /** The float32 form of {@link #encodePage(double[], int, int, int)}; float32 has no ALP-RD. */
  public AlpPage encodePage(float[] v, int off, int n, int maxChunkBytes) {
    checkRange(v.length, off, n);
    values32 = v;
    values64 = null;
    sampler.bind(v);
    try {
      return encode(off, n, 32, maxChunkBytes);
    } finally {
      values32 = null;
    }
  }

  private static void checkRange(int length, int off, int n) {
    if (off < 0 || n < 0 || (long) off + n > length) {
      throw new IndexOutOfBoundsException("values [" + off + ", +" + n + ") of " + length);
    }
  }

  private AlpPage encode(int off, int n, int wordBits, int maxChunkBytes) {
    if (n == 0) {
      return null;
    }
    long rawBytes = (long) n * (wordBits / 8);
    int chunkCount = (n + AlpFormat.MAX_CHUNK_VALUES - 1) / AlpFormat.MAX_CHUNK_VALUES;
    ByteSink[] out = new ByteSink[4];
    out[0] = new ByteSink((int) Math.min(rawBytes / 2, Integer.MAX_VALUE - 64));
    out[1] = new ByteSink(chunkCount * 20);
    out[2] = new ByteSink(64);
    out[3] = new ByteSink(64);
    List<MiniBlockChunk> chunks = new ArrayList<>(chunkCount);
    int[] chunkValues = new int[chunkCount];
    int rowGroupValues = AlpFormat.ROW_GROUP_VECTORS * AlpFormat.MAX_CHUNK_VALUES;
    long total = 0;
    int c = 0;
    for (int group = 0; group < n; group += rowGroupValues) {
      int groupEnd = Math.min(n, group + rowGroupValues);
      AlpSampler.RowGroup plan = sampler.firstLevel(off + group, groupEnd - group);
      for (int start = group; start < groupEnd; start += AlpFormat.MAX_CHUNK_VALUES, c++) {
        int len = Math.min(AlpFormat.MAX_CHUNK_VALUES, groupEnd - start);
        int[] before = {out[0].size(), out[1].size(), out[2].size(), out[3].size()};
        int bytes = encodeChunk(off + start, len, plan, out);
        if (bytes > maxChunkBytes) {
          return null;
        }
        total += bytes;
        int[] sizes = new int[4];
        for (int i = 0; i < 4; i++) {
          sizes[i] = out[i].size() - before[i];
        }
        boolean last = start + len == n;
        chunks.add(new MiniBlockChunk(sizes, last ? 0 : Integer.numberOfTrailingZeros(len)));
        chunkValues[c] = len;
      }
    }
    if (total >= rawBytes) {
      return null;
    }
    byte[][] buffers = {out[0].toArray(), out[1].toArray(), out[2].toArray(), out[3].toArray()};
    return new AlpPage(buffers, chunks, chunkValues, n);
  }

  /** Chooses and writes one chunk; returns its bytes. */
  private int encodeChunk(int start, int len, AlpSampler.RowGroup plan, ByteSink[] out) {
    boolean f64 = values64 != null;
    if (f64 && plan.preferRd && rd.choose(values64, start, len) != Integer.MAX_VALUE) {
      return rd.write(out);
    }
    int combination = sampler.secondLevel(start, len, plan);
    int e = AlpSampler.exponent(combination);
    int f = AlpSampler.factor(combination);
    boolean div = AlpSampler.divides(combination);
    int exceptions = scan(start, len, e, f, div);
    if (exceptions > 0 && !div) {
      // A sample of 32 can miss what the multiply chain gets wrong in the whole vector. The
      // divide path with the same scale is exact for every decimal whose digits fit the
      // significand (q and 10^e are exact, and one rounding gives what parsing the decimal
      // gives), so it is the repair to try; the multiply form stays when it is no larger.
      int multiplyBytes = alp.size(alp.prefersDelta());
      scan(start, len, e - f, 0, true);
      if (alp.size(alp.prefersDelta()) >= multiplyBytes) {
        scan(start, len, e, f, false);
      }
    }
    boolean delta = alp.prefersDelta();
    int alpBytes = alp.size(delta);
    if (f64 && !plan.preferRd && (long) alpBytes * 8 >= (long) AlpFormat.RD_TRIGGER_BITS_F64 * len) {
      int rdBytes = rd.choose(values64, start, len);
      if (rdBytes < alpBytes) {
        return rd.write(out);
      }
    }
    return alp.write(delta, out);
  }

  private int scan(int start, int len, int e, int f, boolean div) {
    return values64 != null
        ? alp.scan64(values64, start, len, e, f, div)
        : alp.scan32(values32, start, len, e, f, div);
  }
}
