package io.lancecodec.bench.sizes;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One column of the corpus as the anchor measures it: a single non-nullable field named
 * {@code v}, held as raw little-endian bytes so that a fresh Arrow batch (with or without a
 * compression hint in the field metadata) can be built for every write. Fixed width: {@code data}
 * is the value buffer; strings: {@code data} is the value bytes and {@code offsets} the rows + 1
 * offsets; fixed-size lists: {@code data} is the items' value buffer.
 */
record CorpusColumn(
    String label, char section, ArrowType type, int dimension, byte[] data, int[] offsets, int rows) {
  static final String COL = "v";

  static CorpusColumn fixed(String label, char section, ArrowType type, byte[] data, int rows) {
    return new CorpusColumn(label, section, type, 0, data, null, rows);
  }

  static CorpusColumn strings(String label, char section, byte[] data, int[] offsets) {
    return new CorpusColumn(label, section, ArrowType.Utf8.INSTANCE, 0, data, offsets, offsets.length - 1);
  }

  static CorpusColumn list(String label, char section, ArrowType item, int dim, byte[] data, int rows) {
    return new CorpusColumn(label, section, item, dim, data, null, rows);
  }

  /** Leaf values: rows, or rows x dimension for fixed-size lists. */
  long values() {
    return dimension == 0 ? rows : (long) rows * dimension;
  }

  /** The bare Arrow value buffers: width x values, or string bytes + 4-byte offsets. */
  long plainBytes() {
    return offsets != null ? data.length + 4L * (rows + 1) : data.length;
  }

  boolean isString() {
    return offsets != null;
  }

  Field field(Map<String, String> metadata) {
    if (dimension > 0) {
      Field item = new Field("item", FieldType.notNullable(type), null);
      return new Field(COL, new FieldType(false, new ArrowType.FixedSizeList(dimension), null, metadata), List.of(item));
    }
    return new Field(COL, new FieldType(false, type, null, metadata), null);
  }

  /** A new batch of the whole column; {@code metadata} goes on the (outer) field. */
  VectorSchemaRoot root(Map<String, String> metadata, BufferAllocator alloc) {
    Field f = field(metadata);
    FieldVector v = f.createVector(alloc);
    try {
      if (v instanceof FixedSizeListVector fsl) {
        fsl.setInitialCapacity(rows);
        fsl.allocateNew();
        BaseFixedWidthVector child = (BaseFixedWidthVector) fsl.getDataVector();
        fill(child, (int) values());
        allValid(fsl.getValidityBuffer(), rows);
        fsl.setValueCount(rows);
      } else if (v instanceof VarCharVector s) {
        s.allocateNew(Math.max(1, data.length), rows);
        ArrowBuf off = s.getOffsetBuffer();
        for (int i = 0; i <= rows; i++) {
          off.setInt(4L * i, offsets[i]);
        }
        s.getDataBuffer().setBytes(0, data);
        allValid(s.getValidityBuffer(), rows);
        s.setLastSet(rows - 1);
        s.setValueCount(rows);
      } else {
        fill((BaseFixedWidthVector) v, rows);
      }
    } catch (RuntimeException e) {
      v.close();
      throw e;
    }
    VectorSchemaRoot root = new VectorSchemaRoot(new Schema(List.of(f)), List.of(v), rows);
    root.setRowCount(rows);
    return root;
  }

  private void fill(BaseFixedWidthVector v, int n) {
    v.allocateNew(n);
    v.getDataBuffer().setBytes(0, data);
    allValid(v.getValidityBuffer(), n);
    v.setValueCount(n);
  }

  private static void allValid(ArrowBuf validity, int n) {
    validity.setOne(0, (n + 7) / 8);
  }

  /** CRC-32C of the source values in the canonical form {@link #digest(FieldVector, CRC32C)} reads back. */
  long digest() {
    CRC32C crc = new CRC32C();
    if (offsets == null) {
      crc.update(data);
    } else {
      byte[] len = new byte[4];
      for (int i = 0; i < rows; i++) {
        int n = offsets[i + 1] - offsets[i];
        ByteBuffer.wrap(len).order(ByteOrder.LITTLE_ENDIAN).putInt(0, n);
        crc.update(len);
        crc.update(data, offsets[i], n);
      }
    }
    return crc.getValue();
  }

  /** Folds one decoded batch (any reader, utf8 or large_utf8) into {@code crc}, in row order. */
  static void digest(FieldVector v, CRC32C crc) {
    int n = v.getValueCount();
    if (v instanceof FixedSizeListVector fsl) {
      digest(fsl.getDataVector(), crc);
      return;
    }
    if (v instanceof BaseFixedWidthVector f) {
      int width = f.getTypeWidth();
      crc.update(f.getDataBuffer().nioBuffer(0, n * width));
      return;
    }
    byte[] len = new byte[4];
    for (int i = 0; i < n; i++) {
      long s;
      long e;
      ArrowBuf d;
      if (v instanceof BaseVariableWidthVector b) {
        s = b.getOffsetBuffer().getInt(4L * i);
        e = b.getOffsetBuffer().getInt(4L * i + 4);
        d = b.getDataBuffer();
      } else {
        BaseLargeVariableWidthVector b = (BaseLargeVariableWidthVector) v;
        s = b.getOffsetBuffer().getLong(8L * i);
        e = b.getOffsetBuffer().getLong(8L * i + 8);
        d = b.getDataBuffer();
      }
      ByteBuffer.wrap(len).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) (e - s));
      crc.update(len);
      if (e > s) {
        crc.update(d.nioBuffer(s, (int) (e - s)));
      }
    }
  }
}
