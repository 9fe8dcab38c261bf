package io.lancecodec.codec.general;

import io.lancecodec.format.UnsignedBlockGrammar;
import io.lancecodec.format.pb.v23.BufferCompression;
import io.lancecodec.format.pb.v23.CompressionScheme;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.Flat;
import io.lancecodec.format.pb.v23.General;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * General compression in the 2.3 grammar, as the generic unsigned block grammar allows it:
 * {@code General(Flat)}, one frame (framed as in 2.1/2.2) of the sequence's little-endian values,
 * which must decode to exactly the bytes the container's cardinality and width imply. Only lz4
 * and zstd exist in 2.3 (snappy has no 2.3 wire value); it is proposed only when the field asks
 * for one of them, as general compression costs CPU the other codecs do not.
 */
final class General23 {
  private General23() {}

  static CompressiveEncoding encoding(Scheme scheme, OptionalInt level, int bits) {
    BufferCompression.Builder c = BufferCompression.newBuilder()
        .setScheme(scheme == Scheme.LZ4 ? CompressionScheme.COMPRESSION_ALGORITHM_LZ4 : CompressionScheme.COMPRESSION_ALGORITHM_ZSTD);
    level.ifPresent(c::setLevel);
    return CompressiveEncoding.newBuilder()
        .setGeneral(General.newBuilder().setCompression(c)
            .setValues(CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits))))
        .build();
  }

  /** {@code General(Flat)} of u32/u64 sequences when the field asks for lz4 or zstd, its size measured on every member. */
  static Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock block, ProposalContext context) {
    Optional<Scheme> scheme = GeneralPlugin.requested(context.options()).filter(s -> s != Scheme.SNAPPY);
    if (scheme.isEmpty() || !(block instanceof DataBlock.FixedWidth fw) || (fw.bitsPerValue() != 32 && fw.bitsPerValue() != 64)) {
      return Optional.empty();
    }
    List<DataBlock.FixedWidth> family = context.family().isEmpty() ? List.of(fw) : context.family();
    OptionalInt level = context.options().compressionLevel();
    BufferCodec codec = scheme.get().codec(level);
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

  static BlockDecompressor openBlock(General g, Decoders children) {
    if (!g.hasCompression()) {
      throw LanceCodecException.corrupt("general: compression config missing");
    }
    int number = g.getCompression().getSchemeValue();
    Scheme scheme = number == CompressionScheme.COMPRESSION_ALGORITHM_LZ4_VALUE ? Scheme.LZ4
        : number == CompressionScheme.COMPRESSION_ALGORITHM_ZSTD_VALUE ? Scheme.ZSTD : null;
    if (scheme == null) {
      if (number == 0) {
        throw LanceCodecException.corrupt("general: compression scheme unspecified");
      }
      throw LanceCodecException.unsupported("general: 2.3 compression scheme " + number + " is not one of lz4 (1), zstd (2)");
    }
    if (!g.hasValues()) {
      throw LanceCodecException.corrupt("general: inner encoding missing");
    }
    if (!g.getValues().hasFlat()) {
      throw LanceCodecException.corrupt("general: 2.3 general compression wraps only Flat, not "
          + UnsignedBlockGrammar.caseName(g.getValues()) + ": unsupported nesting");
    }
    BufferCompression c = g.getCompression();
    BufferCodec codec = scheme.codec(c.hasLevel() ? OptionalInt.of(c.getLevel()) : OptionalInt.empty());
    BlockDecompressor flat = children.block(g.getValues());
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

  static EncodingSummary describe(General g, Decoders children) {
    BufferCompression c = g.getCompression();
    String scheme = Scheme.name(c.getSchemeValue()) + (c.hasLevel() ? " " + c.getLevel() : "");
    return EncodingSummary.of("general", scheme, children.describe(g.getValues()));
  }
}
