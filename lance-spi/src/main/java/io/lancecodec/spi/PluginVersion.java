package io.lancecodec.spi;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * A plugin's release version, as {@code codecs} lists it. A jar's manifest names the jar, and in
 * a shaded application jar every plugin would report the application's version; so the version
 * comes first from {@code plugin-version.properties} ({@code version=...}) in the plugin class's
 * own package, which the build writes per module, then from the manifest, else {@code dev}.
 */
public final class PluginVersion {
  /** The resource, relative to the plugin class's package. */
  private static final String RESOURCE = "plugin-version.properties";

  private PluginVersion() {}

  public static String of(Class<?> plugin) {
    try (InputStream in = plugin.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").strip();
        if (!v.isEmpty() && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      // unreadable: fall back to the manifest
    }
    String v = plugin.getPackage() == null ? null : plugin.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
