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
import io.lancecodec.spi.Stats;
import java.util.Optional;
import java.util.function.Function;

/**
 * The runtime's side of the layout contract: asks every codec plugin for a proposal and takes
 * the smallest estimate (plugins are sorted by name and only a strictly smaller estimate
 * replaces the current best, so ties are deterministic).
 */
final class RuntimeLayoutContext implements LayoutContext {
  private static final System.Logger LOG = System.getLogger(RuntimeLayoutContext.class.getName());
  private final CodecRegistry registry;
  private final FileVersion version;

  RuntimeLayoutContext(CodecRegistry registry, FileVersion version) {
    this.registry = registry;
    this.version = version;
  }

  @Override
  public FileVersion version() {
    return version;
  }

  @Override
  public MiniBlockCompressor miniBlockFor(DataBlock values, FieldOptions options) {
    Stats stats = StatsCollector.of(values);
    return best(p -> p.proposeMiniBlock(values, stats, options, version), "mini-block", values);
  }

  @Override
  public PerValueCompressor perValueFor(DataBlock values, FieldOptions options) {
    Stats stats = StatsCollector.of(values);
    return best(p -> p.proposePerValue(values, stats, options, version), "per-value", values);
  }

  @Override
  public BlockCompressor levelsFor(DataBlock levels) {
    Stats stats = StatsCollector.of(levels);
    return best(p -> p.proposeBlock(levels, stats, FieldOptions.DEFAULT, version), "levels", levels);
  }

  private <C> C best(
      Function<CodecPlugin, Optional<Proposal<C>>> ask, String role, DataBlock values) {
    Proposal<C> best = null;
    for (CodecPlugin p : registry.codecs()) {
      if (!p.fileVersions().contains(version)) {
        continue;
      }
      Optional<Proposal<C>> offer = ask.apply(p);
      if (offer.isPresent() && (best == null || offer.get().estimatedBytes() < best.estimatedBytes())) {
        best = offer.get();
      }
    }
    if (best == null) {
      throw LanceCodecException.unsupported(
          "no " + role + " compressor for " + values.getClass().getSimpleName() + " values");
    }
    LOG.log(System.Logger.Level.DEBUG, "{0}: chose {1} ({2} bytes)", role, best.codec(), best.estimatedBytes());
    return best.compressor();
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
