package io.lancecodec.runtime.plugin;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Internal;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.lancecodec.format.Grammar;
import io.lancecodec.format.pb.v23.Extension;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.Extensions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import io.lancecodec.spi.layout.LayoutPlugin;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The registry's internals: the plugins this process can use, found once with {@link ServiceLoader}. The runtime knows
 * them only by what they declare: the encoding messages they decode, the page encodings they
 * read, the option values they implement. Every message has exactly one owner; conflicts,
 * plugins built for another SPI version and providers that fail to load are errors at start-up,
 * naming the jars involved, never silently skipped. Plugins are kept sorted by name so nothing
 * depends on class-path order. Immutable and thread-safe.
 */
public final class Plugins {
  private final List<CodecPlugin> codecs;
  private final List<LayoutPlugin> layouts;
  private final Map<Class<?>, CodecPlugin> codecOwners = new HashMap<>();
  /** Each extension codec id's plugin, with the newest version of the codec's bytes it reads. */
  private final Map<String, ExtensionOwner> extensionOwners = new TreeMap<>();
  private final Map<String, Page> pageOwners = new HashMap<>();
  private final Set<String> compressionSchemes = new TreeSet<>();
  private final Set<String> chunkedSchemes = new TreeSet<>();
  private final Map<String, Set<FileVersion>> schemeVersions = new TreeMap<>();
  private final Map<String, Set<String>> optionKeys = new TreeMap<>();
  private final Decoders decoders = new RegistryDecoders();

  private record ExtensionOwner(CodecPlugin plugin, int newest) {}

  /** A page encoding a layout plugin reads: the plugin and the parser of its root message. */
  public record Page(LayoutPlugin plugin, Parser<? extends Message> parser) {}

  public Plugins(List<CodecPlugin> codecs, List<LayoutPlugin> layouts) {
    List<CodecPlugin> allCodecs = new ArrayList<>(codecs);
    allCodecs.add(new BuiltinCodecs());
    allCodecs.sort(Comparator.comparing(CodecPlugin::name));
    layouts = new ArrayList<>(layouts);
    layouts.sort(Comparator.comparing(LayoutPlugin::name));
    this.codecs = List.copyOf(allCodecs);
    this.layouts = List.copyOf(layouts);
    Map<String, Object> optionOwners = new HashMap<>();
    for (CodecPlugin p : this.codecs) {
      checkSpi(p.name(), p.spiVersion(), p);
      for (Class<?> c : p.decodes()) {
        CodecPlugin prev = codecOwners.putIfAbsent(c, p);
        if (prev != null) {
          throw conflict("encoding " + c.getSimpleName(), prev.name(), prev, p.name(), p);
        }
      }
      for (Map.Entry<String, Integer> e : new TreeMap<>(p.extensions()).entrySet()) {
        if (!Extensions.validId(e.getKey()) || e.getValue() == null || e.getValue() < 1) {
          throw LanceCodecException.pluginConflict("plugin " + p.name() + " (" + locationOf(p) + ") declares extension codec '"
              + e.getKey() + "' version " + e.getValue() + ": ids are reverse-DNS names (com.example.codec), versions start at 1");
        }
        ExtensionOwner prev = extensionOwners.putIfAbsent(e.getKey(), new ExtensionOwner(p, e.getValue()));
        if (prev != null) {
          throw conflict("extension codec " + e.getKey(), prev.plugin().name(), prev.plugin(), p.name(), p);
        }
      }
      for (String scheme : new TreeSet<>(p.compressionSchemes())) {
        Object prev = optionOwners.putIfAbsent("compression=" + scheme, p);
        if (prev != null) {
          throw conflict("compression scheme " + scheme, ((CodecPlugin) prev).name(), prev, p.name(), p);
        }
        compressionSchemes.add(scheme);
        schemeVersions.put(scheme, Set.copyOf(p.fileVersions()));
      }
      for (String scheme : p.chunkedSchemes()) {
        if (!p.compressionSchemes().contains(scheme)) {
          throw LanceCodecException.pluginConflict("plugin " + p.name() + " (" + locationOf(p) + ") declares chunked scheme "
              + scheme + " without declaring it among its compression schemes");
        }
        chunkedSchemes.add(scheme);
      }
      for (Map.Entry<String, Set<String>> k : new TreeMap<>(p.optionKeys()).entrySet()) {
        Object prev = optionOwners.putIfAbsent(k.getKey(), p);
        if (prev != null || OptionsParser.SPEC_KEYS.contains(k.getKey())) {
          throw conflict("option key " + k.getKey(), prev == null ? "the spec" : ((CodecPlugin) prev).name(), prev,
              p.name(), p);
        }
        optionKeys.put(k.getKey(), Set.copyOf(k.getValue()));
      }
    }
    for (LayoutPlugin p : this.layouts) {
      checkSpi(p.name(), p.spiVersion(), p);
      for (Class<? extends Message> c : p.pageEncodings()) {
        Message prototype = Internal.getDefaultInstance(c);
        Page prev = pageOwners.putIfAbsent(typeUrl(prototype.getDescriptorForType()), new Page(p, prototype.getParserForType()));
        if (prev != null) {
          throw conflict("page encoding " + c.getSimpleName(), prev.plugin().name(), prev.plugin(), p.name(), p);
        }
      }
    }
  }

