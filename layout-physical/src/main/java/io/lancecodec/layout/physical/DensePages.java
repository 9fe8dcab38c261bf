package io.lancecodec.layout.physical;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions.StructuralEncoding;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.Parallelism;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.PageInput;
import java.util.Optional;

/**
 * The choice between the two physical grammars for a page whose values and levels are stored
 * together (every 2.1/2.2 page with values, every 2.3 page with dense structure): a dictionary
 * when one pays, then mini-block chunks for values narrower than {@link #FULL_ZIP_MIN_BYTES} and
 * full-zip rows for wider ones, unless the field forces one with
 * {@code lance-encoding:structural-encoding}. The policy is the reference's; the calling layout
 * handles constant and all-null pages before, and describes the result in its own messages.
 */
public final class DensePages {
  private DensePages() {}

  /**
   * Values this wide (the largest value of the page) use full-zip: at 256 bytes only 16 values
   * fit a 4 KiB sector, so a chunk's metadata would cost more than it saves.
   */
  public static final long FULL_ZIP_MIN_BYTES = 256;

  /**
   * A dictionary where the reference writes none (small negative integers, low-cardinality
   * floats, 64-bit values in 2.1) must save at least this much of the page: decoding through a
   * dictionary is slower, so a few percent are not worth it (flat token ids would save 6%).
   */
  static final double EXTENDED_DICT_GAIN = 0.8;

  /**
   * Pages of at least these many value bytes have their values-alone candidate encoded on
   * another core during the dictionary trial; on smaller ones handing it over costs about what
   * it saves.
   */
  static final long SPECULATE_MIN_BYTES = 64 * 1024;

  /** The page in mini-block or full-zip form: a {@code PhysicalPage} of a {@link MiniBlockSpec} or a {@link FullZipSpec}. */
  public static PhysicalPage<?> encode(PageInput page, LayoutContext ctx) {
    Optional<StructuralEncoding> forced = page.options().structuralEncoding();
    // a chunked scheme (pcodec) stores repeats cheaply itself and must see the values
    if ((forced.isEmpty() || forced.get() == StructuralEncoding.MINIBLOCK) && !page.options().chunkedCompression()) {
      // as in the reference, the decision is the leaf values' own (e.g. the strings of a list)
      boolean nested = Levels.nested(page.layers());
      // An extended dictionary is kept only if it beats the values alone, which do not depend on
      // it: with a second core they are encoded there while the dictionary is tried and built
      // here (same pages, whichever finishes first). List items too: their dictionary wins
      // outright when it is built, and the values' work is then lost, but a trial that fails
      // (token ids by line, high cardinality) no longer delays them.
      boolean speculate = Parallelism.ENABLED && page.values() instanceof DataBlock.FixedWidth fw
          && fw.usedBytes() >= SPECULATE_MIN_BYTES && DictionaryEncoder.extendedTrial(page.values(), page.options(), ctx.version());
      if (speculate) {
        // both sides read the values' statistics: kept here first, they are not computed twice
        ctx.stats(page.values());
      }
      Parallelism.Part<PhysicalPage<?>> valuesAlone = speculate ? Parallelism.start(() -> encodeValues(page, ctx)) : null;
      DictionaryEncoder.Result dict =
          DictionaryEncoder.tryEncode(page.values(), nested ? PageValues.valueLevels(page) : page.defLevels(), page.options(), ctx.version(), ctx);
      if (dict != null) {
        PhysicalPage<MiniBlockSpec> withDict = MiniBlockPageEncoder.encode(page, ctx, dict);
        if (nested || dict.referencePolicy()) {
          return withDict;
        }
        long dictBytes = bytes(withDict);
        // the values alone lose once their chunks pass dictBytes / gain, so a codec that measures
        // by compressing (ALP) may stop there: on a page the dictionary shrinks 90 times it did
        // the page's whole encode only to lose
        PhysicalPage<?> without = valuesAlone != null
            ? valuesAlone.join()
            : encodeValues(page, ctx, (long) Math.floor(dictBytes / EXTENDED_DICT_GAIN));
        return dictBytes <= EXTENDED_DICT_GAIN * bytes(without) ? withDict : without;
      }
      if (valuesAlone != null) {
        return valuesAlone.join();
      }
    }
    return encodeValues(page, ctx);
  }

  static long bytes(PhysicalPage<?> p) {
    long total = 0;
    for (byte[] b : p.buffers()) {
      total += b.length;
    }
    return total;
  }

  /** Mini-block or full-zip, by the widest value unless the field forces one. */
  private static PhysicalPage<?> encodeValues(PageInput page, LayoutContext ctx) {
    return encodeValues(page, ctx, Long.MAX_VALUE);
  }

