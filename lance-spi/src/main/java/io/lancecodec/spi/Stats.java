package io.lancecodec.spi;

/**
 * Statistics of a block, computed once by the runtime in one pass so no plugin rescans the data
 * to decide whether it applies. Each shape has its own record, so a field never means one thing
 * for fixed-width values and another for strings.
 */
public sealed interface Stats permits Stats.FixedWidth, Stats.VariableWidth, Stats.Other {
  long numValues();

  /**
   * The statistics the runtime hands plugins for {@code block}, computed in one pass; codec
   * authors' tests use it to propose as the writer would.
   */
  static Stats of(DataBlock block) {
    return StatsCollector.of(block);
  }

  /** Bytes of the values themselves: fixed-width values packed, or the strings' bytes without offsets. */
  long dataBytes();

  /**
   * Fixed-width values: {@code maxBitWidth} is the width of the largest value read as unsigned
   * (0 when all are zero), {@code runCount} the number of maximal runs of equal adjacent values.
   */
  record FixedWidth(long numValues, int bitsPerValue, int maxBitWidth, long runCount, long dataBytes) implements Stats {}

  /** Variable-width values: the offsets' width, the values' bytes, and the longest value's. */
  record VariableWidth(long numValues, int bitsPerOffset, long dataBytes, long maxValueBytes) implements Stats {}

  /** Blocks of other shapes (fixed-size lists, structs, all-null): only their count. */
  record Other(long numValues) implements Stats {
    @Override
    public long dataBytes() {
      return 0;
    }
  }
}