  /** The plugins visible to {@code loader} (META-INF/services or module {@code provides}). */
  public static Plugins discover(ClassLoader loader) {
    return new Plugins(
        load(CodecPlugin.class, ServiceLoader.load(CodecPlugin.class, loader)),
        load(LayoutPlugin.class, ServiceLoader.load(LayoutPlugin.class, loader)));
  }

  private static <T> List<T> load(Class<T> type, ServiceLoader<T> loader) {
    List<T> out = new ArrayList<>();
    Iterator<T> it = loader.iterator();
    while (true) {
      try {
        if (!it.hasNext()) {
          break;
        }
        out.add(it.next());
      } catch (ServiceConfigurationError | LinkageError e) {
        throw new LanceCodecException(
            LanceCodecException.Kind.PLUGIN_CONFLICT,
            "a " + type.getSimpleName() + " provider failed to load: " + e.getMessage(),
            e);
      }
    }
    return out;
  }

  private static void checkSpi(String name, int spi, Object plugin) {
    if (spi != CodecPlugin.SPI_VERSION) {
      throw LanceCodecException.pluginConflict(
          "plugin " + name + " from " + locationOf(plugin) + " targets SPI version " + spi
              + " but this runtime implements SPI version " + CodecPlugin.SPI_VERSION);
    }
  }

  private static LanceCodecException conflict(String what, String a, Object pa, String b, Object pb) {
    return LanceCodecException.pluginConflict(
        what + " is claimed by two plugins: " + a + (pa == null ? "" : " (" + locationOf(pa) + ")") + " and " + b
            + " (" + locationOf(pb) + ")");
  }

