package io.lancecodec.spi.layout;

/**
 * Optional for a {@link PageDecoder} whose page can find part of one row without reading the
 * rest of it: the items of the row's outer-most list ("elements"), {@code rows[i][from..to)}.
 * A page that cannot (no suitable index) returns null and the caller reads the whole row.
 */
public interface ElementReader {
  /**
   * Elements {@code [from, to)} of page row {@code row} as a one-row page (the row's levels and
   * values cut to those elements), or null when this page cannot locate them without reading the
   * whole row. Requires {@code 0 <= from < to}; INVALID_ARGUMENT when the row has fewer than
   * {@code to} elements.
   */
  DecodedPage readElements(long row, long from, long to);
}
