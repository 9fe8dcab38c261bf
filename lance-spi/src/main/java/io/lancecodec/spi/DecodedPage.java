package io.lancecodec.spi;

/**
 * Values decoded from a page for the rows asked for, with their levels (null when the page has
 * none). Null slots are present in {@code values} with unspecified content.
 */
public record DecodedPage(DataBlock values, short[] repLevels, short[] defLevels, long numRows) {}
