package io.lancecodec.codec.pcodec;

import io.lancecodec.spi.LanceCodecException;
import java.util.Arrays;

/**
 * Encodes one chunk (one page) the way pco's encoder does (facts from pcodec/pcodec
 * {@code pco/src/wrapped/chunk_compressor.rs}): choose the mode, choose the delta encoding by
 * comparing estimated sizes on a sample, delta encode, train bins per latent variable, and fall
 * back to plain classic bit packing if the result could end up larger than that.
 */
final class ChunkEncoder {
  /** Lookback must save a quarter byte per sampled number to pay for its slower decoding. */
  private static final float LOOKBACK_REQUIRED_BYTES_PER_N = 0.25f;
  /** Secondary latents are usually near-constant: fewer histogram bins suffice. */
  private static final int SECONDARY_MAX_BINS_LOG = 6;

  private ChunkEncoder() {}

  /** One latent variable: its latents, the stored range, delta state and bins. */
  static final class Var {
    final long[] latents;
    final int from;
    final int to;
    final long[] state;
    final int bits;
    final BinTrainer.Trained bins;

    Var(long[] latents, int from, int to, long[] state, int bits, BinTrainer.Trained bins) {
      this.latents = latents;
      this.from = from;
      this.to = to;
      this.state = state;
      this.bits = bits;
      this.bins = bins;
    }
  }

  /** A fully prepared chunk, ready to be measured or written. */
  static final class Candidate {
    final ChunkMeta meta;
    final int n;
    final Var deltaVar;
    final Var primary;
    final Var secondary;

    Candidate(ChunkMeta meta, int n, Var deltaVar, Var primary, Var secondary) {
      this.meta = meta;
      this.n = n;
      this.deltaVar = deltaVar;
      this.primary = primary;
      this.secondary = secondary;
    }

    Var[] vars() {
      return Arrays.stream(new Var[] {deltaVar, primary, secondary}).filter(v -> v != null).toArray(Var[]::new);
    }

    /** The reference's size estimate: metadata bound plus expected page bytes. */
    float estimatedBytes() {
      long bodyBits = 0;
      for (Var v : vars()) {
        bodyBits += (long) Math.ceil((v.to - v.from) * LatentEncoder.avgBitsPerLatent(v.bins));
      }
      return (float) (meta.maxByteSize() + meta.pageMetaByteSize() + (bodyBits + 7) / 8);
    }

    void writePage(BitWriter w) {
      Var[] vars = vars();
      LatentEncoder[] encoders = new LatentEncoder[vars.length];
      for (int i = 0; i < vars.length; i++) {
        Var v = vars[i];
        encoders[i] = new LatentEncoder(v.bins, v.latents, v.from, v.to);
        for (long s : v.state) {
          w.write(s, v.bits);
        }
        encoders[i].writeStates(w);
      }
      w.finishByte();
      for (int start = 0; start < n; start += PcoFormat.BATCH_N) {
        for (LatentEncoder e : encoders) {
          e.writeBatch(w, start, start + PcoFormat.BATCH_N);
        }
      }
      w.finishByte();
    }
  }

  static int binsLog(int level, int n) {
    int logN = 63 - Long.numberOfLeadingZeros(n);
    int fast = Math.max(0, logN - 4);
    return level <= fast ? level : fast + (level - fast) / 2;
  }

  private static Var delta(DeltaEncoding enc, long[] lat, int bits, long[] lookbacks, int binsLog) {
    int n = lat.length;
    long[] state;
    switch (enc.kind) {
      case PcoFormat.DELTA_CONSECUTIVE:
        state = DeltaEncoders.encodeConsecutive(enc.order, lat, 0, n, bits);
        break;
      case PcoFormat.DELTA_LOOKBACK:
        state = DeltaEncoders.encodeLookback(enc, lookbacks, lat, 0, n, bits);
        break;
      case PcoFormat.DELTA_CONV1:
        state = Conv1Fit.encode(enc, lat, 0, n, bits);
        break;
      default:
        state = new long[0];
        break;
    }
    int from = Math.min(enc.primaryStateN(), n);
    return new Var(lat, from, n, state, bits, BinTrainer.train(lat, from, n, bits, binsLog));
  }

