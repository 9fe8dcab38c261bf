package io.lancecodec.layout.planar;

import io.lancecodec.format.pb.v23.ChunkedValues;
import io.lancecodec.format.pb.v23.PlanarLayout;
import io.lancecodec.format.pb.v23.SparseStructuralLayer;
import io.lancecodec.format.pb.v23.SparseValiditySet;
import io.lancecodec.format.pb.v23.ValuePlane;
import io.lancecodec.format.pb.v23.ZippedValues;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.layout.PageDescription;

/**
 * How inspect shows a 2.3 page, from its message alone: both planes and every compression tree,
 * e.g. {@code sparse [validity(valid 10000)] zipped values: flat(32)}.
 */
final class PlanarDescriptions {
  private PlanarDescriptions() {}

  static PageDescription of(PlanarLayout p, Decoders decoders) {
    StringBuilder s = new StringBuilder();
    switch (p.getStructure().getCodecCase()) {
      case DENSE:
        s.append("dense");
        if (p.getStructure().getDense().getLayersCount() > 1) {
          s.append(" layers ").append(p.getStructure().getDense().getLayersList());
        }
        break;
      case SPARSE:
        s.append("sparse [");
        boolean first = true;
        for (SparseStructuralLayer l : p.getStructure().getSparse().getLayersList()) {
          s.append(first ? "" : ", ");
          first = false;
          switch (l.getLayerCase()) {
            case VALIDITY:
              s.append("validity(").append(validity(l.getValidity(), decoders)).append(')');
              break;
            case LIST:
              s.append("list(").append(l.getList().getNumNonEmptyPositions()).append(" non-empty: ")
                  .append(decoders.describe(l.getList().getNonEmptyPositions())).append(", counts: ")
                  .append(decoders.describe(l.getList().getCounts())).append(", ")
                  .append(validity(l.getList().getValidity(), decoders)).append(')');
              break;
            case FIXED_SIZE_LIST:
              s.append("fixed_size_list(").append(l.getFixedSizeList().getDimension()).append(", ")
                  .append(validity(l.getFixedSizeList().getValidity(), decoders)).append(')');
              break;
            default:
              s.append('?');
          }
        }
        s.append(']');
        break;
      default:
        s.append("no structure");
    }
    s.append(", ").append(values(p.getValues(), decoders));
    return new PageDescription("planar", s.toString());
  }

  private static String validity(SparseValiditySet v, Decoders decoders) {
    String meaning = v.getMeaning() == SparseValiditySet.Meaning.SPARSE_VALIDITY_NULL_POSITIONS ? "null" : "valid";
    return v.getNumPositions() + " " + meaning + ": " + decoders.describe(v.getPositions());
  }

  private static String values(ValuePlane v, Decoders decoders) {
    switch (v.getCodecCase()) {
      case CHUNKED:
        {
          ChunkedValues c = v.getChunked();
          return "chunked values: " + decoders.describe(c.getCompression())
              + (c.hasDictionary() ? ", dictionary of " + c.getNumDictionaryItems() + ": " + decoders.describe(c.getDictionary()) : "")
              + (c.getLevels().hasRepCompression() ? ", rep: " + decoders.describe(c.getLevels().getRepCompression()) : "")
              + (c.getLevels().hasDefCompression() ? ", def: " + decoders.describe(c.getLevels().getDefCompression()) : "");
        }
      case ZIPPED:
        return "zipped values: " + zipped(v.getZipped(), decoders);
      case INDEXED:
        return "indexed values: indices " + decoders.describe(v.getIndexed().getIndices()) + ", "
            + v.getIndexed().getItems().getNumItems() + " items " + zipped(v.getIndexed().getItems(), decoders);
      case CONSTANT:
        return "constant value (" + v.getConstant().getValue().size() + " bytes)";
      case NONE:
        return "no values";
      default:
        return "no value plane";
    }
  }

  private static String zipped(ZippedValues z, Decoders decoders) {
    return decoders.describe(z.getCompression()) + (z.hasLevels() ? ", control words rep " + z.getLevels().getBitsRep() + " def "
        + z.getLevels().getBitsDef() + " bits" : "");
  }
}
