package io.lancecodec.runtime;

import com.google.protobuf.Message;
import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LayoutContext;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.Proposal;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.Stats;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The runtime's side of the layout contract: asks every codec plugin for a proposal and takes
 * the smallest estimate (plugins are sorted by name and only a strictly smaller estimate
 * replaces the current best, so ties are deterministic).
 */
final class RuntimeLayoutContext implements LayoutContext {
  private static final System.Logger LOG = System.getLogger(RuntimeLayoutContext.class.getName());
  private final CodecRegistry registry;
  private final FileVersion version;
  private final io.lancecodec.spi.PageCache cache;

  RuntimeLayoutContext(CodecRegistry registry, FileVersion version) {
    this(registry, version, io.lancecodec.spi.PageCache.NONE);
  }

  RuntimeLayoutContext(CodecRegistry registry, FileVersion version, io.lancecodec.spi.PageCache cache) {
    this.registry = registry;
    this.version = version;
    this.cache = cache;
  }

  @Override
  public io.lancecodec.spi.PageCache cache() {
    return cache;
  }

  @Override
  public FileVersion version() {
    return version;
  }

  @Override
  public MiniBlockCompressor miniBlockFor(DataBlock values, FieldOptions options) {
    return best(values, options, CodecPlugin::proposeMiniBlock, "mini-block").compressor();
  }

  @Override
  public PerValueCompressor perValueFor(DataBlock values, FieldOptions options) {
    return best(values, options, CodecPlugin::proposePerValue, "per-value").compressor();
  }

  @Override
  public BlockCompressor blockFor(DataBlock values, FieldOptions options) {
    return best(values, options, CodecPlugin::proposeBlock, "block").compressor();
  }

  @Override
  public BlockCompressor levelsFor(DataBlock levels) {
    return best(levels, FieldOptions.DEFAULT, CodecPlugin::proposeBlock, "levels").compressor();
  }

  /** Asks one plugin for its offer in a context that lets it consult the others. */
  private interface Ask<C> {
    Optional<Proposal<C>> ask(CodecPlugin plugin, DataBlock block, ProposalContext context);
  }

  private <C> Proposal<C> best(DataBlock values, FieldOptions options, Ask<C> ask, String role) {
    Optional<Proposal<C>> best = offer(values, options, Set.of(), ask);
    if (best.isEmpty()) {
      throw LanceCodecException.unsupported(
          "no " + role + " compressor for " + values.getClass().getSimpleName() + " values");
    }
    LOG.log(System.Logger.Level.DEBUG, "{0}: chose {1} ({2} bytes)", role, best.get().codec(), best.get().estimatedBytes());
    return best.get();
  }

  /**
   * The smallest offer of the plugins not already asking further up (a wrapping codec consults
   * the others for its inner data; excluding the whole chain keeps, say, FSST inside General
   * inside FSST from ever recursing); ties keep the earlier name.
   */
  private <C> Optional<Proposal<C>> offer(DataBlock values, FieldOptions options, Set<CodecPlugin> chain, Ask<C> ask) {
    Stats stats = StatsCollector.of(values);
    Proposal<C> best = null;
    for (CodecPlugin p : registry.codecs()) {
      if (chain.contains(p) || !p.fileVersions().contains(version)) {
        continue;
      }
      Set<CodecPlugin> inner = new HashSet<>(chain);
      inner.add(p);
      Optional<Proposal<C>> o = ask.ask(p, values, new Context(stats, options, inner));
      if (o.isPresent() && (best == null || o.get().estimatedBytes() < best.estimatedBytes())) {
        best = o.get();
      }
    }
    return Optional.ofNullable(best);
  }

  /** The context handed to one plugin; its inner offers exclude that plugin. */
  private final class Context implements ProposalContext {
    private final Stats stats;
    private final FieldOptions options;
    private final Set<CodecPlugin> chain;

    Context(Stats stats, FieldOptions options, Set<CodecPlugin> chain) {
      this.stats = stats;
      this.options = options;
      this.chain = chain;
    }

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
    public Optional<Proposal<MiniBlockCompressor>> innerMiniBlock(DataBlock block) {
      return offer(block, options, chain, CodecPlugin::proposeMiniBlock);
    }

    @Override
    public Optional<Proposal<PerValueCompressor>> innerPerValue(DataBlock block) {
      return offer(block, options, chain, CodecPlugin::proposePerValue);
    }

    @Override
    public Optional<Proposal<BlockCompressor>> innerBlock(DataBlock block) {
      return offer(block, options, chain, CodecPlugin::proposeBlock);
    }
  }

  @Override
  public MiniBlockDecompressor miniBlock(Message encoding) {
    return registry.miniBlock(encoding);
  }

  @Override
  public BlockDecompressor block(Message encoding) {
    return registry.block(encoding);
  }

  @Override
  public PerValueDecompressor perValue(Message encoding) {
    return registry.perValue(encoding);
  }
}
