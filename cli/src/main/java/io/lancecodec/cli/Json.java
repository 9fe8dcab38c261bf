package io.lancecodec.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
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
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * The canonical JSON Lines mapping of the CLI contract: one object per row, keys in schema
 * order. Each column gets an {@link Emitter} built once per batch, so the per-value work is a
 * virtual call rather than a chain of type tests.
 */
public final class Json {
  private Json() {}

  /** Appends the JSON form of one value (row {@code index}) of a vector. */
  @FunctionalInterface
  public interface Emitter {
    void emit(int index, StringBuilder out);
  }

  /** Emits rows of a batch as JSON objects. */
  public static final class RowWriter {
    private final String[] keys;
    private final Emitter[] columns;

    public RowWriter(VectorSchemaRoot root) {
      List<FieldVector> vectors = root.getFieldVectors();
      keys = new String[vectors.size()];
      columns = new Emitter[vectors.size()];
      for (int c = 0; c < keys.length; c++) {
        StringBuilder k = new StringBuilder();
        string(vectors.get(c).getName(), k);
        keys[c] = k.append(':').toString();
        columns[c] = emitter(vectors.get(c));
      }
    }

    /** Appends row {@code index} as one JSON object (no newline). */
    public void row(int index, StringBuilder out) {
      out.append('{');
      for (int c = 0; c < keys.length; c++) {
        if (c > 0) {
          out.append(',');
        }
        out.append(keys[c]);
        columns[c].emit(index, out);
      }
      out.append('}');
    }
  }

  /** The JSON text of row {@code index} of a batch. */
  public static String row(VectorSchemaRoot root, int index) {
    StringBuilder sb = new StringBuilder();
    new RowWriter(root).row(index, sb);
    return sb.toString();
  }

  /** The JSON text of one value. */
  public static String value(ValueVector v, int index) {
    StringBuilder sb = new StringBuilder();
    emitter(v).emit(index, sb);
    return sb.toString();
  }

  /** Builds the emitter for a vector, recursing into nested children. */
  public static Emitter emitter(ValueVector v) {
    Emitter e = nonNull(v);
    if (v instanceof NullVector) {
      return e;
    }
    return (i, out) -> {
      if (v.isNull(i)) {
        out.append("null");
      } else {
        e.emit(i, out);
      }
    };
  }

  private static Emitter nonNull(ValueVector v) {
    if (v instanceof NullVector) {
      return (i, out) -> out.append("null");
    }
    if (v instanceof BitVector b) {
      return (i, out) -> out.append(b.get(i) != 0 ? "true" : "false");
    }
    if (v instanceof TinyIntVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof SmallIntVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof IntVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof BigIntVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof UInt1Vector x) {
      return (i, out) -> out.append(x.get(i) & 0xFF);
    }
    if (v instanceof UInt2Vector x) {
      return (i, out) -> out.append((int) x.get(i));
    }
    if (v instanceof UInt4Vector x) {
      return (i, out) -> out.append(Integer.toUnsignedString(x.get(i)));
    }
    if (v instanceof UInt8Vector x) {
      return (i, out) -> out.append(Long.toUnsignedString(x.get(i)));
    }
    if (v instanceof Float2Vector x) {
      return (i, out) -> floatValue(x.getValueAsFloat(i), out);
    }
    if (v instanceof Float4Vector x) {
      return (i, out) -> floatValue(x.get(i), out);
    }
    if (v instanceof Float8Vector x) {
      return (i, out) -> doubleValue(x.get(i), out);
    }
    if (v instanceof VarCharVector x) {
      return (i, out) -> string(new String(x.get(i), StandardCharsets.UTF_8), out);
    }
    if (v instanceof LargeVarCharVector x) {
      return (i, out) -> string(new String(x.get(i), StandardCharsets.UTF_8), out);
    }
    if (v instanceof ViewVarCharVector x) {
      return (i, out) -> string(new String(x.get(i), StandardCharsets.UTF_8), out);
    }
    if (v instanceof VarBinaryVector || v instanceof LargeVarBinaryVector || v instanceof ViewVarBinaryVector
        || v instanceof FixedSizeBinaryVector) {
      return (i, out) -> base64(bytes(v, i), out);
    }
    if (v instanceof DateDayVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof DateMilliVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof TimeSecVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof TimeMilliVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof TimeMicroVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof TimeNanoVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof TimeStampVector x) {
      return (i, out) -> out.append(x.get(i));
    }
    if (v instanceof DurationVector x) {
      return (i, out) -> out.append(DurationVector.get(x.getDataBuffer(), i));
    }
    if (v instanceof DecimalVector x) {
      return (i, out) -> string(x.getObject(i).toPlainString(), out);
    }
    if (v instanceof Decimal256Vector x) {
      return (i, out) -> string(x.getObject(i).toPlainString(), out);
    }
    if (v instanceof MapVector m) {
      StructVector entries = (StructVector) m.getDataVector();
      Emitter key = emitter(entries.getChildByOrdinal(0));
      Emitter value = entries.size() > 1 ? emitter(entries.getChildByOrdinal(1)) : (j, out) -> out.append("null");
      return (i, out) -> {
        out.append('[');
        int end = m.getElementEndIndex(i);
        for (int j = m.getElementStartIndex(i); j < end; j++) {
          if (j > m.getElementStartIndex(i)) {
            out.append(',');
          }
          if (entries.isNull(j)) {
            out.append("null");
            continue;
          }
          out.append("{\"key\":");
          key.emit(j, out);
          out.append(",\"value\":");
          value.emit(j, out);
          out.append('}');
        }
        out.append(']');
      };
    }
    if (v instanceof ListVector l) {
      Emitter child = emitter(l.getDataVector());
      return (i, out) -> array(l.getElementStartIndex(i), l.getElementEndIndex(i), child, out);
    }
    if (v instanceof LargeListVector l) {
      Emitter child = emitter(l.getDataVector());
      return (i, out) -> array(
          Math.toIntExact(l.getElementStartIndex(i)), Math.toIntExact(l.getElementEndIndex(i)), child, out);
    }
    if (v instanceof FixedSizeListVector l) {
      Emitter child = emitter(l.getDataVector());
      int size = l.getListSize();
      return (i, out) -> array(i * size, i * size + size, child, out);
    }
    if (v instanceof StructVector s) {
      List<String> names = new ArrayList<>();
      List<Emitter> children = new ArrayList<>();
      for (FieldVector c : s.getChildrenFromFields()) {
        StringBuilder k = new StringBuilder();
        string(c.getName(), k);
        names.add(k.append(':').toString());
        children.add(emitter(c));
      }
      return (i, out) -> {
        out.append('{');
        for (int c = 0; c < names.size(); c++) {
          if (c > 0) {
            out.append(',');
          }
          out.append(names.get(c));
          children.get(c).emit(i, out);
        }
        out.append('}');
      };
    }
    // Types outside the contract's table (intervals, unions, ...): their Arrow text as a string.
    return (i, out) -> string(String.valueOf(v.getObject(i)), out);
  }

