package io.lancecodec.cli;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The column types of CSV input, in the order inference prefers them. Values are read exactly
 * as written: no trimming, no locale (a decimal point, never a comma), no thousands separators.
 *
 * <p>{@link #infers} is stricter than {@link #set}: inference never picks a numeric type that
 * would change the text, so identifiers such as zip code {@code 00501} (a leading zero) or
 * integers beyond 64 bits stay strings; an explicit {@code --csv-types} accepts them.
 */
enum CsvType {
  BOOL("bool", ArrowType.Bool.INSTANCE),
  INT64("int64", new ArrowType.Int(64, true)),
  FLOAT64("float64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
  DATE("date", new ArrowType.Date(DateUnit.DAY)),
  TIMESTAMP("timestamp", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
  TIMESTAMPTZ("timestamptz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
  UTF8("utf8", ArrowType.Utf8.INSTANCE);

  /** Plain decimal notation: what Double.parseDouble accepts minus hex, type suffixes and spaces. */
  private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");
  private static final Pattern INTEGRAL = Pattern.compile("[+-]?\\d+");
  private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

  final String label;
  final ArrowType arrow;

  CsvType(String label, ArrowType arrow) {
    this.label = label;
    this.arrow = arrow;
  }

  static CsvType parse(String label) {
    for (CsvType t : values()) {
      if (t.label.equals(label.strip().toLowerCase(Locale.ROOT))) {
        return t;
      }
    }
    return null;
  }

  static String labels() {
    return Arrays.stream(values()).map(t -> t.label).collect(Collectors.joining(", "));
  }

  /** Whether inference may choose this type for a (non-empty) value. */
  boolean infers(String s) {
    return switch (this) {
      case INT64 -> INTEGRAL.matcher(s).matches() && !leadingZero(s) && parseLong(s) != null;
      // an integer that INT64 refused (leading zero, too long) must not become a float either
      case FLOAT64 -> INTEGRAL.matcher(s).matches() ? INT64.infers(s) : parseDouble(s) != null;
      case UTF8 -> true;
      default -> set(null, 0, s);
    };
  }

  /** Stores {@code s} at {@code index} of {@code v} (or only checks it when {@code v} is null); false if it does not fit. */
  boolean set(FieldVector v, int index, String s) {
    switch (this) {
      case BOOL -> {
        boolean t = s.equalsIgnoreCase("true");
        if (!t && !s.equalsIgnoreCase("false")) {
          return false;
        }
        if (v != null) {
          ((BitVector) v).setSafe(index, t ? 1 : 0);
        }
      }
      case INT64 -> {
        Long x = parseLong(s);
        if (x == null) {
          return false;
        }
        if (v != null) {
          ((BigIntVector) v).setSafe(index, x);
        }
      }
      case FLOAT64 -> {
        Double x = parseDouble(s);
        if (x == null) {
          return false;
        }
        if (v != null) {
          ((Float8Vector) v).setSafe(index, x);
        }
      }
      case DATE -> {
        Long day = epochDay(s);
        if (day == null) {
          return false;
        }
        if (v != null) {
          ((DateDayVector) v).setSafe(index, (int) (long) day);
        }
      }
      case TIMESTAMP, TIMESTAMPTZ -> {
        Long micros = epochMicros(s, this == TIMESTAMPTZ);
        if (micros == null) {
          return false;
        }
        if (v != null) {
          ((TimeStampVector) v).setSafe(index, micros);
        }
      }
      case UTF8 -> {
        if (v != null) {
          ((VarCharVector) v).setSafe(index, s.getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    return true;
  }

  private static boolean leadingZero(String s) {
    int i = s.charAt(0) == '+' || s.charAt(0) == '-' ? 1 : 0;
    return s.length() > i + 1 && s.charAt(i) == '0';
  }

  static Long parseLong(String s) {
    if (!INTEGRAL.matcher(s).matches()) {
      return null;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static Double parseDouble(String s) {
    if (DECIMAL.matcher(s).matches()) {
      return Double.parseDouble(s);
    }
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "nan" -> Double.NaN;
      case "inf", "+inf", "infinity", "+infinity" -> Double.POSITIVE_INFINITY;
      case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
      default -> null;
    };
  }

  /** {@code YYYY-MM-DD} as days since 1970-01-01. */
  static Long epochDay(String s) {
    if (!ISO_DATE.matcher(s).matches()) {
      return null;
    }
    try {
      return LocalDate.parse(s).toEpochDay();
    } catch (DateTimeException e) {
      return null;
    }
  }

  /**
   * ISO 8601 date and time, {@code T} or a space between them, to the microsecond; with
   * {@code zoned} it must end in {@code Z} or an offset ({@code +01:00}) and is stored as UTC,
   * without it it must not (a wall-clock time, stored as if UTC, as Arrow does).
   */
  static Long epochMicros(String s, boolean zoned) {
    if (s.length() < 16 || s.charAt(4) != '-' || (s.charAt(10) != 'T' && s.charAt(10) != ' ')) {
      return null;
    }
    String iso = s.charAt(10) == ' ' ? s.substring(0, 10) + 'T' + s.substring(11) : s;
    try {
      long seconds;
      int nanos;
      if (zoned) {
        OffsetDateTime t = OffsetDateTime.parse(iso);
        seconds = t.toEpochSecond();
        nanos = t.getNano();
      } else {
        LocalDateTime t = LocalDateTime.parse(iso);
        seconds = t.toEpochSecond(ZoneOffset.UTC);
        nanos = t.getNano();
      }
      if (nanos % 1000 != 0) {
        return null;
      }
      return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), nanos / 1000);
    } catch (DateTimeException | ArithmeticException e) {
      return null;
    }
  }
}
