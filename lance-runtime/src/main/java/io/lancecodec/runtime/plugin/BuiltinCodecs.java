package io.lancecodec.runtime.plugin;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Constant;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.format.pb.v21.Variable;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodeBuffers;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The uncompressed encodings every runtime carries (Flat, Variable, Constant), so a bare
 * runtime without codec jars can always write files and read uncompressed ones. Their
 * proposals estimate the raw size, which every real codec has to beat. The 2.3 grammar's
 * messages and proposals for 2.3 files are handled by {@link Builtin23}.
 */
public final class BuiltinCodecs implements CodecPlugin {
  @Override
  public String name() {
    return "builtin";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(Flat.class, Variable.class, Constant.class, io.lancecodec.format.pb.v21.FixedSizeList.class,
        io.lancecodec.format.pb.v21.PackedStruct.class, io.lancecodec.format.pb.v21.VariablePackedStruct.class,
        io.lancecodec.format.pb.v23.Flat.class, io.lancecodec.format.pb.v23.Constant.class,
        io.lancecodec.format.pb.v23.Variable.class, io.lancecodec.format.pb.v23.FixedSizeList.class,
        io.lancecodec.format.pb.v23.PackedStruct.class, io.lancecodec.format.pb.v23.VariablePackedStruct.class);
  }

