package io.lancecodec.codec.bitpack;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Delta;
import io.lancecodec.format.pb.v23.Dictionary;
import io.lancecodec.format.pb.v23.InlineBitpacking;
import io.lancecodec.format.pb.v23.OutOfLineBitpacking;
import io.lancecodec.format.pb.v23.Range;
import io.lancecodec.format.pb.v23.Rle;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * codec-bitpack in the 2.3 grammar: the generic unsigned block codecs it owns (Range, Delta,
 * InlineBitpacking, OutOfLineBitpacking, Rle and the block Dictionary), their proposals for u32
 * and u64 blocks and their decoders. {@link BitpackPlugin} hands every 2.3 request here.
 *
 * <p>A proposal plans every candidate over the whole family ({@link ProposalContext#family}, or
 * the block alone) with exact payload sizes and offers the smallest: a root leaf (Range,
 * out-of-line or inline bit-packing), Delta over its best leaf, RLE over two leaves, or a
 * dictionary over two leaves; ties go to that order. Constant and Flat are the runtime's offers,
 * so a family of one repeated value is declined here, and so is a best plan no smaller than Flat
 * (the same bytes under a more complex descriptor would win the runtime's tie by name).
 */
final class Bitpack23 {
  private static final Set<Leaf23.Kind> ROOT_LEAVES =
      java.util.EnumSet.of(Leaf23.Kind.RANGE, Leaf23.Kind.OUT_OF_LINE, Leaf23.Kind.INLINE);

  private Bitpack23() {}

  static boolean owns(Message node) {
    return node instanceof Range || node instanceof Delta || node instanceof InlineBitpacking
        || node instanceof OutOfLineBitpacking || node instanceof Rle || node instanceof Dictionary;
  }

  static Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock block, ProposalContext context) {
    if (!(block instanceof DataBlock.FixedWidth fw) || (fw.bitsPerValue() != 32 && fw.bitsPerValue() != 64)) {
      return Optional.empty();
    }
    int bits = fw.bitsPerValue();
    List<DataBlock.FixedWidth> members = context.family().isEmpty() ? List.of(fw) : context.family();
    List<long[]> family = new ArrayList<>(members.size());
    int[] counts = new int[members.size()];
    long flatBytes = 0;
    for (int m = 0; m < members.size(); m++) {
      flatBytes += members.get(m).usedBytes();
      if (members.get(m).bitsPerValue() != bits || members.get(m).numValues() == 0) {
        return Optional.empty();
      }
      family.add(Seq.toLongs(members.get(m)));
      counts[m] = family.get(m).length;
    }
    if (constant(family)) {
      return Optional.empty();
    }
    Plan23 best = Leaf23.best(family, counts, bits, ROOT_LEAVES);
    best = Leaf23.better(best, Delta23.plan(family, counts, bits));
    best = Leaf23.better(best, Rle23.plan(family, counts, bits));
    best = Leaf23.better(best, Dictionary23.plan(family, counts, bits));
    if (best == null || best.bytes() >= flatBytes) {
      return Optional.empty();
    }
    Plan23 plan = best;
    BlockCompressor c = b -> {
      long[] v = Seq.toLongs((DataBlock.FixedWidth) b);
      return new Encoded<>(plan.payload(v, v.length), plan.encoding());
    };
    return Optional.of(Proposal.estimated(name(plan.encoding()), plan.bytes(), c, fw));
  }

  private static boolean constant(List<long[]> family) {
    long first = family.get(0)[0];
    for (long[] v : family) {
      for (long x : v) {
        if (x != first) {
          return false;
        }
      }
    }
    return true;
  }

  private static String name(CompressiveEncoding e) {
    switch (e.getCompressionCase()) {
      case RANGE:
        return "range";
      case DELTA:
        return "delta";
      case RLE:
        return "rle";
      case DICTIONARY:
        return "dictionary";
      case OUT_OF_LINE_BITPACKING:
        return "bitpack-ool";
      default:
        return "bitpack";
    }
  }

  private static int packBits(long bits, String what) {
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
      throw LanceCodecException.corrupt(what + ": uncompressed width " + bits + " is not 8, 16, 32 or 64");
    }
    return (int) bits;
  }

  static BlockDecompressor openBlock(Message node, Decoders children) {
    if (node instanceof Range r) {
      return new Range23(r);
    }
    if (node instanceof Delta d) {
      return new Delta23(d, children);
    }
    if (node instanceof Rle r) {
      int narrow = narrowRleBits(r);
      if (narrow > 0) {
        // 8/16-bit values (levels): the 2.2 block form; no generic container takes these widths
        return new RleCodec.BlockDecompressor(narrow, 8, true);
      }
      return new Rle23(r, children);
    }
    if (node instanceof Dictionary d) {
      return new Dictionary23(d, children);
    }
    if (node instanceof InlineBitpacking ib) {
      return new InlineBlock23.Decompressor(packBits(ib.getUncompressedBitsPerValue(), "bitpack"));
    }
    OutOfLineBitpacking ob = (OutOfLineBitpacking) node;
    int bits = packBits(ob.getUncompressedBitsPerValue(), "bitpack-ool");
    if (!ob.hasValues() || !ob.getValues().hasFlat()) {
      throw LanceCodecException.corrupt("bitpack-ool: values must be Flat{packed width}, got "
          + io.lancecodec.format.UnsignedBlockGrammar.caseName(ob.getValues()));
    }
    long width = ob.getValues().getFlat().getBitsPerValue();
    if (width > bits) {
      throw LanceCodecException.corrupt("bitpack-ool: packed width " + width + " exceeds " + bits);
    }
    return new OutOfLineBitpackingCodec.Decompressor(bits, (int) width);
  }

  /**
   * The width of an Rle block of {@code Flat{8|16}} values and {@code Flat{8}} lengths, the 2.2
   * block form of levels; 0 for every other Rle, which is the generic form and checked as such
   * (its values 32 or 64 bits, its lengths u32).
   */
  private static int narrowRleBits(Rle r) {
    if (!r.hasValues() || !r.getValues().hasFlat() || !r.hasRunLengths() || !r.getRunLengths().hasFlat()
        || r.getRunLengths().getFlat().getBitsPerValue() != 8) {
      return 0;
    }
    long bits = r.getValues().getFlat().getBitsPerValue();
    return bits == 8 || bits == 16 ? (int) bits : 0;
  }

  /**
   * Mini-block chunks in 2.3: InlineBitpacking ({@code T} of 8, 16, 32 or 64) and Rle over
   * {@code Flat{T}} values and {@code Flat{8}} lengths, the 2.2 chunks, read with 2.3's exactness
   * (no byte past an inline chunk's words, runs covering exactly the chunk). The generic-block
   * codecs (Range, Delta, Dictionary, OutOfLineBitpacking) are not mini-block encodings.
   */
  static MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (node instanceof InlineBitpacking ib) {
      return new InlineBitpackingCodec.Decompressor(packBits(ib.getUncompressedBitsPerValue(), "bitpack"), true);
    }
    if (node instanceof Rle r) {
      if (!r.hasValues() || !r.hasRunLengths()) {
        throw LanceCodecException.corrupt("rle: " + (r.hasValues() ? "run_lengths" : "values") + " missing");
      }
      if (!r.getValues().hasFlat()) {
        throw LanceCodecException.corrupt("rle: mini-block values must be Flat, not "
            + io.lancecodec.format.UnsignedBlockGrammar.caseName(r.getValues()) + ": unsupported nesting");
      }
      int bits = packBits(r.getValues().getFlat().getBitsPerValue(), "rle");
      if (!r.getRunLengths().hasFlat() || r.getRunLengths().getFlat().getBitsPerValue() != 8) {
        throw LanceCodecException.corrupt("rle: mini-block run lengths must be Flat{8}, not "
            + io.lancecodec.format.UnsignedBlockGrammar.caseName(r.getRunLengths())
            + (r.getRunLengths().hasFlat() ? "{" + Long.toUnsignedString(r.getRunLengths().getFlat().getBitsPerValue()) + "}" : ""));
      }
      return new RleCodec.Decompressor(bits, true);
    }
    throw LanceCodecException.corrupt("bitpack: 2.3 " + node.getDescriptorForType().getName() + " is not a mini-block encoding");
  }

  static Optional<EncodingSummary> describe(Message node, Decoders children) {
    if (node instanceof Range r) {
      return Optional.of(EncodingSummary.of("range", r.getUncompressedBitsPerValue() + ", start "
          + Long.toUnsignedString(r.getStart()) + ", step " + Long.toUnsignedString(r.getStep())));
    }
    if (node instanceof Delta d) {
      return Optional.of(EncodingSummary.of("delta", d.getUncompressedBitsPerValue() + ", base "
          + Long.toUnsignedString(d.getBase()), children.describe(d.getDeltas())));
    }
    if (node instanceof Rle r) {
      return Optional.of(EncodingSummary.of("rle", "", children.describe(r.getValues()), children.describe(r.getRunLengths())));
    }
    if (node instanceof Dictionary d) {
      return Optional.of(EncodingSummary.of("dictionary", Long.toUnsignedString(d.getNumDictionaryItems()) + " items",
          children.describe(d.getIndices()), children.describe(d.getItems())));
    }
    if (node instanceof InlineBitpacking ib) {
      return Optional.of(EncodingSummary.of("bitpack", String.valueOf(ib.getUncompressedBitsPerValue())));
    }
    OutOfLineBitpacking ob = (OutOfLineBitpacking) node;
    return Optional.of(EncodingSummary.of("bitpack-ool", String.valueOf(ob.getUncompressedBitsPerValue()),
        children.describe(ob.getValues())));
  }
}