  private static void array(int start, int end, Emitter child, StringBuilder out) {
    out.append('[');
    for (int j = start; j < end; j++) {
      if (j > start) {
        out.append(',');
      }
      child.emit(j, out);
    }
    out.append(']');
  }

  private static byte[] bytes(ValueVector v, int i) {
    if (v instanceof BaseVariableWidthVector x) {
      return x.get(i);
    }
    if (v instanceof BaseLargeVariableWidthVector x) {
      return x.get(i);
    }
    if (v instanceof BaseVariableWidthViewVector x) {
      return x.get(i);
    }
    if (v instanceof FixedSizeBinaryVector x) {
      return x.get(i);
    }
    throw new IllegalStateException("not a binary vector: " + v.getClass().getSimpleName());
  }

  /** A float32 (or widened float16): {@code Float.toString}, non-finite values as strings. */
  public static void floatValue(float f, StringBuilder out) {
    if (Float.isNaN(f)) {
      out.append("\"NaN\"");
    } else if (Float.isInfinite(f)) {
      out.append(f > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    } else {
      out.append(Float.toString(f));
    }
  }

  /** A float64: {@code Double.toString}, non-finite values as strings. */
  public static void doubleValue(double d, StringBuilder out) {
    if (Double.isNaN(d)) {
      out.append("\"NaN\"");
    } else if (Double.isInfinite(d)) {
      out.append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    } else {
      out.append(Double.toString(d));
    }
  }

  public static void base64(byte[] b, StringBuilder out) {
    out.append('"').append(Base64.getEncoder().encodeToString(b)).append('"');
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /**
   * A JSON string literal. Quote, backslash and every control character are escaped (the C0
   * range, DEL, the C1 range and the JS line separators U+2028/U+2029), so a line of output is
   * never split. Supplementary characters (valid surrogate pairs) are kept as is and come out as
   * 4-byte UTF-8; a lone surrogate, which cannot be encoded in UTF-8, is written as a
   * {@code \\uXXXX} escape.
   */
  public static void string(String s, StringBuilder out) {
    out.append('"');
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == '\u2028' || c == '\u2029') {
            unicodeEscape(c, out);
          } else if (Character.isHighSurrogate(c)) {
            if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
              out.append(c).append(s.charAt(++i));
            } else {
              unicodeEscape(c, out);
            }
          } else if (Character.isLowSurrogate(c)) {
            unicodeEscape(c, out);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static void unicodeEscape(char c, StringBuilder out) {
    out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
  }

  /** Convenience for building small JSON documents (inspect --json, codecs --json). */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder();
    string(s, sb);
    return sb.toString();
  }
}
