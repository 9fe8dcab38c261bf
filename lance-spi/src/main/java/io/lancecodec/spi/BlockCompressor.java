package io.lancecodec.spi;

/**
 * Compresses a whole block into one opaque buffer. Used where nothing needs to be addressed
 * inside the buffer: dictionaries, levels of constant pages, general compression of metadata.
 */
public interface BlockCompressor {
  Encoded<byte[]> compress(DataBlock block);
}
