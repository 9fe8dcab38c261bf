package io.lancecodec.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real trimmed class path: a child JVM without codec-bitpack (and without the reference)
 * still writes and reads files with the built-in codecs, and names the missing artifact when a
 * file needs bit-packing.
 */
class TrimmedClassPathTest {
  @TempDir Path dir;

  @Test
  void runtimeAndLayoutAloneStillWorkAndNameMissingCodecs() throws Exception {
    Path packed = dir.resolve("packed.lance");
    try (BufferAllocator al = new RootAllocator(); IntVector v = new IntVector("x", al)) {
      v.allocateNew(5000);
      for (int i = 0; i < 5000; i++) {
        v.set(i, i % 100);
      }
      v.setValueCount(5000);
      try (VectorSchemaRoot root = VectorSchemaRoot.of(v);
          LanceFileWriter w = LanceFileWriter.open(packed, root.getSchema(), WriterOptions.defaults())) {
        w.write(root);
      }
    }
    String full = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> kept = Arrays.stream(full.split(File.pathSeparator))
        .filter(p -> !p.contains("codec-bitpack") && !p.contains("lance-core") && !p.contains("codec-fsst")
            && !p.contains("codec-general"))
        .collect(Collectors.toList());
    assertTrue(kept.size() < full.split(File.pathSeparator).length, "something was removed from " + full);
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", String.join(File.pathSeparator, kept),
        TrimmedClassPathMain.class.getName(),
        dir.resolve("own.lance").toString(), packed.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM finished");
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("codecs=[builtin]"), out);
    assertTrue(out.contains("own=ok") && out.contains("values: flat(32)"), out);
    assertTrue(out.contains("packed=MISSING_PLUGIN")
        && out.contains("needs encoding InlineBitpacking (provided by io.lancecodec:codec-bitpack), not on the class path"), out);
    assertTrue(Files.size(packed) > 0);
  }
}
