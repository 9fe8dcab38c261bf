package io.lancecodec.spi.layout;

import io.lancecodec.spi.DataBlock;
import java.util.List;

/**
 * Values decoded from a page for the rows asked for, with their levels (null when the page has
 * none). Null slots are present in {@code values} with unspecified content. For pages with
 * lists, {@code values} holds only the visible items (empty and null lists have levels but no
 * value) and {@code numRows} counts top-level rows. {@code layers} is the meaning of the levels,
 * inner-most first; null for a flat page (one item layer).
 */
public record DecodedPage(DataBlock values, short[] repLevels, short[] defLevels, long numRows, List<LevelLayer> layers) {
  /** A flat page: one item layer, no repetition. */
  public DecodedPage(DataBlock values, short[] repLevels, short[] defLevels, long numRows) {
    this(values, repLevels, defLevels, numRows, null);
  }
}
