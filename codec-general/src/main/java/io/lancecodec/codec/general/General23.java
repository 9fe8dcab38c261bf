package io.lancecodec.codec.general;

import io.lancecodec.format.UnsignedBlockGrammar;
import io.lancecodec.format.pb.v23.BufferCompression;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Extension;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.General;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.Extensions;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * General compression in the 2.3 grammar, the frames of 2.1/2.2 under {@code lance.encodings23}
 * messages: lz4 and zstd as {@code General}; snappy, which the grammar has no value for, as the
 * extension codec {@value #SNAPPY_CODEC} (version 1, no parameters, one child: the framed
 * encoding), in mini-blocks and per value only (blocks asked for snappy stay as their best
 * offer without it; so do fixed-size-list rows):
 *
 * <ul>
 *   <li>Blocks: {@code General(Flat{T})}, one frame of the values' bytes, which must decode to
 *       exactly the bytes the cardinality and width imply (the generic unsigned block form for
 *       T of 32 or 64, any byte-aligned T for other blocks); and {@code General(Variable{Flat})},
 *       one frame of the 2.2 variable block (a page's dictionary of strings). Offered only when
 *       the options ask for lz4 or zstd, as a page's dictionary values do by default.</li>
 *   <li>Mini-blocks: {@code General(inner)}, each chunk's buffers framed one by one
 *       ({@link GeneralMiniBlock}).</li>
 *   <li>Per value: {@code General(Variable{Flat})}, every value its own frame ({@link GeneralPerValue});
 *       and {@code General(FixedSizeList)} or {@code General(AxisDelta{FixedSizeList})}, every
 *       fixed-width row its own frame ({@link GeneralRows}).</li>
 * </ul>
 */
final class General23 {
  /** The extension codec id of 2.3 snappy frames; the frames are those of 2.1/2.2 snappy. */
  static final String SNAPPY_CODEC = "io.lancecodec.snappy";
  static final int SNAPPY_VERSION = 1;

  private General23() {}

  /** {@code inner} framed by {@code scheme}: a General node for lz4/zstd, the snappy extension node. */
  static CompressiveEncoding wrap(Scheme scheme, OptionalInt level, CompressiveEncoding inner) {
    if (scheme == Scheme.SNAPPY) {
      return Extensions.node(SNAPPY_CODEC, SNAPPY_VERSION, new byte[0], inner);
    }
    return GeneralMiniBlock.wrap23(scheme.describe23(level), inner);
  }

  /** The snappy extension's one child, checked as General's is: never general or snappy frames inside. */
  private static CompressiveEncoding snappyChild(Extension ext) {
    if (ext.getChildrenCount() != 1) {
      throw LanceCodecException.corrupt(SNAPPY_CODEC + ": " + ext.getChildrenCount() + " children, expected the one it frames");
    }
    CompressiveEncoding values = ext.getChildren(0);
    if (values.hasGeneral() || values.hasExtension() && SNAPPY_CODEC.equals(values.getExtension().getCodecId())) {
      throw LanceCodecException.corrupt(SNAPPY_CODEC + ": frames around frames: unsupported nesting");
    }
    return values;
  }

  static MiniBlockDecompressor openSnappyMiniBlock(Extension ext, Decoders children) {
    return GeneralMiniBlock.decompressor(Scheme.SNAPPY.codec(OptionalInt.empty()), children.miniBlock(snappyChild(ext)), true);
  }

  static PerValueDecompressor openSnappyPerValue(Extension ext, Decoders children) {
    CompressiveEncoding values = snappyChild(ext);
    if (!values.hasVariable()) {
      throw LanceCodecException.corrupt(SNAPPY_CODEC + ": per value it frames Variable values, not " + UnsignedBlockGrammar.caseName(values));
    }
    return new GeneralPerValue.Decompressor(Scheme.SNAPPY.codec(OptionalInt.empty()), children.perValue(values));
  }

  static CompressiveEncoding encoding(Scheme scheme, OptionalInt level, int bits) {
    return CompressiveEncoding.newBuilder()
        .setGeneral(General.newBuilder().setCompression(scheme.describe23(level))
            .setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits))))
        .build();
  }

  /**
   * {@code General(Flat)} of byte-aligned fixed-width values (its size measured on every member
   * of a family of generic blocks), or {@code General(Variable)} around the best inner offer's 2.2
   * variable block, when the field asks for lz4 or zstd.
   */
  static Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock block, ProposalContext context) {
    Optional<Scheme> scheme = GeneralPlugin.requested(context.options()).filter(s -> s != Scheme.SNAPPY);
    if (block.numValues() == 0) {
      return Optional.empty();
    }
    if (scheme.isEmpty()) {
      return automatic(block, context);
    }
    OptionalInt level = context.options().compressionLevel();
    BufferCodec codec = scheme.get().codec(level);
    if (block instanceof DataBlock.VariableWidth vw) {
      return variableBlock(vw, context, scheme.get(), level, codec);
    }
    if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() % 8 != 0) {
      return Optional.empty();
    }
    List<DataBlock.FixedWidth> family = context.family().isEmpty() ? List.of(fw) : context.family();
    CompressiveEncoding encoding = encoding(scheme.get(), level, fw.bitsPerValue());
    BlockCompressor c = b -> {
      DataBlock.FixedWidth f = (DataBlock.FixedWidth) b;
      if (f.bitsPerValue() != fw.bitsPerValue() || f.numValues() == 0) {
        throw LanceCodecException.internal("general: a family member of another width, or empty");
      }
      return new Encoded<>(codec.compress(f.data(), 0, f.usedBytes()), encoding);
    };
    long bytes = 0;
    Encoded<byte[]> first = null;
    for (DataBlock.FixedWidth m : family) {
      if (m.numValues() == 0 || m.bitsPerValue() != fw.bitsPerValue()) {
        return Optional.empty();
      }
      Encoded<byte[]> r = c.compress(m);
      first = first == null ? r : first;
      bytes += r.data().length;
    }
    return Optional.of(Proposal.measured("general-" + scheme.get().option(), bytes, c, first));
  }

  /**
   * Unasked, as in 2.2: zstd level 0 around the best inner offer for a block of more than 32 KiB
   * (in practice a dense chunked page's levels, whose random mixes of null and empty lists pack to
   * two bits but compress further); levels compressed chunk by chunk only where a chunk's slice is
   * over 32 KiB (mostly null or empty lists). Never in a generic unsigned block, whose context has
   * no inner offers, nor when the field set {@code compression} (to none or a scheme) itself.
   */
  private static Optional<Proposal<Encoded<byte[]>>> automatic(DataBlock block, ProposalContext context) {
    if (context.options().compression().isPresent() || context.options().compressionNone()
        || !context.family().isEmpty()
        || !(block instanceof DataBlock.FixedWidth || block instanceof DataBlock.VariableWidth)
        || !GeneralFormat.largeForAutomatic(block, context)) {
      return Optional.empty();
    }
    Optional<Proposal<Encoded<byte[]>>> inner = context.innerBlock(block);
    if (inner.isEmpty() || !(inner.get().result().encoding() instanceof CompressiveEncoding e)
        || !(e.hasFlat() || e.hasVariable() || e.hasInlineBitpacking() || e.hasOutOfLineBitpacking() || e.hasRle())) {
      return Optional.empty();
    }
    OptionalInt level = OptionalInt.of(0);
    BufferCodec codec = Scheme.ZSTD.codec(level);
    BufferCompression compression = Scheme.ZSTD.describe23(level);
    io.lancecodec.spi.Compressor<Encoded<byte[]>> innerCompressor = inner.get().compressor();
    BlockCompressor c = b -> wrap(innerCompressor.compress(b), codec, compression);
    Encoded<byte[]> out = wrap(inner.get().result(), codec, compression);
    return Optional.of(Proposal.measured("general-zstd", out.data().length, c, out));
  }

  /**
   * One frame of the strings' block form, taken from the best inner offer when it is the 2.2
   * variable block (whose bytes this plugin does not make itself); otherwise declined.
   */
  private static Optional<Proposal<Encoded<byte[]>>> variableBlock(
      DataBlock.VariableWidth vw, ProposalContext context, Scheme scheme, OptionalInt level, BufferCodec codec) {
    Optional<Proposal<Encoded<byte[]>>> inner = context.innerBlock(vw);
    if (inner.isEmpty() || !(inner.get().result().encoding() instanceof CompressiveEncoding e) || !e.hasVariable()) {
      return Optional.empty();
    }
    io.lancecodec.spi.Compressor<Encoded<byte[]>> innerCompressor = inner.get().compressor();
    io.lancecodec.format.pb.v23.BufferCompression compression = scheme.describe23(level);
    BlockCompressor c = b -> wrap(innerCompressor.compress(b), codec, compression);
    Encoded<byte[]> out = wrap(inner.get().result(), codec, compression);
    return Optional.of(Proposal.measured("general-" + scheme.option(), out.data().length, c, out));
  }

  private static Encoded<byte[]> wrap(Encoded<byte[]> in, BufferCodec codec, io.lancecodec.format.pb.v23.BufferCompression compression) {
    return new Encoded<>(codec.compress(in.data(), 0, in.data().length),
        GeneralMiniBlock.wrap23(compression, (CompressiveEncoding) in.encoding()));
  }

  static BufferCodec codec(General g) {
    if (!g.hasCompression()) {
      throw LanceCodecException.corrupt("general: compression config missing");
    }
    return Scheme.open23(g.getCompression());
  }

  private static CompressiveEncoding values(General g) {
    if (!g.hasValues()) {
      throw LanceCodecException.corrupt("general: inner encoding missing");
    }
    return g.getValues();
  }

  static BlockDecompressor openBlock(General g, Decoders children) {
    BufferCodec codec = codec(g);
    CompressiveEncoding values = values(g);
    if (values.hasVariable()) {
      BlockDecompressor variable = children.block(values);
      return (data, numValues) -> {
        byte[] raw = codec.decompress(data, 0, data.length, GeneralFormat.MAX_BLOCK_OUTPUT);
        return variable.decompress(raw, numValues);
      };
    }
    if (!values.hasFlat() && !values.hasInlineBitpacking() && !values.hasOutOfLineBitpacking() && !values.hasRle()) {
      throw LanceCodecException.corrupt("general: 2.3 general compression of a block wraps only Flat, Variable, bit-packing"
          + " or RLE, not " + UnsignedBlockGrammar.caseName(values) + ": unsupported nesting");
    }
    if (!values.hasFlat()) {
      // levels: bit-packed or run-length u16 blocks in one frame (a generic unsigned block allows
      // only Flat here, which GenericBlocks checks before opening)
      BlockDecompressor inner = children.block(values);
      return new BlockDecompressor() {
        @Override
        public int bitsPerValue() {
          return inner.bitsPerValue();
        }

        @Override
        public DataBlock decompress(byte[] data, long numValues) {
          long budget = GeneralFormat.budget(inner.maxBytes(numValues), GeneralFormat.MAX_BLOCK_OUTPUT);
          return inner.decompress(codec.decompress(data, 0, data.length, budget), numValues);
        }

        /** As GeneralBlock's: decompressed from where the frame lies, the levels written by the inner decoder. */
        @Override
        public void decompressLevels(byte[] src, int off, int len, int numValues, short[] dst, int dstOff) {
          GeneralBlock.levels(codec, inner, src, off, len, numValues, dst, dstOff);
        }
      };
    }
    BlockDecompressor flat = children.block(values);
    int bits = flat.bitsPerValue();
    return new BlockDecompressor() {
      @Override
      public int bitsPerValue() {
        return bits;
      }

      @Override
      public DataBlock decompress(byte[] data, long numValues) {
        long exact = numValues < 0 || numValues > Integer.MAX_VALUE ? -1 : flat.maxBytes(numValues);
        if (exact < 0 || exact > GeneralFormat.MAX_PER_VALUE_OUTPUT) {
          throw LanceCodecException.corrupt("general: " + numValues + " values of " + bits + " bits exceed a Java array");
        }
        byte[] raw = codec.decompress(data, 0, data.length, exact);
        if (raw.length != exact) {
          throw LanceCodecException.corrupt("general(" + codec.name() + "): frame decoded to " + raw.length + " bytes, "
              + numValues + " values of " + bits + " bits take " + exact);
        }
        return flat.decompress(raw, numValues);
      }
    };
  }

  /** Around any mini-block encoding but General itself (a frame of frames gains nothing); every buffer framed. */
  static MiniBlockDecompressor openMiniBlock(General g, Decoders children) {
    BufferCodec codec = codec(g);
    CompressiveEncoding values = values(g);
    if (values.hasGeneral()) {
      throw LanceCodecException.corrupt("general: general compression around general compression: unsupported nesting");
    }
    return GeneralMiniBlock.decompressor(codec, children.miniBlock(values), true);
  }

  /**
   * Around Variable, where the frames are the values (a full-zip row holds a length and bytes),
   * or around fixed-width rows, a fixed-size list or an axis delta of one, each row a frame
   * ({@link GeneralRows}).
   */
  static PerValueDecompressor openPerValue(General g, Decoders children) {
    BufferCodec codec = codec(g);
    CompressiveEncoding values = values(g);
    if (values.hasVariable()) {
      return new GeneralPerValue.Decompressor(codec, children.perValue(values));
    }
    if (GeneralRows.wraps(values)) {
      return GeneralRows.open(codec, values, children);
    }
    throw LanceCodecException.corrupt("general: per-value general compression wraps Variable, FixedSizeList or AxisDelta, not "
        + UnsignedBlockGrammar.caseName(values) + ": unsupported nesting");
  }

  static EncodingSummary describe(General g, Decoders children) {
    BufferCompression c = g.getCompression();
    String scheme = Scheme.name(c.getSchemeValue()) + (c.hasLevel() ? " " + c.getLevel() : "");
    return EncodingSummary.of("general", scheme, children.describe(g.getValues()));
  }
}
