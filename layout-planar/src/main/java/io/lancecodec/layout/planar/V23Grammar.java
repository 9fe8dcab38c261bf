package io.lancecodec.layout.planar;

import io.lancecodec.format.pb.v23.ChunkedValues;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.format.pb.v23.DenseChunkLevels;
import io.lancecodec.format.pb.v23.DenseStructure;
import io.lancecodec.format.pb.v23.DenseZipLevels;
import io.lancecodec.format.pb.v23.RepDefLayer;
import io.lancecodec.format.pb.v23.ZippedValues;
import io.lancecodec.layout.physical.FullZipSpec;
import io.lancecodec.layout.physical.Levels;
import io.lancecodec.layout.physical.MiniBlockSpec;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.LevelLayer;
import java.util.List;

/**
 * The 2.3 messages of the shared mini-block and full-zip grammars: dense chunked values carry
 * their levels in {@code DenseChunkLevels}, dense zipped values in {@code DenseZipLevels}, and the
 * layers in {@code DenseStructure}; sparse values have neither (one item layer, no levels).
 */
final class V23Grammar {
  private V23Grammar() {}

  /** The single all-valid item layer of values that carry no levels (sparse planes). */
  static final List<LevelLayer> NO_LEVELS = List.of(LevelLayer.ALL_VALID_ITEM);

  static ChunkedValues chunked(MiniBlockSpec s, boolean dense) {
    ChunkedValues.Builder b =
        ChunkedValues.newBuilder()
            .setCompression((CompressiveEncoding) s.valueCompression())
            .setNumBuffers(s.numBuffers())
            .setNumItems(dense ? s.numItems() : 0);
    if (dense) {
      DenseChunkLevels.Builder levels = DenseChunkLevels.newBuilder();
      if (s.repCompression() != null) {
        levels.setRepCompression((CompressiveEncoding) s.repCompression()).setRepetitionIndexDepth((int) s.repetitionIndexDepth());
      }
      if (s.defCompression() != null) {
        levels.setDefCompression((CompressiveEncoding) s.defCompression());
      }
      b.setLevels(levels);
    }
    if (s.dictionary() != null) {
      b.setDictionary((CompressiveEncoding) s.dictionary()).setNumDictionaryItems(s.numDictionaryItems());
    }
    return b.build();
  }

  /**
   * The spec of chunked values: with dense structure its layers and levels; with sparse structure
   * none, and {@code numItems} the terminal slots the structure derived (the stored count is 0).
   */
  static MiniBlockSpec chunkedSpec(ChunkedValues m, List<LevelLayer> denseLayers, long sparseItems) {
    boolean dense = denseLayers != null;
    if (dense != m.hasLevels()) {
      throw LanceCodecException.corrupt("planar: chunked values " + (m.hasLevels() ? "have" : "lack") + " DenseChunkLevels with "
          + (dense ? "dense" : "sparse") + " structure");
    }
    if (!m.hasCompression()) {
      throw LanceCodecException.corrupt("planar: chunked values without compression");
    }
    if (!dense && m.getNumItems() != 0) {
      throw LanceCodecException.corrupt("planar: sparse chunked values declare num_items " + Long.toUnsignedString(m.getNumItems()) + ", must be 0");
    }
    DenseChunkLevels levels = m.getLevels();
    return new MiniBlockSpec(
        dense ? denseLayers : NO_LEVELS,
        m.getCompression(),
        levels.hasRepCompression() ? levels.getRepCompression() : null,
        levels.hasDefCompression() ? levels.getDefCompression() : null,
        m.hasDictionary() ? m.getDictionary() : null,
        m.getNumDictionaryItems(),
        m.getNumBuffers(),
        dense ? m.getNumItems() : sparseItems,
        Integer.toUnsignedLong(levels.getRepetitionIndexDepth()),
        true,
        m.getSerializedSize());
  }

  static ZippedValues zipped(FullZipSpec s, boolean dense) {
    ZippedValues.Builder b =
        ZippedValues.newBuilder()
            .setCompression((CompressiveEncoding) s.valueCompression())
            .setNumItems(s.numItems())
            .setNumVisibleItems(s.numVisibleItems());
    if (dense) {
      b.setLevels(DenseZipLevels.newBuilder().setBitsRep(s.bitsRep()).setBitsDef(s.bitsDef()));
    }
    if (s.bitsPerValue() >= 0) {
      b.setBitsPerValue(s.bitsPerValue());
    } else {
      b.setBitsPerOffset(s.bitsPerOffset());
    }
    return b.build();
  }

  /** The spec of zipped values; sparse ones have no levels and as many visible items as items. */
  static FullZipSpec zippedSpec(ZippedValues m, List<LevelLayer> denseLayers) {
    boolean dense = denseLayers != null;
    if (dense != m.hasLevels()) {
      throw LanceCodecException.corrupt("planar: zipped values " + (m.hasLevels() ? "have" : "lack") + " DenseZipLevels with "
          + (dense ? "dense" : "sparse") + " structure");
    }
    if (!m.hasCompression()) {
      throw LanceCodecException.corrupt("planar: zipped values without compression");
    }
    if (!dense && m.getNumItems() != m.getNumVisibleItems()) {
      throw LanceCodecException.corrupt("planar: sparse zipped values have " + Long.toUnsignedString(m.getNumVisibleItems())
          + " visible of " + Long.toUnsignedString(m.getNumItems()) + " items, must be equal");
    }
    int bitsPerValue = -1;
    int bitsPerOffset = -1;
    switch (m.getAddressingCase()) {
      case BITS_PER_VALUE:
        bitsPerValue = nonNegative(m.getBitsPerValue(), "bits_per_value");
        break;
      case BITS_PER_OFFSET:
        bitsPerOffset = nonNegative(m.getBitsPerOffset(), "bits_per_offset");
        break;
      default:
        break;
    }
    return new FullZipSpec(
        dense ? denseLayers : NO_LEVELS,
        dense ? nonNegative(m.getLevels().getBitsRep(), "bits_rep") : 0,
        dense ? nonNegative(m.getLevels().getBitsDef(), "bits_def") : 0,
        count(m.getNumItems(), "num_items"),
        count(m.getNumVisibleItems(), "num_visible_items"),
        m.getCompression(),
        bitsPerValue,
        bitsPerOffset,
        m.getSerializedSize());
  }

  /** A uint32 field read as a Java int: values of 2^31 and more are corrupt, not negative. */
  private static int nonNegative(int v, String field) {
    if (v < 0) {
      throw LanceCodecException.corrupt("planar: " + field + " " + Integer.toUnsignedString(v) + " is out of range");
    }
    return v;
  }

  /** A uint64 count that must fit a page (at most 2^31 - 1 items). */
  static long count(long v, String field) {
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw LanceCodecException.corrupt("planar: " + field + " " + Long.toUnsignedString(v) + " is out of range");
    }
    return v;
  }

  static DenseStructure dense(List<LevelLayer> layers) {
    return DenseStructure.newBuilder().addAllLayers(layers.stream().map(l -> RepDefLayer.valueOf(Levels.enumName(l))).toList()).build();
  }

  /** The dense layers, inner-most first, checked as {@link Levels#checked} does. */
  static List<LevelLayer> layers(DenseStructure d) {
    return Levels.fromEnumNames(d.getLayersList().stream().map(RepDefLayer::name).toList());
  }
}
