package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.LanceCodecException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * {@link ReaderOptions#maxReadBytes}: a read whose fixed-width output is over the limit fails
 * before it reads a page; strings and lists, whose size only decoding tells, fail at the page
 * that crosses it; either way one INVALID_ARGUMENT naming the limit, nothing left allocated, and
 * the reader goes on serving reads within it.
 */
class ReadBudgetTest extends WithAllocator {
  static final int ROWS = 2_000;
  static final int DIM = 256;
  static final int TEXT_BYTES = 2_000;
  static final int ITEMS = 250;
  static final long LIMIT = 1 << 20;

  static final Field VECTOR = new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)),
      List.of(new Field("item", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)));
  static final Field TEXT = new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
  static final Field LIST = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
      List.of(new Field("item", FieldType.nullable(new ArrowType.Int(32, true)), null)));
  static final Schema SCHEMA = new Schema(List.of(VECTOR, TEXT, LIST));

  private Path write() {
    Path f = dir.resolve("budget.lance");
    java.util.Random random = new java.util.Random(19);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        LanceFileWriter w = LanceFileWriter.open(f, SCHEMA, WriterOptions.defaults())) {
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      v.allocateNew();
      Float4Vector items = (Float4Vector) v.getDataVector();
      items.allocateNew(ROWS * DIM);
      for (int r = 0; r < ROWS; r++) {
        v.setNotNull(r);
        for (int j = 0; j < DIM; j++) {
          items.set(r * DIM + j, random.nextFloat());
        }
      }
      VarCharVector s = (VarCharVector) root.getVector("s");
      s.allocateNew();
      byte[] text = new byte[TEXT_BYTES];
      for (int r = 0; r < ROWS; r++) {
        for (int k = 0; k < text.length; k++) {
          text[k] = (byte) ('a' + random.nextInt(26));
        }
        s.setSafe(r, text);
      }
      UnionListWriter lw = ((ListVector) root.getVector("l")).getWriter();
      for (int r = 0; r < ROWS; r++) {
        lw.setPosition(r);
        lw.startList();
        for (int k = 0; k < ITEMS; k++) {
          lw.integer().writeInt(random.nextInt());
        }
        lw.endList();
      }
      root.setRowCount(ROWS);
      w.write(root);
    }
    return f;
  }

  @Test
  void fixedWidthOutputOverTheLimitIsRefusedBeforeAnyPageIsRead() {
    Path f = write();
    try (LanceFileReader r = LanceFileReader.open(f, CodecRegistry.discover(), ReaderOptions.defaults().withMaxReadBytes(LIMIT))) {
      assertEquals(LIMIT, r.maxReadBytes());
      r.readStats().reset();
      // 2,000 rows of 1 KiB vectors: 2 MB of output, known from the schema
      assertRefused(() -> r.readRange(0, ROWS, List.of("v"), allocator).close(), "2000 rows of the selected columns");
      assertEquals(0, r.readStats().bytes(), "refused before reading a page");
      try (VectorSchemaRoot few = r.readRange(0, 500, List.of("v"), allocator)) {
        assertEquals(500, few.getRowCount());
      }
    }
  }

  @Test
  void stringsAndListsAreCountedAsTheyDecode() {
    Path f = write();
    try (LanceFileReader r = LanceFileReader.open(f, CodecRegistry.discover(), ReaderOptions.defaults().withMaxReadBytes(LIMIT))) {
      // 4 MB of strings and 2 MB of list items, which only decoding tells; offsets alone are 16 KB
      List<Consumer<String>> reads = List.of(
          c -> r.readRange(0, ROWS, List.of(c), allocator).close(),
          c -> r.take(java.util.stream.LongStream.range(0, ROWS).map(i -> i * 7 % ROWS).toArray(), List.of(c), allocator).close(),
          c -> {
            try (Scanner s = r.scan(List.of(c), ROWS, allocator)) {
              s.next().close();
            }
          });
      for (String column : List.of("s", "l")) {
        for (Consumer<String> read : reads) {
          assertRefused(() -> read.accept(column), "column '" + column + "'");
        }
        try (VectorSchemaRoot few = r.readRange(ROWS - 200, ROWS, List.of(column), allocator)) {
          assertEquals(200, few.getRowCount());
        }
      }
    }
    // the default limit is half the heap: the whole file (some 8 MB) reads
    try (LanceFileReader r = LanceFileReader.open(f);
        VectorSchemaRoot all = r.readRange(0, ROWS, null, allocator)) {
      assertEquals(ReaderOptions.DEFAULT_MAX_READ_BYTES, r.maxReadBytes());
      assertEquals(TEXT_BYTES, new String(((VarCharVector) all.getVector("s")).get(ROWS - 1), StandardCharsets.UTF_8).length());
    }
  }

  @Test
  void aLimitMustBePositive() {
    for (long bad : new long[] {0, -1}) {
      LanceCodecException e = assertThrows(LanceCodecException.class, () -> ReaderOptions.defaults().withMaxReadBytes(bad));
      assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
    }
    LanceCodecException e = assertThrows(LanceCodecException.class,
        () -> LanceFileReader.open(dir.resolve("x.lance"), CodecRegistry.discover(), (ReaderOptions) null));
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind());
  }

  private void assertRefused(Runnable read, String names) {
    LanceCodecException e = assertThrows(LanceCodecException.class, read::run);
    assertEquals(LanceCodecException.Kind.INVALID_ARGUMENT, e.kind(), e.getMessage());
    assertTrue(e.getMessage().contains("ReaderOptions.maxReadBytes of " + LIMIT), e.getMessage());
    assertTrue(e.getMessage().contains(names), e.getMessage());
    assertTrue(e.getMessage().lines().count() == 1, e.getMessage());
    assertEquals(0, allocator.getAllocatedMemory(), "memory left allocated after a refused read");
  }
}
