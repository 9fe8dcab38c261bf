package io.lancecodec.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.runtime.Scanner;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/** Every row of a Lance file against its source, read independently of the CLI's readers. */
final class RoundTrip {
  private RoundTrip() {}

  /** Walks a Lance file's rows in order, a batch at a time. */
  static final class LanceRows implements AutoCloseable {
    final LanceFileReader reader;
    private final BufferAllocator allocator = new RootAllocator();
    private final Scanner scan;
    private VectorSchemaRoot batch;
    private int index;
    long row = -1;

    LanceRows(Path lance) {
      reader = LanceFileReader.open(lance);
      scan = reader.scan(null, 8192, allocator);
    }

    /** Moves to the next row; returns the batch holding it ({@link #index()} is its index there). */
    VectorSchemaRoot next() {
      row++;
      if (batch != null && ++index < batch.getRowCount()) {
        return batch;
      }
      if (batch != null) {
        batch.close();
        batch = null;
      }
      if (!scan.hasNext()) {
        fail("the Lance file ends at row " + row);
      }
      batch = scan.next();
      index = 0;
      return batch;
    }

    int index() {
      return index;
    }

    @Override
    public void close() {
      if (batch != null) {
        batch.close();
      }
      scan.close();
      reader.close();
      allocator.close();
    }
  }

  /** A flat Parquet file: every value of every row (see {@link ParquetColumns}). */
  static long assertMatchesParquet(Path lance, Path parquet) throws IOException {
    try (LanceRows rows = new LanceRows(lance)) {
      long n = ParquetColumns.forEachRow(parquet, Long.MAX_VALUE, (i, values) -> {
        VectorSchemaRoot b = rows.next();
        for (int c = 0; c < values.length; c++) {
          FieldVector v = b.getVector(c);
          Object got = value(v, rows.index());
          boolean same = values[c] instanceof byte[] want ? got instanceof byte[] g && java.util.Arrays.equals(want, g)
              : Objects.equals(values[c], got);
          if (!same) {
            fail(lance.getFileName() + " row " + i + " column " + v.getName() + ": Parquet has " + show(values[c])
                + ", Lance " + show(got));
          }
        }
      });
      assertEquals(n, rows.reader.numRows(), lance.getFileName() + ": row count");
      return n;
    }
  }

  private static String show(Object v) {
    return v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(v);
  }

  /** A value as {@link ParquetColumns} gives it: integers of every width as Long. */
  static Object value(FieldVector v, int i) {
    if (v.isNull(i)) {
      return null;
    } else if (v instanceof BitVector b) {
      return b.get(i) == 1;
    } else if (v instanceof Float4Vector f) {
      return f.get(i);
    } else if (v instanceof Float8Vector f) {
      return f.get(i);
    } else if (v instanceof BaseIntVector b) {
      return b.getValueAsLong(i);
    } else if (v instanceof BaseFixedWidthVector f && f.getTypeWidth() == 8) {
      return f.getDataBuffer().getLong(8L * i);
    } else if (v instanceof BaseFixedWidthVector f && f.getTypeWidth() == 4) {
      return (long) f.getDataBuffer().getInt(4L * i);
    } else if (v instanceof BaseVariableWidthVector b) {
      return b.get(i);
    }
    throw new IllegalArgumentException("no comparison for " + v.getField());
  }

  /** How the tests read CSV: commons-csv, RFC 4180, blank lines skipped. */
  static final CSVFormat CSV = CSVFormat.RFC4180.builder().setIgnoreEmptyLines(true).build();

  /**
   * A CSV file: each cell against the Lance column's value, by the column's type: empty is
   * null, otherwise the text parsed the way that type is written (see CsvType).
   */
  static long assertMatchesCsv(Path lance, Path csv) throws IOException {
    try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
        CSVParser parser = CSV.parse(in);
        LanceRows rows = new LanceRows(lance)) {
      var records = parser.iterator();
      List<String> header = records.next().toList();
      List<String> names = rows.reader.schema().getFields().stream().map(f -> f.getName()).toList();
      assertEquals(header, names, csv.getFileName() + ": columns");
      long n = 0;
      while (records.hasNext()) {
        CSVRecord r = records.next();
        VectorSchemaRoot b = rows.next();
        for (int c = 0; c < header.size(); c++) {
          String s = r.get(c);
          FieldVector v = b.getVector(c);
          int i = rows.index();
          String where = csv.getFileName() + " row " + (n + 1) + " column " + header.get(c) + " '" + s + "'";
          if (s.isEmpty()) {
            assertTrue(v.isNull(i), where);
            continue;
          }
          assertTrue(!v.isNull(i), where);
          if (v instanceof BigIntVector t) {
            assertEquals(Long.parseLong(s), t.get(i), where);
          } else if (v instanceof Float8Vector t) {
            assertEquals(Double.doubleToLongBits(Double.parseDouble(s)), Double.doubleToLongBits(t.get(i)), where);
          } else if (v instanceof BitVector t) {
            assertEquals(s.equalsIgnoreCase("true") ? 1 : 0, t.get(i), where);
          } else if (v instanceof DateDayVector t) {
            assertEquals(LocalDate.parse(s).toEpochDay(), t.get(i), where);
          } else if (v instanceof TimeStampMicroVector t) {
            LocalDateTime d = LocalDateTime.parse(s.replace(' ', 'T'));
            assertEquals(d.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + d.getNano() / 1000, t.get(i), where);
          } else if (v instanceof TimeStampMicroTZVector t) {
            OffsetDateTime d = OffsetDateTime.parse(s.replace(' ', 'T'));
            assertEquals(d.toEpochSecond() * 1_000_000 + d.getNano() / 1000, t.get(i), where);
          } else if (v instanceof VarCharVector t) {
            assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), t.get(i), where);
          } else {
            fail("no comparison for " + v.getField());
          }
        }
        n++;
      }
      assertEquals(n, rows.reader.numRows(), csv.getFileName() + ": row count");
      return n;
    }
  }
}
