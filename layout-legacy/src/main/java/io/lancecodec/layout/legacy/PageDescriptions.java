package io.lancecodec.layout.legacy;

import io.lancecodec.format.pb.v21.BlobLayout;
import io.lancecodec.format.pb.v21.ConstantLayout;
import io.lancecodec.format.pb.v21.FullZipLayout;
import io.lancecodec.format.pb.v21.MiniBlockLayout;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.layout.physical.Levels;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageDescription;
import io.lancecodec.spi.layout.PageSource;
import java.util.List;

/**
 * How inspect shows a 2.1/2.2 page, from its {@code PageLayout} and buffer sizes alone. The
 * compression trees are summarized by their owners through the registry; this class knows only
 * the layouts.
 */
final class PageDescriptions {
  private PageDescriptions() {}

  static PageDescription of(PageLayout page, PageSource source, Decoders decoders) {
    switch (page.getLayoutCase()) {
      case MINI_BLOCK_LAYOUT:
        return miniBlock(page.getMiniBlockLayout(), source, decoders);
      case FULL_ZIP_LAYOUT:
        return fullZip(page.getFullZipLayout(), decoders);
      case CONSTANT_LAYOUT:
        return constant(page.getConstantLayout());
      case BLOB_LAYOUT:
        return blob(page.getBlobLayout(), source, decoders);
      default:
        return new PageDescription("?", "empty page layout");
    }
  }

  private static PageDescription miniBlock(MiniBlockLayout layout, PageSource source, Decoders decoders) {
    boolean large = layout.getHasLargeChunk();
    long chunks = source.numBuffers() == 0 ? 0 : source.bufferSize(0) / (large ? 4 : 2);
    String details = "mini-block" + (large ? " (large chunks)" : "") + ", " + chunks + " chunks, values: "
        + decoders.describe(layout.getValueCompression())
        + (layout.hasDictionary()
            ? ", dictionary of " + layout.getNumDictionaryItems() + ": " + decoders.describe(layout.getDictionary()) : "")
        + (layout.hasRepCompression() ? ", rep: " + decoders.describe(layout.getRepCompression()) : "")
        + (layout.getRepetitionIndexDepth() > 1 ? ", repetition index depth " + layout.getRepetitionIndexDepth() : "")
        + (layout.hasDefCompression() ? ", def: " + decoders.describe(layout.getDefCompression()) : "")
        + layers(layout.getLayersList());
    return new PageDescription("mini-block", details);
  }

  private static PageDescription fullZip(FullZipLayout layout, Decoders decoders) {
    return new PageDescription("full-zip",
        "full-zip, values: " + decoders.describe(layout.getValueCompression()) + layers(layout.getLayersList()));
  }

  private static PageDescription constant(ConstantLayout layout) {
    return new PageDescription("constant",
        (layout.hasInlineValue() ? "constant" : "constant (all null)") + layers(layout.getLayersList()));
  }

  private static PageDescription blob(BlobLayout layout, PageSource source, Decoders decoders) {
    if (Levels.maxRep(V21Grammar.fromProto(layout.getLayersList())) > 0) {
      return new PageDescription("blob", "blob under a list (unreadable)");
    }
    return new PageDescription("blob", "blob, descriptions: " + of(layout.getInnerLayout(), source, decoders).details());
  }

  /** ", layers [...]" for pages under lists or structs, nothing for a flat page. */
  private static String layers(List<io.lancecodec.format.pb.v21.RepDefLayer> proto) {
    List<LevelLayer> layers = V21Grammar.fromProto(proto);
    return Levels.nested(layers) ? ", layers " + layers : "";
  }
}
