package io.lancecodec.format;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.lancecodec.format.pb.options.PluginOptionsProtos;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every message of the grammars in this module, by full name, with what their descriptor options
 * say about them: a reader that finds a page or encoding no plugin claims looks the name up here
 * to tell the user which artifact provides it, or that none does.
 */
public final class Grammar {
  private static final Map<String, Descriptor> MESSAGES = new HashMap<>();

  static {
    for (FileDescriptor f :
        List.of(
            io.lancecodec.format.pb.v21.Encodings21Protos.getDescriptor(),
            io.lancecodec.format.pb.v23.Encodings23Protos.getDescriptor(),
            io.lancecodec.format.pb.v20.Encodings20Protos.getDescriptor())) {
      for (Descriptor d : f.getMessageTypes()) {
        add(d);
      }
    }
  }

  private Grammar() {}

  private static void add(Descriptor d) {
    MESSAGES.put(d.getFullName(), d);
    for (Descriptor nested : d.getNestedTypes()) {
      add(nested);
    }
  }

  /** The message of this full name ({@code lance.encodings21.Fsst}), if a grammar here has it. */
  public static Optional<Descriptor> message(String fullName) {
    return Optional.ofNullable(MESSAGES.get(fullName));
  }

  /** The artifact of the standard plugin that decodes {@code message}, if one does. */
  public static Optional<String> providedBy(Descriptor message) {
    String v = message.getOptions().getExtension(PluginOptionsProtos.providedBy);
    return v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  /** Why no plugin decodes {@code message}, if the grammar says so. */
  public static Optional<String> notSupported(Descriptor message) {
    String v = message.getOptions().getExtension(PluginOptionsProtos.notSupported);
    return v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  /** Whether nodes of {@code message} are routed by the codec id they carry (2.3 Extension), not owned. */
  public static boolean routedByCodecId(Descriptor message) {
    return message.getOptions().getExtension(PluginOptionsProtos.routedByCodecId);
  }

  /** Every message of the grammars, for tests that check each has an owner. */
  public static List<Descriptor> messages() {
    return List.copyOf(MESSAGES.values());
  }
}
