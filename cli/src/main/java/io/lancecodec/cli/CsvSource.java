package io.lancecodec.cli;

import io.lancecodec.spi.LanceCodecException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A CSV file with a header row (RFC 4180: comma-separated, double quotes, UTF-8) as batches of
 * {@link RowSource#BATCH_ROWS} rows. Column types come from {@code --csv-types} or are inferred
 * from the first rows, which are held until the types are known and then written like the rest:
 * the file is read once. A value after those rows that does not fit its column's type stops the
 * write with one line naming row, column and value; a batch already written cannot be retyped,
 * so there is no widening. {@code --csv-infer-rows all} infers from a first streaming pass over
 * the whole file instead.
 *
 * <p>Every field is nullable and an empty field is null, quoted or not. Rows are numbered from 1,
 * the header not counted.
 */
final class CsvSource implements RowSource {
  static final int DEFAULT_INFER_ROWS = 10_000;
  /** Rows of a batch also stop once their text passes this, far below 32-bit offsets' 2 GiB. */
  static final long BATCH_CHARS = 64L << 20;

  /** RFC 4180; blank lines are kept so a one-column file keeps its empty (null) rows. */
  private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setIgnoreEmptyLines(false).build();

  /** {@code --csv-types} (columns by name, in the order given) and {@code --csv-infer-rows} (-1: all). */
  record Options(Map<String, CsvType> types, int inferRows) {
    static final int ALL = -1;

    boolean isDefault() {
      return types.isEmpty() && inferRows == DEFAULT_INFER_ROWS;
    }

    /** Syntax only; the column names are checked against the header when the file is opened. */
    static Options parse(String typesText, String inferText) {
      Map<String, CsvType> types = new LinkedHashMap<>();
      if (typesText != null) {
        for (String item : typesText.split(",", -1)) {
          int colon = item.lastIndexOf(':');
          if (colon <= 0) {
            throw new UsageException("bad --csv-types item '" + item + "': expected COLUMN:TYPE (types: " + CsvType.labels() + ")");
          }
          String column = item.substring(0, colon);
          CsvType type = CsvType.parse(item.substring(colon + 1));
          if (type == null) {
            throw new UsageException("bad --csv-types item '" + item + "': unknown type '" + item.substring(colon + 1).strip()
                + "' (types: " + CsvType.labels() + ")");
          }
          if (types.put(column, type) != null) {
            throw new UsageException("bad --csv-types: column '" + column + "' given twice");
          }
        }
      }
      int infer = DEFAULT_INFER_ROWS;
      if (inferText != null) {
        if (inferText.strip().equals("all")) {
          infer = ALL;
        } else {
          try {
            infer = Integer.parseInt(inferText.strip());
          } catch (NumberFormatException e) {
            infer = 0;
          }
          if (infer < 1) {
            throw new UsageException("bad --csv-infer-rows '" + inferText + "': expected a row count of at least 1, or 'all'");
          }
        }
      }
      return new Options(types, infer);
    }
  }

  private final String name;
  private final long size;
  private final Counting counted;
  private final CSVParser parser;
  private final Iterator<CSVRecord> records;
  private final int columns;
  private final List<String> header;
  private final CsvType[] types;
  private final boolean[] inferred;
  private final String inferredFrom;
  private final ArrayDeque<CSVRecord> held = new ArrayDeque<>();
  private final VectorSchemaRoot root;
  private long rowsRead;
  private long rowsWritten;

  private CsvSource(Path in, Options options, BufferAllocator allocator) throws IOException {
    this.name = in.getFileName().toString();
    this.size = Files.size(in);
    this.counted = new Counting(Files.newInputStream(in));
    this.parser = open(counted, name);
    try {
      this.records = parser.iterator();
      CSVRecord first = next(records, false, 0);
      if (first == null) {
        throw LanceCodecException.invalidArgument(name + ": empty file, no CSV header row");
      }
      this.header = header(first);
      this.columns = header.size();
      this.types = new CsvType[columns];
      this.inferred = new boolean[columns];
      for (Map.Entry<String, CsvType> e : options.types().entrySet()) {
        int c = header.indexOf(e.getKey());
        if (c < 0) {
          throw LanceCodecException.invalidArgument(name + ": --csv-types names column '" + e.getKey()
              + "', which is not in the header (columns: " + String.join(", ", header) + ")");
        }
        types[c] = e.getValue();
      }
      this.inferredFrom = infer(in, options);
      List<Field> fields = new ArrayList<>();
      for (int c = 0; c < columns; c++) {
        fields.add(new Field(header.get(c), FieldType.nullable(types[c].arrow), null));
      }
      this.root = VectorSchemaRoot.create(new Schema(fields), allocator);
    } catch (IOException | RuntimeException | Error e) {
      parser.close();
      throw e;
    }
  }

  /** Fills in the types not given; says where they came from, for messages (null: all given). */
  private String infer(Path in, Options options) throws IOException {
    Inference inference = new Inference(types);
    if (!inference.needed()) {
      return null;
    }
    String from;
    if (options.inferRows() == Options.ALL) {
      inferFromWholeFile(in, inference);
      from = "all rows";
    } else {
      CSVRecord r;
      while (held.size() < options.inferRows() && (r = next()) != null) {
        held.add(r);
        inference.add(r);
      }
      from = "the first " + held.size() + " rows";
    }
    for (int c = 0; c < columns; c++) {
      inferred[c] = types[c] == null;
    }
    inference.finish();
    return from;
  }

  static CsvSource open(Path in, Options options, BufferAllocator allocator) throws IOException {
    return new CsvSource(in, options, allocator);
  }

  /** The column types (after inference), for tests and messages. */
  CsvType[] types() {
    return types.clone();
  }

  private static CSVParser open(InputStream in, String name) throws IOException {
    // Malformed UTF-8 is an error rather than silently replaced text.
    Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
    try {
      return FORMAT.parse(reader);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw malformed(name, 0, e);
    }
  }

  private List<String> header(CSVRecord first) {
    List<String> names = new ArrayList<>(first.toList());
    if (!names.isEmpty() && names.get(0).startsWith("\uFEFF")) {
      names.set(0, names.get(0).substring(1)); // a byte order mark, as spreadsheet exports write
    }
    Set<String> seen = new HashSet<>();
    for (int c = 0; c < names.size(); c++) {
      String n = names.get(c);
      if (n.isEmpty()) {
        throw LanceCodecException.invalidArgument(name + ": the header's column " + (c + 1) + " has no name");
      }
      if (!seen.add(n)) {
        throw LanceCodecException.invalidArgument(name + ": the header names column '" + n + "' twice");
      }
    }
    return names;
  }

  /** The next data record, checked for its field count; null at the end. */
  private CSVRecord next() {
    return next(records, true, rowsRead + 1);
  }

  /**
   * The next record; a data record is checked for its field count and counted. In a file of
   * several columns a blank line is skipped (in a one-column file it is a row whose value is null).
   */
  private CSVRecord next(Iterator<CSVRecord> it, boolean data, long row) {
    CSVRecord r;
    do {
      try {
        if (!it.hasNext()) {
          return null;
        }
        r = it.next();
      } catch (UncheckedIOException | IllegalStateException e) {
        throw malformed(name, row, e);
      }
    } while (data && columns > 1 && r.size() == 1 && r.get(0).isEmpty());
    if (data && r.size() != columns) {
      throw LanceCodecException.invalidArgument(name + ": row " + row + " has " + r.size() + " fields, the header has "
          + columns);
    }
    if (data && it == records) {
      rowsRead++;
    }
    return r;
  }

  private static LanceCodecException malformed(String name, long row, Throwable e) {
    Throwable cause = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
    String where = row > 0 ? name + ": row " + row : name;
    if (cause instanceof CharacterCodingException) {
      // no row: the decoder runs ahead of the parser by a buffer, so the row would be a guess
      return new LanceCodecException(LanceCodecException.Kind.INVALID_ARGUMENT,
          name + ": not valid UTF-8 (CSV input must be UTF-8)", e);
    }
    String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    return new LanceCodecException(LanceCodecException.Kind.INVALID_ARGUMENT, where + ": malformed CSV (" + why + ")", e);
  }

  /** A first pass over the whole file that only infers (nothing is kept). */
  private void inferFromWholeFile(Path in, Inference inference) throws IOException {
    try (CSVParser p = open(Files.newInputStream(in), name)) {
      Iterator<CSVRecord> it = p.iterator();
      next(it, false, 0);
      CSVRecord r;
      for (long row = 1; (r = next(it, true, row)) != null; row++) {
        inference.add(r);
      }
    }
  }

  @Override
  public VectorSchemaRoot root() {
    return root;
  }

  @Override
  public boolean loadNextBatch() {
    for (FieldVector v : root.getFieldVectors()) {
      v.reset();
    }
    int n = 0;
    long chars = 0;
    CSVRecord r;
    while (n < BATCH_ROWS && chars < BATCH_CHARS && (r = held.isEmpty() ? next() : held.poll()) != null) {
      rowsWritten++;
      for (int c = 0; c < columns; c++) {
        String s = r.get(c);
        FieldVector v = root.getVector(c);
        if (s.isEmpty()) {
          v.setNull(n);
        } else if (!types[c].set(v, n, s)) {
          throw misfit(c, s);
        } else {
          chars += s.length();
        }
      }
      n++;
    }
    root.setRowCount(n);
    return n > 0;
  }

  private LanceCodecException misfit(int c, String value) {
    String shown = value.length() > 100 ? value.substring(0, 100) + "..." : value;
    String how = inferred[c]
        ? "the type was inferred from " + inferredFrom + "; set it with --csv-types '" + header.get(c)
            + ":utf8' (or another type), or infer from every row with --csv-infer-rows all"
        : "the type was given with --csv-types";
    return LanceCodecException.invalidArgument(name + ": row " + rowsWritten + ", column '" + header.get(c) + "': '" + shown
        + "' is not a valid " + types[c].label + " (" + how + ")");
  }

  @Override
  public double fractionRead() {
    return size > 0 ? Math.min(1.0, counted.bytes / (double) size) : Double.NaN;
  }

  @Override
  public void close() throws IOException {
    try {
      root.close();
    } finally {
      parser.close();
    }
  }

  /** Which types each column's values so far admit; columns with a given type are skipped. */
  private static final class Inference {
    private static final CsvType[] CANDIDATES = {CsvType.BOOL, CsvType.INT64, CsvType.FLOAT64, CsvType.DATE,
        CsvType.TIMESTAMP, CsvType.TIMESTAMPTZ};
    private final CsvType[] types;
    private final int[] possible;
    private final boolean[] seen;

    Inference(CsvType[] types) {
      this.types = types;
      this.possible = new int[types.length];
      this.seen = new boolean[types.length];
      for (int c = 0; c < types.length; c++) {
        possible[c] = types[c] == null ? (1 << CANDIDATES.length) - 1 : 0;
      }
    }

    boolean needed() {
      for (CsvType t : types) {
        if (t == null) {
          return true;
        }
      }
      return false;
    }

    void add(CSVRecord r) {
      for (int c = 0; c < types.length; c++) {
        int left = possible[c];
        String s = r.get(c);
        if (types[c] != null || s.isEmpty()) {
          continue;
        }
        seen[c] = true;
        for (int k = 0; k < CANDIDATES.length; k++) {
          if ((left & (1 << k)) != 0 && !CANDIDATES[k].infers(s)) {
            left &= ~(1 << k);
          }
        }
        possible[c] = left;
      }
    }

    /** The first type in preference order every value fits; utf8 when none does or no value was seen. */
    void finish() {
      for (int c = 0; c < types.length; c++) {
        if (types[c] != null) {
          continue;
        }
        types[c] = CsvType.UTF8;
        if (seen[c]) {
          for (int k = 0; k < CANDIDATES.length; k++) {
            if ((possible[c] & (1 << k)) != 0) {
              types[c] = CANDIDATES[k];
              break;
            }
          }
        }
      }
    }
  }

  /** Bytes read from the file so far, for the progress line. */
  private static final class Counting extends FilterInputStream {
    volatile long bytes;

    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      bytes += b >= 0 ? 1 : 0;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      bytes += Math.max(n, 0);
      return n;
    }
  }
}
