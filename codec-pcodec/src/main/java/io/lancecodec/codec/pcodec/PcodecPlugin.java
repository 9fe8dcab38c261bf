package io.lancecodec.codec.pcodec;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.Pcodec;
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
 * Pcodec mini-blocks of Lance 2.3 (the spec's "Pcodec"): offered only when a field asks for
 * {@code lance-encoding:compression=pcodec}, for fixed-width 16/32/64-bit values and fixed-size
 * lists of them without item validity (lists with null items are left to the others and stored
 * without pcodec). The level is {@code lance-encoding:compression-level}, 0 to 12, pco's 8 by
 * default. The offer compresses for real and competes on its stored bytes like every other, so
 * incompressible values still end up Flat.
 *
 * <p><b>Choice:</b> a block does not say whether its 16/32/64-bit words are floats (neither
 * {@link ProposalContext} nor {@link FieldOptions} carries the logical type), and the field asked
 * for pcodec, which the spec defines for float16/32/64: so every such word is compressed as the
 * float of its width. The mapping to pco's latents is a bijection on bits, so integers stored this
 * way still round-trip exactly; they only compress worse than pco's integer types would.
 *
 * <p>pcodec is declared a chunked scheme ({@link #chunkedSchemes()}): such fields are stored in
 * dense mini-blocks without a dictionary, and {@code structural-encoding=fullzip} is refused when
 * the writer opens. Asking for it in a 2.1/2.2 file is refused there too (this plugin writes 2.3
 * only).
 */
public final class PcodecPlugin implements CodecPlugin {
  /** The {@code lance-encoding:compression} value that selects this codec. */
  public static final String SCHEME = "pcodec";

  static final int MIN_LEVEL = 0;
  static final int MAX_LEVEL = 12;

  @Override
  public String name() {
    return "pcodec";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_3);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(Pcodec.class);
  }

  @Override
  public Set<String> compressionSchemes() {
    return Set.of(SCHEME);
  }

  @Override
  public Set<String> chunkedSchemes() {
    return Set.of(SCHEME);
  }

  /** The level the field asks for, pco's default when unset; INVALID_ARGUMENT outside 0..12. */
  static int level(FieldOptions options) {
    int level = options.compressionLevel().orElse(Pco.DEFAULT_LEVEL);
    if (level < MIN_LEVEL || level > MAX_LEVEL) {
      throw LanceCodecException.invalidArgument(FieldOptions.PREFIX + "compression-level must be between " + MIN_LEVEL + " and "
          + MAX_LEVEL + " for compression=pcodec, got " + level);
    }
    return level;
  }

  @Override
  public Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    FieldOptions options = context.options();
    // Pcodec wraps a fixed-size list from outside (the spec's form), never as the leaf of its rows
    if (context.version() != FileVersion.V2_3 || !options.compression().map(SCHEME::equals).orElse(false) || context.oneChunk()) {
      return Optional.empty();
    }
    int level = level(options);
    if (block.numValues() == 0 || PcodecMiniBlock.Shape.of(block) == null) {
      return Optional.empty();
    }
    PcodecMiniBlock.Compressor c = new PcodecMiniBlock.Compressor(level, options.miniBlockMaxValues());
    MiniBlockCompressed out = c.compress(block);
    return Optional.of(Proposal.measured("pcodec", MiniBlocks.storedBytes(out, context.version()), c, out));
  }

  private static Pcodec pcodec(Message node) {
    if (!(node instanceof Pcodec p)) {
      throw LanceCodecException.internal("pcodec: asked to open " + node.getDescriptorForType().getName());
    }
    return p;
  }

  @Override
  public MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    return new PcodecMiniBlock.Decompressor(PcodecMiniBlock.Shape.parse(pcodec(node)));
  }

  @Override
  public Optional<EncodingSummary> describe(Message node, Decoders children) {
    Pcodec p = pcodec(node);
    return Optional.of(p.hasValues() ? EncodingSummary.of("pcodec", "", children.describe(p.getValues()))
        : EncodingSummary.of("pcodec", "values missing"));
  }
}
