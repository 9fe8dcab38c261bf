package io.lancecodec.runtime;

import com.google.protobuf.Internal;
import com.google.protobuf.Message;
import io.lancecodec.runtime.plugin.BuiltinCodecs;
import io.lancecodec.runtime.plugin.OptionsParser;
import io.lancecodec.runtime.plugin.Plugins;
import io.lancecodec.runtime.plugin.RuntimeLayoutContext;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.ProposalContext;
import io.lancecodec.spi.layout.LayoutPlugin;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The codec and layout plugins a reader or writer uses: found once with
 * {@link java.util.ServiceLoader} ({@link #discover()}), or given ({@link #of}). Conflicts
 * (two plugins claiming one encoding, scheme or option key), plugins built for another SPI version
 * and providers that fail to load are errors here, naming the jars involved. Plugins are sorted by
 * name, so nothing depends on class-path order. Immutable and thread-safe.
 */
public final class CodecRegistry {
  /**
   * A plugin as {@code codecs} lists it: kind ({@code codec} or {@code layout}), name, release,
   * SPI version, file versions, where it was loaded from, the messages it decodes (full names;
   * page encodings for a layout), the compression scheme names it implements and the extension
   * codec ids it reads, each with the newest version of its bytes.
   */
  public record PluginInfo(String kind, String name, String version, int spiVersion, Set<FileVersion> fileVersions,
      String location, List<String> encodings, Set<String> compressionSchemes, Map<String, Integer> extensions) {}

  private final Plugins plugins;

  private CodecRegistry(Plugins plugins) {
    this.plugins = plugins;
  }

  /** The plugins visible to {@code loader} (META-INF/services or module {@code provides}). */
  public static CodecRegistry discover(ClassLoader loader) {
    return new CodecRegistry(Plugins.discover(loader));
  }

  /** The plugins found from the class loader of lance-codec itself (and the module layer). */
  public static CodecRegistry discover() {
    return Holder.DEFAULT;
  }

  /** An explicit set of plugins (the built-in codecs are always added), for tests and embedders. */
  public static CodecRegistry of(List<CodecPlugin> codecs, List<LayoutPlugin> layouts) {
    return new CodecRegistry(new Plugins(codecs, layouts));
  }

  private static final class Holder {
    static final CodecRegistry DEFAULT = discover(CodecRegistry.class.getClassLoader());
  }

  /** The internals, for the reader and writer of this package. */
  Plugins internals() {
    return plugins;
  }

  /** Every plugin, codecs (the built-in one included) then layouts, each sorted by name. */
  public List<PluginInfo> plugins() {
    List<PluginInfo> out = new ArrayList<>();
    for (CodecPlugin p : plugins.codecs()) {
      out.add(new PluginInfo("codec", p.name(), p.version(), p.spiVersion(), Set.copyOf(p.fileVersions()),
          Plugins.locationOf(p), fullNames(p.decodes()), new TreeSet<>(p.compressionSchemes()), new java.util.TreeMap<>(p.extensions())));
    }
    for (LayoutPlugin p : plugins.layouts()) {
      out.add(new PluginInfo("layout", p.name(), p.version(), p.spiVersion(), Set.copyOf(p.fileVersions()),
          Plugins.locationOf(p), fullNames(p.pageEncodings()), Set.of(), Map.of()));
    }
    return out;
  }

  private static List<String> fullNames(Set<Class<? extends Message>> messages) {
    List<String> out = new ArrayList<>();
    for (Class<? extends Message> c : messages) {
      out.add(Internal.getDefaultInstance(c).getDescriptorForType().getFullName());
    }
    Collections.sort(out);
    return out;
  }

  /**
   * The registry as plugins see it: decompressors and summaries of compression trees, whoever
   * owns their nodes. Plugin authors' tests open their encodings through it.
   */
  public Decoders decoders() {
    return plugins.decoders();
  }

  /**
   * The context a writer of {@code version} hands {@code plugin} when it proposes for {@code
   * block}: the block's statistics, {@code options}, and the best inner offers of every other
   * plugin here. For codec authors' tests (the codec-testkit contract proposes through it).
   */
  public ProposalContext proposalContext(CodecPlugin plugin, DataBlock block, FieldOptions options, FileVersion version) {
    CodecPlugin own = codec(plugin.name()).orElse(plugin);
    return new RuntimeLayoutContext(plugins, version, bytes -> {
      throw LanceCodecException.internal("a proposal context writes no external values");
    }).proposalContext(own, block, options);
  }

  /** The codec plugin of this name (the built-in one is {@code builtin}), if present. */
  public Optional<CodecPlugin> codec(String name) {
    return plugins.codecs().stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /**
   * This registry without the named plugins (codecs or layouts): what a class path without their
   * jars would find, for trying a file or a writer on a trimmed set. The built-in codecs stay.
   */
  public CodecRegistry without(String... names) {
    Set<String> drop = Set.of(names);
    List<CodecPlugin> keepCodecs = new ArrayList<>();
    for (CodecPlugin p : plugins.codecs()) {
      if (!drop.contains(p.name()) && !(p instanceof BuiltinCodecs)) {
        keepCodecs.add(p);
      }
    }
    List<LayoutPlugin> keepLayouts = new ArrayList<>();
    for (LayoutPlugin p : plugins.layouts()) {
      if (!drop.contains(p.name())) {
        keepLayouts.add(p);
      }
    }
    return of(keepCodecs, keepLayouts);
  }

  /**
   * The options a writer using this registry derives from a field's metadata (its
   * {@code lance-encoding:*} entries; the environment is not consulted): INVALID_ARGUMENT for a
   * value outside the spec's choices or a compression scheme no plugin here implements.
   */
  public FieldOptions parseOptions(Map<String, String> metadata) {
    return new OptionsParser(plugins, Map.of()).parse(metadata, "options");
  }
}
