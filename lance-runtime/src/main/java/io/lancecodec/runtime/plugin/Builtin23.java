package io.lancecodec.runtime.plugin;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Constant;
import io.lancecodec.format.pb.v23.FixedSizeList;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.PackedStruct;
import io.lancecodec.format.pb.v23.Variable;
import io.lancecodec.format.pb.v23.VariablePackedStruct;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.List;
import java.util.Optional;

/**
 * The built-in codecs in the 2.3 grammar ({@code lance.encodings23}), with the bytes of their
 * 2.1/2.2 counterparts: Flat and Constant as generic unsigned block leaves and as blocks of any
 * width; Variable in mini-blocks (legacy or generic offsets, see {@link VariableMiniBlock}), per
 * value and as a block (the 2.2 block form, for dictionary items); fixed-size lists (with item
 * validity, nested, booleans) in mini-blocks and per value; packed structs of fixed-width
 * children in mini-blocks and variable packed structs per value. Kept apart from {@link
 * BuiltinCodecs} so 2.1/2.2 code paths stay as they were; BuiltinCodecs hands every 2.3 request
 * here. docs/wire/compression-2.3.md lists what each decoder refuses.
 */
final class Builtin23 {
  /** The longest Constant scalar: the planar grammar's 32 bytes. */
  static final int MAX_CONSTANT_BYTES = 32;

  private Builtin23() {}

  static boolean owns(Message node) {
    return node instanceof Flat || node instanceof Constant || node instanceof Variable || node instanceof FixedSizeList
        || node instanceof PackedStruct || node instanceof VariablePackedStruct;
  }

