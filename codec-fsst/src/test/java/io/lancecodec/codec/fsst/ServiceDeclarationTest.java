package io.lancecodec.codec.fsst;

import io.lancecodec.format.pb.v21.Fsst;
import io.lancecodec.spi.CodecPlugin;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** META-INF/services and module-info name the same provider; the registry finds it. */
class ServiceDeclarationTest {
  @Test
  void servicesFileAndModuleInfoAgree() throws IOException {
    String services;
    try (InputStream in = TestBlocks.resource("META-INF/services/io.lancecodec.spi.CodecPlugin")) {
      services = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
    assertEquals(FsstPlugin.class.getName(), services);
    String moduleInfo = Files.readString(Path.of("src/main/java/module-info.java"));
    assertTrue(moduleInfo.replaceAll("\\s+", " ").contains("provides io.lancecodec.spi.CodecPlugin with " + services + ";"), moduleInfo);
  }

  @Test
  void registryFindsThePlugin() {
    CodecPlugin p = TestBlocks.REGISTRY.codec("fsst").orElseThrow();
    assertEquals(Set.of(Fsst.class, io.lancecodec.format.pb.v23.Fsst.class), p.decodes());
    assertEquals(CodecPlugin.SPI_VERSION, p.spiVersion());
  }
}
