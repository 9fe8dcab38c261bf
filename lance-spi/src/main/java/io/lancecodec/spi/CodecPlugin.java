package io.lancecodec.spi;

import com.google.protobuf.Message;
import java.util.Optional;
import java.util.Set;

/**
 * The entry point of a codec jar, found with {@link java.util.ServiceLoader}. A plugin owns a
 * set of encoding messages (the oneof cases of {@code CompressiveEncoding} it decodes) and may
 * propose compressors for blocks it handles well. Implementations are stateless and
 * thread-safe; declining (an empty proposal) is always allowed.
 */
public interface CodecPlugin {
  /** The SPI version this interface describes; the registry rejects plugins built for another. */
  int SPI_VERSION = 1;

  /** Stable, unique name, e.g. {@code "bitpack"}. */
  String name();

  /** The plugin's release version; by default the jar manifest's Implementation-Version. */
  default String version() {
    String v = getClass().getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  default int spiVersion() {
    return SPI_VERSION;
  }

  /** File versions whose grammar this plugin reads and writes. */
  Set<FileVersion> fileVersions();

  /** The generated encoding message classes this plugin decodes; each has exactly one owner. */
  Set<Class<? extends Message>> decodes();

  /**
   * Offers a compressor for {@code block} in a mini-block page, with the bytes it expects to
   * produce; empty declines. The propose methods must be cheap: statistics are in the context.
   */
  default Optional<Proposal<MiniBlockCompressor>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    return Optional.empty();
  }

  default Optional<Proposal<PerValueCompressor>> proposePerValue(DataBlock block, ProposalContext context) {
    return Optional.empty();
  }

  default Optional<Proposal<BlockCompressor>> proposeBlock(DataBlock block, ProposalContext context) {
    return Optional.empty();
  }

  /** A decompressor for one of the messages in {@link #decodes()} used in mini-block chunks. */
  default MiniBlockDecompressor openMiniBlock(Message node, Decoders children) {
    throw LanceCodecException.unsupported(
        name() + ": " + node.getDescriptorForType().getName() + " cannot be used in a mini-block");
  }

  default BlockDecompressor openBlock(Message node, Decoders children) {
    throw LanceCodecException.unsupported(
        name() + ": " + node.getDescriptorForType().getName() + " cannot be used as a block");
  }

  default PerValueDecompressor openPerValue(Message node, Decoders children) {
    throw LanceCodecException.unsupported(
        name() + ": " + node.getDescriptorForType().getName() + " cannot be used per value");
  }
}
