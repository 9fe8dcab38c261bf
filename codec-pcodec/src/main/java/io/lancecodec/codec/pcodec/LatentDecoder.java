package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

/**
 * Reads one latent variable's part of each batch: first the tANS-coded bin of every latent,
 * then every latent's offset within its bin. Chunk-level tables plus the page's four tANS states.
 *
 * <p>The tANS loop writes each latent's bin lower bound (from a table per state, so one lookup
 * with the same index as the node) and its offset width (carried by the node); the offset loop
 * then only reads those two arrays in order and the bits.
 */
final class LatentDecoder {
  private final int nBins;
  private final int[] nodes;
  /** The lower bound of each state's bin. */
  private final long[] stateLowers;
  /**
   * For latents of at most 32 bits: per state, the bin's lower bound in the high half and the
   * node in the low half, so the tANS loop makes one load and one bounds check per latent
   * instead of two and holds one table fewer (it is short of registers); null otherwise.
   */
  private final long[] packedStates;
  private final long onlyLower;
  private final int onlyOffsetBits;
  private final int maxOffsetBits;
  private final boolean sparseOffsets;
  private final long mask;
  final int bits;
  final int ansSizeLog;

  /**
   * The sparse offset loop is taken when the bins with offset bits hold at most one tANS state in
   * this many, so that at most about as many latents read offsets.
   */
  private static final int SPARSE_OFFSETS_RATIO = 16;

  final long[] latents = new long[PcoFormat.BATCH_N];
  /** The offset width of each latent of the batch. */
  private final int[] offsetBits = new int[PcoFormat.BATCH_N];
  private int s0;
  private int s1;
  private int s2;
  private int s3;

  LatentDecoder(LatentVarMeta meta) {
    nBins = meta.nBins();
    bits = meta.bits;
    ansSizeLog = meta.ansSizeLog;
    mask = meta.mask();
    int max = 0;
    for (int ob : meta.offsetBits) {
      max = Math.max(max, ob);
    }
    maxOffsetBits = max;
    long withOffsets = 0;
    for (int b = 0; b < nBins; b++) {
      withOffsets += meta.offsetBits[b] != 0 ? meta.weights[b] : 0;
    }
    sparseOffsets = withOffsets * SPARSE_OFFSETS_RATIO <= 1L << meta.ansSizeLog;
    int[] weights = nBins == 0 ? new int[] {1} : meta.weights;
    int[] symbols = Ans.spread(meta.ansSizeLog, weights);
    nodes = Ans.decodeNodes(meta.ansSizeLog, weights, meta.offsetBits, symbols);
    stateLowers = new long[symbols.length];
    for (int i = 0; i < symbols.length; i++) {
      stateLowers[i] = symbols[i] < nBins ? meta.lowers[symbols[i]] : 0;
    }
    packedStates = bits <= 32 ? new long[symbols.length] : null;
    for (int i = 0; bits <= 32 && i < symbols.length; i++) {
      packedStates[i] = stateLowers[i] << 32 | (nodes[i] & 0xFFFFFFFFL);
    }
    onlyLower = nBins == 1 ? meta.lowers[0] : 0;
    onlyOffsetBits = nBins == 1 ? meta.offsetBits[0] : 0;
  }

  /** Reads the page-start tANS states; called with the page metadata reader. */
  void readPageStates(BitReader r) {
    s0 = r.readInt(ansSizeLog);
    s1 = r.readInt(ansSizeLog);
    s2 = r.readInt(ansSizeLog);
    s3 = r.readInt(ansSizeLog);
  }

  void requireBinsFor(int nLatents, String name) {
    check(nBins > 0 || nLatents == 0, "pcodec: " + name + " has no bins but " + nLatents + " latents");
  }

  /** Decodes {@code k} latents of the current batch into {@link #latents}. */
  void readBatch(BitReader r, int k) {
    if (k == 0) {
      return;
    }
    r.prepare();
    if (nBins > 1) {
      if (k == PcoFormat.BATCH_N && packedStates != null) {
        readFullBatchBins32(r);
      } else if (k == PcoFormat.BATCH_N) {
        readFullBatchBins(r);
      } else {
        readPartialBatchBins(r, k);
      }
      if (maxOffsetBits == 0) {
        return;
      } else if (maxOffsetBits <= 56) {
        readShortOffsets(r, k, sparseOffsets);
      } else {
        readLongOffsets(r, k);
      }
    } else {
      int ob = onlyOffsetBits;
      if (ob == 0) {
        java.util.Arrays.fill(latents, 0, k, onlyLower);
      } else if (ob <= 56) {
        readFixedOffsets(r, k, onlyLower, ob);
      } else {
        java.util.Arrays.fill(latents, 0, k, onlyLower);
        java.util.Arrays.fill(offsetBits, 0, k, ob);
        readLongOffsets(r, k);
      }
    }
  }

  private void readFullBatchBins(BitReader r) {
    long pos = r.bitPos;
    int[] nodes = this.nodes;
    long[] lowers = this.stateLowers;
    long[] lat = this.latents;
    int[] obs = this.offsetBits;
    int a = s0;
    int b = s1;
    int c = s2;
    int d = s3;
    // Four states take at most 4 * 14 = 56 bits, so one 64-bit load serves each group of four.
    // Each state takes its bits at `used`, the sum of the widths before it: these sums are short
    // adds off the states' path, unlike shifting the word along state by state, which measured
    // slower (the shifts lengthen the chain from one group's states to the next's).
    for (int i = 0; i < PcoFormat.BATCH_N; i += 4) {
      long word = r.loadLong(pos >>> 3) >>> (pos & 7);
      int node = nodes[a];
      int nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      lat[i] = lowers[a];
      obs[i] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      a = (node & Ans.NODE_BASE_MASK) + (int) (word & ((1L << nb) - 1));
      int used = nb;
      node = nodes[b];
      nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      lat[i + 1] = lowers[b];
      obs[i + 1] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      b = (node & Ans.NODE_BASE_MASK) + (int) ((word >>> used) & ((1L << nb) - 1));
      used += nb;
      node = nodes[c];
      nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      lat[i + 2] = lowers[c];
      obs[i + 2] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      c = (node & Ans.NODE_BASE_MASK) + (int) ((word >>> used) & ((1L << nb) - 1));
      used += nb;
      node = nodes[d];
      nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      lat[i + 3] = lowers[d];
      obs[i + 3] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      d = (node & Ans.NODE_BASE_MASK) + (int) ((word >>> used) & ((1L << nb) - 1));
      pos += used + nb;
    }
    s0 = a;
    s1 = b;
    s2 = c;
    s3 = d;
    r.bitPos = pos;
  }

