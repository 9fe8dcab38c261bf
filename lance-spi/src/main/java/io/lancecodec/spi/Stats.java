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

  /** Values per group whose widths {@link FixedWidth#groupWidths} holds: a FastLanes group, a bit-packed mini-block chunk. */
  int GROUP = 1024;

  /**
   * Fixed-width values: {@code maxBitWidth} is the width of the largest value read as unsigned
   * (0 when all are zero), {@code runCount} the number of maximal runs of equal adjacent values.
   * {@code groupWidths}, when counted (null otherwise): the same width for each {@link #GROUP}
   * values from the first, the last group holding the rest; counted in the same pass, so that
   * bit-packing need not read the page again for its chunks' widths.
   */
  record FixedWidth(long numValues, int bitsPerValue, int maxBitWidth, long runCount, long dataBytes, byte[] groupWidths)
      implements Stats {
    /** Statistics without group widths. */
    public FixedWidth(long numValues, int bitsPerValue, int maxBitWidth, long runCount, long dataBytes) {
      this(numValues, bitsPerValue, maxBitWidth, runCount, dataBytes, null);
    }

    /** A copy: the record stays immutable. */
    @Override
    public byte[] groupWidths() {
      return groupWidths == null ? null : groupWidths.clone();
    }

    /** The same statistics without group widths. */
    public FixedWidth withoutGroupWidths() {
      return new FixedWidth(numValues, bitsPerValue, maxBitWidth, runCount, dataBytes);
    }

    /** Equal counts, and group widths of equal contents. */
    @Override
    public boolean equals(Object o) {
      return o instanceof FixedWidth f && numValues == f.numValues && bitsPerValue == f.bitsPerValue && maxBitWidth == f.maxBitWidth
          && runCount == f.runCount && dataBytes == f.dataBytes && java.util.Arrays.equals(groupWidths, f.groupWidths);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(numValues, bitsPerValue, maxBitWidth, runCount, dataBytes) * 31 + java.util.Arrays.hashCode(groupWidths);
    }

    @Override
    public String toString() {
      return "FixedWidth[numValues=" + numValues + ", bitsPerValue=" + bitsPerValue + ", maxBitWidth=" + maxBitWidth + ", runCount="
          + runCount + ", dataBytes=" + dataBytes + ", groupWidths=" + (groupWidths == null ? "null" : groupWidths.length + " groups") + "]";
    }
  }

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
