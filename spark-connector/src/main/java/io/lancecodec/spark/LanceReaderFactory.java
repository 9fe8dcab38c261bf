package io.lancecodec.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Columnar readers only: every batch is Arrow vectors viewed as Spark column vectors. */
final class LanceReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final StructType readSchema;
  private final LanceOptions options;

  LanceReaderFactory(StructType readSchema, LanceOptions options) {
    this.readSchema = readSchema;
    this.options = options;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return true;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    throw new UnsupportedOperationException("the lance-codec source reads columnar batches only");
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new LancePartitionReader((LanceInputPartition) partition, readSchema, options);
  }
}
