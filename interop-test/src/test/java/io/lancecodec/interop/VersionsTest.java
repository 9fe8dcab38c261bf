package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.spi.CodecPlugin;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Every published artifact carries its own version, and three places must agree on it: the
 * module's pom, the build's version property (which the other modules depend through) and
 * lance-codec-bom. lance-spi's major version is the SPI version plugins are checked against, and
 * a plugin loaded from its jar reports its pom's version.
 */
class VersionsTest {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  /** Modules that are never published as libraries: tests, benchmarks, the command line. */
  static final java.util.Set<String> UNPUBLISHED = java.util.Set.of("interop-test", "fuzz", "bench", "cli", "lance-codec-bom");

  static Document pom(Path p) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(p.toFile());
  }

  /** The text of {@code name}, a direct child of {@code e}, or null. */
  static String child(Element e, String name) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(name)) {
        return c.getTextContent().strip();
      }
    }
    return null;
  }

  static Element first(Element e, String name) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(name)) {
        return c;
      }
    }
    return null;
  }

  /** Each reactor module's artifactId and version (its own, or its parent's). */
  static Map<String, String> moduleVersions() throws Exception {
    Element root = pom(ROOT.resolve("pom.xml")).getDocumentElement();
    Map<String, String> out = new TreeMap<>();
    NodeList modules = first(root, "modules").getElementsByTagName("module");
    for (int i = 0; i < modules.getLength(); i++) {
      Element m = pom(ROOT.resolve(modules.item(i).getTextContent().strip()).resolve("pom.xml")).getDocumentElement();
      String version = child(m, "version");
      if (version == null) {
        version = child(first(m, "parent"), "version");
      }
      out.put(child(m, "artifactId"), version);
    }
    return out;
  }

  /** The BOM's io.lancecodec entries. */
  static Map<String, String> bom() throws Exception {
    Element bom = pom(ROOT.resolve("lance-codec-bom/pom.xml")).getDocumentElement();
    Map<String, String> out = new TreeMap<>();
    NodeList deps = first(bom, "dependencyManagement").getElementsByTagName("dependency");
    for (int i = 0; i < deps.getLength(); i++) {
      Element d = (Element) deps.item(i);
      if ("io.lancecodec".equals(child(d, "groupId"))) {
        out.put(child(d, "artifactId"), child(d, "version"));
      }
    }
    return out;
  }

  @Test
  void pomsPropertiesAndBomAgree() throws Exception {
    Map<String, String> modules = moduleVersions();
    Map<String, String> bom = bom();
    Element properties = first(pom(ROOT.resolve("pom.xml")).getDocumentElement(), "properties");
    Map<String, String> published = new TreeMap<>(modules);
    published.keySet().removeAll(UNPUBLISHED);
    assertEquals(published, bom, "lance-codec-bom lists every published module at its pom's version");
    for (Map.Entry<String, String> m : published.entrySet()) {
      assertEquals(m.getValue(), child(properties, m.getKey() + ".version"), "the build's " + m.getKey() + ".version property");
    }
    // the third-party versions the BOM states are the ones the build tested with
    Element bomDeps = first(pom(ROOT.resolve("lance-codec-bom/pom.xml")).getDocumentElement(), "dependencyManagement");
    NodeList deps = bomDeps.getElementsByTagName("dependency");
    for (int i = 0; i < deps.getLength(); i++) {
      Element d = (Element) deps.item(i);
      String artifact = child(d, "artifactId");
      if (artifact.startsWith("arrow-")) {
        assertEquals(child(properties, "arrow.version"), child(d, "version"), artifact);
      } else if (artifact.equals("junit-bom")) {
        assertEquals(child(properties, "junit.version"), child(d, "version"), artifact);
      }
    }
  }

  @Test
  void spiMajorVersionIsTheSpiVersion() throws Exception {
    String spi = moduleVersions().get("lance-spi");
    assertEquals(String.valueOf(CodecPlugin.SPI_VERSION), spi.substring(0, spi.indexOf('.')), "lance-spi " + spi);
  }

  /** The module each standard plugin comes from. */
  static final Map<String, String> PLUGIN_MODULES = Map.of("alp", "codec-alp", "bitpack", "codec-bitpack", "fsst", "codec-fsst",
      "general", "codec-general", "pcodec", "codec-pcodec", "builtin", "lance-runtime", "legacy", "layout-legacy",
      "planar", "layout-planar");

  /**
   * {@code codecs} reports each plugin's own version (its module's pom version, written into the
   * plugin's package by the build), whether it was loaded from its jar or a build directory, and
   * so also from a shaded application jar whose one manifest names the application.
   */
  @Test
  void everyPluginReportsItsModulesVersion() throws Exception {
    Map<String, String> modules = moduleVersions();
    Map<String, String> seen = new TreeMap<>();
    for (CodecRegistry.PluginInfo p : CodecRegistry.discover().plugins()) {
      String module = PLUGIN_MODULES.get(p.name());
      assertTrue(module != null, "a plugin this test does not know: " + p.name() + " from " + p.location());
      assertEquals(modules.get(module), p.version(), p.name() + " from " + p.location());
      seen.put(p.name(), p.version());
    }
    assertEquals(PLUGIN_MODULES.keySet(), seen.keySet(), "every standard plugin is on interop-test's class path");
  }
}
