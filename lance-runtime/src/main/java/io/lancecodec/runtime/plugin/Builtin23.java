package io.lancecodec.runtime.plugin;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Constant;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.Variable;
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
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.List;
import java.util.Optional;

/**
 * The built-in codecs in the 2.3 grammar ({@code lance.encodings23}): Flat and Constant as
 * generic unsigned block leaves, Flat and Variable in mini-blocks (Variable with legacy or generic
 * offsets, see {@link VariableMiniBlock}). Kept apart from {@link BuiltinCodecs} so 2.1/2.2 code
 * paths stay as they were; BuiltinCodecs hands every 2.3 request here.
 *
 * <p>Not yet in 2.3: per-value (full-zip) proposals, fixed-size lists and packed structs, and
 * Variable as a block; those are declined or refused as UNSUPPORTED.
 */
final class Builtin23 {
  /** The longest Constant scalar: the planar grammar's 32 bytes. */
  static final int MAX_CONSTANT_BYTES = 32;

  private Builtin23() {}

  static boolean owns(Message node) {
    return node instanceof Flat || node instanceof Constant || node instanceof Variable;
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

  /** Flat chunks for fixed-width values; Variable with the smaller of legacy and generic offsets. */
  static Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    if (block instanceof DataBlock.FixedWidth fw) {
      MiniBlockCompressor c = b -> {
        MiniBlockCompressed m = new FlatMiniBlock().compress(b);
        return new MiniBlockCompressed(m.buffers(), m.chunks(), m.numValues(), flat(((DataBlock.FixedWidth) b).bitsPerValue()));
      };
      return Optional.of(Proposal.estimated("flat", FlatMiniBlock.storedBytes(fw, context.version()), c, block));
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      GenericBlocks.FamilyEncoder families = context instanceof GenericBlocks.FamilyEncoder f ? f : null;
      VariableMiniBlock c = new VariableMiniBlock(families);
      MiniBlockCompressed out = c.compress(vw);
      long bytes = io.lancecodec.spi.MiniBlocks.storedBytes(out, context.version()) + out.encoding().getSerializedSize();
      return Optional.of(Proposal.measured("variable", bytes, c, out));
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
    throw LanceCodecException.unsupported("builtin: 2.3 " + node.getDescriptorForType().getName() + " cannot be used as a block");
  }

  static MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (node instanceof Flat f) {
      return FlatMiniBlock.decompressor(bitsOf(f));
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
        return new VariableMiniBlock.Decompressor((int) bits);
      }
      return new VariableMiniBlock.GenericDecompressor(GenericBlocks.open(children, offsets, 0));
    }
    throw LanceCodecException.unsupported("builtin: 2.3 " + node.getDescriptorForType().getName() + " cannot be used in a mini-block");
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
