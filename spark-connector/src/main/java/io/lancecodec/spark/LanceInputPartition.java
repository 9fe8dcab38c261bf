package io.lancecodec.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/** Rows {@code [start, end)} of one file. */
record LanceInputPartition(String file, long start, long end) implements InputPartition {
  private static final long serialVersionUID = 1L;
}
