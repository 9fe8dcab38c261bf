package io.lancecodec.spark;

import io.lancecodec.runtime.LanceFileReader;
import io.lancecodec.spi.LanceCodecException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code lance-codec} data source: {@code spark.read().format("lance-codec").load(path)} and
 * {@code df.write().format("lance-codec").mode("append"|"overwrite").save(dir)}. See docs/spark.md.
 */
public final class LanceDataSource implements TableProvider, DataSourceRegister {
  public static final String SHORT_NAME = "lance-codec";

  @Override
  public String shortName() {
    return SHORT_NAME;
  }

  /** The schema of the first file under the path (the scan checks the others agree). */
  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    LanceOptions o = new LanceOptions(options.asCaseSensitiveMap());
    List<Path> files = LanceFiles.list(o.requirePath());
    if (files.isEmpty()) {
      throw LanceCodecException.invalidArgument("no " + LanceFiles.EXTENSION + " files in " + o.path);
    }
    try (LanceFileReader reader = LanceFileReader.open(files.get(0), o.registry())) {
      return SparkSchemas.toSpark(reader.schema());
    }
  }

  /** Writes take the DataFrame's schema as it is (there may be no file yet to infer one from). */
  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    if (partitioning.length > 0) {
      throw LanceCodecException.unsupported("the lance-codec source does not partition directories by column");
    }
    return new LanceTable(schema, new LanceOptions(properties));
  }
}
