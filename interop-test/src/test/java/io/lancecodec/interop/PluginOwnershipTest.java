package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.lancecodec.format.Grammar;
import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.runtime.CodecRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * With every plugin jar on the class path: each case of each grammar's compression tree has
 * exactly one owner, or the grammar says why none reads it; the artifact the grammar names for
 * a message (which missing-plugin errors quote) is the one whose plugin really reads it; and every
 * plugin module declares its providers the same way in module-info and META-INF/services.
 */
class PluginOwnershipTest {
  static final CodecRegistry REGISTRY = CodecRegistry.discover();

  /** Full message name -> the plugins that declare it (codecs' decodes, layouts' page encodings). */
  static Map<String, List<CodecRegistry.PluginInfo>> owners() {
    Map<String, List<CodecRegistry.PluginInfo>> out = new TreeMap<>();
    for (CodecRegistry.PluginInfo p : REGISTRY.plugins()) {
      for (String m : p.encodings()) {
        out.computeIfAbsent(m, k -> new ArrayList<>()).add(p);
      }
    }
    return out;
  }

  @Test
  void everyCompressionCaseHasOneOwnerOrAReason() {
    checkCases(CompressiveEncoding.getDescriptor());
  }

  /**
   * 2.3 messages whose readers are not part of this build: the grammar names the artifact that
   * will read them (a missing-plugin error quotes it), but no module declares the message yet.
   * None today: codec-general reads AxisDelta.
   */
  static final java.util.Set<String> V23_NOT_YET_READ = java.util.Set.of();

  @Test
  void every23CompressionCaseHasOneOwnerOrAReason() {
    Map<String, List<CodecRegistry.PluginInfo>> owners = owners();
    int owned = 0;
    for (FieldDescriptor f : io.lancecodec.format.pb.v23.CompressiveEncoding.getDescriptor().getOneofs().get(0).getFields()) {
      Descriptor m = f.getMessageType();
      List<CodecRegistry.PluginInfo> o = owners.getOrDefault(m.getFullName(), List.of());
      if (Grammar.routedByCodecId(m)) {
        // Extension: no owner as a message; each node goes to the plugin declaring its codec id
        assertEquals(0, o.size(), m.getFullName() + " is routed by codec id but has owners " + o);
        assertTrue(Grammar.providedBy(m).isEmpty() && Grammar.notSupported(m).isEmpty(), m.getFullName());
        continue;
      }
      if (Grammar.notSupported(m).isPresent() || V23_NOT_YET_READ.contains(m.getFullName())) {
        assertEquals(0, o.size(), m.getFullName() + " has owners " + o);
        assertTrue(Grammar.notSupported(m).isPresent() || Grammar.providedBy(m).isPresent(), m.getFullName());
        continue;
      }
      assertEquals(1, o.size(), m.getFullName() + " owners " + o);
      assertEquals("codec", o.get(0).kind());
      assertProvidedBy(m, o.get(0));
      owned++;
    }
    // Flat, Variable, Constant, both bit-packings, Fsst, Dictionary, Rle, ByteStreamSplit, General,
    // FixedSizeList, PackedStruct, VariablePackedStruct, Range, Delta, Alp, Pcodec, AxisDelta
    assertEquals(18, owned);
  }

  @Test
  void everyPageEncodingHasOneOwner() {
    Map<String, List<CodecRegistry.PluginInfo>> owners = owners();
    Descriptor page = PageLayout.getDescriptor();
    List<CodecRegistry.PluginInfo> o = owners.getOrDefault(page.getFullName(), List.of());
    assertEquals(1, o.size(), page.getFullName() + " owners " + o);
    assertEquals("layout", o.get(0).kind());
    assertProvidedBy(page, o.get(0));
    // its cases belong to the same plugin: the grammar names that artifact for each
    for (FieldDescriptor f : page.getOneofs().get(0).getFields()) {
      assertEquals(Grammar.providedBy(page), Grammar.providedBy(f.getMessageType()), f.getFullName());
    }
  }

  private static void checkCases(Descriptor wrapper) {
    Map<String, List<CodecRegistry.PluginInfo>> owners = owners();
    int checked = 0;
    for (FieldDescriptor f : wrapper.getOneofs().get(0).getFields()) {
      Descriptor m = f.getMessageType();
      List<CodecRegistry.PluginInfo> o = owners.getOrDefault(m.getFullName(), List.of());
      Optional<String> reason = Grammar.notSupported(m);
      if (reason.isPresent()) {
        assertEquals(0, o.size(), m.getFullName() + " is marked unsupported (" + reason.get() + ") but has owners " + o);
      } else {
        assertEquals(1, o.size(), m.getFullName() + " owners " + o);
        assertEquals("codec", o.get(0).kind());
        assertProvidedBy(m, o.get(0));
      }
      checked++;
    }
    assertTrue(checked >= 13, "cases checked: " + checked);
  }

  private static void assertProvidedBy(Descriptor m, CodecRegistry.PluginInfo owner) {
    String artifact = Grammar.providedBy(m).orElseThrow(() -> new AssertionError(m.getFullName() + " names no artifact"));
    assertTrue(artifact.startsWith("io.lancecodec:"), artifact);
    String id = artifact.substring("io.lancecodec:".length());
    assertTrue(owner.location().startsWith(id), m.getFullName() + ": the grammar says " + artifact + ", the owner "
        + owner.name() + " was loaded from " + owner.location());
  }

  /** module-info's {@code provides} and META-INF/services name the same classes, in every plugin module. */
  @Test
  void moduleInfoAndServiceFilesAgree() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    int modules = 0;
    try (var dirs = Files.list(root)) {
      for (Path dir : dirs.sorted().toList()) {
        Path info = dir.resolve("src/main/java/module-info.java");
        Path services = dir.resolve("src/main/resources/META-INF/services");
        if (!Files.exists(info)) {
          continue;
        }
        String text = Files.readString(info).replaceAll("\\s+", " ");
        Map<String, String> declared = new TreeMap<>();
        java.util.regex.Matcher provides = java.util.regex.Pattern.compile("provides ([\\w.]+) with ([\\w.,\\s]+);").matcher(text);
        while (provides.find()) {
          declared.put(provides.group(1), provides.group(2).replaceAll("\\s", ""));
        }
        Map<String, String> listed = new TreeMap<>();
        if (Files.isDirectory(services)) {
          try (var files = Files.list(services)) {
            for (Path f : files.toList()) {
              listed.put(f.getFileName().toString(),
                  String.join(",", Files.readAllLines(f).stream().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()));
            }
          }
        }
        assertEquals(declared, listed, dir.getFileName() + ": module-info provides vs META-INF/services");
        modules += declared.isEmpty() ? 0 : 1;
      }
    }
    assertTrue(modules >= 4, "plugin modules found: " + modules);
  }
}
