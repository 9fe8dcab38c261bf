package io.lancecodec.spark;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Run in a child JVM (no Spark): reads each file given with the reference implementation and
 * prints its version-independent content, one line per row ({@link #line}), after a header line
 * with the file's row count. The reference aborts the JVM on a file it cannot read, so it never
 * runs inside the test JVM.
 */
public final class ReferenceReadMain {
  private ReferenceReadMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    try (BufferAllocator allocator = new RootAllocator()) {
      for (String file : args) {
        try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file, allocator)) {
          out.println("# " + r.numRows() + " rows " + r.schema().getFields());
          try (ArrowReader batches = r.readAll(null, null, 1024)) {
            while (batches.loadNextBatch()) {
              VectorSchemaRoot root = batches.getVectorSchemaRoot();
              for (int i = 0; i < root.getRowCount(); i++) {
                out.println(line(root, i));
              }
            }
          }
        }
      }
    }
    out.flush();
  }

  /** A row as the values' Arrow object forms, the same whichever reader produced the vectors. */
  static String line(VectorSchemaRoot root, int row) {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < root.getFieldVectors().size(); c++) {
      if (c > 0) {
        sb.append(" | ");
      }
      Object v = root.getVector(c).getObject(row);
      sb.append(v instanceof byte[] b ? java.util.HexFormat.of().formatHex(b) : String.valueOf(v));
    }
    return sb.toString();
  }
}
