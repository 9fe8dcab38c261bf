package io.lancecodec.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.types.StructType;

final class LanceDataWriterFactory implements DataWriterFactory {
  private static final long serialVersionUID = 1L;

  private final StructType schema;
  private final LanceOptions options;
  private final String staging;
  private final String queryId;

  LanceDataWriterFactory(StructType schema, LanceOptions options, String staging, String queryId) {
    this.schema = schema;
    this.options = options;
    this.staging = staging;
    this.queryId = queryId;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    String name = String.format("part-%05d-%d-%s%s", partitionId, taskId, queryId, LanceFiles.EXTENSION);
    return new LanceDataWriter(schema, options, LanceFiles.path(staging).resolve(name));
  }
}
