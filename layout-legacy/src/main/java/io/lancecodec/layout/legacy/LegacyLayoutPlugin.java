package io.lancecodec.layout.legacy;

import com.google.protobuf.Message;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.layout.physical.DensePages;
import io.lancecodec.layout.physical.FullZipPage;
import io.lancecodec.layout.physical.FullZipSpec;
import io.lancecodec.layout.physical.Levels;
import io.lancecodec.layout.physical.MiniBlockPageDecoder;
import io.lancecodec.layout.physical.MiniBlockSpec;
import io.lancecodec.layout.physical.PageValues;
import io.lancecodec.layout.physical.PhysicalPage;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.FieldOptions.StructuralEncoding;
import io.lancecodec.spi.FileVersion;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.LayoutPlugin;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageDescription;
import io.lancecodec.spi.layout.PageInput;
import io.lancecodec.spi.layout.PageSource;
import java.util.EnumSet;
import java.util.Set;

/**
 * The stable 2.1/2.2 layouts. The policy is the reference's: an all-null page is a constant page
 * without a value; in 2.2 a page whose valid values are all equal is a constant page; otherwise
 * values narrower than {@link DensePages#FULL_ZIP_MIN_BYTES} go to mini-blocks and wider ones to full-zip,
 * unless the field forces one with {@code lance-encoding:structural-encoding}.
 */
public final class LegacyLayoutPlugin implements LayoutPlugin {
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
    if (page.options().structuralEncoding().orElse(null) == StructuralEncoding.SPARSE) {
      throw LanceCodecException.invalidArgument("structural-encoding=sparse needs file version 2.3");
    }
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
    return dense(page, ctx);
  }

  /** The page in the 2.1/2.2 message of the grammar the dense policy chose. */
  private static EncodedPage dense(PageInput page, LayoutContext ctx) {
    PhysicalPage<?> p = DensePages.encode(page, ctx);
    if (p.spec() instanceof MiniBlockSpec) {
      @SuppressWarnings("unchecked")
      PhysicalPage<MiniBlockSpec> mb = (PhysicalPage<MiniBlockSpec>) p;
      return V21Grammar.miniBlock(mb, page.numRows());
    }
    @SuppressWarnings("unchecked")
    PhysicalPage<FullZipSpec> fz = (PhysicalPage<FullZipSpec>) p;
    return V21Grammar.fullZip(fz, page.numRows());
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
      byte[] scalar = PageValues.constantValue(page.values(), PageValues.valueLevels(page));
      if (scalar != null) {
        return ConstantPage.encode(page, scalar);
      }
    }
    return dense(page, ctx);
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
