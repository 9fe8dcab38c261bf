package io.lancecodec.spi;

/**
 * Compresses a whole block into one opaque buffer. Used where nothing needs to be addressed
 * inside the buffer: dictionaries, levels of constant pages and of mini-block chunks.
 */
public interface BlockCompressor extends Compressor<Encoded<byte[]>> {}
