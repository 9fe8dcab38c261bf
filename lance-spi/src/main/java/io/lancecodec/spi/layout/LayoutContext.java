package io.lancecodec.spi.layout;

import io.lancecodec.spi.BlockCompressor;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.MiniBlockCompressed;

/**
 * What a layout gets from the runtime while encoding or decoding: the file version, the
 * registry's best compression of each buffer it needs compressed, and the decoders of the
 * compression trees it reads, so layouts never depend on codec jars.
 *
 * <p>A writer's context may be used from two threads at once for one page: a layout may hand an
 * independent part of a page (its level compressors, or one of two candidate encodings) to
 * another core ({@link io.lancecodec.spi.Parallelism}).
 */
public interface LayoutContext extends Decoders {
  FileVersion version();

  /**
   * The statistics the registry's plugins are handed for {@code values}; a writer's context keeps
   * them for the page being encoded, so a layout that reads them first (to judge a dictionary,
   * say) and then compresses the same block, or reads them again, pays for one pass.
   */
  default io.lancecodec.spi.Stats stats(DataBlock values) {
    return io.lancecodec.spi.Stats.of(values);
  }

  /**
   * Statistics of values the layout built itself and counted while doing so (dictionary indices),
   * for a writer's context to hand the plugins when it compresses that block in this page. They
   * must be exactly {@code Stats.of(values)}, though group widths may be left out: plugins pack
   * by them. Ignored by default.
   */
  default void keepStats(DataBlock values, io.lancecodec.spi.Stats stats) {}

  /** Values compressed into mini-block chunks by the best offer of the registry's plugins. */
  MiniBlockCompressed compressMiniBlock(DataBlock values, FieldOptions options);

  /**
   * As {@link #compressMiniBlock(DataBlock, FieldOptions)}, for a layout that keeps the result
   * only if its chunks take at most {@code sizeToBeat} bytes (it has a smaller page already): a
   * plugin that measures its offer by compressing may stop once it passes that size. The result
   * is any offer's, still valid, and the one the two-argument call gives whenever it is that
   * small.
   */
  default MiniBlockCompressed compressMiniBlock(DataBlock values, FieldOptions options, long sizeToBeat) {
    return compressMiniBlock(values, options);
  }

  /**
   * As {@link #compressMiniBlock(DataBlock, FieldOptions, long)}, with the chunks framed in place
   * ({@link io.lancecodec.spi.MiniBlockCompressor#compressFramed}) when the chosen compressor
   * can; {@link MiniBlockCompressed#framed} tells. Not framed by default.
   */
  default MiniBlockCompressed compressMiniBlockFramed(DataBlock values, FieldOptions options, long sizeToBeat, int headerBytes) {
    return compressMiniBlock(values, options, sizeToBeat);
  }

  /** Values compressed per value (transparently) for a full-zip page. */
  Encoded<DataBlock> compressPerValue(DataBlock values, FieldOptions options);

  /** A whole buffer of values compressed as one block, e.g. a page's dictionary. */
  Encoded<byte[]> compressBlock(DataBlock values, FieldOptions options);

  /**
   * A 2.3 generic unsigned block: {@code values} (u32 or u64) encoded by the smallest offer of the
   * registry's plugins within the generic block grammar (one composite root at most over leaves;
   * General only when {@code options} ask for it). The payload is empty exactly when the encoding
   * is metadata-only, and then no buffer is stored for it; an empty sequence is a Constant without
   * a value. For sparse structural sequences (positions and counts) and similar containers.
   */
  default Encoded<byte[]> compressUnsigned(DataBlock.FixedWidth values, FieldOptions options) {
    throw io.lancecodec.spi.LanceCodecException.unsupported("this layout context has no 2.3 generic unsigned blocks");
  }

  /**
   * The decoder of a 2.3 generic unsigned block of {@code bitsPerValue} (32 or 64) bits, the width
   * its container supplies: CORRUPT at once when the tree leaves the generic grammar or declares
   * another width. Its {@link BlockDecompressor#consumesPayload} says whether one buffer belongs to
   * the sequence; {@code decompress(payload, cardinality)} (an empty array when none belongs)
   * returns exactly that many values of that width or fails with CORRUPT.
   */
  default BlockDecompressor unsignedBlock(com.google.protobuf.Message encoding, int bitsPerValue) {
    throw io.lancecodec.spi.LanceCodecException.unsupported("this layout context has no 2.3 generic unsigned blocks");
  }

  /**
   * The block compressor for the repetition or definition levels (u16 values) of a page,
   * chosen from the whole page's levels and applied to them whole.
   */
  default BlockCompressor levelsFor(DataBlock levels) {
    return levelsFor(levels, 0);
  }

  /**
   * The block compressor for a page's levels, chosen from all of them; with {@code sliceValues}
   * positive the layout applies it to slices of about that many levels (each chunk's), else to
   * the levels whole.
   */
  BlockCompressor levelsFor(DataBlock levels, long sliceValues);

  /**
   * Writes {@code bytes} to the file's data outside any page (blob values) and returns their
   * position, which a page may then record; only while writing.
   */
  default long writeExternal(byte[] bytes) {
    throw io.lancecodec.spi.LanceCodecException.internal("this layout context writes no file");
  }

  /** Where a page decoder keeps bulky decoded state it can load again (nothing by default). */
  default PageCache cache() {
    return PageCache.NONE;
  }
}
