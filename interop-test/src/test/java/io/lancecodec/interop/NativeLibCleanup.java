package io.lancecodec.interop;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Deletes the reference's unpacked native library ({@code liblance_jni*}, ~173 MB, and the
 * {@code jnilib-*.tmp} copies of its loader) from {@code java.io.tmpdir} before and after each
 * test class. The JVM normally deletes them on exit, but not after a native abort; deleting a
 * library that is already loaded is harmless on Linux (the mapping stays valid).
 */
public final class NativeLibCleanup implements BeforeAllCallback, AfterAllCallback {
  @Override
  public void beforeAll(ExtensionContext context) {
    clean();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    clean();
  }

  static void clean() {
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    if (!Files.isDirectory(dir)) {
      return;
    }
    for (String glob : new String[] {"liblance_jni*", "jnilib-*.tmp"}) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, glob)) {
        for (Path f : files) {
          try {
            Files.deleteIfExists(f);
          } catch (IOException e) {
            System.err.println("interop: could not delete " + f + ": " + e.getMessage());
          }
        }
      } catch (IOException e) {
        System.err.println("interop: could not list " + dir + ": " + e.getMessage());
      }
    }
  }
}
