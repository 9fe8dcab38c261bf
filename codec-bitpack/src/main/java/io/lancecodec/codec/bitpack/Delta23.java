package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Delta;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.kernel.KernelClasses;
import java.util.ArrayList;
import java.util.List;

/**
 * 2.3 Delta: a non-decreasing sequence as its first value ({@code base}) and the {@code n - 1}
 * differences, a leaf of the same width. The payload is the child's (none when the child is
 * metadata-only); values are rebuilt by prefix sums, each checked against the width.
 */
final class Delta23 implements BlockDecompressor {
  private final int bits;
  private final long base;
  private final BlockDecompressor deltas;
  private final boolean fused;

  Delta23(Delta d, Decoders children) {
    this(d, children, KernelClasses.fusedEnabled());
  }

  /** {@code fused}: try {@link Fused23#delta} before the composition (false: the composition alone, the tests' oracle). */
  Delta23(Delta d, Decoders children, boolean fused) {
    this.fused = fused;
    this.bits = Seq.sequenceBits(d.getUncompressedBitsPerValue(), "delta");
    this.base = d.getBase();
    if (!Seq.fits(base, bits)) {
      throw LanceCodecException.corrupt("delta: base " + Long.toUnsignedString(base) + " does not fit " + bits + " bits");
    }
    this.deltas = Seq.child(children, d.hasDeltas(), d.getDeltas(), bits, "delta: deltas");
  }

  @Override
  public int bitsPerValue() {
    return bits;
  }

  @Override
  public boolean consumesPayload() {
    return deltas.consumesPayload();
  }

  @Override
  public long maxBytes(long numValues) {
    return deltas.maxBytes(Math.max(0, numValues - 1));
  }

  @Override
  public DataBlock decompress(byte[] data, long numValues) {
    if (numValues < 1) {
      throw LanceCodecException.corrupt("delta: " + numValues + " values (the empty sequence is a Constant without a value)");
    }
    int n = LanceCodecException.checkedInt(numValues, "delta value count");
    if (fused) {
      byte[] out = new byte[LanceCodecException.checkedInt((long) n * (bits / 8), "delta output size")];
      if (Fused23.delta(deltas, data, n, base, out)) {
        return new DataBlock.FixedWidth(out, bits, numValues);
      }
    }
    return composed(data, n);
  }

  /**
   * The interpreted composition: the deltas decoded into an array, then the checked prefix sum.
   * Its own method, so the fused path's callers and this one's are profiled and compiled apart.
   */
  private DataBlock composed(byte[] data, int n) {
    long numValues = n;
    byte[] d = Seq.decodeChild(deltas, data, 0, data.length, n - 1L, bits, "delta: deltas").data();
    byte[] out = new byte[LanceCodecException.checkedInt((long) n * (bits / 8), "delta output size")];
    long max = Seq.max(bits);
    long acc = base;
    if (bits == 32) {
      LittleEndian.putInt(out, 0, (int) acc);
      for (int i = 1; i < n; i++) {
        long step = LittleEndian.getInt(d, 4 * (i - 1)) & 0xFFFFFFFFL;
        acc += step;
        if (acc > max) {
          throw overflow(i);
        }
        LittleEndian.putInt(out, 4 * i, (int) acc);
      }
    } else {
      LittleEndian.putLong(out, 0, acc);
      for (int i = 1; i < n; i++) {
        long step = LittleEndian.getLong(d, 8 * (i - 1));
        if (Long.compareUnsigned(step, -1L - acc) > 0) {
          throw overflow(i);
        }
        acc += step;
        LittleEndian.putLong(out, 8 * i, acc);
      }
    }
    return new DataBlock.FixedWidth(out, bits, numValues);
  }

  private LanceCodecException overflow(int i) {
    return LanceCodecException.corrupt("delta: the prefix sum of value " + i + " overflows " + bits + " bits");
  }

  /**
   * Delta over the best leaf for a family whose members are non-empty, non-decreasing and share
   * their first value (the descriptor's base); null otherwise.
   */
  static Plan23 plan(List<long[]> family, int[] counts, int bits) {
    long base = family.get(0)[0];
    List<long[]> deltas = new ArrayList<>(family.size());
    int[] deltaCounts = new int[family.size()];
    for (int m = 0; m < family.size(); m++) {
      long[] v = family.get(m);
      int n = counts[m];
      if (n == 0 || v[0] != base || !Seq.nonDecreasing(v, n)) {
        return null;
      }
      deltas.add(differences(v, n));
      deltaCounts[m] = n - 1;
    }
    Leaf23.Plan leaf = Leaf23.best(deltas, deltaCounts, bits, Leaf23.ALL);
    CompressiveEncoding encoding = CompressiveEncoding.newBuilder()
        .setDelta(Delta.newBuilder().setUncompressedBitsPerValue(bits).setBase(base).setDeltas(leaf.encoding()))
        .build();
    return new Plan23() {
      @Override
      public long bytes() {
        return leaf.bytes();
      }

      @Override
      public CompressiveEncoding encoding() {
        return encoding;
      }

      @Override
      public byte[] payload(long[] v, int n) {
        Leaf23.check(n > 0 && v[0] == base && Seq.nonDecreasing(v, n), "delta plan given a sequence it cannot take");
        return leaf.payload(differences(v, n), n - 1);
      }
    };
  }

  private static long[] differences(long[] v, int n) {
    long[] d = new long[Math.max(0, n - 1)];
    for (int i = 1; i < n; i++) {
      d[i - 1] = v[i] - v[i - 1];
    }
    return d;
  }
}
