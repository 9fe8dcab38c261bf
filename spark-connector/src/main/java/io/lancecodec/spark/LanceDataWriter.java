package io.lancecodec.spark;

import io.lancecodec.runtime.LanceFileWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * One task's file: rows go through Spark's own row-to-Arrow writer into batches of
 * {@code batch-size} rows, each handed to a {@link LanceFileWriter}, which shows the file under
 * its name (in the staging directory) only once closed on commit.
 */
final class LanceDataWriter implements DataWriter<InternalRow> {
  private static final RootAllocator ROOT = new RootAllocator();

  private final LanceOptions options;
  private final Path file;
  private final Schema lanceSchema;
  private final Map<String, Integer> fixedSizeLists;
  private final BufferAllocator allocator;
  private final VectorSchemaRoot sparkRoot;
  private final ArrowWriter rows;
  private LanceFileWriter writer;
  private int buffered;
  private long written;

  LanceDataWriter(StructType schema, LanceOptions options, Path file) {
    this.options = options;
    this.file = file;
    this.lanceSchema = SparkSchemas.toArrow(schema, options);
    this.fixedSizeLists = SparkSchemas.fixedSizeLists(schema, options);
    this.allocator = ROOT.newChildAllocator("lance-codec write " + file.getFileName(), 0, Long.MAX_VALUE);
    this.sparkRoot = VectorSchemaRoot.create(ArrowUtils.toArrowSchema(schema, "UTC", true, false), allocator);
    this.rows = ArrowWriter.create(sparkRoot);
  }

  @Override
  public void write(InternalRow row) {
    rows.write(row);
    if (++buffered >= options.batchSize) {
      flush();
    }
  }

  private void flush() {
    if (buffered == 0) {
      return;
    }
    rows.finish();
    if (writer == null) {
      writer = LanceFileWriter.open(file, lanceSchema, options.writerOptions());
    }
    List<FieldVector> vectors = new ArrayList<>();
    List<FieldVector> converted = new ArrayList<>();
    for (int i = 0; i < lanceSchema.getFields().size(); i++) {
      Field f = lanceSchema.getFields().get(i);
      FieldVector v = sparkRoot.getVector(i);
      if (fixedSizeLists.containsKey(f.getName())) {
        v = toFixedSizeList((ListVector) v, f, buffered);
        converted.add(v);
      }
      vectors.add(v);
    }
    // not closed: that would free the vectors Spark's row writer reuses; the converted ones are ours
    VectorSchemaRoot batch = new VectorSchemaRoot(vectors);
    batch.setRowCount(buffered);
    try {
      writer.write(batch);
      written += buffered;
    } finally {
      for (FieldVector v : converted) {
        v.close();
      }
    }
    rows.reset();
    buffered = 0;
  }

  /**
   * Spark has no fixed-size list type: the column arrives as a list, every non-null one of the
   * column's length. Without nulls the items are already laid out as a fixed-size list's and move
   * over without a copy.
   */
  private FixedSizeListVector toFixedSizeList(ListVector list, Field field, int n) {
    int dim = ((org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList) field.getType()).getListSize();
    FixedSizeListVector out = (FixedSizeListVector) field.createVector(allocator);
    boolean dense = list.getNullCount() == 0;
    for (int i = 0; i < n; i++) {
      int len = list.isNull(i) ? 0 : list.getElementEndIndex(i) - list.getElementStartIndex(i);
      if (!list.isNull(i) && len != dim) {
        out.close();
        throw io.lancecodec.spi.LanceCodecException.invalidArgument("column '" + field.getName() + "' is written as a fixed-size list of "
            + dim + " but row " + (written + i) + " holds " + len + " items");
      }
    }
    out.allocateNew();
    if (dense) {
      list.getDataVector().makeTransferPair(out.getDataVector()).transfer();
      for (int i = 0; i < n; i++) {
        out.startNewValue(i);
      }
    } else {
      // a null row's items stay null (validity starts cleared)
      FieldVector src = list.getDataVector();
      FieldVector dst = out.getDataVector();
      for (int i = 0; i < n; i++) {
        if (!list.isNull(i)) {
          int from = list.getElementStartIndex(i);
          int to = out.startNewValue(i);
          for (int j = 0; j < dim; j++) {
            dst.copyFromSafe(from + j, to + j, src);
          }
        }
      }
      dst.setValueCount(n * dim);
    }
    out.setValueCount(n);
    return out;
  }

  @Override
  public WriterCommitMessage commit() {
    flush();
    if (writer == null) {
      return new LanceCommitMessage(null, 0);
    }
    writer.close();
    writer = null;
    return new LanceCommitMessage(file.getFileName().toString(), written);
  }

  @Override
  public void abort() {
    if (writer != null) {
      writer.abort();
      writer = null;
    }
    try {
      Files.deleteIfExists(file);
    } catch (java.io.IOException e) {
      // the job abort deletes the whole staging directory
    }
  }

  @Override
  public void close() {
    try {
      if (writer != null) {
        writer.abort();
        writer = null;
      }
    } finally {
      sparkRoot.close();
      allocator.close();
    }
  }
}
