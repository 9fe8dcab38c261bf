package io.lancecodec.spi;

/**
 * One mini-block chunk as a compressor produced it: the size of each of its value buffers and
 * what the page metadata stores as its value count ({@link MiniBlocks#logNumValues}: log2 of a
 * power-of-two count; the page's last chunk may store 0).
 */
public record MiniBlockChunk(int[] bufferSizes, int logNumValues) {}
