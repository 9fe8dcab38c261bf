package io.lancecodec.spi.layout;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import java.util.List;

/**
 * One page handed to a structural layout: the leaf values (one slot per item, null slots
 * included with unspecified content), the repetition and definition levels (null when the page
 * has none: no lists, or no nulls) and the meaning of each layer, inner-most first.
 */
public record PageInput(
    DataBlock values,
    short[] repLevels,
    short[] defLevels,
    List<LevelLayer> layers,
    long numRows,
    FieldOptions options) {}
