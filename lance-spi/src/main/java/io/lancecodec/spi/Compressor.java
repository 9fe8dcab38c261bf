package io.lancecodec.spi;

/**
 * Encodes a block; what it returns depends on the compression context ({@link MiniBlockCompressor},
 * {@link BlockCompressor}, {@link PerValueCompressor}). A compressor chosen for one block may be
 * applied to others of the same page (a page's levels are compressed chunk by chunk with the
 * compressor chosen for all of them), so it must handle any block its proposal's conditions
 * hold for, not only the one it was proposed for.
 */
public interface Compressor<R> {
  R compress(DataBlock block);
}
