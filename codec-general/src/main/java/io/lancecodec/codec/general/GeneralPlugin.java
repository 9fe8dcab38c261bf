package io.lancecodec.codec.general;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.BufferCompression;
import io.lancecodec.format.pb.v23.Extension;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.General;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.Compressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * General compression (zstd, lz4 and the lance-codec-only snappy) and byte-stream-split of the
 * 2.1/2.2 grammar. It proposes only where the reference compresses: when the field asks
 * ({@code lance-encoding:compression}), for 2.2 block buffers over 32 KiB, and for full-zip
 * pages with values over 32 KiB. Proposals compress for real and report the exact size; the
 * compressor keeps that result, so the page is not compressed twice. In 2.3 it writes the same
 * frames and byte-stream-split chunks under 2.3 messages ({@link General23}), lz4 and zstd only,
 * and also frames full-zip rows of fixed-size lists one by one, integer tensors optionally
 * differenced along an axis first ({@link GeneralRows}, {@link AxisDelta}).
 */
public final class GeneralPlugin implements CodecPlugin {
  private static final System.Logger LOG = System.getLogger(GeneralPlugin.class.getName());

  @Override
  public String name() {
    return "general";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_1, FileVersion.V2_2, FileVersion.V2_3);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(General.class, io.lancecodec.format.pb.v21.ByteStreamSplit.class,
        io.lancecodec.format.pb.v23.General.class, io.lancecodec.format.pb.v23.ByteStreamSplit.class,
        io.lancecodec.format.pb.v23.AxisDelta.class);
  }

  /**
   * The scheme the field asks for, if it is one of ours. Snappy is never chosen otherwise; it is
   * not a Lance scheme: 2.1/2.2 write it as lance-codec's enum value, 2.3 as the extension node
   * {@value General23#SNAPPY_CODEC}.
   */
  static Optional<Scheme> requested(FieldOptions options) {
    return options.compression().flatMap(Scheme::ofOption);
  }

  @Override
  public Set<String> compressionSchemes() {
    Set<String> out = new java.util.TreeSet<>();
    for (Scheme s : Scheme.values()) {
      out.add(s.option());
    }
    return out;
  }

  /** Whether byte-stream-split goes under the general compressor (only 32/64-bit values). */
  static boolean useBss(DataBlock.FixedWidth fw, FieldOptions options) {
    int bits = fw.bitsPerValue();
    if (bits != 32 && bits != 64) {
      return false;
    }
    switch (options.bss()) {
      case ON:
        return true;
      case OFF:
        return false;
      default:
        return ByteStreamSplit.meanBytePositionEntropy(fw, GeneralFormat.BSS_ENTROPY_SAMPLE)
            < GeneralFormat.BSS_AUTO_ENTROPY_BITS;
    }
  }

  @Override
  public Map<String, Integer> extensions() {
    return Map.of(General23.SNAPPY_CODEC, General23.SNAPPY_VERSION);
  }

  @Override
  public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    boolean v23 = context.version() == FileVersion.V2_3;
    Optional<Scheme> scheme = requested(context.options());
    if (context.rowValues() > 0) {
      // zipped fixed-size-list rows: general compression wraps the whole row there (GeneralRows)
      return Optional.empty();
    }
    // Like the reference, only plain fixed- and variable-width pages are wrapped (fixed-size
    // lists and packed structs stay as their own codec writes them).
    if (scheme.isEmpty()
        || block.numValues() == 0
        || !(block instanceof DataBlock.FixedWidth || block instanceof DataBlock.VariableWidth)) {
      return Optional.empty();
    }
    Compressor<MiniBlockCompressed> inner;
    MiniBlockCompressed innerResult;
    if (block instanceof DataBlock.FixedWidth fw && useBss(fw, context.options())) {
      // one chunk of an enclosing encoding (a fixed-size list's rows) splits all its values at once
      inner = new ByteStreamSplit.Compressor(v23, context.oneChunk() ? Integer.MAX_VALUE : context.options().miniBlockMaxValues());
      innerResult = inner.compress(block);
    } else {
      Optional<Proposal<MiniBlockCompressed>> best = context.innerMiniBlock(block);
      if (best.isEmpty()) {
        return Optional.empty();
      }
      inner = best.get().compressor();
      innerResult = best.get().result();
    }
    OptionalInt level = context.options().compressionLevel();
    GeneralMiniBlock.Compressor c = v23
        ? new GeneralMiniBlock.Compressor(
            inner, scheme.get().codec(level), node -> General23.wrap(scheme.get(), level, node), MiniBlocks.maxChunkBytes(context.version()))
        : new GeneralMiniBlock.Compressor(
            inner, scheme.get().codec(level), scheme.get().describe(level), MiniBlocks.maxChunkBytes(context.version()));
    if (v23 && context.oneChunk()) {
      c.always();
    }
    MiniBlockCompressed out = c.wrapOrNull(innerResult);
    if (out == null) {
      return Optional.empty();
    }
    long bytes = 0;
    for (byte[] b : out.buffers()) {
      bytes += b.length;
    }
    LOG.log(System.Logger.Level.DEBUG, "general({0}) mini-block: {1} bytes", scheme.get().option(), bytes);
    return Optional.of(Proposal.measured("general-" + scheme.get().option(), bytes, c, out));
  }

  @Override
  public Optional<Proposal<Encoded<DataBlock>>> proposePerValue(DataBlock block, ProposalContext context) {
    if (block instanceof DataBlock.FixedSizeList && context.version() == FileVersion.V2_3) {
      return GeneralRows.propose(block, context);
    }
    if (!(block instanceof DataBlock.VariableWidth vw) || block.numValues() == 0) {
      return Optional.empty();
    }
    boolean v23 = context.version() == FileVersion.V2_3;
    FieldOptions options = context.options();
    Optional<String> asked = options.compression();
    Optional<Scheme> scheme = requested(options);
    if (options.compressionNone() || context.stats().dataBytes() < GeneralFormat.PER_VALUE_MIN_PAGE_BYTES) {
      return Optional.empty();
    }
    boolean big = ((Stats.VariableWidth) context.stats()).maxValueBytes() > GeneralFormat.AUTO_PER_VALUE_MAX_LENGTH;
    if (scheme.isEmpty() && !big) {
      return Optional.empty();
    }
    if (scheme.isEmpty() && asked.isPresent()) {
      // Another plugin's scheme (fsst, ...): the reference still compresses huge values with
      // zstd only when none was asked; leave the page to the plugin that was asked for.
      return Optional.empty();
    }
    // The reference compresses values with zstd level 0 whatever was asked (lz4 included):
    // its per-value lz4 decoder cannot read the empty slot of a null. Snappy stays snappy. In 2.3,
    // which the reference does not read and whose readers take an empty frame as an empty value,
    // the asked scheme is used.
    Scheme use = v23 ? scheme.orElse(Scheme.ZSTD) : scheme.filter(s -> s == Scheme.SNAPPY).orElse(Scheme.ZSTD);
    OptionalInt level = use == Scheme.ZSTD ? OptionalInt.of(options.compressionLevel().orElse(0))
        : v23 ? options.compressionLevel() : OptionalInt.empty();
    GeneralPerValue.Compressor c = v23
        ? new GeneralPerValue.Compressor(use.codec(level), node -> General23.wrap(use, level, node))
        : new GeneralPerValue.Compressor(use.codec(level), use.describe(level));
    Encoded<DataBlock> out = c.compress(vw);
    long bytes = ((DataBlock.VariableWidth) out.data()).data().length;
    return Optional.of(Proposal.measured("general-" + use.option(), bytes, c, out));
  }

  @Override
  public Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock block, ProposalContext context) {
    if (context.version() == FileVersion.V2_3) {
      return General23.proposeBlock(block, context);
    }
    if (!context.version().atLeast(FileVersion.V2_2)
        || !(block instanceof DataBlock.FixedWidth || block instanceof DataBlock.VariableWidth)
        || block.numValues() == 0) {
      return Optional.empty();
    }
    FieldOptions options = context.options();
    Optional<Scheme> scheme = requested(options);
    OptionalInt level = options.compressionLevel();
    if (scheme.isEmpty()) {
      if (options.compression().isPresent() || !GeneralFormat.largeForAutomatic(block, context)) {
        return Optional.empty();
      }
      scheme = Optional.of(Scheme.ZSTD);
      level = OptionalInt.of(0);
    }
    Optional<Proposal<Encoded<byte[]>>> best = context.innerBlock(block);
    if (best.isEmpty()) {
      return Optional.empty();
    }
    GeneralBlock.Compressor c =
        new GeneralBlock.Compressor(best.get().compressor(), scheme.get().codec(level), scheme.get().describe(level));
    Encoded<byte[]> out = c.wrap(best.get().result());
    return Optional.of(Proposal.measured("general-" + scheme.get().option(), out.data().length, c, out));
  }

  private static CompressiveEncoding values(General g) {
    if (!g.hasValues()) {
      throw LanceCodecException.corrupt("general: inner encoding missing");
    }
    return g.getValues();
  }

  private static BufferCodec codec(General g) {
    if (!g.hasCompression()) {
      throw LanceCodecException.corrupt("general: compression config missing");
    }
    return Scheme.open(g.getCompression());
  }

  @Override
  public MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    if (node instanceof Extension ext) {
      return General23.openSnappyMiniBlock(ext, children);
    }
    if (node instanceof io.lancecodec.format.pb.v23.General g) {
      return General23.openMiniBlock(g, children);
    }
    if (node instanceof io.lancecodec.format.pb.v23.AxisDelta) {
      throw onlyPerValue("a mini-block");
    }
    if (node instanceof io.lancecodec.format.pb.v23.ByteStreamSplit bss) {
      if (!bss.hasValues() || !bss.getValues().hasFlat()) {
        throw LanceCodecException.corrupt("byte-stream-split: values must be Flat");
      }
      return bssDecompressor(bss.getValues().getFlat().getBitsPerValue());
    }
    if (node instanceof General g) {
      CompressiveEncoding inner = values(g);
      return GeneralMiniBlock.decompressor(codec(g), children.miniBlock(inner));
    }
    if (node instanceof io.lancecodec.format.pb.v21.ByteStreamSplit bss) {
      if (!bss.hasValues() || !bss.getValues().hasFlat()) {
        throw LanceCodecException.corrupt("byte-stream-split: values must be Flat");
      }
      return bssDecompressor(bss.getValues().getFlat().getBitsPerValue());
    }
    return CodecPlugin.super.openMiniBlock(node, children);
  }

  /** The spec allows axis delta only where rows stay whole: anywhere else the tree is malformed. */
  private static LanceCodecException onlyPerValue(String where) {
    return LanceCodecException.corrupt("axis_delta in " + where + ": it is valid only per value (full-zip rows)");
  }

  private static MiniBlockDecompressor bssDecompressor(long bits) {
    if (bits < 0 || !ByteStreamSplit.splittable((int) Math.min(bits, 1024))) {
      throw LanceCodecException.corrupt("byte-stream-split: " + Long.toUnsignedString(bits) + "-bit values (expected 16, 32 or 64)");
    }
    return new ByteStreamSplit.Decompressor((int) bits);
  }

  @Override
  public BlockDecompressor openBlock(Message node, Decoders children) {
    if (node instanceof io.lancecodec.format.pb.v23.General g) {
      return General23.openBlock(g, children);
    }
    if (node instanceof io.lancecodec.format.pb.v23.AxisDelta) {
      throw onlyPerValue("a block");
    }
    if (node instanceof General g) {
      CompressiveEncoding inner = values(g);
      return new GeneralBlock.Decompressor(codec(g), children.block(inner));
    }
    return CodecPlugin.super.openBlock(node, children);
  }

  @Override
  public Optional<EncodingSummary> describe(Message node, Decoders children) {
    if (node instanceof Extension ext) {
      return Optional.of(EncodingSummary.of("snappy", "extension v" + Integer.toUnsignedLong(ext.getCodecVersion()),
          ext.getChildrenList().stream().map(children::describe).toArray(EncodingSummary[]::new)));
    }
    if (node instanceof io.lancecodec.format.pb.v23.General g) {
      return Optional.of(General23.describe(g, children));
    }
    if (node instanceof io.lancecodec.format.pb.v23.AxisDelta a) {
      return Optional.of(AxisDelta.describe(a, children));
    }
    if (node instanceof General g) {
      BufferCompression c = g.getCompression();
      String scheme = Scheme.name(c.getSchemeValue()) + (c.hasLevel() ? " " + c.getLevel() : "");
      return Optional.of(EncodingSummary.of("general", scheme, children.describe(g.getValues())));
    }
    return Optional.empty();
  }

  @Override
  public PerValueDecompressor openPerValue(Message node, Decoders children) {
    if (node instanceof Extension ext) {
      return General23.openSnappyPerValue(ext, children);
    }
    if (node instanceof io.lancecodec.format.pb.v23.General g) {
      return General23.openPerValue(g, children);
    }
    if (node instanceof io.lancecodec.format.pb.v23.AxisDelta a) {
      return AxisDelta.open(a);
    }
    if (node instanceof General g) {
      CompressiveEncoding inner = values(g);
      if (!inner.hasVariable()) {
        throw LanceCodecException.unsupported(
            "general: per-value compression around " + inner.getCompressionCase() + " (only Variable)");
      }
      return new GeneralPerValue.Decompressor(codec(g), children.perValue(inner));
    }
    return CodecPlugin.super.openPerValue(node, children);
  }
}
