package io.lancecodec.layout.legacy;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.ConstantLayout;
import io.lancecodec.format.pb.v21.FullZipLayout;
import io.lancecodec.format.pb.v21.MiniBlockLayout;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.EncodedPage;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LayoutContext;
import io.lancecodec.spi.LayoutPlugin;
import io.lancecodec.spi.PageDecoder;
import io.lancecodec.spi.PageInput;
import io.lancecodec.spi.PageSource;
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

  /** A 2.1 chunk is at most 4096 eight-byte words (12 bits of words - 1 in its metadata word). */
  static final long MAX_CHUNK_2_1 = 32 * 1024;

  @Override
  public String name() {
    return "legacy";
  }

  @Override
  public Set<FileVersion> fileVersions() {
    return EnumSet.of(FileVersion.V2_1, FileVersion.V2_2);
  }

  @Override
  public Set<Class<? extends Message>> decodes() {
    return Set.of(MiniBlockLayout.class, FullZipLayout.class, ConstantLayout.class, io.lancecodec.format.pb.v21.BlobLayout.class);
  }

  @Override
  public EncodedPage encode(PageInput page, LayoutContext ctx) {
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
    Optional<String> forced = page.options().structuralEncoding();
    if (forced.isEmpty() || forced.get().equals("miniblock")) {
      DictionaryEncoder.Result dict =
          DictionaryEncoder.tryEncode(page.values(), page.defLevels(), page.options(), ctx.version());
      if (dict != null) {
        EncodedPage withDict = MiniBlockPageEncoder.encode(page, ctx, dict);
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
    Optional<String> forced = page.options().structuralEncoding();
    if (forced.isPresent() && forced.get().equals("sparse")) {
      throw LanceCodecException.invalidArgument("structural-encoding=sparse needs file version 2.3");
    }
    long widest = maxValueBytes(page.values());
    boolean fullZip = forced.map(s -> s.equals("fullzip")).orElseGet(() -> widest >= FULL_ZIP_MIN_BYTES);
    if (page.values() instanceof DataBlock.Struct packed) {
      // Packed structs: fixed-width children always chunk (the reference has no full-zip form
      // for them); a variable-width child needs the full-zip rows of 2.2.
      boolean variable = packed.children().stream().anyMatch(c -> c instanceof DataBlock.VariableWidth);
      if (variable && !ctx.version().atLeast(FileVersion.V2_2)) {
        throw LanceCodecException.unsupported("packed struct with a variable-width child needs file version 2.2 or later");
      }
      if (forced.isPresent() && forced.get().equals(variable ? "miniblock" : "fullzip")) {
        throw LanceCodecException.invalidArgument("structural-encoding=" + forced.get() + " is not available for this packed struct");
      }
      return variable ? FullZipPage.encode(page, ctx) : MiniBlockPageEncoder.encode(page, ctx);
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
    return fullZip ? FullZipPage.encode(page, ctx) : MiniBlockPageEncoder.encode(page, ctx);
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
    Optional<String> forced = page.options().structuralEncoding();
    if (forced.isEmpty() || forced.get().equals("miniblock")) {
      // as in the reference, the decision is the leaf values' own (e.g. the strings of a list)
      DictionaryEncoder.Result dict =
          DictionaryEncoder.tryEncode(page.values(), valueLevels(page), page.options(), ctx.version());
      if (dict != null) {
        return MiniBlockPageEncoder.encode(page, ctx, dict);
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
          throw new LanceCodecException(LanceCodecException.Kind.INTERNAL, "levels name more values than the page holds");
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
  public PageDecoder open(Message layout, PageSource source, long numRows, LayoutContext ctx) {
    if (layout instanceof MiniBlockLayout m) {
      return new MiniBlockPageDecoder(m, source, numRows, ctx);
    }
    if (layout instanceof FullZipLayout f) {
      return new FullZipPage.Decoder(f, source, numRows, ctx);
    }
    if (layout instanceof ConstantLayout c) {
      return new ConstantPage.Decoder(c, source, numRows, ctx);
    }
    if (layout instanceof io.lancecodec.format.pb.v21.BlobLayout b) {
      return new BlobPage.Decoder(b, source, numRows, ctx, this);
    }
    throw LanceCodecException.unsupported("legacy layout cannot open " + layout.getDescriptorForType().getName());
  }
}
