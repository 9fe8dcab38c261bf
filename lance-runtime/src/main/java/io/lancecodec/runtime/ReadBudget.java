package io.lancecodec.runtime;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.DecodedPage;

/**
 * The bytes one read has allocated so far, against {@link ReaderOptions#maxReadBytes}. One per
 * read and its thread, so it counts without synchronization.
 */
final class ReadBudget {
  private final long limit;
  private long used;

  ReadBudget(long limit) {
    this.limit = limit;
  }

  /** Counts {@code bytes} (not negative) more; over the limit, fails naming {@code what} took them. */
  void charge(long bytes, String what) {
    if (bytes > limit - used) {
      throw over(bytes, what);
    }
    used += bytes;
  }

  /**
   * Charges the Arrow output of {@code rows} rows of {@code rowBits} each, known before decoding;
   * the message is built only on refusal, since this runs on every read.
   */
  void chargeRows(long rows, long rowBits) {
    long bytes = rowBits != 0 && rows > (Long.MAX_VALUE - 7) / rowBits ? Long.MAX_VALUE : (rows * rowBits + 7) / 8;
    if (bytes > limit - used) {
      throw over(bytes, rows + " rows of the selected columns");
    }
    used += bytes;
  }

  private LanceCodecException over(long bytes, String what) {
    return LanceCodecException.invalidArgument("the read needs more memory than the reader allows: " + what
        + " bring it to " + (bytes > Long.MAX_VALUE - used ? "over 2^63" : String.valueOf(used + bytes))
        + " bytes, over ReaderOptions.maxReadBytes of " + limit + " (read fewer rows or columns, or raise the limit)");
  }

  /** Charges a decoded page's values and levels, as held on the heap. */
  void charge(DecodedPage page, String what) {
    long bytes = heapBytes(page.values());
    bytes += page.repLevels() == null ? 0 : 2L * page.repLevels().length;
    bytes += page.defLevels() == null ? 0 : 2L * page.defLevels().length;
    charge(bytes, what);
  }

  /**
   * Bytes {@code block} holds, counted by what it uses of its arrays: a block borrowed from
   * reused decode buffers holds more, which the read did not allocate.
   */
  static long heapBytes(DataBlock block) {
    if (block instanceof DataBlock.FixedWidth fw) {
      return Math.min(fw.data().length, (fw.numValues() * fw.bitsPerValue() + 7) / 8);
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      return Math.min(vw.offsets().length, (vw.numValues() + 1) * vw.bitsPerOffset() / 8) + vw.data().length;
    }
    if (block instanceof DataBlock.FixedSizeList l) {
      return heapBytes(l.child());
    }
    if (block instanceof DataBlock.Nullable n) {
      return heapBytes(n.data()) + n.validity().length;
    }
    if (block instanceof DataBlock.Struct s) {
      return s.children().stream().mapToLong(ReadBudget::heapBytes).sum();
    }
    return 0;
  }
}
