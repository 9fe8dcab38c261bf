package io.lancecodec.spi;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A plugin's offer to compress a block: the bytes it will take, the compressor, and the encoded
 * block itself. A plugin that had to compress to know the size ({@link #measured}) hands over
 * what it produced, so the runtime never compresses the page twice; one that estimates cheaply
 * ({@link #estimated}) compresses only if chosen. The runtime takes the smallest size; ties go
 * to the plugin whose name sorts first, so the choice never depends on class-path order.
 * Thread-confined: made and used by one writer thread.
 */
public final class Proposal<R> {
  private final String codec;
  private final long estimatedBytes;
  private final Compressor<R> compressor;
  private Supplier<R> pending;
  private R result;
  /** An estimated offer's block, until it is compressed. */
  private DataBlock block;

  private Proposal(String codec, long estimatedBytes, Compressor<R> compressor, Supplier<R> pending, R result, DataBlock block) {
    this.codec = Objects.requireNonNull(codec, "codec");
    this.estimatedBytes = estimatedBytes;
    this.compressor = Objects.requireNonNull(compressor, "compressor");
    this.pending = pending;
    this.result = result;
    this.block = block;
  }

  /** An offer whose size was measured by compressing the block into {@code result}. */
  public static <R> Proposal<R> measured(String codec, long bytes, Compressor<R> compressor, R result) {
    return new Proposal<>(codec, bytes, compressor, null, Objects.requireNonNull(result, "result"), null);
  }

  /** An offer whose size is an estimate; {@code block} is compressed when the result is asked for. */
  public static <R> Proposal<R> estimated(String codec, long bytes, Compressor<R> compressor, DataBlock block) {
    Objects.requireNonNull(block, "block");
    return new Proposal<>(codec, bytes, compressor, () -> compressor.compress(block), null, block);
  }

  /**
   * An offer whose size is an estimate from work done while proposing (an FSST symbol table
   * learnt from a sample): {@code result} finishes that work when the offer is chosen, without
   * starting over as {@code compressor} would for another block.
   */
  public static <R> Proposal<R> deferred(String codec, long bytes, Compressor<R> compressor, Supplier<R> result) {
    return new Proposal<>(codec, bytes, compressor, Objects.requireNonNull(result, "result"), null, null);
  }

  /** Short name of the codec chain offered, for logs and tests ("bitpack", "general-zstd"). */
  public String codec() {
    return codec;
  }

  public long estimatedBytes() {
    return estimatedBytes;
  }

  /** The compressor, for other blocks of the same kind (the chunk slices of a page's levels). */
  public Compressor<R> compressor() {
    return compressor;
  }

  /** The block this offer was made for, encoded: measured once, or compressed on first call. */
  public R result() {
    if (result == null) {
      result = pending.get();
      pending = null;
      block = null;
    }
    return result;
  }

  /**
   * An estimated offer of mini-block chunks not compressed yet: its block compressed in place
   * ({@link MiniBlockCompressor#compressFramed}); null when the offer has its result already or
   * its compressor does not frame, and {@link #result} is then the answer.
   */
  public MiniBlockCompressed framedResult(int headerBytes) {
    if (result != null || block == null || !(compressor instanceof MiniBlockCompressor chunks)) {
      return null;
    }
    return chunks.compressFramed(block, headerBytes);
  }
}
