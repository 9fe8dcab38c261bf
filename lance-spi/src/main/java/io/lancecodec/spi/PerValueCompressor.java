package io.lancecodec.spi;

/**
 * Compresses values so that each stays individually addressable, as the full-zip layout needs:
 * the result is a fixed-width block (same bits per value for all) or a variable-width block.
 */
public interface PerValueCompressor extends Compressor<Encoded<DataBlock>> {}
