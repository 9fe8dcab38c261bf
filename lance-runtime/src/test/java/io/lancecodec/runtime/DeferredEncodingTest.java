package io.lancecodec.runtime;

import io.lancecodec.format.pb.file2.ColumnMetadata;
import io.lancecodec.format.pb.file2.DeferredEncoding;
import io.lancecodec.format.pb.file2.Encoding;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The container allows a page's encoding to live in a buffer of its own ("deferred") instead of
 * inline. The reference never writes it; we re-pack one of our files that way and read it.
 */
class DeferredEncodingTest {
  @TempDir Path dir;

  @Test
  void readsDeferredPageEncodings() throws Exception {
    Path direct = dir.resolve("direct.lance");
    List<Object> expected;
    try (BufferAllocator al = new RootAllocator();
        VectorSchemaRoot root = TestData.root("c", ArrowType.Utf8.INSTANCE, true, 0.2, 3000, TestData.Shape.NARROW, 3, al)) {
      try (LanceFileWriter w = LanceFileWriter.open(direct, root.getSchema(), WriterOptions.defaults())) {
        w.write(root);
      }
      expected = TestData.values(root.getVector(0));
    }
    byte[] file = Files.readAllBytes(direct);
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    int footer = file.length - 40;
    long cmo = b.getLong(footer + 8);
    long gbo = b.getLong(footer + 16);
    int numColumns = b.getInt(footer + 28);
    long gb0 = b.getLong((int) gbo);
    long gb0Size = b.getLong((int) gbo + 8);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(file, 0, (int) gb0); // the data region is kept as is
    byte[][] cms = new byte[numColumns][];
    for (int c = 0; c < numColumns; c++) {
      long pos = b.getLong((int) (cmo + 16L * c));
      long size = b.getLong((int) (cmo + 16L * c + 8));
      ColumnMetadata.Builder cm = ColumnMetadata.parseFrom(Arrays.copyOfRange(file, (int) pos, (int) (pos + size))).toBuilder();
      for (ColumnMetadata.Page.Builder page : cm.getPagesBuilderList()) {
        byte[] any = page.getEncoding().getDirect().getEncoding().toByteArray();
        long at = out.size();
        out.write(any);
        while (out.size() % 64 != 0) {
          out.write(0);
        }
        page.setEncoding(Encoding.newBuilder().setIndirect(DeferredEncoding.newBuilder().setBufferLocation(at).setBufferLength(any.length)));
      }
      cms[c] = cm.build().toByteArray();
    }
    long newGb0 = out.size();
    out.write(file, (int) gb0, (int) gb0Size);
    long[] cmPos = new long[numColumns];
    long cmStart = out.size();
    for (int c = 0; c < numColumns; c++) {
      cmPos[c] = out.size();
      out.write(cms[c]);
    }
    ByteBuffer tail = ByteBuffer.allocate(16 * numColumns + 16 + 40).order(ByteOrder.LITTLE_ENDIAN);
    long newCmo = out.size();
    for (int c = 0; c < numColumns; c++) {
      tail.putLong(cmPos[c]).putLong(cms[c].length);
    }
    tail.putLong(newGb0).putLong(gb0Size);
    tail.putLong(cmStart).putLong(newCmo).putLong(newCmo + 16L * numColumns).putInt(1).putInt(numColumns);
    tail.put(file, footer + 32, 8);
    out.write(tail.array());
    Path deferred = dir.resolve("deferred.lance");
    Files.write(deferred, out.toByteArray());

    try (BufferAllocator al = new RootAllocator(); LanceFileReader r = LanceFileReader.open(deferred);
        VectorSchemaRoot all = r.readRange(0, r.numRows(), null, al)) {
      assertEquals(expected, TestData.values(all.getVector(0)));
    }
  }
}