  @Override
  public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    FileVersion version = context.version();
    if (version == FileVersion.V2_3) {
      return Builtin23.proposeMiniBlock(block, context);
    }
    int maxValues = context.options().miniBlockMaxValues();
    if (block instanceof DataBlock.FixedWidth fw) {
      return Optional.of(Proposal.estimated("flat", FlatMiniBlock.storedBytes(fw, version, maxValues), new FlatMiniBlock(maxValues), block));
    }
    DataBlock.FixedWidth rows = fslRows(block);
    if (rows != null) {
      CompressiveEncoding encoding = FslShape.parts(block).shape().encoding();
      MiniBlockCompressor c = b -> {
        MiniBlockCompressed m = new FlatMiniBlock(maxValues).compress(fslRows(b));
        return new MiniBlockCompressed(m.buffers(), m.chunks(), m.numValues(), encoding);
      };
      return Optional.of(Proposal.estimated("flat", rows.usedBytes(), c, block));
    }
    FslShape.Parts lists = FslShape.parts(block);
    if (lists != null) {
      return Optional.of(Proposal.estimated("flat", lists.rows() * lists.shape().zippedRowBytes(), new FslValidity.MiniBlock(false, maxValues), block));
    }
    if (PackedStruct.fixedOnly(block) != null) {
      return Optional.of(Proposal.estimated("packed-struct", packedBytes((DataBlock.Struct) block), new PackedStruct.MiniBlock(false, maxValues), block));
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      long bytes = context.stats().dataBytes() + (vw.numValues() + 1) * (vw.bitsPerOffset() / 8);
      return Optional.of(Proposal.estimated("variable", bytes, new VariableMiniBlock(maxValues), block));
    }
    return Optional.empty();
  }

  @Override
  public Optional<Proposal<Encoded<DataBlock>>> proposePerValue(DataBlock block, ProposalContext context) {
    FileVersion version = context.version();
    if (version == FileVersion.V2_3) {
      return Builtin23.proposePerValue(block, context);
    }
    if (block instanceof DataBlock.FixedWidth fw) {
      PerValueCompressor c = b -> new Encoded<>(b, flat(((DataBlock.FixedWidth) b).bitsPerValue()));
      return Optional.of(Proposal.estimated("flat", fw.usedBytes(), c, block));
    }
    DataBlock.FixedWidth fslRows = fslRows(block);
    if (fslRows != null) {
      CompressiveEncoding encoding = FslShape.parts(block).shape().encoding();
      PerValueCompressor c = b -> new Encoded<>(fslRows(b), encoding);
      return Optional.of(Proposal.estimated("flat", fslRows.usedBytes(), c, block));
    }
    DataBlock.FixedWidth boolRows = boolRows(block);
    if (boolRows != null) {
      CompressiveEncoding encoding = FslShape.parts(block).shape().encoding();
      PerValueCompressor c = b -> new Encoded<>(boolRows(b), encoding);
      return Optional.of(Proposal.estimated("flat", boolRows.usedBytes(), c, block));
    }
    FslShape.Parts lists = FslShape.parts(block);
    if (lists != null && lists.shape().leafBits() % 8 == 0) {
      return Optional.of(Proposal.estimated("flat", lists.rows() * lists.shape().zippedRowBytes(), new FslValidity.PerValue(), block));
    }
    if (PackedStruct.packable(block) != null && PackedStruct.fixedOnly(block) == null && version.atLeast(FileVersion.V2_2)) {
      return Optional.of(Proposal.estimated("packed-struct", packedBytes((DataBlock.Struct) block), new PackedStruct.PerValue(), block));
    }
    if (block instanceof DataBlock.VariableWidth) {
      PerValueCompressor c = b -> new Encoded<>(b, variable(((DataBlock.VariableWidth) b).bitsPerOffset()));
      return Optional.of(Proposal.estimated("variable", context.stats().dataBytes(), c, block));
    }
    return Optional.empty();
  }

  @Override
  public Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock block, ProposalContext context) {
    if (context.version() == FileVersion.V2_3) {
      return Builtin23.proposeBlock(block, context);
    }
    if (block instanceof DataBlock.FixedWidth fw) {
      int bits = fw.bitsPerValue();
      BlockCompressor c =
          b -> {
            DataBlock.FixedWidth f = (DataBlock.FixedWidth) b;
            byte[] d = f.data().length == f.usedBytes() ? f.data() : java.util.Arrays.copyOf(f.data(), f.usedBytes());
            return new Encoded<>(d, flat(bits));
          };
      return Optional.of(Proposal.estimated("flat", fw.usedBytes(), c, block));
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      BlockCompressor c = b -> new Encoded<>(variableBlock((DataBlock.VariableWidth) b), variable(vw.bitsPerOffset()));
      long size = 2L * vw.bitsPerOffset() / 8 + vw.offsets().length + context.stats().dataBytes();
      return Optional.of(Proposal.estimated("variable", size, c, block));
    }
    return Optional.empty();
  }

  /** The bytes of a packed struct's children together (lengths included). */
  static long packedBytes(DataBlock.Struct s) {
    long bytes = 0;
    for (DataBlock c : s.children()) {
      if (c instanceof DataBlock.FixedWidth fw) {
        bytes += fw.usedBytes();
      } else if (c instanceof DataBlock.VariableWidth vw) {
        bytes += vw.offset((int) vw.numValues()) - vw.offset(0) + vw.numValues() * (vw.bitsPerOffset() / 8);
      }
    }
    return bytes;
  }

  /** Serializes the block form read by {@link #variableBlock(byte[], long, int)}, offsets rebased to 0. */
  static byte[] variableBlock(DataBlock.VariableWidth vw) {
    int w = vw.bitsPerOffset() / 8;
    int n = (int) vw.numValues();
    long base = vw.offset(0);
    int dataLen = (int) (vw.offset(n) - base);
    int start = 2 * w + (n + 1) * w;
    byte[] out = new byte[start + dataLen];
    io.lancecodec.spi.LittleEndian.putUnsigned(out, 0, w, vw.bitsPerOffset());
    io.lancecodec.spi.LittleEndian.putUnsigned(out, w, w, start);
    for (int i = 0; i <= n; i++) {
      io.lancecodec.spi.LittleEndian.putUnsigned(out, 2 * w + i * w, w, vw.offset(i) - base);
    }
    System.arraycopy(vw.data(), (int) base, out, start, dataLen);
    return out;
  }

  /**
   * Fixed-size lists (any depth) of byte-aligned items without validity at any level, seen as
   * one wide value per list (its items back to back); null otherwise.
   */
  static DataBlock.FixedWidth fslRows(DataBlock block) {
    FslShape.Parts p = FslShape.parts(block);
    if (p == null || !p.shape().plain()) {
      return null;
    }
    return new DataBlock.FixedWidth(p.values(), (int) (p.shape().leafItems() * p.shape().leafBits()), p.rows());
  }

  /**
   * Fixed-size lists of booleans without validity at any level whose rows are whole bytes, seen
   * as one value per row (its bits, LSB first): the only full-zip form of boolean lists the
   * reference writes and reads; null otherwise.
   */
  static DataBlock.FixedWidth boolRows(DataBlock block) {
    FslShape.Parts p = FslShape.parts(block);
    if (p == null || !p.shape().byteRowsOfBooleans()) {
      return null;
    }
    return new DataBlock.FixedWidth(p.values(), (int) p.shape().leafItems(), p.rows());
  }

  static CompressiveEncoding flat(int bitsPerValue) {
    return CompressiveEncoding.newBuilder()
        .setFlat(Flat.newBuilder().setBitsPerValue(bitsPerValue))
        .build();
  }

  static CompressiveEncoding variable(int bitsPerOffset) {
    return CompressiveEncoding.newBuilder()
        .setVariable(Variable.newBuilder().setOffsets(flat(bitsPerOffset)))
        .build();
  }

  @Override
  public MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (Builtin23.owns(node)) {
      return Builtin23.openMiniBlock(node, children);
    }
    if (node instanceof io.lancecodec.format.pb.v21.FixedSizeList f) {
      FslShape shape = FslShape.parse(f);
      if (shape.plain()) {
        return FlatMiniBlock.decompressor((int) (shape.leafItems() * shape.leafBits()));
      }
      return new FslValidity.MiniBlockDecoder(shape);
    }
    if (node instanceof Flat f) {
      checkNoBufferCompression(f.hasData(), "Flat");
      return FlatMiniBlock.decompressor(bitsOf(f));
    }
    if (node instanceof io.lancecodec.format.pb.v21.PackedStruct p) {
      return PackedStruct.openMiniBlock(p, children);
    }
    if (node instanceof Variable v) {
      checkNoBufferCompression(v.hasValues(), "Variable");
      return new VariableMiniBlock.Decompressor(offsetBits(v));
    }
    return CodecPlugin.super.openMiniBlock(node, children);
  }

  @Override
  public PerValueDecompressor openPerValue(Message node, Decoders children) {
    if (Builtin23.owns(node)) {
      return Builtin23.openPerValue(node, children);
    }
    if (node instanceof io.lancecodec.format.pb.v21.VariablePackedStruct p) {
      return PackedStruct.openPerValue(p, children);
    }
    if (node instanceof io.lancecodec.format.pb.v21.FixedSizeList f) {
      FslShape shape = FslShape.parse(f);
      if (shape.leafBits() == 1 && !shape.byteRowsOfBooleans()) {
        // The reference's writer panics on these (it slices a byte per boolean when items or
        // lists have validity, and asserts whole-byte rows) and its reader asserts whole-byte
        // items: no file holds them, so there is no layout to follow.
        throw LanceCodecException.unsupported("full-zip rows of fixed_size_list of booleans "
            + (shape.anyValidity() ? "with validity" : "of " + shape.leafItems() + " bits (not whole bytes)")
            + " are not supported");
      }
      if (!shape.plain()) {
        // also whole-byte boolean rows: it adds the all-valid level bytes of the decoded row form
        return FslValidity.perValueDecoder(shape);
      }
      return new PlainPerValue(shape.leafItems() * shape.leafBits(), "fixed_size_list");
    }
    if (node instanceof Flat f) {
      checkNoBufferCompression(f.hasData(), "Flat");
      return new PlainPerValue(bitsOf(f), "flat");
    }
    if (node instanceof Constant c) {
      if (c.hasValue()) {
        throw LanceCodecException.unsupported("a constant with a value cannot be used per value");
      }
      // the zero-width rows of values that are all null below their levels: nothing to decode
      return (block, reuse) -> {
        if (!(block instanceof DataBlock.AllNull)) {
          throw LanceCodecException.corrupt("constant without value: rows must be zero-width, got "
              + block.getClass().getSimpleName() + " values");
        }
        return block;
      };
    }
    if (node instanceof Variable v) {
      checkNoBufferCompression(v.hasValues(), "Variable");
      offsetBits(v);
      return (block, reuse) -> block;
    }
    return CodecPlugin.super.openPerValue(node, children);
  }

  @Override
  public BlockDecompressor openBlock(Message node, Decoders children) {
    if (Builtin23.owns(node)) {
      return Builtin23.openBlock(node, children);
    }
    if (node instanceof Flat f) {
      checkNoBufferCompression(f.hasData(), "Flat");
      int bits = bitsOf(f);
      return new BlockDecompressor() {
        @Override
        public long maxBytes(long numValues) {
          return (numValues * bits + 7) / 8;
        }

        @Override
        public DataBlock decompress(byte[] data, long numValues) {
        long need = (numValues * bits + 7) / 8;
        LanceCodecException.check(
            need <= data.length,
            "flat block: " + numValues + " values of " + bits + " bits need " + need
                + " bytes, buffer has " + data.length);
        return new DataBlock.FixedWidth(data, bits, numValues);
        }
      };
    }
    if (node instanceof Variable v) {
      checkNoBufferCompression(v.hasValues(), "Variable");
      int bits = offsetBits(v);
      return (data, numValues) -> variableBlock(data, numValues, bits);
    }
    if (node instanceof Constant c) {
      byte[] value = c.getValue().toByteArray();
      return (data, numValues) -> {
        LanceCodecException.check(value.length > 0, "constant block without a value");
        int n = LanceCodecException.checkedInt(numValues * value.length, "constant block size");
        byte[] out = new byte[n];
        for (int i = 0; i < n; i += value.length) {
          System.arraycopy(value, 0, out, i, value.length);
        }
        return new DataBlock.FixedWidth(out, value.length * 8, numValues);
      };
    }
    return CodecPlugin.super.openBlock(node, children);
  }

  /** Fixed-width values a full-zip page stores as they are; only their width is checked. */
  record PlainPerValue(long plainBits, String what) implements PerValueDecompressor {
    @Override
    public DataBlock decompress(DataBlock block, DecodeBuffers reuse) {
      if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != plainBits) {
        throw LanceCodecException.corrupt(what + ": expected " + plainBits + "-bit values");
      }
      return block;
    }
  }

  @Override
  public Optional<EncodingSummary> describe(Message node, Decoders children) {
    if (Builtin23.owns(node)) {
      return Builtin23.describe(node, children);
    }
    if (node instanceof Flat f) {
      return Optional.of(EncodingSummary.of("flat", String.valueOf(f.getBitsPerValue())));
    }
    if (node instanceof io.lancecodec.format.pb.v21.FixedSizeList fsl) {
      String params = fsl.getItemsPerValue() + (fsl.getHasValidity() ? ", item validity" : "");
      return Optional.of(EncodingSummary.of("fixed_size_list", params, children.describe(fsl.getValues())));
    }
    if (node instanceof io.lancecodec.format.pb.v21.VariablePackedStruct vps) {
      EncodingSummary[] fields = new EncodingSummary[vps.getFieldsCount()];
      for (int i = 0; i < fields.length; i++) {
        fields[i] = children.describe(vps.getFields(i).getValue());
      }
      return Optional.of(EncodingSummary.of("variable_packed_struct", "", fields));
    }
    return Optional.empty();
  }

  /**
   * The block form of variable-width values: the offset width (u32 32 or u64 64), the byte
   * position where the values start, numValues + 1 offsets of that width, then the values.
   */
  static DataBlock variableBlock(byte[] data, long numValues, int bits) {
    return variableBlock(data, numValues, bits, false);
  }

  /** {@code exact}: 2.3's rule, the last offset ends the buffer (the 2.2 form has no padding). */
  static DataBlock variableBlock(byte[] data, long numValues, int bits, boolean exact) {
    int w = bits / 8;
    LanceCodecException.check(data.length >= 2 * w, "variable block of " + data.length + " bytes has no header");
    long declared = io.lancecodec.spi.LittleEndian.getUnsigned(data, 0, w);
    LanceCodecException.check(declared == bits, "variable block declares " + declared + "-bit offsets, expected " + bits);
    long start = io.lancecodec.spi.LittleEndian.getUnsigned(data, w, w);
    int n = LanceCodecException.checkedInt(numValues, "variable block value count");
    LanceCodecException.check(start == 2L * w + (long) (n + 1) * w && start <= data.length,
        "variable block: values start at " + start + ", expected " + (2L * w + (long) (n + 1) * w));
    byte[] offsets = java.util.Arrays.copyOfRange(data, 2 * w, (int) start);
    byte[] values = java.util.Arrays.copyOfRange(data, (int) start, data.length);
    DataBlock.VariableWidth vw = new DataBlock.VariableWidth(offsets, bits, values, numValues);
    long prev = vw.offset(0);
    for (int i = 1; i <= n; i++) {
      long o = vw.offset(i);
      LanceCodecException.check(o >= prev && o <= values.length, "variable block: offset " + i + " = " + o + " out of order or range");
      prev = o;
    }
    LanceCodecException.check(!exact || (vw.offset(0) == 0 && prev == values.length),
        "variable block: offsets [" + vw.offset(0) + ", " + prev + "] do not span the " + values.length + " value bytes");
    return vw;
  }

  private static void checkNoBufferCompression(boolean present, String what) {
    if (present) {
      throw LanceCodecException.unsupported(what + " with buffer compression is not supported");
    }
  }

  static int bitsOf(Flat f) {
    long bits = f.getBitsPerValue();
    if (bits <= 0 || bits > 1 << 20 || (bits != 1 && bits % 8 != 0)) {
      throw LanceCodecException.corrupt("flat: bits per value " + bits + " is not 1 or a multiple of 8");
    }
    return (int) bits;
  }

  private static int offsetBits(Variable v) {
    if (!v.hasOffsets() || !v.getOffsets().hasFlat()) {
      throw LanceCodecException.unsupported("variable: offsets must be Flat in 2.1/2.2");
    }
    long bits = v.getOffsets().getFlat().getBitsPerValue();
    if (bits != 32 && bits != 64) {
      throw LanceCodecException.corrupt("variable: offset width " + bits + " is neither 32 nor 64");
    }
    return (int) bits;
  }
}