  /** Delta encodes the (owned, modified) latents and trains the bins. */
  static Candidate build(NumberType type, Mode mode, DeltaEncoding delta, long[] primary, long[] secondary, int binsLog) {
    int n = primary.length;
    int primaryBits = mode.primaryBits(type);
    Var deltaVar = null;
    long[] lookbacks = null;
    if (delta.hasDeltaVar()) {
      lookbacks = DeltaEncoders.chooseLookbacks(delta, primary, 0, n, primaryBits);
      deltaVar = new Var(lookbacks, 0, lookbacks.length, new long[0], 32,
          BinTrainer.train(lookbacks, 0, lookbacks.length, 32, binsLog));
    }
    Var p = delta(delta, primary, primaryBits, lookbacks, binsLog);
    Var s = secondary == null ? null
        : delta(delta.forSecondary(), secondary, type.bits, lookbacks, Math.min(binsLog, SECONDARY_MAX_BINS_LOG));
    ChunkMeta meta = new ChunkMeta(type, mode, delta, deltaVar == null ? null : deltaVar.bins.meta(32),
        p.bins.meta(primaryBits), s == null ? null : s.bins.meta(type.bits));
    return new Candidate(meta, n, deltaVar, p, s);
  }

  private static float sampleCost(NumberType type, long[] sample, DeltaEncoding delta, int binsLog) {
    return build(type, Mode.CLASSIC, delta, sample.clone(), null, binsLog).estimatedBytes();
  }

  static DeltaEncoding chooseAutoDelta(NumberType sampleType, long[] primary, int binsLog) {
    long[] sample = Sampling.deltaSample(primary, primary.length);
    if (sample == null) {
      return DeltaEncoding.NONE;
    }
    // Below ~8,000 numbers pco's sample is the chunk's first 200, which a run (flights-200k's
    // time column holds runs of ~150) can fill with one value: every encoding then costs the
    // same on the sample and the tie keeps no delta, 20-30x larger than delta order 1 on a chunk
    // of runs. A constant sample says nothing, so such a chunk is judged whole (it is small).
    if (isConstant(sample) && !isConstant(primary)) {
      sample = primary;
    }
    DeltaEncoding best = DeltaEncoding.NONE;
    float bestCost = sampleCost(sampleType, sample, best, binsLog);
    float penalty = LOOKBACK_REQUIRED_BYTES_PER_N * sample.length;
    if (bestCost > penalty) {
      float cost = sampleCost(sampleType, sample, DeltaEncoders.newLookback(sample.length), binsLog) + penalty;
      if (cost < bestCost) {
        best = DeltaEncoders.newLookback(primary.length);
        bestCost = cost;
      }
    }
    for (int order = 1; order <= PcoFormat.MAX_CONSECUTIVE_ORDER; order++) {
      DeltaEncoding enc = DeltaEncoding.consecutive(order, false);
      float cost = sampleCost(sampleType, sample, enc, binsLog);
      if (cost < bestCost) {
        best = enc;
        bestCost = cost;
      } else {
        break;
      }
    }
    return best;
  }

  private static boolean isConstant(long[] lat) {
    long first = lat[0];
    for (int i = 1; i < lat.length; i++) {
      if (lat[i] != first) {
        return false;
      }
    }
    return true;
  }

