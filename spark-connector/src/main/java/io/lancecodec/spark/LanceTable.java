package io.lancecodec.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** A path of Lance files as a Spark table: batch reads, appends, and overwrites of the whole directory. */
final class LanceTable implements SupportsRead, SupportsWrite {
  private final StructType schema;
  private final LanceOptions options;

  LanceTable(StructType schema, LanceOptions options) {
    this.schema = schema;
    this.options = options;
  }

  @Override
  public String name() {
    return "lance-codec:" + options.path;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
    return new LanceScan(schema, merged(scanOptions));
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new LanceWrite(info.schema(), merged(info.options()), info.queryId());
  }

  private LanceOptions merged(CaseInsensitiveStringMap more) {
    java.util.Map<String, String> m = new java.util.HashMap<>(options.raw);
    m.putAll(more.asCaseSensitiveMap());
    return new LanceOptions(m);
  }
}
