package io.lancecodec.spi.layout;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import java.util.List;

/**
 * One page handed to a structural layout: the leaf values (one slot per item, null slots
 * included with unspecified content), the repetition and definition levels (null when the page
 * has none: no lists, or no nulls) and the meaning of each layer, inner-most first.
 *
 * <p>The writer owns the arrays: once {@link LayoutPlugin#encode} has returned and the page's
 * buffers are written, it reuses them for later pages. Neither the layout nor the codecs it calls
 * may keep them, or blocks over them, past that return (an {@link EncodedPage} buffer may be one
 * of them: it is written before the reuse).
 */
public record PageInput(
    DataBlock values,
    short[] repLevels,
    short[] defLevels,
    List<LevelLayer> layers,
    long numRows,
    FieldOptions options) {}
