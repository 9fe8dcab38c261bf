package io.lancecodec.codec.alp;

import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockChunk;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlocks;
import java.util.Collections;
import java.util.List;

/**
 * Encodes a page of float64 or float32 values into ALP chunks of 1024 values (the last one
 * shorter). Per chunk, exact encodings of a few candidates are compared and the smallest stored
 * chunk is kept, in the smaller of FOR and Delta:
 *
 * <ul>
 *   <li>the pick of our list and the paper's pick ({@link AlpSampler}); the paper's is always
 *       encoded (abandoned as soon as it provably cannot be smaller), so no chunk is larger than
 *       the paper's choice of (e, f) makes it in this layout;
 *   <li>when the best so far leaves exceptions: use_div at its scale (a multiply chain's misses
 *       are mostly rounding, which the single division does not have), and then use_div one
 *       decimal either side, walking on while the chunk shrinks (values with more digits than the
 *       type holds trade exceptions against bits, which a 32-value sample cannot weigh), unless a
 *       bound on the neighbour's width, and one decimal down a sample of every 8th value, say it
 *       cannot come close;
 *   <li>float64: ALP-RD for row groups the paper sends there (when a use_div candidate's sample
 *       estimate is below ALP-RD's bound, the ALP candidates above are encoded too and the
 *       smaller kept), and for any chunk that needs 48 bits or more per value.
 * </ul>
 *
 * <p>Ties go to ours, then the paper's, then the repair, then a neighbour, but the scans begin
 * with the candidate that won the previous chunk when it is among the first three: a full scan
 * costs 2-10 ns a value, and the losers' scans are abandoned sooner against the winner's size.
 *
 * <p>Sizes are compared as the mini-block page stores them: every chunk buffer padded to 8 bytes
 * ({@link AlpFormat#storedBytes}). For a short last chunk that accounts for its payload exactly:
 * 1024 slots of W bits when packed, so a bit of width costs as much as in a full chunk, or n raw
 * words when that is smaller. Returns {@code null} when ALP is not worth it: the page, with its
 * chunk metadata and padding ({@code MiniBlocks.storedBytes}, 2.3), would not be smaller than its
 * raw values, or a chunk's four buffers would exceed the byte budget. The caller then stores the
 * page flat.
 *
 * <p>Holds scratch state, including output buffers that grow to the largest page seen; not
 * thread-safe, use one per writing thread.
 */
public final class AlpEncoder {
  /** Stand-ins for the page's four buffers: {@code MiniBlocks.storedBytes} only counts them. */
  private static final List<byte[]> FOUR_EMPTY = Collections.nCopies(4, new byte[0]);

  private final AlpChunkEncoder alp = new AlpChunkEncoder();
  /** Made at the first float64 chunk that tries ALP-RD: its tables are most of a new encoder's allocation. */
  private AlpRdEncoder rd;
  private final AlpSampler sampler = new AlpSampler();
  private final ByteSink[] out = {new ByteSink(1 << 12), new ByteSink(1 << 12), new ByteSink(1 << 8), new ByteSink(1 << 8)};

  private double[] values64;
  private float[] values32;

  /** {@link #encodePage(double[], int, int, int)} with the 2.1 mini-block chunk budget. */
  public AlpPage encodePage(double[] v, int off, int n) {
    return encodePage(v, off, n, MiniBlocks.MAX_CHUNK_BYTES_2_1);
  }

  /**
   * Encodes {@code v[off..off+n)}, or returns {@code null} when ALP would not make the page
   * smaller or a chunk's four buffers would together exceed {@code maxChunkBytes}.
   */
  public AlpPage encodePage(double[] v, int off, int n, int maxChunkBytes) {
    return encodePage(v, off, n, maxChunkBytes, true);
  }

  /**
   * As {@link #encodePage(double[], int, int, int)}; with {@code mustShrink} false the page is
   * encoded even when it is not smaller than its raw values (a compressor chosen for another
   * page must still write this one), and {@code null} means only that a chunk overran the budget.
   */
  public AlpPage encodePage(double[] v, int off, int n, int maxChunkBytes, boolean mustShrink) {
    return encodePage(v, off, n, maxChunkBytes, mustShrink, Long.MAX_VALUE);
  }