  static DeltaEncoding chooseDelta(NumberType type, ModeChooser.Split split, PcoConfig cfg, int binsLog) {
    int n = split.primary.length;
    int primaryBits = split.mode.primaryBits(type);
    switch (cfg.deltaSpec) {
      case AUTO:
        // The sample is measured as classic latents of the primary's width.
        return chooseAutoDelta(primaryBits == 32 ? NumberType.U32 : type, split.primary, binsLog);
      case TRY_CONSECUTIVE:
        return cfg.deltaOrder == 0 ? DeltaEncoding.NONE : DeltaEncoding.consecutive(cfg.deltaOrder, false);
      case TRY_LOOKBACK:
        return DeltaEncoders.newLookback(n);
      case TRY_CONV1: {
        if (cfg.deltaOrder == 0) {
          return DeltaEncoding.NONE;
        }
        if (type.bits > 32 || primaryBits > 32) {
          throw LanceCodecException.invalidArgument("pcodec: conv1 delta needs latents of at most 32 bits");
        }
        DeltaEncoding enc = Conv1Fit.choose(cfg.deltaOrder, split.primary, 0, n, primaryBits);
        return enc == null ? DeltaEncoding.NONE : enc;
      }
      default:
        return DeltaEncoding.NONE;
    }
  }

  /** True if the candidate's worst case exceeds plain bit packing, which pco guarantees. */
  static boolean shouldFallBack(Candidate c, NumberType type) {
    if (c.meta.delta.kind == PcoFormat.DELTA_NONE && c.meta.mode.kind == PcoFormat.MODE_CLASSIC) {
      return false;
    }
    long worstBits = 7;
    for (Var v : c.vars()) {
      BinTrainer.Trained b = v.bins;
      for (int i = 0; i < b.weights.length; i++) {
        int log2Weight = 31 - Integer.numberOfLeadingZeros(b.weights[i]);
        worstBits += (long) b.counts[i] * (b.offsetBits[i] + b.ansSizeLog - log2Weight);
      }
    }
    long worst = c.meta.maxByteSize() + c.meta.pageMetaByteSize() + (worstBits + 7) / 8;
    return worst > baselineBytes(type, c.n);
  }

  private static BinTrainer.Trained baselineBins(NumberType type, int n) {
    return new BinTrainer.Trained(0, new int[] {1}, new long[] {0}, new int[] {type.bits}, new int[] {n});
  }

  static long baselineBytes(NumberType type, int n) {
    ChunkMeta meta = new ChunkMeta(type, Mode.CLASSIC, DeltaEncoding.NONE, null, baselineBins(type, n).meta(type.bits), null);
    return meta.maxByteSize() + ((long) n * type.bits + 7) / 8;
  }

  private static Candidate fallback(NumberType type, long[] nums) {
    BinTrainer.Trained bins = baselineBins(type, nums.length);
    Var p = new Var(nums, 0, nums.length, new long[0], type.bits, bins);
    ChunkMeta meta = new ChunkMeta(type, Mode.CLASSIC, DeltaEncoding.NONE, null, bins.meta(type.bits), null);
    return new Candidate(meta, nums.length, null, p, null);
  }

  /** Encodes {@code nums} (ordered latents, owned) as one standalone chunk. */
  static void encode(BitWriter w, NumberType type, long[] nums, PcoConfig cfg) {
    int n = nums.length;
    ModeChooser.Split split = ModeChooser.choose(type, nums, cfg);
    split.mode.validate(type);
    int binsLog = binsLog(cfg.level, n);
    DeltaEncoding delta = chooseDelta(type, split, cfg, binsLog);
    // Delta encoding works in place; classic mode's primary is the numbers themselves, which
    // the fallback below still needs.
    long[] primary = split.primary == nums && delta.kind != PcoFormat.DELTA_NONE ? nums.clone() : split.primary;
    Candidate c = build(type, split.mode, delta, primary, split.secondary, binsLog);
    if (shouldFallBack(c, type)) {
      c = fallback(type, nums);
    }
    w.write(type.code, 8);
    w.write(n - 1, PcoFormat.CHUNK_N_BITS);
    c.meta.write(w);
    c.writePage(w);
  }
}