  static CompressiveEncoding flat(int bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits)).build();
  }

  static CompressiveEncoding constant(byte[] scalar) {
    return CompressiveEncoding.newBuilder().setConstant(Constant.newBuilder().setValue(ByteString.copyFrom(scalar))).build();
  }

  static CompressiveEncoding variable(CompressiveEncoding offsets) {
    return CompressiveEncoding.newBuilder().setVariable(Variable.newBuilder().setOffsets(offsets)).build();
  }

  // ---------------------------------------------------------------- proposals

  /**
   * Flat for any fixed-width block (the size every codec has to beat), and for u32/u64 sequences
   * Constant when every value of the family is one value (no payload), or the empty sequence.
   */
  static Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock block, ProposalContext context) {
    if (block instanceof DataBlock.VariableWidth vw) {
      // the 2.2 block form (header, offsets from 0, values): a page's dictionary of strings
      BlockCompressor c = b -> {
        DataBlock.VariableWidth v = (DataBlock.VariableWidth) b;
        return new Encoded<>(BuiltinCodecs.variableBlock(v), variable(flat(v.bitsPerOffset())));
      };
      long size = 2L * vw.bitsPerOffset() / 8 + (vw.numValues() + 1) * (vw.bitsPerOffset() / 8) + context.stats().dataBytes();
      return Optional.of(Proposal.estimated("variable", size, c, block));
    }
    if (!(block instanceof DataBlock.FixedWidth fw)) {
      return Optional.empty();
    }
    List<DataBlock.FixedWidth> family = context.family().isEmpty() ? List.of(fw) : context.family();
    int bits = fw.bitsPerValue();
    long flatBytes = 0;
    for (DataBlock.FixedWidth m : family) {
      flatBytes += m.usedBytes();
    }
    if (bits == 32 || bits == 64) {
      byte[] scalar = commonValue(family, bits / 8);
      if (scalar != null) {
        BlockCompressor c = b -> constantOf((DataBlock.FixedWidth) b, scalar);
        return Optional.of(Proposal.estimated("constant", 0, c, block));
      }
      if (flatBytes == 0) {
        return Optional.of(Proposal.estimated("constant", 0, b -> constantOf((DataBlock.FixedWidth) b, null), block));
      }
    }
    BlockCompressor c = b -> {
      DataBlock.FixedWidth f = (DataBlock.FixedWidth) b;
      byte[] d = f.data().length == f.usedBytes() ? f.data() : java.util.Arrays.copyOf(f.data(), f.usedBytes());
      return new Encoded<>(d, flat(f.bitsPerValue()));
    };
    return Optional.of(Proposal.estimated("flat", flatBytes, c, block));
  }

  /** The one value of every member (each non-empty), or null. */
  private static byte[] commonValue(List<DataBlock.FixedWidth> family, int wb) {
    byte[] first = null;
    for (DataBlock.FixedWidth m : family) {
      int n = (int) m.numValues();
      if (n == 0) {
        return null;
      }
      byte[] d = m.data();
      if (first == null) {
        first = java.util.Arrays.copyOf(d, wb);
      }
      for (int i = 0; i < n; i++) {
        if (!java.util.Arrays.equals(d, i * wb, i * wb + wb, first, 0, wb)) {
          return null;
        }
      }
    }
    return first;
  }

  /** A member as the Constant offered for its family: {@code scalar}, or absent for the empty sequence. */
  private static Encoded<byte[]> constantOf(DataBlock.FixedWidth f, byte[] scalar) {
    if (scalar == null) {
      if (f.numValues() != 0) {
        throw LanceCodecException.internal("the empty Constant given " + f.numValues() + " values");
      }
      return new Encoded<>(new byte[0], GenericBlocks.empty());
    }
    int wb = scalar.length;
    for (int i = 0; i < f.numValues(); i++) {
      if (!java.util.Arrays.equals(f.data(), i * wb, i * wb + wb, scalar, 0, wb)) {
        throw LanceCodecException.internal("constant compressor given a block with another value at " + i);
      }
    }
    return new Encoded<>(new byte[0], constant(scalar));
  }

  /**
   * Flat chunks for fixed-width values and for fixed-size lists of byte-aligned items without
   * validity (a row is one wide value), the validity-and-values chunks of other fixed-size lists,
   * packed rows of fixed-width struct children, and Variable with the smaller of legacy and
   * generic offsets: the 2.2 offers, with 2.3 descriptors.
   */
  static Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    int maxValues = context.options().miniBlockMaxValues();
    if (block instanceof DataBlock.FixedWidth fw && context.oneChunk()) {
      // the leaf of a fixed-size list's rows (FslLeaf): all of it in one chunk
      MiniBlockCompressor c = b -> {
        DataBlock.FixedWidth f = (DataBlock.FixedWidth) b;
        byte[] d = f.data().length == f.usedBytes() ? f.data() : java.util.Arrays.copyOf(f.data(), f.usedBytes());
        return new MiniBlockCompressed(List.of(d), List.of(new io.lancecodec.spi.MiniBlockChunk(new int[] {d.length}, 0)),
            f.numValues(), flat(f.bitsPerValue()));
      };
      return Optional.of(Proposal.estimated("flat", io.lancecodec.spi.MiniBlocks.pad8((long) fw.usedBytes()), c, block));
    }
    if (block instanceof DataBlock.FixedWidth fw) {
      MiniBlockCompressor c = b -> {
        MiniBlockCompressed m = new FlatMiniBlock(maxValues).compress(b);
        return new MiniBlockCompressed(m.buffers(), m.chunks(), m.numValues(), flat(((DataBlock.FixedWidth) b).bitsPerValue()));
      };
      return Optional.of(Proposal.estimated("flat", FlatMiniBlock.storedBytes(fw, context.version(), maxValues), c, block));
    }
    DataBlock.FixedWidth rows = BuiltinCodecs.fslRows(block);
    if (rows != null) {
      MiniBlockCompressor c = b -> {
        MiniBlockCompressed m = new FlatMiniBlock(maxValues).compress(BuiltinCodecs.fslRows(b));
        return new MiniBlockCompressed(m.buffers(), m.chunks(), m.numValues(), FslShape.parts(b).shape().encoding23());
      };
      return FslLeaf.proposeMiniBlock(FslShape.parts(block), context, Optional.of(Proposal.estimated("flat", rows.usedBytes(), c, block)));
    }
    FslShape.Parts lists = FslShape.parts(block);
    if (lists != null) {
      return FslLeaf.proposeMiniBlock(lists, context, Optional.of(
          Proposal.estimated("flat", lists.rows() * lists.shape().zippedRowBytes(), new FslValidity.MiniBlock(true, maxValues), block)));
    }
    if (io.lancecodec.runtime.plugin.PackedStruct.fixedOnly(block) != null) {
      return Optional.of(Proposal.estimated("packed-struct", BuiltinCodecs.packedBytes((DataBlock.Struct) block),
          new io.lancecodec.runtime.plugin.PackedStruct.MiniBlock(true, maxValues), block));
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      GenericBlocks.FamilyEncoder families = context instanceof GenericBlocks.FamilyEncoder f ? f : null;
      VariableMiniBlock c = new VariableMiniBlock(families, maxValues);
      MiniBlockCompressed out = c.compress(vw);
      long bytes = io.lancecodec.spi.MiniBlocks.storedBytes(out, context.version()) + out.encoding().getSerializedSize();
      return Optional.of(Proposal.measured("variable", bytes, c, out));
    }
    return Optional.empty();
  }

  /**
   * Values as full-zip rows, each stored as it is, as 2.2 stores them: Flat for fixed-width values,
   * fixed-size lists as one wide row (booleans only in whole-byte rows without validity), with item
   * validity bytes in front when they have it, variable packed structs, and Variable strings.
   */
  static Optional<Proposal<Encoded<DataBlock>>> proposePerValue(DataBlock block, ProposalContext context) {
    if (block instanceof DataBlock.FixedWidth fw) {
      PerValueCompressor c = b -> new Encoded<>(b, flat(((DataBlock.FixedWidth) b).bitsPerValue()));
      return Optional.of(Proposal.estimated("flat", fw.usedBytes(), c, block));
    }
    DataBlock.FixedWidth fslRows = BuiltinCodecs.fslRows(block);
    if (fslRows != null) {
      PerValueCompressor c = b -> new Encoded<>(BuiltinCodecs.fslRows(b), FslShape.parts(b).shape().encoding23());
      return FslLeaf.proposePerValue(FslShape.parts(block), context, Optional.of(Proposal.estimated("flat", fslRows.usedBytes(), c, block)));
    }
    DataBlock.FixedWidth boolRows = BuiltinCodecs.boolRows(block);
    if (boolRows != null) {
      PerValueCompressor c = b -> new Encoded<>(BuiltinCodecs.boolRows(b), FslShape.parts(b).shape().encoding23());
      return Optional.of(Proposal.estimated("flat", boolRows.usedBytes(), c, block));
    }
    FslShape.Parts lists = FslShape.parts(block);
    if (lists != null && lists.shape().leafBits() % 8 == 0) {
      return FslLeaf.proposePerValue(lists, context, Optional.of(
          Proposal.estimated("flat", lists.rows() * lists.shape().zippedRowBytes(), new FslValidity.PerValue(true), block)));
    }
    if (io.lancecodec.runtime.plugin.PackedStruct.packable(block) != null && io.lancecodec.runtime.plugin.PackedStruct.fixedOnly(block) == null) {
      return Optional.of(Proposal.estimated("packed-struct", BuiltinCodecs.packedBytes((DataBlock.Struct) block),
          new io.lancecodec.runtime.plugin.PackedStruct.PerValue(true), block));
    }
    if (block instanceof DataBlock.VariableWidth) {
      PerValueCompressor c = b -> new Encoded<>(b, variable(flat(((DataBlock.VariableWidth) b).bitsPerOffset())));
      return Optional.of(Proposal.estimated("variable", context.stats().dataBytes(), c, block));
    }
    return Optional.empty();
  }

  // ---------------------------------------------------------------- decoders

  static BlockDecompressor openBlock(Message node, Decoders children) {
    if (node instanceof Flat f) {
      return new FlatBlock(bitsOf(f));
    }
    if (node instanceof Constant c) {
      return constantBlock(c);
    }
    if (node instanceof Variable v) {
      int bits = flatOffsetBits(v, "as a block");
      return (data, numValues) -> BuiltinCodecs.variableBlock(data, numValues, bits, true);
    }
    throw LanceCodecException.unsupported("builtin: 2.3 " + node.getDescriptorForType().getName() + " cannot be used as a block");
  }

  static MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (node instanceof Flat f) {
      return FlatMiniBlock.decompressor(bitsOf(f), true);
    }
    if (node instanceof Variable v) {
      if (!v.hasOffsets()) {
        throw LanceCodecException.corrupt("variable: offsets encoding missing");
      }
      CompressiveEncoding offsets = v.getOffsets();
      if (offsets.hasFlat()) {
        long bits = offsets.getFlat().getBitsPerValue();
        if (bits != 32 && bits != 64) {
          throw LanceCodecException.corrupt("variable: offset width " + bits + " is neither 32 nor 64");
        }
        return new VariableMiniBlock.Decompressor((int) bits, true);
      }
      return new VariableMiniBlock.GenericDecompressor(GenericBlocks.open(children, offsets, 0));
    }
    if (node instanceof FixedSizeList f) {
      FslLeaf.Layers layers = FslLeaf.layers(f);
      if (!layers.leaf().hasFlat()) {
        return FslLeaf.openMiniBlock(layers, children);
      }
      FslShape shape = FslShape.parse(f);
      return shape.plain() ? FlatMiniBlock.decompressor((int) (shape.leafItems() * shape.leafBits()), true)
          : new FslValidity.MiniBlockDecoder(shape, true);
    }
    if (node instanceof PackedStruct p) {
      return io.lancecodec.runtime.plugin.PackedStruct.openMiniBlock(p, children);
    }
    throw LanceCodecException.unsupported("builtin: 2.3 " + node.getDescriptorForType().getName() + " cannot be used in a mini-block");
  }

  static PerValueDecompressor openPerValue(Message node, Decoders children) {
    if (node instanceof Flat f) {
      return new BuiltinCodecs.PlainPerValue(bitsOf(f), "flat");
    }
    if (node instanceof Variable v) {
      flatOffsetBits(v, "per value");
      return (block, reuse) -> {
        if (!(block instanceof DataBlock.VariableWidth)) {
          throw LanceCodecException.corrupt("variable: per-value rows are not variable-width values");
        }
        return block;
      };
    }
    if (node instanceof FixedSizeList f) {
      FslLeaf.Layers layers = FslLeaf.layers(f);
      if (!layers.leaf().hasFlat()) {
        return FslLeaf.openPerValue(layers, children);
      }
      FslShape shape = FslShape.parse(f);
      if (shape.leafBits() == 1 && !shape.byteRowsOfBooleans()) {
        // the only full-zip rows of booleans 2.2 has, kept for 2.3: no reader knows another layout
        throw LanceCodecException.corrupt("fixed_size_list: per-value rows of booleans "
            + (shape.anyValidity() ? "with validity" : "of " + shape.leafItems() + " bits (not whole bytes)") + " do not exist in 2.3");
      }
      return shape.plain() ? new BuiltinCodecs.PlainPerValue(shape.leafItems() * shape.leafBits(), "fixed_size_list")
          : FslValidity.perValueDecoder(shape);
    }
    if (node instanceof VariablePackedStruct p) {
      return io.lancecodec.runtime.plugin.PackedStruct.openPerValue(p, children);
    }
    throw LanceCodecException.unsupported("builtin: 2.3 " + node.getDescriptorForType().getName() + " cannot be used per value");
  }

  /**
   * The offset width of a Variable whose offsets must be Flat (per value and as a block, where
   * lengths or offsets sit with the values; generic offsets exist only in mini-blocks).
   */
  private static int flatOffsetBits(Variable v, String where) {
    if (!v.hasOffsets()) {
      throw LanceCodecException.corrupt("variable: offsets encoding missing");
    }
    if (!v.getOffsets().hasFlat()) {
      throw LanceCodecException.corrupt("variable " + where + ": offsets must be Flat, not "
          + io.lancecodec.format.UnsignedBlockGrammar.caseName(v.getOffsets()) + " (generic offsets exist only in mini-blocks)");
    }
    long bits = v.getOffsets().getFlat().getBitsPerValue();
    if (bits != 32 && bits != 64) {
      throw LanceCodecException.corrupt("variable: offset width " + Long.toUnsignedString(bits) + " is neither 32 nor 64");
    }
    return (int) bits;
  }

  static Optional<EncodingSummary> describe(Message node, Decoders children) {
    if (node instanceof Flat f) {
      return Optional.of(EncodingSummary.of("flat", String.valueOf(f.getBitsPerValue())));
    }
    if (node instanceof Constant c) {
      if (!c.hasValue()) {
        return Optional.of(EncodingSummary.of("constant", "empty"));
      }
      int len = c.getValue().size();
      String v = len == 4 || len == 8
          ? "u" + 8 * len + " " + Long.toUnsignedString(LittleEndian.getUnsigned(c.getValue().toByteArray(), 0, len))
          : len + " bytes";
      return Optional.of(EncodingSummary.of("constant", v));
    }
    if (node instanceof Variable v) {
      return Optional.of(EncodingSummary.of("variable", "", children.describe(v.getOffsets())));
    }
    if (node instanceof FixedSizeList fsl) {
      String params = Long.toUnsignedString(fsl.getItemsPerValue()) + (fsl.getHasValidity() ? ", item validity" : "");
      return Optional.of(EncodingSummary.of("fixed_size_list", params, children.describe(fsl.getValues())));
    }
    if (node instanceof PackedStruct p) {
      return Optional.of(EncodingSummary.of("packed_struct", "", children.describe(p.getValues())));
    }
    if (node instanceof VariablePackedStruct vps) {
      EncodingSummary[] fields = new EncodingSummary[vps.getFieldsCount()];
      for (int i = 0; i < fields.length; i++) {
        fields[i] = children.describe(vps.getFields(i).getValue());
      }
      return Optional.of(EncodingSummary.of("variable_packed_struct", "", fields));
    }
    return Optional.empty();
  }

  static int bitsOf(Flat f) {
    long bits = f.getBitsPerValue();
    if (bits <= 0 || bits > 1 << 20 || (bits != 1 && bits % 8 != 0)) {
      throw LanceCodecException.corrupt("flat: bits per value " + bits + " is not 1 or a multiple of 8");
    }
    return (int) bits;
  }

  /** 2.3 Flat as a block: exactly the bytes of its values (2.3 has no reason to tolerate slack). */
  private record FlatBlock(int bits) implements BlockDecompressor {
    @Override
    public int bitsPerValue() {
      return bits;
    }

    @Override
    public long maxBytes(long numValues) {
      return (numValues * bits + 7) / 8;
    }

    @Override
    public DataBlock decompress(byte[] data, long numValues) {
      if (numValues < 0 || numValues > (Long.MAX_VALUE - 7) / bits) {
        throw LanceCodecException.corrupt("flat block: " + numValues + " values");
      }
      long need = (numValues * bits + 7) / 8;
      LanceCodecException.check(need == data.length,
          "flat block: " + numValues + " values of " + bits + " bits take " + need + " bytes, the payload has " + data.length);
      return new DataBlock.FixedWidth(data, bits, numValues);
    }
  }

  /**
   * Constant as a block: no payload. A scalar of 1 to 32 bytes fixes the width (8 bits a byte);
   * an absent one is the empty sequence, of no width of its own, and decodes only zero values.
   */
  private static BlockDecompressor constantBlock(Constant c) {
    byte[] scalar = c.hasValue() ? c.getValue().toByteArray() : null;
    if (scalar != null && (scalar.length == 0 || scalar.length > MAX_CONSTANT_BYTES)) {
      throw LanceCodecException.corrupt("constant: a scalar of " + scalar.length + " bytes (expected 1 to " + MAX_CONSTANT_BYTES + ")");
    }
    return new BlockDecompressor() {
      @Override
      public int bitsPerValue() {
        return scalar == null ? 0 : 8 * scalar.length;
      }

      @Override
      public boolean consumesPayload() {
        return false;
      }

      @Override
      public long maxBytes(long numValues) {
        return 0;
      }

      @Override
      public DataBlock decompress(byte[] data, long numValues) {
        LanceCodecException.check(data.length == 0, "constant: metadata-only, but given a payload of " + data.length + " bytes");
        if (scalar == null) {
          LanceCodecException.check(numValues == 0, "constant without a value (the empty sequence) asked for " + numValues + " values");
          // the width is the container's; 64 only because a block must name one
          return new DataBlock.FixedWidth(new byte[0], 64, 0);
        }
        if (numValues < 0) {
          throw LanceCodecException.corrupt("constant: " + numValues + " values");
        }
        int wb = scalar.length;
        // wb is at most 32, so the product of a count below 2^31 fits a long
        int size = LanceCodecException.checkedInt(numValues > Integer.MAX_VALUE ? -1 : numValues * wb, "constant block size");
        byte[] out = new byte[size];
        if (wb == 4) {
          int v = LittleEndian.getInt(scalar, 0);
          for (int i = 0; i < size; i += 4) {
            LittleEndian.putInt(out, i, v);
          }
        } else if (wb == 8) {
          long v = LittleEndian.getLong(scalar, 0);
          for (int i = 0; i < size; i += 8) {
            LittleEndian.putLong(out, i, v);
          }
        } else {
          for (int i = 0; i < size; i += wb) {
            System.arraycopy(scalar, 0, out, i, wb);
          }
        }
        return new DataBlock.FixedWidth(out, 8 * wb, numValues);
      }
    };
  }
}
