package io.lancecodec.spi;

/**
 * Statistics of a block, computed once by the runtime so no plugin rescans the data to decide
 * whether it applies. Widths are in bits; {@code maxBitWidth} is the width of the largest value
 * read as unsigned (0 when all values are zero), {@code runCount} counts maximal runs of equal
 * adjacent values, {@code maxValueBytes} is the longest variable-width value.
 */
public record Stats(
    long numValues,
    int bitsPerValue,
    int maxBitWidth,
    long runCount,
    long dataBytes,
    long maxValueBytes) {}
