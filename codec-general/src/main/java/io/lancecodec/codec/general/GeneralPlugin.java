package io.lancecodec.codec.general;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.General;
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
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * General compression (zstd, lz4 and the lance-codec-only snappy) and byte-stream-split of the
 * 2.1/2.2 grammar. It proposes only where the reference compresses: when the field asks
 * ({@code lance-encoding:compression}), for 2.2 block buffers over 32 KiB, and for full-zip
 * pages with values over 32 KiB. Proposals compress for real and report the exact size; the
 * compressor keeps that result, so the page is not compressed twice.
 */
public final class GeneralPlugin implements CodecPlugin {
  private static final System.Logger LOG = System.getLogger(GeneralPlugin.class.getName());

  @Override
  public String name() {
    return "general";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_1, FileVersion.V2_2);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(General.class, io.lancecodec.format.pb.v21.ByteStreamSplit.class);
  }

  /** The scheme the field asks for, if it is one of ours. Snappy is never chosen otherwise. */
  static Optional<Scheme> requested(FieldOptions options) {
    return options.compression().flatMap(Scheme::ofOption);
  }

  /** {@code lance-encoding:bss}: off, on or auto (the default). */
  static String bssMode(FieldOptions options) {
    String mode = options.get("bss").map(s -> s.trim().toLowerCase(java.util.Locale.ROOT)).orElse("auto");
    if (!mode.equals("off") && !mode.equals("on") && !mode.equals("auto")) {
      throw LanceCodecException.invalidArgument(FieldOptions.PREFIX + "bss must be off, on or auto, got '" + mode + "'");
    }
    return mode;
  }

  /** Whether byte-stream-split goes under the general compressor (only 32/64-bit values). */
  static boolean useBss(DataBlock.FixedWidth fw, FieldOptions options) {
    int bits = fw.bitsPerValue();
    if (bits != 32 && bits != 64) {
      return false;
    }
    switch (bssMode(options)) {
      case "on":
        return true;
      case "off":
        return false;
      default:
        return ByteStreamSplit.meanBytePositionEntropy(fw, GeneralFormat.BSS_ENTROPY_SAMPLE)
            < GeneralFormat.BSS_AUTO_ENTROPY_BITS;
    }
  }

  @Override
  public Optional<Proposal<MiniBlockCompressor>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    Optional<Scheme> scheme = requested(context.options());
    // Like the reference, only plain fixed- and variable-width pages are wrapped (fixed-size
    // lists and packed structs stay as their own codec writes them).
    if (scheme.isEmpty()
        || block.numValues() == 0
        || !(block instanceof DataBlock.FixedWidth || block instanceof DataBlock.VariableWidth)) {
      return Optional.empty();
    }
    MiniBlockCompressor inner;
    if (block instanceof DataBlock.FixedWidth fw && useBss(fw, context.options())) {
      inner = new ByteStreamSplit.Compressor();
    } else {
      Optional<Proposal<MiniBlockCompressor>> best = context.innerMiniBlock(block);
      if (best.isEmpty()) {
        return Optional.empty();
      }
      inner = best.get().compressor();
    }
    OptionalInt level = context.options().compressionLevel();
    GeneralMiniBlock.Compressor c =
        new GeneralMiniBlock.Compressor(
            inner, scheme.get().codec(level), scheme.get().describe(level), MiniBlocks.maxChunkBytes(context.version()));
    MiniBlockCompressed out = c.tryWrap(block);
    if (!(out.encoding() instanceof CompressiveEncoding e && e.hasGeneral())) {
      return Optional.empty();
    }
    long bytes = 0;
    for (byte[] b : out.buffers()) {
      bytes += b.length;
    }
    LOG.log(System.Logger.Level.DEBUG, "general({0}) mini-block: {1} bytes", scheme.get().option(), bytes);
    return Optional.of(new Proposal<>("general-" + scheme.get().option(), bytes, c));
  }

  @Override
  public Optional<Proposal<PerValueCompressor>> proposePerValue(DataBlock block, ProposalContext context) {
    if (!(block instanceof DataBlock.VariableWidth vw) || block.numValues() == 0) {
      return Optional.empty();
    }
    FieldOptions options = context.options();
    Optional<String> asked = options.compression();
    if (options.get("compression").filter("none"::equals).isPresent()
        || context.stats().dataBytes() < GeneralFormat.PER_VALUE_MIN_PAGE_BYTES) {
      return Optional.empty();
    }
    Optional<Scheme> scheme = requested(options);
    boolean big = context.stats().maxValueBytes() > GeneralFormat.AUTO_PER_VALUE_MAX_LENGTH;
    if (scheme.isEmpty() && !big) {
      return Optional.empty();
    }
    if (scheme.isEmpty() && asked.isPresent()) {
      // Another plugin's scheme (fsst, ...): the reference still compresses huge values with
      // zstd only when none was asked; leave the page to the plugin that was asked for.
      return Optional.empty();
    }
    // The reference compresses values with zstd level 0 whatever was asked (lz4 included):
    // its per-value lz4 decoder cannot read the empty slot of a null. Snappy stays snappy.
    Scheme use = scheme.filter(s -> s == Scheme.SNAPPY).orElse(Scheme.ZSTD);
    OptionalInt level = use == Scheme.ZSTD ? OptionalInt.of(options.compressionLevel().orElse(0)) : OptionalInt.empty();
    GeneralPerValue.Compressor c = new GeneralPerValue.Compressor(use.codec(level), use.describe(level));
    DataBlock.VariableWidth out = (DataBlock.VariableWidth) c.compress(vw).data();
    return Optional.of(new Proposal<>("general-" + use.option(), out.data().length, c));
  }

  @Override
  public Optional<Proposal<BlockCompressor>> proposeBlock(DataBlock block, ProposalContext context) {
    if (!context.version().atLeast(FileVersion.V2_2)
        || !(block instanceof DataBlock.FixedWidth || block instanceof DataBlock.VariableWidth)
        || block.numValues() == 0) {
      return Optional.empty();
    }
    FieldOptions options = context.options();
    Optional<Scheme> scheme = requested(options);
    OptionalInt level = options.compressionLevel();
    if (scheme.isEmpty()) {
      if (options.compression().isPresent() || context.stats().dataBytes() <= GeneralFormat.AUTO_BLOCK_BYTES) {
        return Optional.empty();
      }
      scheme = Optional.of(Scheme.ZSTD);
      level = OptionalInt.of(0);
    }
    Optional<Proposal<BlockCompressor>> best = context.innerBlock(block);
    if (best.isEmpty()) {
      return Optional.empty();
    }
    GeneralBlock.Compressor c =
        new GeneralBlock.Compressor(best.get().compressor(), scheme.get().codec(level), scheme.get().describe(level));
    long bytes = c.compress(block).data().length;
    return Optional.of(new Proposal<>("general-" + scheme.get().option(), bytes, c));
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
    if (node instanceof General g) {
      CompressiveEncoding inner = values(g);
      return new GeneralMiniBlock.Decompressor(codec(g), children.miniBlock(inner), inner);
    }
    if (node instanceof io.lancecodec.format.pb.v21.ByteStreamSplit bss) {
      if (!bss.hasValues() || !bss.getValues().hasFlat()) {
        throw LanceCodecException.corrupt("byte-stream-split: values must be Flat");
      }
      long bits = bss.getValues().getFlat().getBitsPerValue();
      if (!ByteStreamSplit.splittable((int) Math.min(bits, 1024))) {
        throw LanceCodecException.corrupt("byte-stream-split: " + bits + "-bit values (expected 16, 32 or 64)");
      }
      return new ByteStreamSplit.Decompressor((int) bits);
    }
    return CodecPlugin.super.openMiniBlock(node, children);
  }

  @Override
  public BlockDecompressor openBlock(Message node, Decoders children) {
    if (node instanceof General g) {
      CompressiveEncoding inner = values(g);
      return new GeneralBlock.Decompressor(codec(g), children.block(inner), inner);
    }
    return CodecPlugin.super.openBlock(node, children);
  }

  @Override
  public PerValueDecompressor openPerValue(Message node, Decoders children) {
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
