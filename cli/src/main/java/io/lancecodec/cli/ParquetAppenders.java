package io.lancecodec.cli;

import io.lancecodec.spi.LanceCodecException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * parquet-java's record assembly, writing straight into Arrow vectors. Every converter appends
 * to its vector; a group learns which optional children a record left out by comparing their
 * counts before and after it, and appends nulls for those, so every vector of a struct stays
 * as long as the struct. The shapes follow {@link ParquetTypes} exactly.
 */
final class ParquetAppenders {
  private ParquetAppenders() {}

  /** One Arrow vector being filled, a value (or a null) at a time. */
  interface Appender {
    Converter converter();

    /** Values appended since the last {@link #reset}. */
    int count();

    void appendNull();

    /** Forgets the batch's values (the vectors themselves are reset by their owner). */
    void reset();

    /** Called by the enclosing group when a record (or group value) starts. */
    default void open() {}

    /** Called by the enclosing group when it ends, before it looks for a missing value. */
    default void close() {}
  }

  /** Variable-width bytes appended in the current batch, so a batch can end before offsets overflow. */
  static final class Budget {
    long bytes;
  }

  /** The record's converter: one appender per top-level field of the file. */
  static final class Root extends Group {
    Root(Appender[] kids) {
      super(kids);
    }
  }

  static Root root(MessageType message, VectorSchemaRoot root, Budget budget) {
    Appender[] kids = new Appender[message.getFieldCount()];
    for (int i = 0; i < kids.length; i++) {
      kids[i] = field(message.getType(i), root.getVector(i), budget);
    }
    return new Root(kids);
  }

  private static Appender field(Type t, FieldVector v, Budget budget) {
    if (t.isRepetition(Type.Repetition.REPEATED)) {
      ListVector list = (ListVector) v;
      return new BareRepeated(list, single(t, list.getDataVector(), budget));
    }
    return single(t, v, budget);
  }

  private static Appender single(Type t, FieldVector v, Budget budget) {
    if (t.isPrimitive()) {
      return primitive(t.asPrimitiveType(), v, budget);
    }
    GroupType g = t.asGroupType();
    if (g.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      ListVector list = (ListVector) v;
      ParquetTypes.Element e = ParquetTypes.listElement(g, g.getName(), "");
      if (e.isRepeatedField()) {
        Appender element = single(e.type(), list.getDataVector(), budget);
        return new ListAppender(list, element, element.converter());
      }
      Appender element = field(e.type(), list.getDataVector(), budget);
      return new ListAppender(list, element, new Group(new Appender[] {element}));
    }
    if (ParquetTypes.isMap(g)) {
      ListVector map = (ListVector) v;
      StructVector entries = (StructVector) map.getDataVector();
      GroupType kv = ParquetTypes.mapEntries(g, g.getName(), "");
      Appender entry = new Struct(entries, new Appender[] {
          single(kv.getType(0), (FieldVector) entries.getChildByOrdinal(0), budget),
          field(kv.getType(1), (FieldVector) entries.getChildByOrdinal(1), budget)});
      return new ListAppender(map, entry, entry.converter());
    }
    StructVector struct = (StructVector) v;
    Appender[] kids = new Appender[g.getFieldCount()];
    for (int i = 0; i < kids.length; i++) {
      kids[i] = field(g.getType(i), (FieldVector) struct.getChildByOrdinal(i), budget);
    }
    return new Struct(struct, kids);
  }

  // ---------------------------------------------------------------- groups

  /** A group: the record, a struct, or the repeated group between a list and its element. */
  static class Group extends GroupConverter implements Appender {
    final Appender[] kids;
    private final int[] marks;
    int n;

    Group(Appender[] kids) {
      this.kids = kids;
      this.marks = new int[kids.length];
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return kids[fieldIndex].converter();
    }

    @Override
    public void start() {
      for (int i = 0; i < kids.length; i++) {
        kids[i].open();
        marks[i] = kids[i].count();
      }
    }

    @Override
    public void end() {
      for (int i = 0; i < kids.length; i++) {
        kids[i].close();
        if (kids[i].count() == marks[i]) {
          kids[i].appendNull();
        }
      }
      defined(n);
      n++;
    }

    void defined(int index) {}

    void undefined(int index) {}

    @Override
    public Converter converter() {
      return this;
    }

    @Override
    public int count() {
      return n;
    }

