package io.lancecodec.testkit;

import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.List;
import java.util.Optional;

/**
 * What the contract needs from a runtime: the registry's decoders and the context a writer hands
 * a plugin when it proposes. With lance-runtime on the test class path, adapt its registry:
 * {@code Host.of(registry.decoders(), registry::proposalContext)}. Without it (a codec the runtime's
 * own tests depend on), {@link #standalone} routes among the given plugins only and offers no inner
 * compression to wrapping codecs.
 */
public interface Host {
  Decoders decoders();

  ProposalContext context(CodecPlugin plugin, DataBlock block, FieldOptions options, FileVersion version);

  /** A writer's proposal context, as a function (the runtime's {@code CodecRegistry::proposalContext}). */
  interface Contexts {
    ProposalContext context(CodecPlugin plugin, DataBlock block, FieldOptions options, FileVersion version);
  }

  static Host of(Decoders decoders, Contexts contexts) {
    return new Host() {
      @Override
      public Decoders decoders() {
        return decoders;
      }

      @Override
      public ProposalContext context(CodecPlugin plugin, DataBlock block, FieldOptions options, FileVersion version) {
        return contexts.context(plugin, block, options, version);
      }
    };
  }

  /** Decoders that know only {@code plugins}; contexts with the block's statistics and no inner offers. */
  static Host standalone(List<CodecPlugin> plugins) {
    return standalone(plugins, null);
  }

  /**
   * As {@link #standalone(List)}, with {@code fallback} decoding the nodes none of {@code plugins}
   * declares (a test's stand-ins for the runtime's built-in leaves); null for none.
   */
  static Host standalone(List<CodecPlugin> plugins, Decoders fallback) {
    PluginDecoders decoders = new PluginDecoders(plugins, fallback);
    return of(decoders, (plugin, block, options, version) -> new ProposalContext() {
      private final Stats stats = Stats.of(block);

      @Override
      public Stats stats() {
        return stats;
      }

      @Override
      public FieldOptions options() {
        return options;
      }

      @Override
      public FileVersion version() {
        return version;
      }

      @Override
      public Optional<Proposal<MiniBlockCompressed>> innerMiniBlock(DataBlock b) {
        return Optional.empty();
      }

      @Override
      public Optional<Proposal<Encoded<DataBlock>>> innerPerValue(DataBlock b) {
        return Optional.empty();
      }

      @Override
      public Optional<Proposal<Encoded<byte[]>>> innerBlock(DataBlock b) {
        return Optional.empty();
      }
    });
  }
}
