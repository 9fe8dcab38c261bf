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
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark column vectors over the Arrow vectors a read returns, without copying values: Spark's
 * {@link ArrowColumnVector} where it knows the vector, and small views for what it does not
 * (fixed-size lists, as the vectors of embedding columns are stored, and large lists), nested
 * in structs and lists as deep as they come.
 */
final class ColumnVectors {
  private ColumnVectors() {}

  /**
   * Flat vectors read from their addresses ({@link FlatColumn}); the system property
   * {@code lancecodec.spark.arrowColumnVector=true} hands them to Spark's ArrowColumnVector
   * instead, for comparing the two.
   */
  private static final boolean DIRECT = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN
      && !Boolean.getBoolean("lancecodec.spark.arrowColumnVector");

  static ColumnVector of(ValueVector v, DataType type) {
    if (DIRECT && FlatColumn.takes(v)) {
      return new FlatColumn((FieldVector) v, type);
    }
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

  /**
   * A flat fixed-width or variable-width vector read straight from its buffers' addresses, as
   * Spark's own off-heap column vectors read theirs: Spark's ArrowColumnVector goes through
   * Arrow's checked accessors (a reference-count and bounds check per value), which showed in
   * profiles of string scans. Arrow's buffers are little-endian, so this serves little-endian
   * machines only; the batch's root keeps the buffers alive while Spark reads it.
   */
  static final class FlatColumn extends ColumnVector {
    private final int nullCount;
    private final long validity;
    private final long data;
    private final long offsets;

    static boolean takes(ValueVector v) {
      return v instanceof org.apache.arrow.vector.IntVector
          || v instanceof org.apache.arrow.vector.BigIntVector
          || v instanceof org.apache.arrow.vector.SmallIntVector
          || v instanceof org.apache.arrow.vector.TinyIntVector
          || v instanceof org.apache.arrow.vector.Float4Vector
          || v instanceof org.apache.arrow.vector.Float8Vector
          || v instanceof org.apache.arrow.vector.DateDayVector
          || v instanceof org.apache.arrow.vector.TimeStampMicroVector
          || v instanceof org.apache.arrow.vector.TimeStampMicroTZVector
          || v instanceof org.apache.arrow.vector.VarCharVector
          || v instanceof org.apache.arrow.vector.VarBinaryVector;
    }

    FlatColumn(FieldVector v, DataType type) {
      super(type);
      this.nullCount = v.getNullCount();
      this.validity = v.getValidityBuffer().memoryAddress();
      this.data = v.getDataBuffer().memoryAddress();
      this.offsets = v instanceof org.apache.arrow.vector.BaseVariableWidthVector ? v.getOffsetBuffer().memoryAddress() : 0;
    }

    @Override
    public void close() {
      // the batch's VectorSchemaRoot owns and releases the buffers
    }

    @Override
    public boolean hasNull() {
      return nullCount > 0;
    }

    @Override
    public int numNulls() {
      return nullCount;
    }

    @Override
    public boolean isNullAt(int rowId) {
      return nullCount != 0 && (Platform.getByte(null, validity + (rowId >>> 3)) & (1 << (rowId & 7))) == 0;
    }

    @Override
    public boolean getBoolean(int rowId) {
      throw new UnsupportedOperationException(dataType().simpleString());
    }

    @Override
    public byte getByte(int rowId) {
      return Platform.getByte(null, data + rowId);
    }

    @Override
    public short getShort(int rowId) {
      return Platform.getShort(null, data + 2L * rowId);
    }

    @Override
    public int getInt(int rowId) {
      return Platform.getInt(null, data + 4L * rowId);
    }

    @Override
    public long getLong(int rowId) {
      return Platform.getLong(null, data + 8L * rowId);
    }

    @Override
    public float getFloat(int rowId) {
      return Platform.getFloat(null, data + 4L * rowId);
    }

    @Override
    public double getDouble(int rowId) {
      return Platform.getDouble(null, data + 8L * rowId);
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
      throw new UnsupportedOperationException(dataType().simpleString());
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      int start = Platform.getInt(null, offsets + 4L * rowId);
      int end = Platform.getInt(null, offsets + 4L * rowId + 4);
      return UTF8String.fromAddress(null, data + start, end - start);
    }

    @Override
    public byte[] getBinary(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      int start = Platform.getInt(null, offsets + 4L * rowId);
      int end = Platform.getInt(null, offsets + 4L * rowId + 4);
      byte[] out = new byte[end - start];
      Platform.copyMemory(null, data + start, out, Platform.BYTE_ARRAY_OFFSET, out.length);
      return out;
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      throw new UnsupportedOperationException(dataType().simpleString());
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
      throw new UnsupportedOperationException(dataType().simpleString());
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      throw new UnsupportedOperationException(dataType().simpleString());
    }
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
