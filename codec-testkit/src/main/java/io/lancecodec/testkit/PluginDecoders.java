package io.lancecodec.testkit;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.lancecodec.format.pb.v23.Extension;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.EncodingSummary;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueDecompressor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A registry stand-in over a fixed list of plugins: each compression tree node goes to the plugin
 * that declares its message. Nodes nobody here declares (the runtime's built-in Flat, say) go to
 * the fallback, or without one are MISSING_PLUGIN, so a standalone contract shows which trees need
 * the runtime.
 */
final class PluginDecoders implements Decoders {
  private final Map<Class<?>, CodecPlugin> owners = new HashMap<>();
  private final Map<String, CodecPlugin> extensions = new HashMap<>();
  private final Decoders fallback;

  PluginDecoders(List<CodecPlugin> plugins, Decoders fallback) {
    this.fallback = fallback;
    for (CodecPlugin p : plugins) {
      for (String id : p.extensions().keySet()) {
        extensions.putIfAbsent(id, p);
      }
      for (Class<?> c : p.decodes()) {
        owners.putIfAbsent(c, p);
      }
    }
  }

  @Override
  public MiniBlockDecompressor miniBlock(Message encoding) {
    Message node = node(encoding);
    if (fallback != null && !owns(node)) {
      return fallback.miniBlock(encoding);
    }
    return owner(node).openMiniBlock(node, this);
  }

  @Override
  public BlockDecompressor block(Message encoding) {
    Message node = node(encoding);
    if (fallback != null && !owns(node)) {
      return fallback.block(encoding);
    }
    return owner(node).openBlock(node, this);
  }

  @Override
  public PerValueDecompressor perValue(Message encoding) {
    Message node = node(encoding);
    if (fallback != null && !owns(node)) {
      return fallback.perValue(encoding);
    }
    return owner(node).openPerValue(node, this);
  }

  @Override
  public EncodingSummary describe(Message encoding) {
    Message node = node(encoding);
    CodecPlugin p = owns(node) ? owner(node) : null;
    return p == null ? EncodingSummary.of(node.getDescriptorForType().getName(), "plugin missing")
        : p.describe(node, this).orElse(EncodingSummary.of(node.getDescriptorForType().getName(), ""));
  }

  private boolean owns(Message node) {
    return node instanceof Extension ext ? extensions.containsKey(ext.getCodecId()) : owners.containsKey(node.getClass());
  }

  private CodecPlugin owner(Message node) {
    CodecPlugin p = node instanceof Extension ext ? extensions.get(ext.getCodecId()) : owners.get(node.getClass());
    if (p == null) {
      throw LanceCodecException.missingPlugin("the standalone test host has no plugin for " + node.getDescriptorForType().getName());
    }
    return p;
  }

  /** The message of the case set in a oneof wrapper ({@code CompressiveEncoding}). */
  private static Message node(Message wrapper) {
    var oneofs = wrapper.getDescriptorForType().getOneofs();
    if (oneofs.isEmpty()) {
      return wrapper;
    }
    FieldDescriptor set = wrapper.getOneofFieldDescriptor(oneofs.get(0));
    if (set == null) {
      throw LanceCodecException.corrupt("empty " + wrapper.getDescriptorForType().getName());
    }
    return (Message) wrapper.getField(set);
  }
}
