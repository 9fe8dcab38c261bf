package io.lancecodec.interop;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.CodecPlugin;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Runs in a JVM whose class path lacks codec-bitpack: writes and reads a file with only the
 * built-in codecs, then tries a file that needs bit-packing. Prints one result line per step.
 */
public final class TrimmedClassPathMain {
  private TrimmedClassPathMain() {}

  public static void main(String[] args) throws Exception {
    System.out.println("codecs=" + CodecRegistry.discover().codecs().stream().map(CodecPlugin::name).toList());
    Path own = Path.of(args[0]);
    try (BufferAllocator al = new RootAllocator()) {
      try (IntVector v = new IntVector("x", al)) {
        v.allocateNew(5000);
        for (int i = 0; i < 5000; i++) {
          v.set(i, i % 100);
        }
        v.setValueCount(5000);
        try (VectorSchemaRoot root = VectorSchemaRoot.of(v);
            LanceFileWriter w = LanceFileWriter.open(own, root.getSchema(), WriterOptions.defaults())) {
          w.write(root);
        }
      }
      try (LanceFileReader r = LanceFileReader.open(own); VectorSchemaRoot back = r.readRange(0, 5000, null, al)) {
        boolean same = true;
        for (int i = 0; i < 5000; i++) {
          same &= ((IntVector) back.getVector(0)).get(i) == i % 100;
        }
        System.out.println("own=" + (same ? "ok" : "mismatch") + " " + r.describePages().get(0));
      }
      try (LanceFileReader r = LanceFileReader.open(Path.of(args[1]))) {
        System.out.println("packed=opened");
      } catch (LanceCodecException e) {
        System.out.println("packed=" + e.kind() + " " + e.getMessage());
      }
    }
  }
}
