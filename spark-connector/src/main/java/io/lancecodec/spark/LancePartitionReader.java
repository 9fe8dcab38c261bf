package io.lancecodec.spark;

import io.lancecodec.runtime.LanceFileReader;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one partition's rows in batches of {@code batch-size}. Each batch's Arrow vectors live
 * until the next call to {@link #next()} (Spark consumes a batch before asking for the next).
 */
final class LancePartitionReader implements PartitionReader<ColumnarBatch> {
  /** One root for the JVM; each reader takes a child so a leak is reported per task. */
  private static final RootAllocator ROOT = new RootAllocator();

  private final LanceInputPartition partition;
  private final StructType schema;
  private final List<String> columns;
  private final int batchSize;
  private final LanceFileReader reader;
  private final BufferAllocator allocator;
  private long position;
  private VectorSchemaRoot current;
  private ColumnarBatch batch;

  LancePartitionReader(LanceInputPartition partition, StructType schema, LanceOptions options) {
    this.partition = partition;
    this.schema = schema;
    this.columns = List.of(schema.fieldNames());
    this.batchSize = options.batchSize;
    this.position = partition.start();
    // a count(*) reads no column: the row counts come from the partition alone
    this.reader = columns.isEmpty() ? null : LanceFileReader.open(LanceFiles.path(partition.file()), options.registry());
    this.allocator = ROOT.newChildAllocator("lance-codec " + partition, 0, Long.MAX_VALUE);
  }

  @Override
  public boolean next() {
    release();
    if (position >= partition.end()) {
      return false;
    }
    long end = Math.min(partition.end(), position + batchSize);
    int rows = (int) (end - position);
    if (reader == null) {
      batch = new ColumnarBatch(new ColumnVector[0], rows);
    } else {
      current = reader.readRange(position, end, columns, allocator);
      ColumnVector[] vectors = new ColumnVector[columns.size()];
      for (int i = 0; i < vectors.length; i++) {
        vectors[i] = ColumnVectors.of(current.getVector(i), schema.fields()[i].dataType());
      }
      batch = new ColumnarBatch(vectors, rows);
    }
    position = end;
    return true;
  }

  @Override
  public ColumnarBatch get() {
    return batch;
  }

  private void release() {
    if (current != null) {
      current.close();
      current = null;
    }
    batch = null;
  }

  @Override
  public void close() {
    release();
    try {
      if (reader != null) {
        reader.close();
      }
    } finally {
      allocator.close();
    }
  }
}
