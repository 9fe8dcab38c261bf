package io.lancecodec.layout.legacy;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.FullZipLayout;
import io.lancecodec.format.pb.v21.MiniBlockLayout;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.format.pb.v21.RepDefLayer;
import io.lancecodec.layout.physical.FullZipSpec;
import io.lancecodec.layout.physical.Levels;
import io.lancecodec.layout.physical.MiniBlockSpec;
import io.lancecodec.layout.physical.PhysicalPage;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LevelLayer;
import java.util.List;

/**
 * The 2.1/2.2 messages of the shared mini-block and full-zip grammars: the physical code works
 * on grammar-neutral specs, and this is where they become {@code lance.encodings21} messages and
 * back.
 */
final class V21Grammar {
  private V21Grammar() {}

  static EncodedPage miniBlock(PhysicalPage<MiniBlockSpec> page, long numRows) {
    MiniBlockSpec s = page.spec();
    MiniBlockLayout.Builder layout =
        MiniBlockLayout.newBuilder()
            .setValueCompression((CompressiveEncoding) s.valueCompression())
            .addAllLayers(toProto(s.layers()))
            .setNumBuffers(s.numBuffers())
            .setNumItems(s.numItems())
            .setHasLargeChunk(s.largeChunks());
    if (s.repCompression() != null) {
      layout.setRepCompression((CompressiveEncoding) s.repCompression()).setRepetitionIndexDepth((int) s.repetitionIndexDepth());
    }
    if (s.defCompression() != null) {
      layout.setDefCompression((CompressiveEncoding) s.defCompression());
    }
    if (s.dictionary() != null) {
      layout.setDictionary((CompressiveEncoding) s.dictionary()).setNumDictionaryItems(s.numDictionaryItems());
    }
    return new EncodedPage(page.buffers(), PageLayout.newBuilder().setMiniBlockLayout(layout).build(), numRows);
  }

  static MiniBlockSpec spec(MiniBlockLayout m) {
    return new MiniBlockSpec(
        fromProto(m.getLayersList()),
        m.hasValueCompression() ? m.getValueCompression() : null,
        m.hasRepCompression() ? m.getRepCompression() : null,
        m.hasDefCompression() ? m.getDefCompression() : null,
        m.hasDictionary() ? m.getDictionary() : null,
        m.getNumDictionaryItems(),
        m.getNumBuffers(),
        m.getNumItems(),
        Integer.toUnsignedLong(m.getRepetitionIndexDepth()),
        m.getHasLargeChunk(),
        m.getSerializedSize());
  }

  static EncodedPage fullZip(PhysicalPage<FullZipSpec> page, long numRows) {
    FullZipSpec s = page.spec();
    FullZipLayout.Builder layout =
        FullZipLayout.newBuilder()
            .setBitsRep(s.bitsRep())
            .setBitsDef(s.bitsDef())
            .setNumItems(Math.toIntExact(s.numItems()))
            .setNumVisibleItems(Math.toIntExact(s.numVisibleItems()))
            .setValueCompression((CompressiveEncoding) s.valueCompression())
            .addAllLayers(toProto(s.layers()));
    if (s.bitsPerValue() >= 0) {
      layout.setBitsPerValue(s.bitsPerValue());
    } else {
      layout.setBitsPerOffset(s.bitsPerOffset());
    }
    return new EncodedPage(page.buffers(), PageLayout.newBuilder().setFullZipLayout(layout).build(), numRows);
  }

  static FullZipSpec spec(FullZipLayout m) {
    int bitsPerValue = -1;
    int bitsPerOffset = -1;
    switch (m.getDetailsCase()) {
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
        fromProto(m.getLayersList()),
        nonNegative(m.getBitsRep(), "bits_rep"),
        nonNegative(m.getBitsDef(), "bits_def"),
        Integer.toUnsignedLong(m.getNumItems()),
        Integer.toUnsignedLong(m.getNumVisibleItems()),
        m.hasValueCompression() ? m.getValueCompression() : null,
        bitsPerValue,
        bitsPerOffset,
        m.getSerializedSize());
  }

  /** A uint32 field read as a Java int: values of 2^31 and more are corrupt, not negative. */
  private static int nonNegative(int v, String field) {
    if (v < 0) {
      throw LanceCodecException.corrupt("full-zip: " + field + " " + Integer.toUnsignedString(v) + " is out of range");
    }
    return v;
  }

  static List<RepDefLayer> toProto(List<LevelLayer> layers) {
    return layers.stream().map(l -> RepDefLayer.valueOf(Levels.enumName(l))).toList();
  }

  /** The layers as the SPI names them, checked as {@link Levels#checked} does. */
  static List<LevelLayer> fromProto(List<RepDefLayer> layers) {
    return Levels.fromEnumNames(layers.stream().map(RepDefLayer::name).toList());
  }
}