  /**
   * Where a plugin's class was loaded from: its jar's file name, or for a class directory of a
   * build (as in tests) the module's directory with it ({@code codec-fsst/target/classes}).
   */
  public static String locationOf(Object plugin) {
    CodeSource cs = plugin.getClass().getProtectionDomain().getCodeSource();
    if (cs == null || cs.getLocation() == null) {
      return "<unknown location>";
    }
    String path = cs.getLocation().getPath();
    if (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    String[] parts = path.split("/");
    int keep = path.endsWith("/target/classes") && parts.length >= 3 ? 3 : 1;
    return String.join("/", java.util.Arrays.copyOfRange(parts, parts.length - keep, parts.length));
  }

  /** The {@code Any} type URL of messages of this type, as Lance writes it. */
  public static String typeUrl(Descriptor message) {
    return "/" + message.getFullName();
  }

  public List<CodecPlugin> codecs() {
    return codecs;
  }

  public List<LayoutPlugin> layouts() {
    return layouts;
  }

  /**
   * The registry as plugins see it: decompressors and summaries of compression trees, whoever
   * owns their nodes. Plugin authors' tests open their encodings through it.
   */
  public Decoders decoders() {
    return decoders;
  }

  /** Values of {@code lance-encoding:compression} some plugin implements. */
  public Set<String> compressionSchemes() {
    return Collections.unmodifiableSet(compressionSchemes);
  }

  /** The schemes that need dense mini-blocks ({@link CodecPlugin#chunkedSchemes()}). */
  public Set<String> chunkedSchemes() {
    return Collections.unmodifiableSet(chunkedSchemes);
  }

  /** The file versions the plugin that implements {@code scheme} writes; empty for an unknown scheme. */
  public Set<FileVersion> schemeVersions(String scheme) {
    return schemeVersions.getOrDefault(scheme, Set.of());
  }

  /** Plugin-declared option keys with their allowed values (empty: any). */
  public Map<String, Set<String>> optionKeys() {
    return Collections.unmodifiableMap(optionKeys);
  }

  /** The layout plugin that writes pages of {@code version}: the first by name that declares it. */
  public LayoutPlugin writerLayout(FileVersion version) {
    for (LayoutPlugin p : layouts) {
      if (p.fileVersions().contains(version)) {
        return p;
      }
    }
    throw LanceCodecException.missingPlugin(
        "writing version " + version + " needs a layout plugin for it, and none on the class path declares "
            + version + " (layouts found: " + names(layouts) + ")");
  }

  private static String names(List<LayoutPlugin> plugins) {
    List<String> n = new ArrayList<>();
    for (LayoutPlugin p : plugins) {
      n.add(p.name() + " " + p.fileVersions());
    }
    return n.isEmpty() ? "none" : String.join(", ", n);
  }

  /** The plugin and parser for a page whose {@code Any} has this type URL. */
  public Page pageOwner(String typeUrl) {
    String name = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
    Page p = pageOwners.get("/" + name);
    if (p == null) {
      throw missing("page encoding", name);
    }
    return p;
  }

  /**
   * The codec plugin that owns {@code node}, the message of a {@code CompressiveEncoding} case;
   * for an {@link Extension}, the plugin that declares its codec id and reads its version.
   */
  private CodecPlugin ownerOf(Message node) {
    if (node instanceof Extension ext) {
      return extensionOwner(ext);
    }
    CodecPlugin p = codecOwners.get(node.getClass());
    if (p == null) {
      throw missing("encoding", node.getDescriptorForType().getFullName());
    }
    return p;
  }

  private CodecPlugin extensionOwner(Extension ext) {
    String id = ext.getCodecId();
    if (!Extensions.validId(id)) {
      throw LanceCodecException.corrupt("extension node with codec id '" + id + "', not a reverse-DNS codec id");
    }
    ExtensionOwner owner = extensionOwners.get(id);
    if (owner == null) {
      throw LanceCodecException.missingPlugin("file needs codec " + id + " (not on the class path)");
    }
    long version = Integer.toUnsignedLong(ext.getCodecVersion());
    if (version < 1 || version > owner.newest()) {
      throw LanceCodecException.unsupported("file needs codec " + id + " version " + version + ", and plugin "
          + owner.plugin().name() + " (" + locationOf(owner.plugin()) + ") reads versions 1 to " + owner.newest());
    }
    return owner.plugin();
  }

  /**
   * MISSING_PLUGIN for a message no plugin here declares, naming the artifact the grammar says
   * provides it, or UNSUPPORTED when the grammar says no plugin does.
   */
  private static LanceCodecException missing(String what, String fullName) {
    Optional<Descriptor> d = Grammar.message(fullName);
    String shortName = fullName.substring(fullName.lastIndexOf('.') + 1);
    Optional<String> reason = d.flatMap(Grammar::notSupported);
    if (reason.isPresent()) {
      return LanceCodecException.unsupported(what + " " + shortName + " is not supported: " + reason.get());
    }
    String provider = d.flatMap(Grammar::providedBy).map(a -> "provided by " + a).orElse("no known plugin provides it");
    return LanceCodecException.missingPlugin(
        "file needs " + what + " " + shortName + " (" + provider + "), not on the class path");
  }

  /** The message of the case set in a oneof-only wrapper such as {@code CompressiveEncoding}. */
  public static Message unwrap(Message wrapper) {
    FieldDescriptor set = setCase(wrapper);
    return set == null ? wrapper : (Message) wrapper.getField(set);
  }

  private static FieldDescriptor setCase(Message wrapper) {
    List<OneofDescriptor> oneofs = wrapper.getDescriptorForType().getOneofs();
    if (oneofs.isEmpty()) {
      return null;
    }
    FieldDescriptor set = wrapper.getOneofFieldDescriptor(oneofs.get(0));
    if (set == null) {
      throw LanceCodecException.corrupt(
          "empty " + wrapper.getDescriptorForType().getName() + " (no case set; unknown encoding?)");
    }
    return set;
  }

  /** The registry's side of {@link Decoders}: every call goes to the owner of the case set. */
  private final class RegistryDecoders implements Decoders {
    @Override
    public MiniBlockDecompressor miniBlock(Message encoding) {
      Message node = unwrap(encoding);
      return ownerOf(node).openMiniBlock(node, this);
    }

    @Override
    public BlockDecompressor block(Message encoding) {
      Message node = unwrap(encoding);
      return ownerOf(node).openBlock(node, this);
    }

    @Override
    public PerValueDecompressor perValue(Message encoding) {
      Message node = unwrap(encoding);
      return ownerOf(node).openPerValue(node, this);
    }

    /**
     * The owner's summary of the case set, or the generic one (the case's name and its child
     * trees) when the owner has none or is not on the class path; never fails on a tree it
     * cannot decode, so inspect works on a trimmed class path.
     */
    @Override
    public EncodingSummary describe(Message encoding) {
      FieldDescriptor set;
      try {
        set = setCase(encoding);
      } catch (LanceCodecException e) {
        return EncodingSummary.of("?", "");
      }
      Message node = set == null ? encoding : (Message) encoding.getField(set);
      String name = set == null ? node.getDescriptorForType().getName() : set.getName();
      if (node instanceof Extension ext) {
        return describeExtension(ext);
      }
      CodecPlugin owner = codecOwners.get(node.getClass());
      if (owner != null) {
        Optional<EncodingSummary> own = owner.describe(node, this);
        if (own.isPresent()) {
          return own.get();
        }
      }
      List<EncodingSummary> children = new ArrayList<>();
      for (FieldDescriptor child : node.getDescriptorForType().getFields()) {
        if (child.getJavaType() == FieldDescriptor.JavaType.MESSAGE
            && !child.isRepeated()
            && child.getMessageType().getFullName().equals(encoding.getDescriptorForType().getFullName())
            && node.hasField(child)) {
          children.add(describe((Message) node.getField(child)));
        }
      }
      return new EncodingSummary(name, owner == null ? "plugin missing" : "", children);
    }

    /** The owner's summary, or {@code extension(<id> v<version>[, plugin missing], children...)}. */
    private EncodingSummary describeExtension(Extension ext) {
      CodecPlugin owner = null;
      try {
        owner = extensionOwner(ext);
      } catch (LanceCodecException e) {
        // described generically below
      }
      if (owner != null) {
        Optional<EncodingSummary> own = owner.describe(ext, this);
        if (own.isPresent()) {
          return own.get();
        }
      }
      List<EncodingSummary> children = new ArrayList<>();
      for (Message child : ext.getChildrenList()) {
        children.add(describe(child));
      }
      String params = ext.getCodecId() + " v" + Integer.toUnsignedLong(ext.getCodecVersion())
          + (owner == null ? ", plugin missing" : "");
      return new EncodingSummary("extension", params, children);
    }
  }
}
