package io.lancecodec.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

/**
 * The rows of a flat Parquet file, read column by column with parquet-java's ColumnReader:
 * no record assembly, so nothing of {@link ParquetAppenders} or {@link ParquetCodecs} is
 * involved. A value is a Long (INT32, INT64), Float, Double, Boolean, byte[] or null.
 */
final class ParquetColumns {
  private ParquetColumns() {}

  interface Visitor {
    void row(long index, Object[] values);
  }

  static MessageType schema(Path file) throws IOException {
    try (ParquetFileReader r = open(file)) {
      return r.getFooter().getFileMetaData().getSchema();
    }
  }

  /** Visits rows in file order, up to {@code limit}; the array is reused between rows. */
  static long forEachRow(Path file, long limit, Visitor visitor) throws IOException {
    try (ParquetFileReader r = open(file)) {
      MessageType schema = r.getFooter().getFileMetaData().getSchema();
      String createdBy = r.getFooter().getFileMetaData().getCreatedBy();
      List<ColumnDescriptor> columns = schema.getColumns();
      Object[] values = new Object[columns.size()];
      long row = 0;
      PageReadStore group;
      while (row < limit && (group = r.readNextRowGroup()) != null) {
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(group, new Ignore(), schema, createdBy);
        ColumnReader[] readers = new ColumnReader[columns.size()];
        for (int c = 0; c < readers.length; c++) {
          readers[c] = store.getColumnReader(columns.get(c));
        }
        for (long i = 0; i < group.getRowCount() && row < limit; i++, row++) {
          for (int c = 0; c < readers.length; c++) {
            ColumnReader cr = readers[c];
            ColumnDescriptor d = columns.get(c);
            if (cr.getCurrentDefinitionLevel() < d.getMaxDefinitionLevel()) {
              values[c] = null;
            } else {
              values[c] = switch (d.getPrimitiveType().getPrimitiveTypeName()) {
                case INT32 -> (long) cr.getInteger();
                case INT64 -> cr.getLong();
                case FLOAT -> cr.getFloat();
                case DOUBLE -> cr.getDouble();
                case BOOLEAN -> cr.getBoolean();
                default -> cr.getBinary().getBytes();
              };
            }
            cr.consume();
          }
          visitor.row(row, values);
        }
      }
      return row;
    }
  }

  private static ParquetFileReader open(Path file) throws IOException {
    ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
        .withCodecFactory(new ParquetFiles.Compressors()).build();
    return ParquetFileReader.open(new LocalInputFile(file), options);
  }

  /** The column readers need a converter tree but are read directly here. */
  private static final class Ignore extends GroupConverter {
    @Override
    public Converter getConverter(int fieldIndex) {
      return new PrimitiveConverter() {};
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}
