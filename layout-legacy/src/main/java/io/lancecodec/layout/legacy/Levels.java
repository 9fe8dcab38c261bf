package io.lancecodec.layout.legacy;

import io.lancecodec.format.pb.v21.RepDefLayer;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LevelLayer;
import io.lancecodec.spi.LittleEndian;
import java.util.ArrayList;
import java.util.List;

/** Conversions between u16 level arrays, their byte form and the layer enums of the grammar. */
final class Levels {
  private Levels() {}

  static DataBlock.FixedWidth block(short[] levels, int from, int to) {
    byte[] b = new byte[(to - from) * 2];
    for (int i = from; i < to; i++) {
      LittleEndian.putShort(b, (i - from) * 2, levels[i]);
    }
    return new DataBlock.FixedWidth(b, 16, to - from);
  }

  /** Reads a decoded level block back into shorts, checking its shape. */
  static short[] shorts(DataBlock block, long expected) {
    if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != 16 || fw.numValues() != expected) {
      throw LanceCodecException.corrupt("level buffer did not decode to " + expected + " u16 values");
    }
    short[] out = new short[(int) expected];
    byte[] d = fw.data();
    for (int i = 0; i < out.length; i++) {
      out[i] = LittleEndian.getShort(d, i * 2);
    }
    return out;
  }

  static List<RepDefLayer> toProto(List<LevelLayer> layers) {
    List<RepDefLayer> out = new ArrayList<>();
    for (LevelLayer l : layers) {
      out.add(RepDefLayer.valueOf("REPDEF_" + l.name()));
    }
    return out;
  }

  /** Checks the layers of a flat page: exactly one item layer. */
  static void checkFlat(List<RepDefLayer> layers) {
    if (layers.size() != 1
        || (layers.get(0) != RepDefLayer.REPDEF_ALL_VALID_ITEM && layers.get(0) != RepDefLayer.REPDEF_NULLABLE_ITEM)) {
      throw LanceCodecException.unsupported("page layers " + layers + ": nested (list/struct) pages are not supported yet");
    }
  }
}
