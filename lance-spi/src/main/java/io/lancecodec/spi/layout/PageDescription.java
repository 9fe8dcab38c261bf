package io.lancecodec.spi.layout;

/**
 * A page as {@code inspect} shows it: the layout's short name ({@code mini-block}, {@code full-zip},
 * {@code constant}, {@code blob}) and a one-line description of its structure and compression
 * trees, e.g. {@code mini-block, 3 chunks, values: bitpack(32)}.
 */
public record PageDescription(String layout, String details) {}
