package io.lancecodec.spi.layout;

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
  NULL_AND_EMPTY_LIST;

  /** Definition levels this layer takes: a null list and an empty list need one each. */
  public int defLevels() {
    switch (this) {
      case NULLABLE_ITEM:
      case NULLABLE_LIST:
      case EMPTYABLE_LIST:
        return 1;
      case NULL_AND_EMPTY_LIST:
        return 2;
      default:
        return 0;
    }
  }

  public boolean isList() {
    return this != ALL_VALID_ITEM && this != NULLABLE_ITEM;
  }
}
