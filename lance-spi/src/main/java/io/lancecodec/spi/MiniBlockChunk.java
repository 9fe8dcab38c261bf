package io.lancecodec.spi;

/**
 * One mini-block chunk as a compressor produced it: the size of each of its value buffers and
 * log2 of its value count ({@code 0} marks the final chunk, whose count is implied by the page).
 */
public record MiniBlockChunk(int[] bufferSizes, int logNumValues) {}
