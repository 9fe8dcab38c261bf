package io.lancecodec.interop;

import io.lancecodec.runtime.CodecRegistry;
import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.LanceFileWriter;
import io.lancecodec.runtime.WriterOptions;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Runs in a JVM whose class path lacks some codec jars: writes and reads a file of its own with
 * what is there, then opens a file written with every codec, describes it and reads each column
 * on its own. Prints one result line per step; {@link TrimmedClassPathTest} checks them.
 */
public final class TrimmedClassPathMain {
  private TrimmedClassPathMain() {}

  public static void main(String[] args) throws Exception {
    System.out.println("codecs=" + CodecRegistry.discover().plugins().stream()
        .filter(p -> p.kind().equals("codec")).map(CodecRegistry.PluginInfo::name).toList());
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
        System.out.println("own=" + (same ? "ok" : "mismatch") + " " + r.columnSummaries().get(0).pages());
      }
      try (LanceFileReader r = LanceFileReader.open(Path.of(args[1]))) {
        System.out.println("mixed=opened " + r.schema().getFields().stream().map(Field::getName).toList());
        for (LanceFileReader.ColumnSummary c : r.columnSummaries()) {
          System.out.println("inspect " + c.name() + "=" + c.pages().get(0).description());
        }
        for (Field f : r.schema().getFields()) {
          try (VectorSchemaRoot got = r.readRange(0, r.numRows(), List.of(f.getName()), al)) {
            FieldVector v = got.getVector(0);
            long hash = 0;
            for (int i = 0; i < v.getValueCount(); i++) {
              hash = 31 * hash + String.valueOf(v.getObject(i)).hashCode();
            }
            System.out.println("read " + f.getName() + "=ok " + hash);
          } catch (LanceCodecException e) {
            System.out.println("read " + f.getName() + "=" + e.kind() + " " + e.getMessage());
          }
        }
      } catch (LanceCodecException e) {
        System.out.println("mixed=" + e.kind() + " " + e.getMessage());
      }
    }
  }
}
