package io.lancecodec.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionMapWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The canonical JSON mapping of every flat Arrow type, against golden strings. */
class JsonTest {
  private BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    allocator.close();
  }

  /** Fills {@code n} values with {@code set} (index -> value), then returns each value's JSON. */
  private <V extends FieldVector> List<String> json(V v, int n, BiConsumer<V, Integer> set) {
    try (v) {
      v.allocateNew();
      for (int i = 0; i < n; i++) {
        set.accept(v, i);
      }
      v.setValueCount(n);
      String[] out = new String[n];
      for (int i = 0; i < n; i++) {
        out[i] = Json.value(v, i);
      }
      return List.of(out);
    }
  }

  @Test
  void bool() {
    assertEquals(List.of("true", "false", "null"), json(new BitVector("b", allocator), 3, (v, i) -> {
      if (i < 2) {
        v.set(i, i == 0 ? 1 : 0);
      } else {
        v.setNull(i);
      }
    }));
  }

  @Test
  void signedIntegers() {
    byte[] b = {Byte.MIN_VALUE, -1, 0, Byte.MAX_VALUE};
    assertEquals(List.of("-128", "-1", "0", "127"), json(new TinyIntVector("x", allocator), 4, (v, i) -> v.set(i, b[i])));
    short[] s = {Short.MIN_VALUE, 0, Short.MAX_VALUE};
    assertEquals(List.of("-32768", "0", "32767"), json(new SmallIntVector("x", allocator), 3, (v, i) -> v.set(i, s[i])));
    int[] n = {Integer.MIN_VALUE, 0, Integer.MAX_VALUE};
    assertEquals(List.of("-2147483648", "0", "2147483647"), json(new IntVector("x", allocator), 3, (v, i) -> v.set(i, n[i])));
    long[] l = {Long.MIN_VALUE, 0, Long.MAX_VALUE};
    assertEquals(List.of("-9223372036854775808", "0", "9223372036854775807"),
        json(new BigIntVector("x", allocator), 3, (v, i) -> v.set(i, l[i])));
  }

  @Test
  void unsignedIntegersPrintUnsigned() {
    assertEquals(List.of("0", "128", "255"), json(new UInt1Vector("x", allocator), 3, (v, i) -> v.set(i, new int[] {0, 128, 255}[i])));
    assertEquals(List.of("0", "32768", "65535"), json(new UInt2Vector("x", allocator), 3, (v, i) -> v.set(i, new int[] {0, 32768, 65535}[i])));
    assertEquals(List.of("0", "2147483648", "4294967295"),
        json(new UInt4Vector("x", allocator), 3, (v, i) -> v.set(i, new int[] {0, Integer.MIN_VALUE, -1}[i])));
    assertEquals(List.of("0", "9223372036854775808", "18446744073709551615"),
        json(new UInt8Vector("x", allocator), 3, (v, i) -> v.set(i, new long[] {0, Long.MIN_VALUE, -1L}[i])));
  }

  @Test
  void floats() {
    float[] f = {0.1f, -0f, 1e10f, 3.4028235e38f, 1.4e-45f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
    assertEquals(List.of("0.1", "-0.0", "1.0E10", "3.4028235E38", "1.4E-45", "\"NaN\"", "\"Infinity\"", "\"-Infinity\""),
        json(new Float4Vector("x", allocator), f.length, (v, i) -> v.set(i, f[i])));
    double[] d = {0.1, -0.0, 1e100, 12.8, Double.MIN_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    assertEquals(List.of("0.1", "-0.0", "1.0E100", "12.8", "4.9E-324", "\"NaN\"", "\"Infinity\"", "\"-Infinity\""),
        json(new Float8Vector("x", allocator), d.length, (v, i) -> v.set(i, d[i])));
  }

  @Test
  void float16IsWidenedToFloat32() {
    float[] f = {1.5f, 0.1f, 65504f, -2f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
    // 0.1 is not representable in binary16: it widens to the nearest half, 0.099975586.
    assertEquals(List.of("1.5", "0.099975586", "65504.0", "-2.0", "\"NaN\"", "\"Infinity\"", "\"-Infinity\""),
        json(new Float2Vector("x", allocator), f.length, (v, i) -> v.set(i, Float16.toFloat16(f[i]))));
  }

  @Test
  void stringsAreEscaped() {
    String[] s = {"plain", "q\"b\\s/", "nl\ncr\rtab\tbs\bff\f", "\u0000\u0001\u001f\u007f\u0085", "caf\u00e9 \u4e2d",
        "smile \uD83D\uDE00!", "\u2028\u2029", ""};
    List<String> want = List.of("\"plain\"", "\"q\\\"b\\\\s/\"", "\"nl\\ncr\\rtab\\tbs\\bff\\f\"",
        "\"\\u0000\\u0001\\u001f\\u007f\\u0085\"", "\"caf\u00e9 \u4e2d\"", "\"smile \uD83D\uDE00!\"", "\"\\u2028\\u2029\"", "\"\"");
    assertEquals(want, json(new VarCharVector("x", allocator), s.length, (v, i) -> v.setSafe(i, s[i].getBytes(StandardCharsets.UTF_8))));
    assertEquals(want, json(new LargeVarCharVector("x", allocator), s.length, (v, i) -> v.setSafe(i, s[i].getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void loneSurrogateIsEscaped() {
    StringBuilder sb = new StringBuilder();
    Json.string("a\uD800b\uDC00", sb);
    assertEquals("\"a\\ud800b\\udc00\"", sb.toString());
  }

  @Test
  void binariesAreBase64WithPadding() {
    byte[][] b = {{}, {(byte) 0xff}, {1, 2}, {1, 2, 3}, "hello".getBytes(StandardCharsets.US_ASCII)};
    List<String> want = List.of("\"\"", "\"/w==\"", "\"AQI=\"", "\"AQID\"", "\"aGVsbG8=\"");
    assertEquals(want, json(new VarBinaryVector("x", allocator), b.length, (v, i) -> v.setSafe(i, b[i])));
    assertEquals(want, json(new LargeVarBinaryVector("x", allocator), b.length, (v, i) -> v.setSafe(i, b[i])));
    assertEquals(List.of("\"AQID\"", "\"/v8A\"", "null"), json(new FixedSizeBinaryVector("x", allocator, 3), 3, (v, i) -> {
      if (i == 2) {
        v.setNull(i);
      } else {
        v.set(i, i == 0 ? new byte[] {1, 2, 3} : new byte[] {(byte) 0xfe, (byte) 0xff, 0});
      }
    }));
  }

  @Test
  void datesAndTimesAreIntegersInTheirUnit() {
    assertEquals(List.of("15340", "-1"), json(new DateDayVector("x", allocator), 2, (v, i) -> v.set(i, new int[] {15340, -1}[i])));
    assertEquals(List.of("1325376000000", "-86400000"),
        json(new DateMilliVector("x", allocator), 2, (v, i) -> v.set(i, new long[] {1325376000000L, -86400000L}[i])));
    assertEquals(List.of("86399"), json(new TimeSecVector("x", allocator), 1, (v, i) -> v.set(i, 86399)));
    assertEquals(List.of("86399999"), json(new TimeMilliVector("x", allocator), 1, (v, i) -> v.set(i, 86399999)));
    assertEquals(List.of("86399999999"), json(new TimeMicroVector("x", allocator), 1, (v, i) -> v.set(i, 86399999999L)));
    assertEquals(List.of("86399999999999"), json(new TimeNanoVector("x", allocator), 1, (v, i) -> v.set(i, 86399999999999L)));
    assertEquals(List.of("1700000000", "-1"), json(new TimeStampSecVector("x", allocator), 2, (v, i) -> v.set(i, new long[] {1700000000L, -1}[i])));
    assertEquals(List.of("1700000000123"), json(new TimeStampMilliVector("x", allocator), 1, (v, i) -> v.set(i, 1700000000123L)));
    assertEquals(List.of("1700000000123456"),
        json(new TimeStampMicroTZVector("x", allocator, "America/New_York"), 1, (v, i) -> v.set(i, 1700000000123456L)));
    assertEquals(List.of("1700000000123456789"), json(new TimeStampNanoVector("x", allocator), 1, (v, i) -> v.set(i, 1700000000123456789L)));
    assertEquals(List.of("-5000"), json(new DurationVector("x",
        FieldType.nullable(new ArrowType.Duration(TimeUnit.MILLISECOND)), allocator), 1, (v, i) -> v.set(i, -5000L)));
  }

  @Test
  void decimalsArePlainStrings() {
    BigDecimal[] d = {new BigDecimal("123.45"), new BigDecimal("-0.01"), new BigDecimal("1E+3").setScale(2), new BigDecimal("0.00")};
    assertEquals(List.of("\"123.45\"", "\"-0.01\"", "\"1000.00\"", "\"0.00\""),
        json(new DecimalVector("x", allocator, 10, 2), d.length, (v, i) -> v.set(i, d[i])));
    BigDecimal big = new BigDecimal("-123456789012345678901234567890123456789012345.678");
    assertEquals(List.of("\"-123456789012345678901234567890123456789012345.678\""),
        json(new Decimal256Vector("x", allocator, 76, 3), 1, (v, i) -> v.set(i, big)));
  }

  @Test
  void nullsOfEveryKind() {
    assertEquals(List.of("null"), json(new Float8Vector("x", allocator), 1, (v, i) -> v.setNull(i)));
    assertEquals(List.of("null"), json(new VarCharVector("x", allocator), 1, (v, i) -> v.setNull(i)));
    assertEquals(List.of("null"), json(new DateDayVector("x", allocator), 1, (v, i) -> v.setNull(i)));
    assertEquals(List.of("null"), json(new UInt8Vector("x", allocator), 1, (v, i) -> v.setNull(i)));
  }

  @Test
  void nestedTypes() {
    try (ListVector list = ListVector.empty("l", allocator)) {
      list.addOrGetVector(FieldType.nullable(new ArrowType.Int(64, true)));
      BigIntVector child = (BigIntVector) list.getDataVector();
      list.allocateNew();
      int start = list.startNewValue(0);
      child.setSafe(start, 1);
      child.setNull(start + 1);
      child.setSafe(start + 2, 3);
      list.endValue(0, 3);
      list.setNull(1);
      list.startNewValue(2);
      list.endValue(2, 0);
      child.setValueCount(3);
      list.setValueCount(3);
      assertEquals("[1,null,3]", Json.value(list, 0));
      assertEquals("null", Json.value(list, 1));
      assertEquals("[]", Json.value(list, 2));
    }
    try (FixedSizeListVector fsl = FixedSizeListVector.empty("f", 2, allocator)) {
      fsl.addOrGetVector(FieldType.nullable(new ArrowType.Int(32, false)));
      UInt4Vector child = (UInt4Vector) fsl.getDataVector();
      fsl.allocateNew();
      fsl.setNotNull(0);
      child.setSafe(0, 7);
      child.setSafe(1, -1);
      child.setValueCount(2);
      fsl.setValueCount(1);
      assertEquals("[7,4294967295]", Json.value(fsl, 0));
    }
    try (StructVector s = StructVector.empty("s", allocator)) {
      IntVector a = s.addOrGet("a", FieldType.nullable(new ArrowType.Int(32, true)), IntVector.class);
      VarCharVector b = s.addOrGet("b", FieldType.nullable(new ArrowType.Utf8()), VarCharVector.class);
      s.allocateNew();
      s.setIndexDefined(0);
      a.setSafe(0, 5);
      b.setNull(0);
      s.setNull(1);
      a.setValueCount(2);
      b.setValueCount(2);
      s.setValueCount(2);
      assertEquals("{\"a\":5,\"b\":null}", Json.value(s, 0));
      assertEquals("null", Json.value(s, 1));
    }
    try (MapVector m = MapVector.empty("m", allocator, false)) {
      UnionMapWriter w = m.getWriter();
      w.setPosition(0);
      w.startMap();
      w.startEntry();
      w.key().varChar().writeVarChar("k1");
      w.value().bigInt().writeBigInt(10L);
      w.endEntry();
      w.startEntry();
      w.key().varChar().writeVarChar("k2");
      w.value().bigInt().writeNull();
      w.endEntry();
      w.endMap();
      w.setValueCount(1);
      m.setValueCount(1);
      assertEquals("[{\"key\":\"k1\",\"value\":10},{\"key\":\"k2\",\"value\":null}]", Json.value(m, 0));
    }
  }

  @Test
  void rowsHaveKeysInSchemaOrder() {
    try (IntVector a = new IntVector("z\"q", allocator);
        VarCharVector b = new VarCharVector("a", allocator)) {
      a.allocateNew();
      b.allocateNew();
      a.set(0, 1);
      b.setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
      a.setValueCount(1);
      b.setValueCount(1);
      try (VectorSchemaRoot root = VectorSchemaRoot.of(a, b)) {
        assertEquals("{\"z\\\"q\":1,\"a\":\"x\"}", Json.row(root, 0));
      }
    }
  }
}
