package io.lancecodec.cli;

import io.lancecodec.spi.LanceCodecException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;

/**
 * A Parquet file as batches of {@link RowSource#BATCH_ROWS} rows. parquet-java holds one row
 * group's compressed pages at a time; rows are assembled into the batch's Arrow vectors as they
 * are decoded ({@link ParquetAppenders}).
 */
final class ParquetSource implements RowSource {
  /** A batch also ends once its strings and binaries pass this, far below 32-bit offsets' 2 GiB. */
  static final long BATCH_BYTES = 64L << 20;

  private final String name;
  private final ParquetFileReader reader;
  private final MessageType schema;
  private final String createdBy;
  private final VectorSchemaRoot root;
  private final ParquetAppenders.Root rows;
  private final ParquetAppenders.Budget budget = new ParquetAppenders.Budget();
  private final long totalRows;
  private final int batchRows;
  private RecordReader<Void> group;
  private long groupLeft;
  private int groupIndex;
  private long rowsRead;

  private ParquetSource(String name, ParquetFileReader reader, BufferAllocator allocator, int batchRows) {
    this.name = name;
    this.reader = reader;
    this.batchRows = batchRows;
    this.schema = reader.getFooter().getFileMetaData().getSchema();
    this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
    this.totalRows = reader.getRecordCount();
    this.root = VectorSchemaRoot.create(ParquetTypes.schema(schema, name), allocator);
    this.rows = ParquetAppenders.root(schema, root, budget);
  }

  /** True for a file that starts with Parquet's magic, whatever its name. */
  static boolean hasMagic(Path in) throws IOException {
    byte[] head = new byte[4];
    try (InputStream s = Files.newInputStream(in)) {
      return s.readNBytes(head, 0, 4) == 4 && new String(head, StandardCharsets.US_ASCII).equals("PAR1");
    }
  }

  static ParquetSource open(Path in, BufferAllocator allocator) throws IOException {
    return open(in, allocator, BATCH_ROWS);
  }

  static ParquetSource open(Path in, BufferAllocator allocator, int batchRows) throws IOException {
    String name = in.getFileName().toString();
    if (Files.size(in) == 0) {
      throw LanceCodecException.invalidArgument(name + ": empty file, not a Parquet file");
    }
    ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
        .withCodecFactory(new ParquetCodecs())
        .build();
    ParquetFileReader reader;
    try {
      // named, because parquet-java's messages quote the input file's toString()
      reader = ParquetFileReader.open(new LocalInputFile(in) {
        @Override
        public String toString() {
          return name;
        }
      }, options);
    } catch (IOException | RuntimeException e) {
      throw unreadable(name, e);
    }
    try {
      return new ParquetSource(name, reader, allocator, batchRows);
    } catch (RuntimeException | Error e) {
      reader.close();
      throw e;
    }
  }

  @Override
  public VectorSchemaRoot root() {
    return root;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    for (FieldVector v : root.getFieldVectors()) {
      v.reset();
    }
    rows.reset();
    budget.bytes = 0;
    int n = 0;
    try {
      while (n < batchRows && budget.bytes < BATCH_BYTES) {
        if (groupLeft == 0 && !nextRowGroup()) {
          break;
        }
        group.read();
        groupLeft--;
        n++;
      }
    } catch (RuntimeException e) {
      throw unreadable(name + ": row group " + groupIndex, e);
    }
    if (rows.count() != n) {
      throw LanceCodecException.internal(name + ": assembled " + rows.count() + " rows of " + n);
    }
    root.setRowCount(n);
    rowsRead += n;
    return n > 0;
  }

  private boolean nextRowGroup() throws IOException {
    PageReadStore pages;
    try {
      pages = reader.readNextRowGroup();
    } catch (IOException | RuntimeException e) {
      throw unreadable(name + ": row group " + (groupIndex + 1), e);
    }
    if (pages == null) {
      return false;
    }
    groupIndex++;
    MessageColumnIO io = new ColumnIOFactory(createdBy).getColumnIO(schema);
    group = io.getRecordReader(pages, new RecordMaterializer<Void>() {
      @Override
      public Void getCurrentRecord() {
        return null;
      }

      @Override
      public GroupConverter getRootConverter() {
        return rows;
      }
    });
    groupLeft = pages.getRowCount();
    return true;
  }

  @Override
  public double fractionRead() {
    return totalRows > 0 ? Math.min(1.0, rowsRead / (double) totalRows) : Double.NaN;
  }

  @Override
  public void close() throws IOException {
    try {
      root.close();
    } finally {
      reader.close();
    }
  }

  private static LanceCodecException unreadable(String where, Throwable e) {
    if (e instanceof LanceCodecException l) {
      return l.kind() == LanceCodecException.Kind.INTERNAL ? l : l.within(where);
    }
    Throwable t = e;
    while (t.getCause() != null && t.getMessage() == null) {
      t = t.getCause();
    }
    String why = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return new LanceCodecException(LanceCodecException.Kind.CORRUPT, where + ": not a readable Parquet file (" + why + ")", e);
  }
}
