package io.lancecodec.spark;

import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** A task's file in the staging directory (null when the task had no rows), and its rows. */
record LanceCommitMessage(String file, long rows) implements WriterCommitMessage {
  private static final long serialVersionUID = 1L;
}