    @Override
    public void appendNull() {
      for (Appender k : kids) {
        k.appendNull();
      }
      undefined(n);
      n++;
    }

    @Override
    public void reset() {
      n = 0;
      for (Appender k : kids) {
        k.reset();
      }
    }
  }

  static final class Struct extends Group {
    private final StructVector v;

    Struct(StructVector v, Appender[] kids) {
      super(kids);
      this.v = v;
    }

    @Override
    void defined(int index) {
      v.setIndexDefined(index);
    }

    @Override
    void undefined(int index) {
      v.setNull(index);
    }
  }

  /**
   * A LIST or MAP group. Its elements are whatever its repeated child appends between this
   * group's start and end; a present group with no repeated child is an empty list.
   */
  static final class ListAppender extends GroupConverter implements Appender {
    private final ListVector v;
    private final Appender element;
    private final Converter repeated;
    private int start;
    private int n;

    ListAppender(ListVector v, Appender element, Converter repeated) {
      this.v = v;
      this.element = element;
      this.repeated = repeated;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return repeated;
    }

    @Override
    public void start() {
      start = element.count();
    }

    @Override
    public void end() {
      v.startNewValue(n);
      v.endValue(n, element.count() - start);
      n++;
    }

    @Override
    public Converter converter() {
      return this;
    }

    @Override
    public int count() {
      return n;
    }

    @Override
    public void appendNull() {
      v.setNull(n);
      n++;
    }

    @Override
    public void reset() {
      n = 0;
      element.reset();
    }
  }

  /**
   * A repeated field outside a LIST group. It has no group of its own to mark where a record's
   * values begin and end, so the enclosing group tells it ({@link #open}, {@link #close}).
   */
  static final class BareRepeated implements Appender {
    private final ListVector v;
    private final Appender element;
    private int start;
    private int n;

    BareRepeated(ListVector v, Appender element) {
      this.v = v;
      this.element = element;
    }

    @Override
    public Converter converter() {
      return element.converter();
    }

    @Override
    public void open() {
      start = element.count();
    }

    @Override
    public void close() {
      v.startNewValue(n);
      v.endValue(n, element.count() - start);
      n++;
    }

    @Override
    public int count() {
      return n;
    }

    /** Under a missing parent: the field is a list that is never null, so an empty one. */
    @Override
    public void appendNull() {
      v.startNewValue(n);
      v.endValue(n, 0);
      n++;
    }

    @Override
    public void reset() {
      n = 0;
      element.reset();
    }
  }

  // ---------------------------------------------------------------- values

  abstract static class Value extends PrimitiveConverter implements Appender {
    final FieldVector v;
    int n;

    Value(FieldVector v) {
      this.v = v;
    }

    @Override
    public Converter converter() {
      return this;
    }

    @Override
    public int count() {
      return n;
    }

    @Override
    public void appendNull() {
      v.setNull(n++);
    }

    @Override
    public void reset() {
      n = 0;
    }
  }

  interface IntSetter {
    void set(int index, int value);
  }

  interface LongSetter {
    void set(int index, long value);
  }

  interface BinarySetter {
    void set(int index, Binary value);
  }

  private static Appender primitive(PrimitiveType p, FieldVector v, Budget budget) {
    switch (p.getPrimitiveTypeName()) {
      case BOOLEAN -> {
        BitVector b = (BitVector) v;
        return new Value(v) {
          @Override
          public void addBoolean(boolean value) {
            b.setSafe(n++, value ? 1 : 0);
          }
        };
      }
      case INT32 -> {
        IntSetter s = ints(v);
        return new Value(v) {
          @Override
          public void addInt(int value) {
            s.set(n++, value);
          }
        };
      }
      case INT64 -> {
        LongSetter s = longs(v);
        return new Value(v) {
          @Override
          public void addLong(long value) {
            s.set(n++, value);
          }
        };
      }
      case FLOAT -> {
        Float4Vector f = (Float4Vector) v;
        return new Value(v) {
          @Override
          public void addFloat(float value) {
            f.setSafe(n++, value);
          }
        };
      }
      case DOUBLE -> {
        Float8Vector f = (Float8Vector) v;
        return new Value(v) {
          @Override
          public void addDouble(double value) {
            f.setSafe(n++, value);
          }
        };
      }
      default -> {
        BinarySetter s = binaries(p, v, budget);
        return new Value(v) {
          @Override
          public void addBinary(Binary value) {
            s.set(n++, value);
          }
        };
      }
    }
  }