  /** {@code sizeToBeat}: as in {@link MiniBlockPageEncoder#encode(PageInput, LayoutContext, DictionaryEncoder.Result, long)}. */
  private static PhysicalPage<?> encodeValues(PageInput page, LayoutContext ctx, long sizeToBeat) {
    Optional<StructuralEncoding> forced = page.options().structuralEncoding();
    long widest = PageValues.maxValueBytes(page.values());
    // a chunked scheme (pcodec) compresses similar rows together, which full zip cannot
    boolean fullZip = forced.map(s -> s == StructuralEncoding.FULLZIP)
        .orElseGet(() -> widest >= FULL_ZIP_MIN_BYTES && !page.options().chunkedCompression());
    if (page.values() instanceof DataBlock.Struct packed) {
      // Packed structs: fixed-width children always chunk (the reference has no full-zip form
      // for them); a variable-width child needs the full-zip rows of 2.2.
      boolean variable = packed.children().stream().anyMatch(c -> c instanceof DataBlock.VariableWidth);
      if (variable && !ctx.version().atLeast(FileVersion.V2_2)) {
        throw LanceCodecException.unsupported("packed struct with a variable-width child needs file version 2.2 or later");
      }
      if (forced.isPresent() && forced.get() == (variable ? StructuralEncoding.MINIBLOCK : StructuralEncoding.FULLZIP)) {
        throw LanceCodecException.invalidArgument("structural-encoding=" + forced.get().option() + " is not available for this packed struct");
      }
      return variable ? FullZipPage.encode(page, ctx) : MiniBlockPageEncoder.encode(page, ctx);
    }
    boolean fixed = page.values() instanceof DataBlock.FixedWidth || page.values() instanceof DataBlock.FixedSizeList;
    // Forced mini-block on wide rows (e.g. 2048 x u64 token ids) gets one row per chunk, which
    // 2.1 can only hold up to its 32 KiB chunk (header and padding included).
    if (!fullZip && fixed && !ctx.version().atLeast(FileVersion.V2_2) && oneRowChunkBytes(page.values(), widest) > MiniBlocks.MAX_CHUNK_BYTES_2_1) {
      throw LanceCodecException.invalidArgument(
          "structural-encoding=miniblock: " + widest + "-byte values exceed a 2.1 mini-block chunk (32 KiB); use fullzip or version 2.2");
    }
    if (fullZip && boolLeaf(page.values()) && !byteRowsOfBooleans(page.values())) {
      // the reference's writer panics on every other shape and its reader cannot read them
      throw LanceCodecException.invalidArgument("structural-encoding=fullzip stores booleans only as fixed-size lists"
          + " of a multiple of 8 items without any null list or item in the page");
    }
    if (fullZip && forced.isEmpty() && alsoChunked(page, ctx)) {
      // General compression of zipped rows sees one row at a time, and bit-packing pads a row of
      // fewer than 1024 integers to a whole group; the leaf of chunked rows is compressed a few
      // rows at once (and byte-stream split first), so build both, keep the smaller
      PhysicalPage<?> zipped = FullZipPage.encode(page, ctx);
      PhysicalPage<?> chunked = MiniBlockPageEncoder.encode(page, ctx);
      return bytes(chunked) < bytes(zipped) ? chunked : zipped;
    }
    return fullZip ? FullZipPage.encode(page, ctx) : MiniBlockPageEncoder.encode(page, ctx, null, sizeToBeat);
  }

  /** Bit-packing's group: a zipped row of fewer integers than this packs no smaller than it is wide. */
  private static final long PACKED_GROUP = 1024;

  /**
   * Whether a 2.3 page of fixed-size lists of whole-byte numbers, zipped for its width, is also
   * built in chunks: when its field asks for a compression scheme (a chunked one keeps them in
   * chunks already), or when its rows hold fewer integers than a bit-packing group.
   */
  private static boolean alsoChunked(PageInput page, LayoutContext ctx) {
    long items = numberListItems(page.values());
    if (!ctx.version().atLeast(FileVersion.V2_3) || items == 0) {
      return false;
    }
    boolean general = page.options().compression().isPresent() && !page.options().chunkedCompression();
    boolean shortIntegers = items < PACKED_GROUP && page.options().numberKind().integer() && !page.options().compressionNone();
    return general || shortIntegers;
  }

  /** The leaf items of a row of fixed-size lists (any depth) over whole-byte numbers of at most 64 bits; 0 for other values. */
  private static long numberListItems(DataBlock values) {
    if (!(values instanceof DataBlock.FixedSizeList)) {
      return 0;
    }
    long items = 1;
    DataBlock b = values;
    while (b instanceof DataBlock.FixedSizeList || b instanceof DataBlock.Nullable) {
      if (b instanceof DataBlock.FixedSizeList fsl) {
        items *= fsl.dimension();
        b = fsl.child();
      } else {
        b = ((DataBlock.Nullable) b).data();
      }
    }
    return b instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() % 8 == 0 && fw.bitsPerValue() <= 64 ? items : 0;
  }

  /** An upper bound of a chunk holding one row: header and levels, item validity, values, padded. */
  private static long oneRowChunkBytes(DataBlock values, long widest) {
    long validity = 0;
    long items = 1;
    DataBlock b = values;
    while (b instanceof DataBlock.FixedSizeList fsl) {
      items *= fsl.dimension();
      b = fsl.child();
      if (b instanceof DataBlock.Nullable nb) {
        // one validity buffer per level that has it, each padded in the chunk
        validity += MiniBlockPageEncoder.pad8((int) ((items + 7) / 8));
        b = nb.data();
      }
    }
    return 8 + 8 + 8 + validity + ((widest + 7) & ~7L);
  }

  /** Booleans, or fixed-size lists of them at any depth. */
  private static boolean boolLeaf(DataBlock block) {
    DataBlock b = block;
    while (b instanceof DataBlock.FixedSizeList || b instanceof DataBlock.Nullable) {
      b = b instanceof DataBlock.FixedSizeList fsl ? fsl.child() : ((DataBlock.Nullable) b).data();
    }
    return b instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == 1;
  }

  /** Fixed-size lists (any depth) of booleans without validity at any level, rows of whole bytes. */
  private static boolean byteRowsOfBooleans(DataBlock block) {
    long items = 1;
    DataBlock b = block;
    while (b instanceof DataBlock.FixedSizeList fsl) {
      items *= fsl.dimension();
      b = fsl.child();
    }
    return block instanceof DataBlock.FixedSizeList && b instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == 1
        && items % 8 == 0;
  }


}