  /** {@link #readFullBatchBins} for latents of at most 32 bits, from {@link #packedStates}. */
  private void readFullBatchBins32(BitReader r) {
    long pos = r.bitPos;
    long[] packed = this.packedStates;
    long[] lat = this.latents;
    int[] obs = this.offsetBits;
    int a = s0;
    int b = s1;
    int c = s2;
    int d = s3;
    // As readFullBatchBins, with the node and the lower bound from one long per state.
    for (int i = 0; i < PcoFormat.BATCH_N; i += 4) {
      long word = r.loadLong(pos >>> 3) >>> (pos & 7);
      long e = packed[a];
      int node = (int) e;
      int nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      lat[i] = e >>> 32;
      obs[i] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      a = (node & Ans.NODE_BASE_MASK) + (int) (word & ((1L << nb) - 1));
      int used = nb;
      e = packed[b];
      node = (int) e;
      nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      lat[i + 1] = e >>> 32;
      obs[i + 1] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      b = (node & Ans.NODE_BASE_MASK) + (int) ((word >>> used) & ((1L << nb) - 1));
      used += nb;
      e = packed[c];
      node = (int) e;
      nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      lat[i + 2] = e >>> 32;
      obs[i + 2] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      c = (node & Ans.NODE_BASE_MASK) + (int) ((word >>> used) & ((1L << nb) - 1));
      used += nb;
      e = packed[d];
      node = (int) e;
      nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      lat[i + 3] = e >>> 32;
      obs[i + 3] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      d = (node & Ans.NODE_BASE_MASK) + (int) ((word >>> used) & ((1L << nb) - 1));
      pos += used + nb;
    }
    s0 = a;
    s1 = b;
    s2 = c;
    s3 = d;
    r.bitPos = pos;
  }

  private void readPartialBatchBins(BitReader r, int k) {
    long pos = r.bitPos;
    int[] states = {s0, s1, s2, s3};
    for (int i = 0; i < k; i++) {
      int j = i & 3;
      int node = nodes[states[j]];
      int nb = (node >>> Ans.NODE_BITS_SHIFT) & 15;
      offsetBits[i] = node >>> Ans.NODE_OFFSET_BITS_SHIFT;
      latents[i] = stateLowers[states[j]];
      long word = r.loadLong(pos >>> 3) >>> (pos & 7);
      states[j] = (node & Ans.NODE_BASE_MASK) + ((int) word & ((1 << nb) - 1));
      pos += nb;
    }
    s0 = states[0];
    s1 = states[1];
    s2 = states[2];
    s3 = states[3];
    r.bitPos = pos;
  }

  /**
   * Offsets of at most 56 bits: one unaligned load each. {@code sparse}: most latents have none
   * (a bin of one value taking nearly every latent, as the deltas of sorted timestamps), so only
   * the latents with offset bits read any, behind a branch that is rarely taken; otherwise the
   * loop loads a word for every latent, without a branch. The flag is the same for the whole
   * loop, which the JIT compiles as two.
   */
  private void readShortOffsets(BitReader r, int k, boolean sparse) {
    long pos = r.bitPos;
    long[] lat = latents;
    int[] obs = offsetBits;
    long m = mask;
    for (int i = 0; i < k; i++) {
      int ob = obs[i];
      if (!sparse || ob != 0) {
        lat[i] = (lat[i] + offset(r, pos, ob)) & m;
        pos += ob;
      }
    }
    r.bitPos = pos;
  }

  /** The {@code ob} (at most 56) bits at bit {@code pos}. */
  private static long offset(BitReader r, long pos, int ob) {
    return (r.loadLong(pos >>> 3) >>> (pos & 7)) & ((1L << ob) - 1);
  }

  /** A single bin: every offset has the same width, so positions are {@code i * ob}. */
  private void readFixedOffsets(BitReader r, int k, long lower, int ob) {
    long start = r.bitPos;
    long[] lat = latents;
    long m = mask;
    long obMask = (1L << ob) - 1;
    for (int i = 0; i < k; i++) {
      long pos = start + (long) i * ob;
      long word = r.loadLong(pos >>> 3) >>> (pos & 7);
      lat[i] = (lower + (word & obMask)) & m;
    }
    r.bitPos = start + (long) k * ob;
  }

  private void readLongOffsets(BitReader r, int k) {
    long pos = r.bitPos;
    for (int i = 0; i < k; i++) {
      int ob = offsetBits[i];
      int shift = (int) (pos & 7);
      long byteIdx = pos >>> 3;
      long word = r.loadLong(byteIdx) >>> shift;
      if (ob + shift > 64) {
        word |= r.loadLong(byteIdx + 8) << (64 - shift);
      }
      long offset = ob == 64 ? word : word & ((1L << ob) - 1);
      latents[i] = (latents[i] + offset) & mask;
      pos += ob;
    }
    r.bitPos = pos;
  }
}
