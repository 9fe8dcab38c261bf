package io.lancecodec.spark;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark column vectors over the Arrow vectors a read returns, without copying values: Spark's
 * {@link ArrowColumnVector} where it knows the vector, and small views for what it does not
 * (fixed-size lists, as the vectors of embedding columns are stored, and large lists), nested
 * in structs and lists as deep as they come.
 */
final class ColumnVectors {
  private ColumnVectors() {}

  static ColumnVector of(ValueVector v, DataType type) {
    if (sparkReads(v)) {
      return new ArrowColumnVector(v);
    }
    if (v instanceof FixedSizeListVector fsl) {
      return new FixedSizeListColumn(fsl, (ArrayType) type);
    }
    if (v instanceof ListVector || v instanceof LargeListVector) {
      return new OffsetListColumn((FieldVector) v, (ArrayType) type);
    }
    if (v instanceof StructVector s) {
      return new StructColumn(s, (StructType) type);
    }
    throw new UnsupportedOperationException("no Spark column vector for " + v.getClass().getSimpleName());
  }

  /** Whether Spark's ArrowColumnVector takes the vector and all it holds. */
  private static boolean sparkReads(ValueVector v) {
    if (v instanceof FixedSizeListVector || v instanceof LargeListVector) {
      return false;
    }
    if (v instanceof MapVector) {
      return true; // maps of unsupported children fail at schema conversion already
    }
    if (v instanceof ListVector l) {
      return sparkReads(l.getDataVector());
    }
    if (v instanceof StructVector s) {
      for (ValueVector c : s.getChildrenFromFields()) {
        if (!sparkReads(c)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Base of the views: only the nested accessors apply, scalar ones never get called for these types. */
  private abstract static class Nested extends ColumnVector {
    final ValueVector vector;

    Nested(ValueVector vector, DataType type) {
      super(type);
      this.vector = vector;
    }

    @Override
    public void close() {
      // the batch's VectorSchemaRoot owns and releases the buffers
    }

    @Override
    public boolean hasNull() {
      return vector.getNullCount() > 0;
    }

    @Override
    public int numNulls() {
      return vector.getNullCount();
    }

    @Override
    public boolean isNullAt(int rowId) {
      return vector.isNull(rowId);
    }

    private UnsupportedOperationException scalar() {
      return new UnsupportedOperationException(getClass().getSimpleName() + " holds " + dataType().simpleString());
    }

    @Override
    public boolean getBoolean(int rowId) {
      throw scalar();
    }

    @Override
    public byte getByte(int rowId) {
      throw scalar();
    }

    @Override
    public short getShort(int rowId) {
      throw scalar();
    }

    @Override
    public int getInt(int rowId) {
      throw scalar();
    }

    @Override
    public long getLong(int rowId) {
      throw scalar();
    }

    @Override
    public float getFloat(int rowId) {
      throw scalar();
    }

    @Override
    public double getDouble(int rowId) {
      throw scalar();
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
      throw scalar();
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
      throw scalar();
    }

    @Override
    public byte[] getBinary(int rowId) {
      throw scalar();
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
      throw scalar();
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      throw scalar();
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      throw scalar();
    }
  }

  /** Row i is items [i*n, (i+1)*n) of the child. */
  static final class FixedSizeListColumn extends Nested {
    private final int size;
    private final ColumnVector items;

    FixedSizeListColumn(FixedSizeListVector v, ArrayType type) {
      super(v, type);
      this.size = v.getListSize();
      this.items = of(v.getDataVector(), type.elementType());
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      return new ColumnarArray(items, rowId * size, size);
    }
  }

  /** Lists with 32- or 64-bit offsets (a batch never holds more than 2^31 items either way). */
  static final class OffsetListColumn extends Nested {
    private final boolean large;
    private final ColumnVector items;

    OffsetListColumn(FieldVector v, ArrayType type) {
      super(v, type);
      this.large = v instanceof LargeListVector;
      ValueVector data = large ? ((LargeListVector) v).getDataVector() : ((ListVector) v).getDataVector();
      this.items = of(data, type.elementType());
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      org.apache.arrow.memory.ArrowBuf offsets = ((FieldVector) vector).getOffsetBuffer();
      int start;
      int end;
      if (large) {
        start = (int) offsets.getLong((long) rowId * 8);
        end = (int) offsets.getLong((long) rowId * 8 + 8);
      } else {
        start = offsets.getInt((long) rowId * 4);
        end = offsets.getInt((long) rowId * 4 + 4);
      }
      return new ColumnarArray(items, start, end - start);
    }
  }

  static final class StructColumn extends Nested {
    private final ColumnVector[] children;

    StructColumn(StructVector v, StructType type) {
      super(v, type);
      children = new ColumnVector[type.fields().length];
      for (int i = 0; i < children.length; i++) {
        children[i] = of(v.getChildByOrdinal(i), type.fields()[i].dataType());
      }
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      return children[ordinal];
    }
  }
}
