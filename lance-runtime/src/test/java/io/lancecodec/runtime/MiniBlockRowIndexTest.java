package io.lancecodec.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A read of lists in mini-blocks keeps the chunks inside its range whole on the repetition
 * index's count of their row starts, without walking their levels. An index whose counts move
 * a row from one chunk to the next (its totals still right, so it opens) must then give the right
 * rows or one CORRUPT error, never other rows: scans in several batch sizes and takes, for every
 * tenth chunk boundary.
 */
class MiniBlockRowIndexTest extends WithAllocator {
  private static final int ROWS = 30_000;

  private static final Schema SCHEMA = new Schema(List.of(new Field("l", FieldType.notNullable(new ArrowType.List()),
      List.of(new Field("item", FieldType.notNullable(new ArrowType.Int(32, true)), null)))));

  @ParameterizedTest
  @ValueSource(strings = {"2.1", "2.2", "2.3"})
  void miscountedRowStartsNeverGiveOtherRows(String version) throws Exception {
    Path f = dir.resolve("index-" + version + ".lance");
    try (LanceFileWriter w = LanceFileWriter.open(f, SCHEMA, WriterOptions.defaults().withVersion(FileVersion.parse(version)));
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      ListVector lv = (ListVector) root.getVector(0);
      UnionListWriter lw = lv.getWriter();
      for (int r = 0; r < ROWS; r++) {
        lw.setPosition(r);
        lw.startList();
        for (int j = 0; j < length(r); j++) {
          lw.integer().writeInt(value(r, j));
        }
        lw.endList();
      }
      lv.setValueCount(ROWS);
      root.setRowCount(ROWS);
      w.write(root);
    }
    byte[] valid = Files.readAllBytes(f);
    assertEquals(null, read(valid), "the valid file reads its rows");
    int[] found = findIndex(valid);
    int index = found[0];
    int chunks = found[1];
    assertTrue(chunks > 20, chunks + " chunks");
    ByteBuffer bb = ByteBuffer.wrap(valid).order(ByteOrder.LITTLE_ENDIAN);
    int moved = 0;
    for (int k = 1; k + 1 < chunks; k += 10) {
      long here = bb.getLong(index + 16 * k);
      if (here == 0) {
        continue;
      }
      byte[] bad = valid.clone();
      ByteBuffer b = ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN);
      b.putLong(index + 16 * k, here - 1);
      b.putLong(index + 16 * (k + 1), bb.getLong(index + 16 * (k + 1)) + 1);
      LanceCodecException e = read(bad);
      assertTrue(e == null || e.kind() == LanceCodecException.Kind.CORRUPT, "chunk " + k + ": " + e);
      moved++;
    }
    assertTrue(moved > 0);
  }

  /**
   * The index: one (rows ended, items left over) pair of u64 per chunk, the rows adding up to the
   * page's and nothing left over after the last, found by that shape; its offset and chunk count.
   */
  private static int[] findIndex(byte[] file) {
    ByteBuffer bb = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    for (int p = 0; p + 16 <= file.length; p += 8) {
      long sum = 0;
      int k = 0;
      for (; p + 16 * (k + 1) <= file.length && sum < ROWS; k++) {
        long rows = bb.getLong(p + 16 * k);
        long left = bb.getLong(p + 16 * k + 8);
        if (rows < 0 || rows > 4096 || left < 0 || left > 4096) {
          break;
        }
        sum += rows;
      }
      if (sum == ROWS && k > 20 && bb.getLong(p + 16 * (k - 1) + 8) == 0) {
        return new int[] {p, k};
      }
    }
    throw new AssertionError("repetition index not found");
  }

  private static int length(long r) {
    return (int) (r * 7 % 9);
  }

  private static int value(long r, int j) {
    return (int) (r * 31 + j);
  }

  /** Scans in batches of 1,000, 8,192 and all rows, and a take; null when every row is right, else the error. */
  private static LanceCodecException read(byte[] bytes) throws Exception {
    Path f = dir.resolve("index-read.lance");
    Files.write(f, bytes);
    try (LanceFileReader r = LanceFileReader.open(f)) {
      for (int batch : new int[] {1_000, 8_192, ROWS}) {
        long row = 0;
        Iterator<VectorSchemaRoot> it = r.scan(List.of("l"), batch, allocator);
        while (it.hasNext()) {
          try (VectorSchemaRoot b = it.next()) {
            check((ListVector) b.getVector(0), row);
            row += b.getRowCount();
          }
        }
        assertEquals(ROWS, row, "rows of a scan in batches of " + batch);
      }
      long[] rows = {3, 4_095, 4_096, 12_345, 20_000, ROWS - 1};
      try (VectorSchemaRoot t = r.take(rows, List.of("l"), allocator)) {
        ListVector lv = (ListVector) t.getVector(0);
        for (int i = 0; i < rows.length; i++) {
          checkRow(lv, i, rows[i]);
        }
      }
      return null;
    } catch (LanceCodecException e) {
      return e;
    } finally {
      Files.delete(f);
    }
  }

  private static void check(ListVector lv, long first) {
    for (int i = 0; i < lv.getValueCount(); i++) {
      checkRow(lv, i, first + i);
    }
  }

  private static void checkRow(ListVector lv, int i, long row) {
    IntVector items = (IntVector) lv.getDataVector();
    int start = lv.getElementStartIndex(i);
    int end = lv.getElementEndIndex(i);
    List<Integer> got = new ArrayList<>();
    for (int j = start; j < end; j++) {
      got.add(items.get(j));
    }
    List<Integer> want = new ArrayList<>();
    for (int j = 0; j < length(row); j++) {
      want.add(value(row, j));
    }
    assertEquals(want, got, "row " + row);
  }
}
