package io.lancecodec.runtime;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LanceCodecException.Kind;
import io.lancecodec.spi.LayoutPlugin;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The plugins this process can use, found once with {@link ServiceLoader}. Every encoding
 * message has exactly one owner; conflicts, plugins built for another SPI version and providers
 * that fail to load are errors at start-up, naming the jars involved, never silently skipped.
 * Plugins are kept sorted by name so nothing depends on class-path order. Immutable.
 */
public final class CodecRegistry implements Decoders {
  private final List<CodecPlugin> codecs;
  private final List<LayoutPlugin> layouts;
  private final Map<Class<?>, CodecPlugin> codecOwners = new HashMap<>();
  private final Map<Class<?>, LayoutPlugin> layoutOwners = new HashMap<>();

  private CodecRegistry(List<CodecPlugin> codecs, List<LayoutPlugin> layouts) {
    List<CodecPlugin> allCodecs = new ArrayList<>(codecs);
    allCodecs.add(new BuiltinCodecs());
    allCodecs.sort(Comparator.comparing(CodecPlugin::name));
    layouts = new ArrayList<>(layouts);
    layouts.sort(Comparator.comparing(LayoutPlugin::name));
    this.codecs = List.copyOf(allCodecs);
    this.layouts = List.copyOf(layouts);
    for (CodecPlugin p : this.codecs) {
      checkSpi(p.name(), p.spiVersion(), p);
      for (Class<?> c : p.decodes()) {
        CodecPlugin prev = codecOwners.putIfAbsent(c, p);
        if (prev != null) {
          throw conflict(c, prev.name(), prev, p.name(), p);
        }
      }
    }
    for (LayoutPlugin p : this.layouts) {
      checkSpi(p.name(), p.spiVersion(), p);
      for (Class<?> c : p.decodes()) {
        LayoutPlugin prev = layoutOwners.putIfAbsent(c, p);
        if (prev != null) {
          throw conflict(c, prev.name(), prev, p.name(), p);
        }
      }
    }
  }

  /** The plugins visible to {@code loader} (META-INF/services or module {@code provides}). */
  public static CodecRegistry discover(ClassLoader loader) {
    return new CodecRegistry(
        load(CodecPlugin.class, ServiceLoader.load(CodecPlugin.class, loader)),
        load(LayoutPlugin.class, ServiceLoader.load(LayoutPlugin.class, loader)));
  }

  /** The plugins found from the class loader of lance-codec itself (and the module layer). */
  public static CodecRegistry discover() {
    return Holder.DEFAULT;
  }

  /** An explicit set of plugins, for tests and embedders that avoid class-path scanning. */
  public static CodecRegistry of(List<CodecPlugin> codecs, List<LayoutPlugin> layouts) {
    return new CodecRegistry(codecs, layouts);
  }

  private static final class Holder {
    static final CodecRegistry DEFAULT = discover(CodecRegistry.class.getClassLoader());
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
            Kind.PLUGIN_CONFLICT,
            "a " + type.getSimpleName() + " provider failed to load: " + e.getMessage(),
            e);
      }
    }
    return out;
  }

  private static void checkSpi(String name, int spi, Object plugin) {
    if (spi != CodecPlugin.SPI_VERSION) {
      throw new LanceCodecException(
          Kind.PLUGIN_CONFLICT,
          "plugin " + name + " from " + jarOf(plugin) + " targets SPI version " + spi
              + " but this runtime implements SPI version " + CodecPlugin.SPI_VERSION);
    }
  }

  private static LanceCodecException conflict(
      Class<?> message, String a, Object pa, String b, Object pb) {
    return new LanceCodecException(
        Kind.PLUGIN_CONFLICT,
        "encoding " + message.getSimpleName() + " is claimed by two plugins: " + a + " ("
            + jarOf(pa) + ") and " + b + " (" + jarOf(pb) + ")");
  }

  /** Where a plugin's class was loaded from, for error messages and {@code codecs}. */
  public static String jarOf(Object plugin) {
    CodeSource cs = plugin.getClass().getProtectionDomain().getCodeSource();
    if (cs == null || cs.getLocation() == null) {
      return "<unknown location>";
    }
    String path = cs.getLocation().getPath();
    int slash = path.lastIndexOf('/', path.length() - 2);
    return slash >= 0 ? path.substring(slash + 1) : path;
  }

  public List<CodecPlugin> codecs() {
    return codecs;
  }

  public List<LayoutPlugin> layouts() {
    return layouts;
  }

  /** The layout plugin that reads the given page-layout case message. */
  public LayoutPlugin layoutFor(Message layoutCase) {
    LayoutPlugin p = layoutOwners.get(layoutCase.getClass());
    if (p == null) {
      throw missing(layoutCase.getDescriptorForType().getName());
    }
    return p;
  }

  /** The codec plugin that owns the case set in a {@code CompressiveEncoding} message. */
  public CodecPlugin ownerOf(Message node) {
    CodecPlugin p = codecOwners.get(node.getClass());
    if (p == null) {
      throw missing(node.getDescriptorForType().getName());
    }
    return p;
  }

  private static LanceCodecException missing(String encoding) {
    return new LanceCodecException(
        Kind.MISSING_PLUGIN,
        "file needs encoding " + encoding + " (provided by " + KnownEncodings.artifactOf(encoding)
            + "), not on the class path");
  }

  /** The message of the case set in a oneof-only wrapper such as {@code CompressiveEncoding}. */
  public static Message unwrap(Message wrapper) {
    List<OneofDescriptor> oneofs = wrapper.getDescriptorForType().getOneofs();
    if (oneofs.isEmpty()) {
      return wrapper;
    }
    FieldDescriptor set = wrapper.getOneofFieldDescriptor(oneofs.get(0));
    if (set == null) {
      throw LanceCodecException.corrupt(
          "empty " + wrapper.getDescriptorForType().getName() + " (no case set; unknown encoding?)");
    }
    return (Message) wrapper.getField(set);
  }

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
}