  /**
   * As {@link #encodePage(double[], int, int, int, boolean)}, giving up ({@code null}) as soon as
   * the chunks written so far take more than {@code sizeToBeat} bytes: an offer that size loses
   * to one the writer already has.
   */
  public AlpPage encodePage(double[] v, int off, int n, int maxChunkBytes, boolean mustShrink, long sizeToBeat) {
    checkRange(v.length, off, n);
    values64 = v;
    values32 = null;
    sampler.bind(v);
    try {
      return encode(off, n, 64, maxChunkBytes, mustShrink, sizeToBeat);
    } finally {
      values64 = null;
      sampler.bind((double[]) null);
    }
  }

  /** {@link #encodePage(float[], int, int, int)} with the 2.1 mini-block chunk budget. */
  public AlpPage encodePage(float[] v, int off, int n) {
    return encodePage(v, off, n, MiniBlocks.MAX_CHUNK_BYTES_2_1);
  }

  /** The float32 form of {@link #encodePage(double[], int, int, int)}; float32 has no ALP-RD. */
  public AlpPage encodePage(float[] v, int off, int n, int maxChunkBytes) {
    return encodePage(v, off, n, maxChunkBytes, true);
  }

  /** The float32 form of {@link #encodePage(double[], int, int, int, boolean)}. */
  public AlpPage encodePage(float[] v, int off, int n, int maxChunkBytes, boolean mustShrink) {
    return encodePage(v, off, n, maxChunkBytes, mustShrink, Long.MAX_VALUE);
  }

  /** The float32 form of {@link #encodePage(double[], int, int, int, boolean, long)}. */
  public AlpPage encodePage(float[] v, int off, int n, int maxChunkBytes, boolean mustShrink, long sizeToBeat) {
    checkRange(v.length, off, n);
    values32 = v;
    values64 = null;
    sampler.bind(v);
    try {
      return encode(off, n, 32, maxChunkBytes, mustShrink, sizeToBeat);
    } finally {
      values32 = null;
      sampler.bind((float[]) null);
    }
  }

  private static void checkRange(int length, int off, int n) {
    if (off < 0 || n < 0 || (long) off + n > length) {
      throw new IndexOutOfBoundsException("values [" + off + ", +" + n + ") of " + length);
    }
  }

  private AlpPage encode(int off, int n, int wordBits, int maxChunkBytes, boolean mustShrink, long sizeToBeat) {
    if (n == 0) {
      return null;
    }
    for (ByteSink sink : out) {
      sink.clear();
    }
    long rawBytes = (long) n * (wordBits / 8);
    if (sizeToBeat != Long.MAX_VALUE && outclassed(off, n, sizeToBeat)) {
      return null;
    }
    int chunkCount = (n + AlpFormat.MAX_CHUNK_VALUES - 1) / AlpFormat.MAX_CHUNK_VALUES;
    MiniBlockChunk[] chunks = new MiniBlockChunk[chunkCount];
    int[] chunkValues = new int[chunkCount];
    int[] before = new int[4];
    int rowGroupValues = AlpFormat.ROW_GROUP_VECTORS * AlpFormat.MAX_CHUNK_VALUES;
    lastWinner = NONE;
    int c = 0;
    long written = 0;
    for (int group = 0; group < n; group += rowGroupValues) {
      int groupEnd = Math.min(n, group + rowGroupValues);
      AlpSampler.RowGroup plan = sampler.firstLevel(off + group, groupEnd - group);
      for (int start = group; start < groupEnd; start += AlpFormat.MAX_CHUNK_VALUES, c++) {
        int len = Math.min(AlpFormat.MAX_CHUNK_VALUES, groupEnd - start);
        for (int i = 0; i < 4; i++) {
          before[i] = out[i].size();
        }
        int bytes = encodeChunk(off + start, len, plan);
        written += bytes;
        // the chunks still to come take at least a header each
        if (bytes > maxChunkBytes || written + (long) (chunkCount - c - 1) * MIN_CHUNK_BYTES > sizeToBeat) {
          return null;
        }
        int[] sizes = new int[4];
        for (int i = 0; i < 4; i++) {
          sizes[i] = out[i].size() - before[i];
        }
        boolean last = start + len == n;
        chunks[c] = new MiniBlockChunk(sizes, last ? 0 : Integer.numberOfTrailingZeros(len));
        chunkValues[c] = len;
      }
    }
    List<MiniBlockChunk> chunkList = List.of(chunks);
    long stored = MiniBlocks.storedBytes(new MiniBlockCompressed(FOUR_EMPTY, chunkList, n, null), FileVersion.V2_3);
    if (mustShrink && stored >= rawBytes) {
      return null;
    }
    byte[][] buffers = {out[0].toArray(), out[1].toArray(), out[2].toArray(), out[3].toArray()};
    return new AlpPage(buffers, chunkList, chunkValues, n);
  }

