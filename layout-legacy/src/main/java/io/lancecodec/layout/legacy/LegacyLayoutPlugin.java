package io.lancecodec.layout.legacy;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.layout.physical.DictionaryEncoder;
import io.lancecodec.layout.physical.FullZipPage;
import io.lancecodec.layout.physical.Levels;
import io.lancecodec.layout.physical.MiniBlockPageDecoder;
import io.lancecodec.layout.physical.MiniBlockPageEncoder;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.FieldOptions.StructuralEncoding;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.MiniBlocks;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.LayoutPlugin;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageDescription;
import io.lancecodec.spi.layout.PageInput;
import io.lancecodec.spi.layout.PageSource;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The stable 2.1/2.2 layouts. The policy is the reference's: an all-null page is a constant page
 * without a value; in 2.2 a page whose valid values are all equal is a constant page; otherwise
 * values narrower than {@link #FULL_ZIP_MIN_BYTES} go to mini-blocks and wider ones to full-zip,
 * unless the field forces one with {@code lance-encoding:structural-encoding}.
 */
public final class LegacyLayoutPlugin implements LayoutPlugin {
  /**
   * Values this wide (the largest value of the page) use full-zip: at 256 bytes only 16 values
   * fit a 4 KiB sector, so a chunk's metadata would cost more than it saves.
   */
  static final long FULL_ZIP_MIN_BYTES = 256;

  static final long MAX_CHUNK_2_1 = MiniBlocks.MAX_CHUNK_BYTES_2_1;

  @Override
  public String name() {
    return "legacy";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_1, FileVersion.V2_2);
  }

  @Override
  public Set<Class<? extends Message>> pageEncodings() {
    return Set.of(PageLayout.class);
  }

  @Override
  public EncodedPage encode(PageInput page, LayoutContext ctx) {
    if (page.options().blob()) {
      return BlobPage.encode(page, ctx, this);
    }
    if (Levels.nested(page.layers())) {
      return encodeNested(page, ctx);
    }
    if (page.numRows() > 0 && allNull(page)) {
      return ConstantPage.allNull(page);
    }
    if (ctx.version().atLeast(FileVersion.V2_2) && page.numRows() > 0) {
      byte[] scalar = ConstantPage.constantValue(page);
      if (scalar != null) {
        return ConstantPage.encode(page, scalar);
      }
    }
    Optional<StructuralEncoding> forced = page.options().structuralEncoding();
    if (forced.isEmpty() || forced.get() == StructuralEncoding.MINIBLOCK) {
      DictionaryEncoder.Result dict =
          DictionaryEncoder.tryEncode(page.values(), page.defLevels(), page.options(), ctx.version());
      if (dict != null) {
        EncodedPage withDict = V21Grammar.miniBlock(MiniBlockPageEncoder.encode(page, ctx, dict), page.numRows());
        if (dict.referencePolicy()) {
          return withDict;
        }
        EncodedPage without = encodeValues(page, ctx);
        return bytes(withDict) <= EXTENDED_DICT_GAIN * bytes(without) ? withDict : without;
      }
    }
    return encodeValues(page, ctx);
  }

  /**
   * A dictionary where the reference writes none (small negative integers, low-cardinality
   * floats, 64-bit values in 2.1) must save at least this much of the page: decoding through a
   * dictionary is slower, so a few percent are not worth it (flat token ids would save 6%).
   */
  static final double EXTENDED_DICT_GAIN = 0.8;

  static long bytes(EncodedPage p) {
    long total = 0;
    for (byte[] b : p.buffers()) {
      total += b.length;
    }
    return total;
  }

  /** Mini-block or full-zip, by the widest value unless the field forces one. */
  private static EncodedPage encodeValues(PageInput page, LayoutContext ctx) {
    Optional<StructuralEncoding> forced = page.options().structuralEncoding();
    if (forced.isPresent() && forced.get() == StructuralEncoding.SPARSE) {
      throw LanceCodecException.invalidArgument("structural-encoding=sparse needs file version 2.3");
    }
    long widest = maxValueBytes(page.values());
    boolean fullZip = forced.map(s -> s == StructuralEncoding.FULLZIP).orElseGet(() -> widest >= FULL_ZIP_MIN_BYTES);
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
      return variable ? fullZip(page, ctx) : miniBlock(page, ctx);
    }
    boolean fixed = page.values() instanceof DataBlock.FixedWidth || page.values() instanceof DataBlock.FixedSizeList;
    // Forced mini-block on wide rows (e.g. 2048 x u64 token ids) gets one row per chunk, which
    // 2.1 can only hold up to its 32 KiB chunk (header and padding included).
    if (!fullZip && fixed && !ctx.version().atLeast(FileVersion.V2_2) && oneRowChunkBytes(page.values(), widest) > MAX_CHUNK_2_1) {
      throw LanceCodecException.invalidArgument(
          "structural-encoding=miniblock: " + widest + "-byte values exceed a 2.1 mini-block chunk (32 KiB); use fullzip or version 2.2");
    }
    if (fullZip && boolLeaf(page.values()) && !byteRowsOfBooleans(page.values())) {
      // the reference's writer panics on every other shape and its reader cannot read them
      throw LanceCodecException.invalidArgument("structural-encoding=fullzip stores booleans only as fixed-size lists"
          + " of a multiple of 8 items without any null list or item in the page");
    }
    return fullZip ? fullZip(page, ctx) : miniBlock(page, ctx);
  }

  private static EncodedPage miniBlock(PageInput page, LayoutContext ctx) {
    return V21Grammar.miniBlock(MiniBlockPageEncoder.encode(page, ctx), page.numRows());
  }

  private static EncodedPage fullZip(PageInput page, LayoutContext ctx) {
    return V21Grammar.fullZip(FullZipPage.encode(page, ctx), page.numRows());
  }

  /**
   * A page under lists or structs: without any value (only empty or null lists, or every item
   * null) the levels go to a constant page; in 2.2, when every valid value is the same, a
   * constant page with that value and the levels; otherwise mini-block or full-zip with the
   * levels.
   */
  private static EncodedPage encodeNested(PageInput page, LayoutContext ctx) {
    if (page.values().numValues() == 0 || page.values() instanceof DataBlock.AllNull) {
      return ConstantPage.complexAllNull(page, ctx);
    }
    if (ctx.version().atLeast(FileVersion.V2_2)) {
      byte[] scalar = ConstantPage.constantValue(page.values(), valueLevels(page));
      if (scalar != null) {
        return ConstantPage.encode(page, scalar);
      }
    }
    Optional<StructuralEncoding> forced = page.options().structuralEncoding();
    if (forced.isEmpty() || forced.get() == StructuralEncoding.MINIBLOCK) {
      // as in the reference, the decision is the leaf values' own (e.g. the strings of a list)
      DictionaryEncoder.Result dict =
          DictionaryEncoder.tryEncode(page.values(), valueLevels(page), page.options(), ctx.version());
      if (dict != null) {
        return V21Grammar.miniBlock(MiniBlockPageEncoder.encode(page, ctx, dict), page.numRows());
      }
    }
    return encodeValues(page, ctx);
  }

  /** One level per value (0 = valid item), from a nested page's levels: those that carry a value. */
  private static short[] valueLevels(PageInput page) {
    short[] def = page.defLevels();
    if (def == null) {
      return null;
    }
    int maxVisible = Levels.maxVisibleDef(page.layers());
    short[] out = new short[LanceCodecException.checkedInt(page.values().numValues(), "values")];
    int v = 0;
    for (short d : def) {
      if ((d & 0xFFFF) <= maxVisible) {
        if (v == out.length) {
          throw LanceCodecException.internal("levels name more values than the page holds");
        }
        out[v++] = d;
      }
    }
    return out;
  }

  private static boolean allNull(PageInput page) {
    short[] def = page.defLevels();
    if (def == null) {
      return page.values() instanceof DataBlock.AllNull;
    }
    for (short d : def) {
      if (d == 0) {
        return false;
      }
    }
    return true;
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

  static long maxValueBytes(DataBlock block) {
    if (block instanceof DataBlock.FixedWidth fw) {
      return fw.bitsPerValue() / 8;
    }
    if (block instanceof DataBlock.FixedSizeList fsl) {
      return maxValueBytes(fsl.child()) * fsl.dimension();
    }
    if (block instanceof DataBlock.Nullable nb) {
      // like the reference's statistic, item validity does not count towards the width
      return maxValueBytes(nb.data());
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      long max = 0;
      for (int i = 0; i < vw.numValues(); i++) {
        max = Math.max(max, vw.offset(i + 1) - vw.offset(i));
      }
      return max;
    }
    return 0;
  }

  @Override
  public PageDecoder open(Message page, PageSource source, long numRows, LayoutContext ctx) {
    return open(pageLayout(page), source, numRows, ctx);
  }

  /** Opens the layout set in {@code page}; blob pages open their inner layout through here too. */
  PageDecoder open(PageLayout page, PageSource source, long numRows, LayoutContext ctx) {
    switch (page.getLayoutCase()) {
      case MINI_BLOCK_LAYOUT:
        return new MiniBlockPageDecoder(V21Grammar.spec(page.getMiniBlockLayout()), source, numRows, ctx);
      case FULL_ZIP_LAYOUT:
        return new FullZipPage.Decoder(V21Grammar.spec(page.getFullZipLayout()), source, numRows, ctx);
      case CONSTANT_LAYOUT:
        return new ConstantPage.Decoder(page.getConstantLayout(), source, numRows, ctx);
      case BLOB_LAYOUT:
        return new BlobPage.Decoder(page.getBlobLayout(), source, numRows, ctx, this);
      default:
        throw LanceCodecException.corrupt("page layout has no layout set (unknown layout?)");
    }
  }

  @Override
  public PageDescription describe(Message page, PageSource source, Decoders decoders) {
    return PageDescriptions.of(pageLayout(page), source, decoders);
  }

  private static PageLayout pageLayout(Message page) {
    if (!(page instanceof PageLayout p)) {
      throw LanceCodecException.internal("legacy layout handed a " + page.getDescriptorForType().getFullName());
    }
    return p;
  }
}
