package io.lancecodec.format;

import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.CompressiveEncoding.CompressionCase;
import java.util.EnumSet;
import java.util.Set;

/**
 * The shape of a 2.3 generic unsigned block (the specification's "Generic Unsigned Blocks"): a
 * root that is a leaf, or one composite over leaves. The runtime checks roots against it, and
 * each composite's codec its children, so every reader refuses the same trees.
 *
 * <pre>
 * root ── leaf: Flat, Constant, Range, InlineBitpacking, OutOfLineBitpacking
 *      ├─ Delta(leaf)
 *      ├─ General(Flat)
 *      ├─ Rle(values = leaf, run_lengths = u32 leaf)
 *      └─ Dictionary(indices = u32 leaf, items = sequence-width leaf)
 * </pre>
 */
public final class UnsignedBlockGrammar {
  private static final Set<CompressionCase> LEAVES = EnumSet.of(
      CompressionCase.FLAT,
      CompressionCase.CONSTANT,
      CompressionCase.RANGE,
      CompressionCase.INLINE_BITPACKING,
      CompressionCase.OUT_OF_LINE_BITPACKING);

  private static final Set<CompressionCase> COMPOSITES = EnumSet.of(
      CompressionCase.DELTA, CompressionCase.GENERAL, CompressionCase.RLE, CompressionCase.DICTIONARY);

  private UnsignedBlockGrammar() {}

  /** Whether {@code e} may be a child of a composite root: one of the five leaves. */
  public static boolean isLeaf(CompressiveEncoding e) {
    return LEAVES.contains(e.getCompressionCase());
  }

  /** Whether {@code e} may be a root: a leaf or one of the four composites (their children are checked by their codecs). */
  public static boolean isRoot(CompressiveEncoding e) {
    return LEAVES.contains(e.getCompressionCase()) || COMPOSITES.contains(e.getCompressionCase());
  }

  /** The case's name for messages ({@code delta}, {@code not set}). */
  public static String caseName(CompressiveEncoding e) {
    return e.getCompressionCase() == CompressionCase.COMPRESSION_NOT_SET
        ? "nothing"
        : e.getCompressionCase().name().toLowerCase(java.util.Locale.ROOT);
  }
}
