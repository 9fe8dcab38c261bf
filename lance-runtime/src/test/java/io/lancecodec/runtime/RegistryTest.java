package io.lancecodec.runtime;

import com.google.protobuf.Message;
import io.lancecodec.codec.bitpack.BitpackPlugin;
import io.lancecodec.format.pb.v21.InlineBitpacking;
import io.lancecodec.layout.legacy.LegacyLayoutPlugin;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistryTest {
  @TempDir Path dir;

  @Test
  void discoversPluginsSortedByName() {
    CodecRegistry r = CodecRegistry.discover();
    assertEquals(List.of("codec bitpack", "codec builtin", "layout legacy", "layout planar"),
        r.plugins().stream().map(p -> p.kind() + " " + p.name()).toList());
  }

  @Test
  void duplicateOwnerIsAConflictNamingBothJars() {
    CodecPlugin twin =
        new CodecPlugin() {
          @Override
          public String name() {
            return "twin";
          }

          @Override
          public Set<FileVersion> fileVersions() {
            return Set.of(FileVersion.V2_1);
          }

          @Override
          public Set<Class<? extends Message>> decodes() {
            return Set.of(InlineBitpacking.class);
          }
        };
    LanceCodecException e =
        assertThrows(LanceCodecException.class, () -> CodecRegistry.of(List.of(new BitpackPlugin(), twin), List.of()));
    assertEquals(LanceCodecException.Kind.PLUGIN_CONFLICT, e.kind());
    assertTrue(e.getMessage().contains("InlineBitpacking") && e.getMessage().contains("bitpack")
        && e.getMessage().contains("twin"), e.getMessage());
  }

  /** A plugin of extension codecs only, declaring {@code ids}. */
  static CodecPlugin extensions(String name, java.util.Map<String, Integer> ids) {
    return new CodecPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Set<FileVersion> fileVersions() {
        return Set.of(FileVersion.V2_3);
      }

      @Override
      public Set<Class<? extends Message>> decodes() {
        return Set.of();
      }

      @Override
      public java.util.Map<String, Integer> extensions() {
        return ids;
      }
    };
  }

  /** An extension codec id has one owner; ids are reverse-DNS names and versions start at 1. */
  @Test
  void extensionIdsAreCheckedAtStartUp() {
    CodecRegistry ok = CodecRegistry.of(List.of(extensions("a", java.util.Map.of("com.example.a", 1))), List.of());
    assertTrue(ok.plugins().stream().anyMatch(p -> p.extensions().equals(java.util.Map.of("com.example.a", 1))));
    LanceCodecException twice = assertThrows(LanceCodecException.class, () -> CodecRegistry.of(
        List.of(extensions("a", java.util.Map.of("com.example.x", 1)), extensions("b", java.util.Map.of("com.example.x", 2))),
        List.of()));
    assertEquals(LanceCodecException.Kind.PLUGIN_CONFLICT, twice.kind());
    assertTrue(twice.getMessage().contains("com.example.x") && twice.getMessage().contains(" a ")
        && twice.getMessage().contains(" b "), twice.getMessage());
    for (java.util.Map<String, Integer> bad : List.of(java.util.Map.of("gorilla", 1), java.util.Map.of("Com.Example.X", 1),
        java.util.Map.of("com.example.x", 0))) {
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> CodecRegistry.of(List.of(extensions("c", bad)), List.of()));
      assertEquals(LanceCodecException.Kind.PLUGIN_CONFLICT, e.kind(), bad.toString());
      assertTrue(e.getMessage().contains("reverse-DNS"), e.getMessage());
    }
  }

  @Test
  void wrongSpiVersionIsRejected() {
    CodecPlugin old =
        new CodecPlugin() {
          @Override
          public String name() {
            return "old";
          }

          @Override
          public int spiVersion() {
            return 0;
          }

          @Override
          public Set<FileVersion> fileVersions() {
            return Set.of(FileVersion.V2_1);
          }

          @Override
          public Set<Class<? extends Message>> decodes() {
            return Set.of();
          }
        };
    LanceCodecException e = assertThrows(LanceCodecException.class, () -> CodecRegistry.of(List.of(old), List.of()));
    assertEquals(LanceCodecException.Kind.PLUGIN_CONFLICT, e.kind());
    assertTrue(e.getMessage().contains("SPI version 0"), e.getMessage());
  }

  @Test
  void providerThatFailsToLoadIsAClearError() throws Exception {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    Files.writeString(services.resolve(CodecPlugin.class.getName()), "com.example.NoSuchPlugin\n");
    try (URLClassLoader cl = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> CodecRegistry.discover(cl));
      assertEquals(LanceCodecException.Kind.PLUGIN_CONFLICT, e.kind());
      assertTrue(e.getMessage().contains("com.example.NoSuchPlugin"), e.getMessage());
    }
  }

  @Test
  void missingCodecNamesTheArtifact() throws Exception {
    Path file = dir.resolve("packed.lance");
    try (BufferAllocator al = new RootAllocator();
        VectorSchemaRoot root = TestData.root("c", new ArrowType.Int(32, true), false, 0, 5000, TestData.Shape.NARROW, 1, al)) {
      // small non-negative values: the writer bit-packs them
      org.apache.arrow.vector.IntVector v = (org.apache.arrow.vector.IntVector) root.getVector(0);
      for (int i = 0; i < 5000; i++) {
        v.set(i, i % 100);
      }
      try (LanceFileWriter w = LanceFileWriter.open(file, root.getSchema(), WriterOptions.defaults())) {
        w.write(root);
      }
    }
    // the file opens and describes itself; reading the column names what it needs
    CodecRegistry bare = CodecRegistry.of(List.of(), List.of(new LegacyLayoutPlugin()));
    try (LanceFileReader r = LanceFileReader.open(file, bare); BufferAllocator al = new RootAllocator()) {
      assertTrue(r.columnSummaries().get(0).pages().get(0).description().contains("inline_bitpacking(plugin missing)"),
          r.columnSummaries().toString());
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> r.readRange(0, 1, null, al));
      assertEquals(LanceCodecException.Kind.MISSING_PLUGIN, e.kind());
      assertTrue(e.getMessage().endsWith("needs encoding InlineBitpacking (provided by io.lancecodec:codec-bitpack), not on the class path"),
          e.getMessage());
    }
    CodecRegistry noLayout = CodecRegistry.of(List.of(new BitpackPlugin()), List.of());
    try (LanceFileReader r = LanceFileReader.open(file, noLayout); BufferAllocator al = new RootAllocator()) {
      LanceCodecException e2 = assertThrows(LanceCodecException.class, () -> r.readRange(0, 1, null, al));
      assertEquals(LanceCodecException.Kind.MISSING_PLUGIN, e2.kind());
      assertTrue(e2.getMessage().contains("needs page encoding PageLayout (provided by io.lancecodec:layout-legacy)"), e2.getMessage());
    }
  }

  /** META-INF/services and the module descriptor of every plugin jar name the same providers. */
  @Test
  void servicesFilesAgreeWithModuleDescriptors() throws Exception {
    for (Class<?> plugin : List.of(BitpackPlugin.class, LegacyLayoutPlugin.class)) {
      Path location = Path.of(plugin.getProtectionDomain().getCodeSource().getLocation().toURI());
      ModuleDescriptor md;
      Set<String> fromServices = new TreeSet<>();
      if (Files.isDirectory(location)) {
        try (InputStream in = Files.newInputStream(location.resolve("module-info.class"))) {
          md = ModuleDescriptor.read(in);
        }
        for (ModuleDescriptor.Provides p : md.provides()) {
          Path f = location.resolve("META-INF/services/" + p.service());
          fromServices.addAll(lines(Files.readString(f)));
        }
      } else {
        try (JarFile jar = new JarFile(location.toFile())) {
          md = ModuleDescriptor.read(jar.getInputStream(jar.getEntry("module-info.class")));
          for (ModuleDescriptor.Provides p : md.provides()) {
            fromServices.addAll(lines(new String(jar.getInputStream(jar.getEntry("META-INF/services/" + p.service())).readAllBytes(), StandardCharsets.UTF_8)));
          }
        }
      }
      Set<String> fromModule = md.provides().stream().flatMap(p -> p.providers().stream()).collect(Collectors.toCollection(TreeSet::new));
      assertTrue(!fromModule.isEmpty(), plugin + " provides nothing");
      assertEquals(fromModule, fromServices, "module-info and META-INF/services of " + location.getFileName());
    }
  }

  private static List<String> lines(String s) {
    return Arrays.stream(s.split("\n")).map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
  }

  /** A scheme no plugin on the class path declares is refused when the options are made, naming the choices. */
  @Test
  void aCompressionSchemeWithoutItsPluginIsRefused() {
    CodecRegistry bitpackOnly = CodecRegistry.of(List.of(new BitpackPlugin()), List.of(new LegacyLayoutPlugin()));
    WriterOptions base = WriterOptions.defaults().withRegistry(bitpackOnly);
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> base.withFieldDefault("lance-encoding:compression", "zstd"));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
    assertEquals("lance-encoding:compression must be one of none (the values the plugins on the class path accept), got 'zstd'",
        e.getMessage());
    base.withFieldDefault("lance-encoding:compression", "none");
  }
}
