package io.lancecodec.spi;

/**
 * What one repetition/definition layer means, from the inner-most (the values) outwards. It
 * decides how many definition levels a layer consumes: nullable layers use one, lists that can
 * be both null and empty use two.
 */
public enum LevelLayer {
  ALL_VALID_ITEM,
  ALL_VALID_LIST,
  NULLABLE_ITEM,
  NULLABLE_LIST,
  EMPTYABLE_LIST,
  NULL_AND_EMPTY_LIST
}