  /**
   * Whether another encoding already stores the page in a small fraction of what ALP promises
   * on it: the first, middle and last full vectors' best first-level estimates all above
   * {@link #OUTCLASSED} times {@code sizeToBeat}, per value. A few vectors' probes
   * instead of the first level's over a row group and the chunks until the size to beat is
   * passed: run-length encoding stores 200,000 sorted flight times (floats of minutes / 60) in
   * 9 KB, where ALP needs 20-odd bits a value and sampling took a sixth of the write.
   */
  private boolean outclassed(int off, int n, long sizeToBeat) {
    int vectors = (n + AlpFormat.MAX_CHUNK_VALUES - 1) / AlpFormat.MAX_CHUNK_VALUES;
    double limit = OUTCLASSED * (double) sizeToBeat * 8 / n;
    for (int vector : new int[] {0, vectors / 2, Math.max(0, vectors - 2)}) {
      int start = vector * AlpFormat.MAX_CHUNK_VALUES;
      if (!sampler.vectorExceeds(off + start, Math.min(AlpFormat.MAX_CHUNK_VALUES, n - start), limit)) {
        return false;
      }
    }
    return true;
  }

  private AlpRdEncoder rd() {
    if (rd == null) {
      rd = new AlpRdEncoder();
    }
    return rd;
  }

  /** Chooses and writes one chunk; returns its buffer bytes. */
  private int encodeChunk(int start, int len, AlpSampler.RowGroup plan) {
    boolean f64 = values64 != null;
    int rdBytes = Integer.MAX_VALUE;
    boolean rdTried = f64 && plan.preferRd;
    if (rdTried) {
      rdBytes = rd().choose(values64, start, len);
      if (!plan.divBelowRdBound && rdBytes != Integer.MAX_VALUE) {
        // The paper sends the row group to ALP-RD and no use_div candidate came near on the sample.
        return rd.write(out);
      }
    }
    int ours = sampler.secondLevel(start, len, plan.ours);
    int paper = sampler.secondLevel(start, len, plan.candidates);
    int repair = AlpSampler.divides(ours) ? NONE : AlpSampler.combination(scale(ours), 0, true);
    // Ties go to ours, then the paper's, then the repair (the order the choice was first defined
    // in), but the scans start with whichever of them won the previous chunk: neighbouring chunks
    // mostly pick alike, and with the winner scanned first the others are abandoned early.
    int first = lastWinner == paper ? paper : lastWinner == repair && repair != NONE ? repair : ours;
    scan(start, len, first, Integer.MAX_VALUE);
    alp.keep();
    int bestRank = rank(first, ours, paper);
    // The paper's pick is always scanned, and only abandoned once its lower bound shows it no
    // smaller than the best: no chunk is larger than the paper's choice makes it.
    if (ours != first) {
      bestRank = challenge(start, len, ours, RANK_OURS, bestRank);
    }
    if (paper != first && paper != ours) {
      bestRank = challenge(start, len, paper, RANK_PAPER, bestRank);
    }
    AlpChunkEncoder.Scan best = alp.best();
    if (best.exceptions > 0 && !best.div) {
      // A sample of 32 can miss what the multiply chain gets wrong in the whole vector. The
      // divide path with the same scale is exact for every decimal whose digits fit the
      // significand (q and 10^e are exact, and one rounding gives what parsing the decimal
      // gives), so it is the repair to try; the multiply form stays when it is no larger.
      int fix = AlpSampler.combination(scale(best), 0, true);
      if (fix != ours && fix != paper && fix != first) {
        bestRank = challenge(start, len, fix, RANK_REPAIR, bestRank);
      }
    }
    best = alp.best();
    if (best.exceptions > 0) {
      // Exceptions left: values with more digits than the type holds at this scale. One decimal
      // fewer narrows every integer and makes more exceptions, one more may admit values that are
      // exceptions now; the sample cannot weigh that finely, the whole chunk can, when a bound
      // from the scan in hand says the neighbour may be smaller. Walk while it shrinks.
      neighbours(start, len, scale(best));
    }
    best = alp.best();
    lastWinner = AlpSampler.combination(best.e, best.f, best.div);
    int alpBytes = best.size();
    if (f64 && !rdTried && (long) alpBytes * 8 >= (long) AlpFormat.RD_TRIGGER_BITS_F64 * len) {
      rdBytes = rd().choose(values64, start, len);
    }
    if (rdBytes < alpBytes) {
      return rd.write(out);
    }
    return alp.write(out);
  }