  private static IntSetter ints(FieldVector v) {
    if (v instanceof IntVector t) {
      return t::setSafe;
    } else if (v instanceof TinyIntVector t) {
      return (i, x) -> t.setSafe(i, (byte) x);
    } else if (v instanceof SmallIntVector t) {
      return (i, x) -> t.setSafe(i, (short) x);
    } else if (v instanceof UInt1Vector t) {
      return (i, x) -> t.setSafe(i, (byte) x);
    } else if (v instanceof UInt2Vector t) {
      return (i, x) -> t.setSafe(i, (char) x);
    } else if (v instanceof UInt4Vector t) {
      return t::setSafe;
    } else if (v instanceof DateDayVector t) {
      return t::setSafe;
    } else if (v instanceof TimeMilliVector t) {
      return t::setSafe;
    } else if (v instanceof DecimalVector t) {
      return (i, x) -> t.setSafe(i, x);
    } else if (v instanceof Decimal256Vector t) {
      return (i, x) -> t.setSafe(i, x);
    }
    throw LanceCodecException.internal("no int32 reader for " + v.getField());
  }

  private static LongSetter longs(FieldVector v) {
    if (v instanceof BigIntVector t) {
      return t::setSafe;
    } else if (v instanceof UInt8Vector t) {
      return t::setSafe;
    } else if (v instanceof TimeStampVector t) {
      return t::setSafe;
    } else if (v instanceof TimeMicroVector t) {
      return t::setSafe;
    } else if (v instanceof TimeNanoVector t) {
      return t::setSafe;
    } else if (v instanceof DecimalVector t) {
      return t::setSafe;
    } else if (v instanceof Decimal256Vector t) {
      return t::setSafe;
    }
    throw LanceCodecException.internal("no int64 reader for " + v.getField());
  }

  private static BinarySetter binaries(PrimitiveType p, FieldVector v, Budget budget) {
    String column = p.getName();
    if (v instanceof BaseVariableWidthVector t) {
      return (i, x) -> {
        ByteBuffer b = x.toByteBuffer();
        t.setSafe(i, b, b.position(), b.remaining());
        budget.bytes += b.remaining();
      };
    } else if (v instanceof FixedSizeBinaryVector t) {
      int width = t.getByteWidth();
      return (i, x) -> t.setSafe(i, exactly(x, width, column));
    } else if (v instanceof Float2Vector t) {
      return (i, x) -> {
        byte[] b = exactly(x, 2, column);
        t.setSafe(i, (short) ((b[0] & 0xFF) | (b[1] << 8)));
      };
    } else if (v instanceof DecimalVector t) {
      return (i, x) -> {
        byte[] b = x.getBytes();
        if (b.length <= 16) {
          t.setBigEndianSafe(i, b);
        } else {
          t.setSafe(i, new BigDecimal(new BigInteger(b), t.getScale()));
        }
      };
    } else if (v instanceof Decimal256Vector t) {
      return (i, x) -> {
        byte[] b = x.getBytes();
        if (b.length <= 32) {
          t.setBigEndianSafe(i, b);
        } else {
          t.setSafe(i, new BigDecimal(new BigInteger(b), t.getScale()));
        }
      };
    } else if (v instanceof TimeStampVector t && p.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT96) {
      return (i, x) -> t.setSafe(i, int96Nanos(exactly(x, 12, column)));
    }
    throw LanceCodecException.internal("no binary reader for " + v.getField());
  }

  /** Julian day number of 1970-01-01. */
  private static final long UNIX_EPOCH_JULIAN_DAY = 2_440_588;

  /** INT96: nanoseconds within the day (8 bytes LE), then the Julian day (4 bytes LE). */
  static long int96Nanos(byte[] b) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    long nanosOfDay = bb.getLong(0);
    long julianDay = bb.getInt(8) & 0xFFFFFFFFL;
    return (julianDay - UNIX_EPOCH_JULIAN_DAY) * 86_400_000_000_000L + nanosOfDay;
  }

  private static byte[] exactly(Binary x, int width, String column) {
    if (x.length() != width) {
      throw LanceCodecException.corrupt("column '" + column + "': a value of " + x.length()
          + " bytes in a fixed_len_byte_array(" + width + ")");
    }
    return x.getBytes();
  }
}
