package io.lancecodec.cli;

import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Rows for {@code write}, a batch at a time into one reused {@link #root()}: the input is never
 * held in memory whole, whatever its format.
 */
interface RowSource extends AutoCloseable {
  /** Rows per batch for the formats whose batch size we choose (Parquet, CSV). */
  int BATCH_ROWS = 65_536;

  /** Refilled by every {@link #loadNextBatch}; its schema is the file's. */
  VectorSchemaRoot root();

  /** Fills {@link #root()} with the next rows; false at the end of the input. */
  boolean loadNextBatch() throws IOException;

  /** How much of the input has been read, 0 to 1, or NaN when that is not known. */
  double fractionRead();

  @Override
  void close() throws IOException;

  /** An Arrow IPC file or stream: its own batches, as written. */
  static RowSource of(ArrowReader reader) throws IOException {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    int blocks = reader instanceof ArrowFileReader f ? f.getRecordBlocks().size() : -1;
    return new RowSource() {
      int loaded;

      @Override
      public VectorSchemaRoot root() {
        return root;
      }

      @Override
      public boolean loadNextBatch() throws IOException {
        boolean more = reader.loadNextBatch();
        loaded += more ? 1 : 0;
        return more;
      }

      @Override
      public double fractionRead() {
        return blocks > 0 ? Math.min(1.0, loaded / (double) blocks) : Double.NaN;
      }

      @Override
      public void close() throws IOException {
        reader.close();
      }
    };
  }
}
