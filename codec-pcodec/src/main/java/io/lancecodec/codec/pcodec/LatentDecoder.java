package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

/**
 * Reads one latent variable's part of each batch: first the tANS-coded bin of every latent,
 * then every latent's offset within its bin. Chunk-level tables plus the page's four tANS states.
 */
final class LatentDecoder {
  private final int nBins;
  private final int[] nodes;
  private final long[] stateLowers;
  private final long onlyLower;
  private final int onlyOffsetBits;
  private final int maxOffsetBits;
  private final long mask;
  final int bits;
  final int ansSizeLog;

  final long[] latents = new long[PcoFormat.BATCH_N];
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
    int[] weights = nBins == 0 ? new int[] {1} : meta.weights;
    int[] symbols = Ans.spread(meta.ansSizeLog, weights);
    nodes = Ans.decodeNodes(meta.ansSizeLog, weights, meta.offsetBits, symbols);
    stateLowers = new long[symbols.length];
    for (int i = 0; i < symbols.length; i++) {
      stateLowers[i] = symbols[i] < nBins ? meta.lowers[symbols[i]] : 0;
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
    if (nBins > 1) {
      if (k == PcoFormat.BATCH_N) {
        readFullBatchBins(r);
      } else {
        readPartialBatchBins(r, k);
      }
    } else {
      java.util.Arrays.fill(latents, 0, k, onlyLower);
      java.util.Arrays.fill(offsetBits, 0, k, onlyOffsetBits);
    }
    if (maxOffsetBits > 0) {
      if (maxOffsetBits <= 56) {
        readShortOffsets(r, k);
      } else {
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
    for (int i = 0; i < PcoFormat.BATCH_N; i += 4) {
      long word = r.loadLong(pos >>> 3) >>> (pos & 7);
      int used = 0;
      int node = nodes[a];
      int nb = (node >>> 16) & 31;
      lat[i] = lowers[a];
      obs[i] = node >>> 21;
      a = (node & 0xFFFF) + (int) ((word >>> used) & ((1L << nb) - 1));
      used += nb;
      node = nodes[b];
      nb = (node >>> 16) & 31;
      lat[i + 1] = lowers[b];
      obs[i + 1] = node >>> 21;
      b = (node & 0xFFFF) + (int) ((word >>> used) & ((1L << nb) - 1));
      used += nb;
      node = nodes[c];
      nb = (node >>> 16) & 31;
      lat[i + 2] = lowers[c];
      obs[i + 2] = node >>> 21;
      c = (node & 0xFFFF) + (int) ((word >>> used) & ((1L << nb) - 1));
      used += nb;
      node = nodes[d];
      nb = (node >>> 16) & 31;
      lat[i + 3] = lowers[d];
      obs[i + 3] = node >>> 21;
      d = (node & 0xFFFF) + (int) ((word >>> used) & ((1L << nb) - 1));
      used += nb;
      pos += used;
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
      int state = states[j];
      int node = nodes[state];
      int nb = (node >>> 16) & 31;
      latents[i] = stateLowers[state];
      offsetBits[i] = node >>> 21;
      long word = r.loadLong(pos >>> 3) >>> (pos & 7);
      states[j] = (node & 0xFFFF) + (int) (word & ((1L << nb) - 1));
      pos += nb;
    }
    s0 = states[0];
    s1 = states[1];
    s2 = states[2];
    s3 = states[3];
    r.bitPos = pos;
  }

  private void readShortOffsets(BitReader r, int k) {
    long pos = r.bitPos;
    long[] lat = latents;
    int[] obs = offsetBits;
    long m = mask;
    for (int i = 0; i < k; i++) {
      int ob = obs[i];
      long word = r.loadLong(pos >>> 3) >>> (pos & 7);
      lat[i] = (lat[i] + (word & ((1L << ob) - 1))) & m;
      pos += ob;
    }
    r.bitPos = pos;
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
