package io.lancecodec.spi;

/**
 * Reverses a {@link PerValueCompressor} on the values the full-zip layout unzipped: a
 * fixed-width or variable-width block in, the original values out. Stateless and thread-safe:
 * besides concurrent reads of one file, a single read of list rows decodes its segments on two
 * threads at once with the page's one decompressor.
 */
public interface PerValueDecompressor {
  /**
   * The original values of {@code block}. With {@code reuse} (null: fresh arrays) the result may
   * be built on its arrays, valid until the next call given them (see {@link DecodeBuffers}).
   */
  DataBlock decompress(DataBlock block, DecodeBuffers reuse);

  /**
   * The bits of one value when decompressing returns fixed-width values unchanged (plain values,
   * or fixed-size lists of them without validity), so a full-zip row is exactly the value and
   * can be copied to the reader's output as it is; 0 otherwise.
   */
  default long plainBits() {
    return 0;
  }

  /**
   * The bits of every decoded value when decompressing always yields fixed-width values of that
   * width with no validity of their own (a fixed-size list whose leaf is compressed, without item
   * validity), so a layout can decode rows a step at a time straight into a reader's output; 0
   * otherwise. Not needed when {@link #plainBits()} is set.
   */
  default long decodedBits() {
    return 0;
  }
}
