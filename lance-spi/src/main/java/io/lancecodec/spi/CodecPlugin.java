package io.lancecodec.spi;

import com.google.protobuf.Message;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The entry point of a codec jar, found with {@link java.util.ServiceLoader}. A plugin declares
 * what it provides (the encoding messages it decodes, the {@code lance-encoding:compression}
 * values and other option keys it implements) and may propose compressors for blocks it handles
 * well. The runtime knows plugins only through these declarations. Implementations are stateless
 * and thread-safe; declining (an empty proposal) is always allowed.
 */
public interface CodecPlugin {
  /** The SPI version this interface describes; the registry rejects plugins built for another. */
  int SPI_VERSION = 2;

  /** Stable, unique name, e.g. {@code "bitpack"}. */
  String name();

  /** The plugin's release version; by default {@link PluginVersion#of} of its class. */
  default String version() {
    return PluginVersion.of(getClass());
  }

  default int spiVersion() {
    return SPI_VERSION;
  }

  /** File versions whose grammar this plugin reads and writes. */
  Set<FileVersion> fileVersions();

  /**
   * The generated encoding message classes this plugin decodes; each has exactly one owner. A
   * plugin of extension codecs only ({@link #extensions()}) declares none.
   */
  Set<Class<? extends Message>> decodes();

  /**
   * Codecs outside the Lance grammar that this plugin reads, as 2.3 {@code Extension} nodes: each
   * reverse-DNS codec id ({@code com.example.gorilla}) with the newest {@code codec_version} of its
   * bytes this plugin decodes (it reads every version up to that one). The registry routes every
   * Extension node with a declared id to this plugin's {@code open*} and {@code describe} methods,
   * which receive the {@code Extension} message itself; build nodes with {@link Extensions#node}.
   * An id has one owner; a file that needs an id nobody declares fails with MISSING_PLUGIN naming it.
   */
  default Map<String, Integer> extensions() {
    return Map.of();
  }

  /**
   * Values of {@code lance-encoding:compression} (and {@code dict-values-compression}) that name
   * this plugin's schemes, e.g. {@code zstd}; the writer rejects a value no plugin declares.
   */
  default Set<String> compressionSchemes() {
    return Set.of();
  }

  /**
   * Those of {@link #compressionSchemes()} that compress whole mini-block chunks of similar values
   * (pcodec): a field asking for one is stored in dense mini-blocks, never dictionary encoded,
   * never zipped (full zip compresses each value on its own) and never made sparse by the writer's
   * own choice ({@link FieldOptions#chunkedCompression()}); asking for full zip as well is
   * INVALID_ARGUMENT when the writer opens.
   */
  default Set<String> chunkedSchemes() {
    return Set.of();
  }

  /**
   * {@code lance-encoding:*} keys (without the prefix) this plugin reads beyond the spec's, each
   * with its allowed values (an empty set allows any); read them with {@link FieldOptions#extra}.
   */
  default Map<String, Set<String>> optionKeys() {
    return Map.of();
  }

  /**
   * True when this plugin's offers are measured by compressing the block (costly), not
   * estimated: the runtime asks such plugins after the others and tells them the size to beat
   * ({@link ProposalContext#sizeToBeat}).
   */
  default boolean measuresOffers() {
    return false;
  }

  /**
   * Offers to compress {@code block} in a mini-block page, with the bytes it will take there;
   * empty declines. Statistics are in the context, so proposing stays cheap unless the size can
   * only be known by compressing, and then the offer carries the result ({@link Proposal#measured}).
   */
  default Optional<Proposal<MiniBlockCompressed>> proposeMiniBlock(DataBlock block, ProposalContext context) {
    return Optional.empty();
  }

  default Optional<Proposal<Encoded<DataBlock>>> proposePerValue(DataBlock block, ProposalContext context) {
    return Optional.empty();
  }

  default Optional<Proposal<Encoded<byte[]>>> proposeBlock(DataBlock block, ProposalContext context) {
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

  /**
   * How {@code inspect} shows {@code node}, one of the messages in {@link #decodes()}; empty for
   * the runtime's generic form (the message name, its numbers and its children).
   */
  default Optional<EncodingSummary> describe(Message node, Decoders children) {
    return Optional.empty();
  }
}