  /**
   * Raw bytes any chunk takes at least (an ALP header for float32, an ALP-RD header for
   * float64): a page is given up as soon as its chunks so far and that much for each chunk left
   * pass its size to beat. A page that run-length encoding shrinks to 9 KB went on for a chunk
   * more before.
   */
  private static final int MIN_CHUNK_BYTES = Math.min(AlpFormat.alpHeaderBytes(false, 4), AlpFormat.RD_HEADER_BYTES);

  /**
   * How many times smaller than ALP's estimate another encoding must be for ALP not to try: the
   * estimate comes from three samples of 32 values, so only a wide margin rules ALP out.
   */
  static final int OUTCLASSED = 8;

  /** Combination code of no candidate. */
  private static final int NONE = -1;

  /** Tie order of the candidates: ours, the paper's, the use_div repair, then the neighbours. */
  private static final int RANK_OURS = 0;

  private static final int RANK_PAPER = 1;

  private static final int RANK_REPAIR = 2;

  /** The best scan's combination on the previous chunk of the page, scanned first on this one. */
  private int lastWinner = NONE;

  private static int rank(int c, int ours, int paper) {
    return c == ours ? RANK_OURS : c == paper ? RANK_PAPER : RANK_REPAIR;
  }

  private static int scale(int combination) {
    return AlpSampler.divides(combination)
        ? AlpSampler.exponent(combination)
        : AlpSampler.exponent(combination) - AlpSampler.factor(combination);
  }

  private static int scale(AlpChunkEncoder.Scan s) {
    return s.div ? s.e : s.e - s.f;
  }

  /**
   * Scans {@code c} against the best so far, abandoned once it provably loses (a candidate that
   * wins ties must be larger to lose); returns the rank of the best afterwards.
   */
  private int challenge(int start, int len, int c, int rank, int bestRank) {
    boolean winsTies = rank < bestRank;
    int size = alp.best().size();
    scan(start, len, c, winsTies && size != Integer.MAX_VALUE ? size + 1 : size);
    return alp.keepSmaller(winsTies) ? rank : bestRank;
  }

  /**
   * Tries use_div at the scales next to {@code scale}, walking on in the direction that improves;
   * a neighbour whose expected width alone rules it out is not scanned, and the others stop as
   * soon as their exceptions on top of that width do.
   */
  private void neighbours(int start, int len, int scale) {
    int maxE = values64 != null ? AlpFormat.MAX_EXPONENT_F64 : AlpFormat.MAX_EXPONENT_F32;
    for (int dir = -1; dir <= 1; dir += 2) {
      for (int e = scale + dir; e >= 0 && e <= maxE; e += dir) {
        if (dir < 0 && !alp.neighbourMayWin(values32, values64, start, e)) {
          break;
        }
        scan(start, len, e, 0, true, alp.best().size(), alp.neighbourWidth(dir));
        if (!alp.keepSmaller()) {
          break;
        }
      }
      if (scale(alp.best()) != scale) {
        return;
      }
    }
  }

  private void scan(int start, int len, int combination, int budget) {
    scan(start, len, AlpSampler.exponent(combination), AlpSampler.factor(combination),
        AlpSampler.divides(combination), budget);
  }

  private void scan(int start, int len, int e, int f, boolean div, int budget) {
    scan(start, len, e, f, div, budget, 0);
  }

  private void scan(int start, int len, int e, int f, boolean div, int budget, int minWidth) {
    if (values64 != null) {
      alp.scan64(values64, start, len, e, f, div, budget, minWidth);
    } else {
      alp.scan32(values32, start, len, e, f, div, budget, minWidth);
    }
  }
}
