package io.lancecodec.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;

/**
 * Made {@code src/test/resources/vega/flights-500.parquet}: the first 500 rows of
 * vega-datasets' flights-3m.parquet, same schema, zstd pages (as the original), written with
 * parquet-java. Run once by hand: {@code MakeFlightsSample <flights-3m.parquet> <out>}.
 */
final class MakeFlightsSample {
  private MakeFlightsSample() {}

  public static void main(String[] args) throws IOException {
    Path in = Path.of(args[0]);
    MessageType schema = ParquetColumns.schema(in);
    List<Object[]> rows = new ArrayList<>();
    ParquetColumns.forEachRow(in, 500, (i, values) -> rows.add(values.clone()));
    ParquetFiles.write(Path.of(args[1]), schema, CompressionCodecName.ZSTD, rows);
  }
}
