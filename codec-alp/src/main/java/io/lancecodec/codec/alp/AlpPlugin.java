package io.lancecodec.codec.alp;

import com.google.protobuf.Message;
import io.lancecodec.format.UnsignedBlockGrammar;
import io.lancecodec.format.pb.v23.Alp;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * ALP and ALP-RD for the float values of 2.3 mini-block pages: {@code Alp{values = Flat{32|64}}}.
 *
 * <p>The writer's blocks do not say whether 32/64-bit words are floats or integers, so ALP is
 * offered on any such block. That is safe, since every value is admitted only after a bitwise
 * round trip, and cheap for integers, which two pre-gates over a small sample decline before any
 * encoding: the spec's byte-position entropy gate ({@code alp=auto} only, {@link AlpEntropyGate})
 * and the integer-word gate ({@link IntegerWords}, in every mode, as it stands in for the type
 * the block does not carry). A page that passes is encoded for real; the offer carries the result
 * and its exact stored size, and ALP declines when it would not be smaller than the raw values,
 * so the runtime weighs it against flat, bit-packing and general compression and ALP never
 * enlarges a page. Offered only in 2.3 ({@code alp} is honoured only there), not with
 * {@code compression=none} or {@code alp=off}, and not when LANCE_MINIBLOCK_MAX_VALUES is below
 * ALP's 1024-value chunks.
 */
public final class AlpPlugin implements CodecPlugin {
  private static final System.Logger LOG = System.getLogger(AlpPlugin.class.getName());

  @Override
  public String name() {
    return "alp";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_3);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(Alp.class);
  }

  /** ALP's offer is the page encoded: asked after the plugins that estimate, it stops once it cannot win. */
  @Override
  public boolean measuresOffers() {
    return true;
  }

  @Override
  public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    FileVersion version = context.version();
    FieldOptions options = context.options();
    if (version != FileVersion.V2_3
        || !(block instanceof DataBlock.FixedWidth fw)
        || (fw.bitsPerValue() != 32 && fw.bitsPerValue() != 64)
        || fw.numValues() == 0
        || fw.numValues() > Integer.MAX_VALUE
        || options.compressionNone()
        // the field asked for another scheme that compresses whole chunks (pcodec): its choice
        // wins, ALP does not outbid it
        || options.chunkedCompression()
        || options.alp() == FieldOptions.Mode.OFF
        || options.miniBlockMaxValues() < AlpFormat.MAX_CHUNK_VALUES
        // one chunk of an enclosing encoding (a fixed-size list's rows) fits ALP's chunk only up to 1024 values
        || context.oneChunk() && fw.numValues() > AlpFormat.MAX_CHUNK_VALUES
        // zipped rows take one buffer a row; ALP's chunks have four
        || context.rowValues() > 0) {
      return Optional.empty();
    }
    if (!worthScanning(fw, options.alp())) {
      return Optional.empty();
    }
    AlpMiniBlock.Compressor compressor = new AlpMiniBlock.Compressor(MiniBlocks.maxChunkBytes(version));
    MiniBlockCompressed out = compressor.compressIfSmaller(fw, context.sizeToBeat());
    if (out == null) {
      LOG.log(System.Logger.Level.DEBUG, "alp: {0} values of {1} bits not smaller than raw or than another offer, declined",
          fw.numValues(), fw.bitsPerValue());
      return Optional.empty();
    }
    long bytes = MiniBlocks.storedBytes(out, version);
    LOG.log(System.Logger.Level.DEBUG, "alp: {0} values of {1} bits in {2} bytes", fw.numValues(), fw.bitsPerValue(), bytes);
    return Optional.of(Proposal.measured("alp", bytes, compressor, out));
  }

  /**
   * The pre-gates, on a sample of the page: the entropy gate unless the field said {@code on},
   * then the integer-word gate.
   */
  static boolean worthScanning(DataBlock.FixedWidth fw, FieldOptions.Mode mode) {
    int width = fw.bitsPerValue() / 8;
    if (mode == FieldOptions.Mode.AUTO
        && !AlpEntropyGate.passes(AlpEntropyGate.meanBytePositionEntropy(fw.data(), 0, width, fw.numValues()))) {
      return false;
    }
    return !IntegerWords.dominate(fw.data(), fw.bitsPerValue(), fw.numValues());
  }

  @Override
  public MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (node instanceof Alp alp) {
      return new AlpMiniBlock.Decompressor(valueBits(alp));
    }
    return CodecPlugin.super.openMiniBlock(node, children);
  }

  /** The width {@code Alp.values} gives, which must be {@code Flat} of 32 or 64 bits. */
  private static int valueBits(Alp alp) {
    CompressiveEncoding values = alp.getValues();
    if (!alp.hasValues() || !values.hasFlat()) {
      throw LanceCodecException.corrupt("alp: values must be Flat{32|64}, not "
          + (alp.hasValues() ? UnsignedBlockGrammar.caseName(values) : "missing"));
    }
    long bits = values.getFlat().getBitsPerValue();
    if (bits != 32 && bits != 64) {
      throw LanceCodecException.corrupt("alp: values of " + Long.toUnsignedString(bits) + " bits, expected Flat{32|64}");
    }
    return (int) bits;
  }

  @Override
  public Optional<EncodingSummary> describe(Message node, Decoders children) {
    if (node instanceof Alp alp) {
      return Optional.of(EncodingSummary.of("alp", "", children.describe(alp.getValues())));
    }
    return Optional.empty();
  }
}
