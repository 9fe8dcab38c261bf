package io.lancecodec.runtime;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.Constant;
import io.lancecodec.format.pb.v21.Flat;
import io.lancecodec.format.pb.v21.Variable;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.FieldOptions;
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
 * proposals estimate the raw size, which every real codec has to beat.
 */
final class BuiltinCodecs implements CodecPlugin {
  @Override
  public String name() {
    return "builtin";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_1, FileVersion.V2_2);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(Flat.class, Variable.class, Constant.class, io.lancecodec.format.pb.v21.FixedSizeList.class,
        io.lancecodec.format.pb.v21.PackedStruct.class, io.lancecodec.format.pb.v21.VariablePackedStruct.class);
  }

  @Override
  public Optional<Proposal<MiniBlockCompressor>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    Stats stats = context.stats();
    FieldOptions options = context.options();
    FileVersion version = context.version();
    if (block instanceof DataBlock.FixedWidth fw) {
      return Optional.of(new Proposal<>("flat", FlatMiniBlock.storedBytes(fw, version), new FlatMiniBlock()));
    }
    DataBlock.FixedWidth rows = fslRows(block);
    if (rows != null) {
      CompressiveEncoding encoding = FslShape.parts(block).shape().encoding();
      MiniBlockCompressor c = b -> {
        MiniBlockCompressed m = new FlatMiniBlock().compress(fslRows(b));
        return new MiniBlockCompressed(m.buffers(), m.chunks(), m.numValues(), encoding);
      };
      return Optional.of(new Proposal<>("flat", rows.usedBytes(), c));
    }
    FslShape.Parts lists = FslShape.parts(block);
    if (lists != null) {
      return Optional.of(new Proposal<>("flat", lists.rows() * lists.shape().zippedRowBytes(), new FslValidity.MiniBlock()));
    }
    if (PackedStruct.fixedOnly(block) != null) {
      return Optional.of(new Proposal<>("packed-struct", packedBytes((DataBlock.Struct) block), new PackedStruct.MiniBlock()));
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      long bytes = stats.dataBytes() + (vw.numValues() + 1) * (vw.bitsPerOffset() / 8);
      return Optional.of(new Proposal<>("variable", bytes, new VariableMiniBlock()));
    }
    return Optional.empty();
  }

  @Override
  public Optional<Proposal<PerValueCompressor>> proposePerValue(DataBlock block, ProposalContext context) {
    Stats stats = context.stats();
    FieldOptions options = context.options();
    FileVersion version = context.version();
    if (block instanceof DataBlock.FixedWidth fw) {
      PerValueCompressor c =
          b -> new io.lancecodec.spi.Encoded<>(b, flat(((DataBlock.FixedWidth) b).bitsPerValue()));
      return Optional.of(new Proposal<>("flat", fw.usedBytes(), c));
    }
    DataBlock.FixedWidth fslRows = fslRows(block);
    if (fslRows != null) {
      CompressiveEncoding encoding = FslShape.parts(block).shape().encoding();
      PerValueCompressor c = b -> new io.lancecodec.spi.Encoded<>(fslRows(b), encoding);
      return Optional.of(new Proposal<>("flat", fslRows.usedBytes(), c));
    }
    DataBlock.FixedWidth boolRows = boolRows(block);
    if (boolRows != null) {
      CompressiveEncoding encoding = FslShape.parts(block).shape().encoding();
      PerValueCompressor c = b -> new io.lancecodec.spi.Encoded<>(boolRows(b), encoding);
      return Optional.of(new Proposal<>("flat", boolRows.usedBytes(), c));
    }
    FslShape.Parts lists = FslShape.parts(block);
    if (lists != null && lists.shape().leafBits() % 8 == 0) {
      return Optional.of(new Proposal<>("flat", lists.rows() * lists.shape().zippedRowBytes(), new FslValidity.PerValue()));
    }
    if (PackedStruct.packable(block) != null && PackedStruct.fixedOnly(block) == null && version.atLeast(FileVersion.V2_2)) {
      return Optional.of(new Proposal<>("packed-struct", packedBytes((DataBlock.Struct) block), new PackedStruct.PerValue()));
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      PerValueCompressor c =
          b ->
              new io.lancecodec.spi.Encoded<>(
                  b, variable(((DataBlock.VariableWidth) b).bitsPerOffset()));
      return Optional.of(new Proposal<>("variable", stats.dataBytes(), c));
    }
    return Optional.empty();
  }

  @Override
  public Optional<Proposal<BlockCompressor>> proposeBlock(DataBlock block, ProposalContext context) {
    Stats stats = context.stats();
    FieldOptions options = context.options();
    FileVersion version = context.version();
    if (block instanceof DataBlock.FixedWidth fw) {
      int bits = fw.bitsPerValue();
      BlockCompressor c =
          b -> {
            DataBlock.FixedWidth f = (DataBlock.FixedWidth) b;
            byte[] d = f.data().length == f.usedBytes() ? f.data() : java.util.Arrays.copyOf(f.data(), f.usedBytes());
            return new io.lancecodec.spi.Encoded<>(d, flat(bits));
          };
      return Optional.of(new Proposal<>("flat", fw.usedBytes(), c));
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      BlockCompressor c = b -> new io.lancecodec.spi.Encoded<>(variableBlock((DataBlock.VariableWidth) b), variable(vw.bitsPerOffset()));
      long size = 2L * vw.bitsPerOffset() / 8 + vw.offsets().length + stats.dataBytes();
      return Optional.of(new Proposal<>("variable", size, c));
    }
    return Optional.empty();
  }

  /** The bytes of a packed struct's children together (lengths included). */
  private static long packedBytes(DataBlock.Struct s) {
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
    if (node instanceof io.lancecodec.format.pb.v21.FixedSizeList f) {
      FslShape shape = FslShape.parse(f);
      if (shape.plain()) {
        return new FlatMiniBlock.Decompressor((int) (shape.leafItems() * shape.leafBits()));
      }
      return new FslValidity.MiniBlockDecoder(shape);
    }
    if (node instanceof Flat f) {
      checkNoBufferCompression(f.hasData(), "Flat");
      return new FlatMiniBlock.Decompressor(bitsOf(f));
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
      long bits = shape.leafItems() * shape.leafBits();
      return block -> {
        if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != bits) {
          throw LanceCodecException.corrupt("fixed_size_list: expected " + bits + "-bit lists");
        }
        return block;
      };
    }
    if (node instanceof Flat f) {
      checkNoBufferCompression(f.hasData(), "Flat");
      int bits = bitsOf(f);
      return block -> {
        if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != bits) {
          throw LanceCodecException.corrupt("flat: expected " + bits + "-bit fixed-width values");
        }
        return block;
      };
    }
    if (node instanceof Variable v) {
      checkNoBufferCompression(v.hasValues(), "Variable");
      offsetBits(v);
      return block -> block;
    }
    return CodecPlugin.super.openPerValue(node, children);
  }

  @Override
  public BlockDecompressor openBlock(Message node, Decoders children) {
    if (node instanceof Flat f) {
      checkNoBufferCompression(f.hasData(), "Flat");
      int bits = bitsOf(f);
      return (data, numValues) -> {
        long need = (numValues * bits + 7) / 8;
        LanceCodecException.check(
            need <= data.length,
            "flat block: " + numValues + " values of " + bits + " bits need " + need
                + " bytes, buffer has " + data.length);
        return new DataBlock.FixedWidth(data, bits, numValues);
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

  /**
   * The block form of variable-width values: the offset width (u32 32 or u64 64), the byte
   * position where the values start, numValues + 1 offsets of that width, then the values.
   */
  static DataBlock variableBlock(byte[] data, long numValues, int bits) {
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
    return vw;
  }

  private static void checkNoBufferCompression(boolean present, String what) {
    if (present) {
      throw LanceCodecException.unsupported(
          what + " with buffer compression is not supported yet (needs codec-general)");
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
