package io.lancecodec.codec.bitpack;

import com.google.protobuf.ByteString;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Constant;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.InlineBitpacking;
import io.lancecodec.format.pb.v23.OutOfLineBitpacking;
import io.lancecodec.format.pb.v23.Range;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The leaves of the 2.3 generic unsigned block grammar as a writer chooses among them: for a
 * family of sequences (one descriptor for all), the exact payload bytes of each leaf that can
 * describe every member, and the encoding and payloads of the chosen one. Composites plan their
 * children (deltas, run values and lengths, dictionary indices and items) with it.
 *
 * <p>Ties go to the earlier kind in {@link Kind}'s order, so choices are deterministic.
 */
final class Leaf23 {
  /**
   * The leaves, in the order ties are broken: metadata before payload, then by decoding cost (an
   * out-of-line block whose only group is a raw tail has Flat's bytes, and Flat is simpler).
   */
  enum Kind { CONSTANT, RANGE, FLAT, OUT_OF_LINE, INLINE }

  static final Set<Kind> ALL = EnumSet.allOf(Kind.class);

  private Leaf23() {}

  /**
   * One leaf for a family: its kind, the sequences' width, the payload bytes of all members
   * together, and its parameters (the bit width of out-of-line packing; the constant, or Range's
   * start and step). {@code empty}: a Constant without a value, for families of empty sequences.
   */
  record Plan(Kind kind, int bits, long bytes, int width, long a, long b, boolean empty) implements Plan23 {
    boolean metadataOnly() {
      return kind == Kind.CONSTANT || kind == Kind.RANGE;
    }

    @Override
    public CompressiveEncoding encoding() {
      CompressiveEncoding.Builder e = CompressiveEncoding.newBuilder();
      switch (kind) {
        case CONSTANT:
          if (empty) {
            return e.setConstant(Constant.getDefaultInstance()).build();
          }
          byte[] scalar = new byte[bits / 8];
          LittleEndian.putUnsigned(scalar, 0, bits / 8, a);
          return e.setConstant(Constant.newBuilder().setValue(ByteString.copyFrom(scalar))).build();
        case RANGE:
          return e.setRange(Range.newBuilder().setUncompressedBitsPerValue(bits).setStart(a).setStep(b)).build();
        case OUT_OF_LINE:
          return e.setOutOfLineBitpacking(OutOfLineBitpacking.newBuilder().setUncompressedBitsPerValue(bits)
              .setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(width)))).build();
        case INLINE:
          return e.setInlineBitpacking(InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bits)).build();
        default:
          return e.setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
      }
    }

    /** The payload of one member; INTERNAL if the member breaks the plan's conditions (a writer bug). */
    @Override
    public byte[] payload(long[] v, int n) {
      switch (kind) {
        case CONSTANT:
          for (int i = 0; i < n; i++) {
            check(!empty && v[i] == a, "constant plan given another value at " + i);
          }
          return Seq.EMPTY;
        case RANGE:
          for (int i = 0; i < n; i++) {
            check(v[i] == a + b * i, "range plan given a value off the sequence at " + i);
          }
          return Seq.EMPTY;
        case OUT_OF_LINE:
          {
            long or = 0;
            for (int i = 0; i < n; i++) {
              or |= v[i];
            }
            check(Seq.width(or) <= width, "out-of-line plan of width " + width + " given a wider value");
            DataBlock.FixedWidth fw = new DataBlock.FixedWidth(Seq.toBytes(v, n, bits), bits, n);
            return new OutOfLineBitpackingCodec.Compressor(width).compress(fw).data();
          }
        case INLINE:
          return InlineBlock23.pack(Seq.toBytes(v, n, bits), n, bits);
        default:
          return Seq.toBytes(v, n, bits);
      }
    }
  }

  static void check(boolean ok, String what) {
    if (!ok) {
      throw LanceCodecException.internal(what);
    }
  }

  /** The best leaf among {@code allowed} for the first {@code counts[i]} values of each {@code seqs[i]}, or null if none applies. */
  static Plan best(List<long[]> seqs, int[] counts, int bits, Set<Kind> allowed) {
    long total = 0;
    for (int c : counts) {
      total += c;
    }
    if (total == 0) {
      return allowed.contains(Kind.CONSTANT) ? new Plan(Kind.CONSTANT, bits, 0, 0, 0, 0, true) : null;
    }
    int wb = bits / 8;
    boolean constant = true;
    boolean range = true;
    boolean sawPair = false;
    long first = 0;
    boolean haveFirst = false;
    long step = 0;
    long or = 0;
    long inline = 0;
    long ool = 0;
    for (int m = 0; m < seqs.size(); m++) {
      long[] v = seqs.get(m);
      int n = counts[m];
      if (n == 0) {
        continue;
      }
      if (!haveFirst) {
        first = v[0];
        haveFirst = true;
      }
      range &= v[0] == first;
      for (int i = 0; i < n; i++) {
        constant &= v[i] == first;
        or |= v[i];
      }
      if (range && n >= 2) {
        long s = v[1] - v[0];
        if (!sawPair) {
          step = s;
          sawPair = true;
        }
        range = s == step && Long.compareUnsigned(v[1], v[0]) > 0 && Long.compareUnsigned(v[n - 1], v[0]) > 0;
        for (int i = 2; i < n && range; i++) {
          range = v[i] - v[i - 1] == step && Long.compareUnsigned(v[i], v[i - 1]) > 0;
        }
      }
      inline += InlineBlock23.size(v, n, bits);
    }
    range &= sawPair && !constant;
    int maxWidth = Seq.width(or);
    for (int m = 0; m < seqs.size(); m++) {
      ool += OutOfLineBitpackingCodec.size(bits, maxWidth, counts[m]);
    }
    Plan best = null;
    if (constant && allowed.contains(Kind.CONSTANT)) {
      best = new Plan(Kind.CONSTANT, bits, 0, 0, first, 0, false);
    }
    if (range && allowed.contains(Kind.RANGE)) {
      best = better(best, new Plan(Kind.RANGE, bits, 0, 0, first, step, false));
    }
    if (allowed.contains(Kind.FLAT)) {
      best = better(best, new Plan(Kind.FLAT, bits, total * wb, 0, 0, 0, false));
    }
    if (maxWidth > 0 && maxWidth < bits && allowed.contains(Kind.OUT_OF_LINE)) {
      best = better(best, new Plan(Kind.OUT_OF_LINE, bits, ool, maxWidth, 0, 0, false));
    }
    if (allowed.contains(Kind.INLINE)) {
      best = better(best, new Plan(Kind.INLINE, bits, inline, 0, 0, 0, false));
    }
    return best;
  }

  /** The cheaper of two plans (either may be null: none); the incumbent (earlier in the tie order) on equal bytes. */
  static <P extends Plan23> P better(P incumbent, P candidate) {
    if (candidate == null) {
      return incumbent;
    }
    return incumbent == null || candidate.bytes() < incumbent.bytes() ? candidate : incumbent;
  }
}
