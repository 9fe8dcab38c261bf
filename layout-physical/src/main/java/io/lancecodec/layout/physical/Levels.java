package io.lancecodec.layout.physical;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.LevelLayer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/** Conversions between u16 level arrays, their byte form and the layer enums of the grammar. */
public final class Levels {
  private Levels() {}

  public static DataBlock.FixedWidth block(short[] levels, int from, int to) {
    byte[] b = new byte[(to - from) * 2];
    // one bulk little-endian copy: a store per level cost 6 us per 1,024-level chunk when the
    // writer's page encoder inlined this (its VarHandle then went through the slow path), half
    // of writing token lines
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().put(levels, from, to - from);
    return new DataBlock.FixedWidth(b, 16, to - from);
  }

  /** Reads a decoded level block back into shorts, checking its shape. */
  public static short[] shorts(DataBlock block, long expected) {
    if (!(block instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != 16 || fw.numValues() != expected) {
      throw LanceCodecException.corrupt("level buffer did not decode to " + expected + " u16 values");
    }
    short[] out = new short[(int) expected];
    // one bulk little-endian copy instead of a byte pair per level: levels outnumber values
    ByteBuffer.wrap(fw.data()).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(out);
    return out;
  }

  /**
   * The layers of a page as a grammar stored them, checked: at least one, the inner-most an item
   * layer, and at most {@link #MAX_LAYERS} of them.
   */
  public static List<LevelLayer> checked(List<LevelLayer> layers) {
    if (layers.isEmpty() || layers.size() > MAX_LAYERS) {
      throw LanceCodecException.corrupt("page has " + layers.size() + " rep/def layers");
    }
    if (layers.get(0).isList()) {
      throw LanceCodecException.corrupt("page's inner-most layer " + layers.get(0) + " is a list");
    }
    return List.copyOf(layers);
  }

  /** A layer's name in the grammars' enums ({@code REPDEF_NULLABLE_ITEM}); 2.1 and 2.3 share them. */
  public static String enumName(LevelLayer layer) {
    return "REPDEF_" + layer.name();
  }

  /**
   * Layers from the names of a grammar's enum values, inner-most first, checked as {@link
   * #checked} does; an unspecified or unknown value is CORRUPT.
   */
  public static List<LevelLayer> fromEnumNames(List<String> names) {
    if (names.size() > MAX_LAYERS) {
      throw LanceCodecException.corrupt("page has " + names.size() + " rep/def layers");
    }
    List<LevelLayer> out = new java.util.ArrayList<>(names.size());
    for (String n : names) {
      if (!n.startsWith("REPDEF_") || n.equals("REPDEF_UNSPECIFIED")) {
        throw LanceCodecException.corrupt("page has an unspecified rep/def layer");
      }
      out.add(LevelLayer.valueOf(n.substring("REPDEF_".length())));
    }
    return checked(out);
  }

  /** Nesting deeper than this is rejected: levels are u16 and no real schema comes close. */
  public static final int MAX_LAYERS = 1000;

  /** True when the layers are more than the single item layer of a flat column. */
  public static boolean nested(List<LevelLayer> layers) {
    return layers != null && layers.size() > 1;
  }

  /** The number of list layers, which is the highest repetition level (a new row). */
  public static int maxRep(List<LevelLayer> layers) {
    int n = 0;
    for (LevelLayer l : layers) {
      n += l.isList() ? 1 : 0;
    }
    return n;
  }

  /** The highest definition level the layers can produce. */
  public static int maxDef(List<LevelLayer> layers) {
    int n = 0;
    for (LevelLayer l : layers) {
      n += l.defLevels();
    }
    return n;
  }

  /**
   * The highest definition level that still has a value slot: the levels of the layers below
   * the inner-most list. A null or empty list (or a null struct above it) has no value.
   */
  public static int maxVisibleDef(List<LevelLayer> layers) {
    int n = 0;
    for (LevelLayer l : layers) {
      if (l.isList()) {
        return n;
      }
      n += l.defLevels();
    }
    return Integer.MAX_VALUE;
  }

  /** How many of the levels {@code [from, to)} carry a value. */
  public static int visible(short[] def, int from, int to, int maxVisible) {
    if (def == null) {
      return to - from;
    }
    int n = 0;
    for (int i = from; i < to; i++) {
      n += (def[i] & 0xFFFF) <= maxVisible ? 1 : 0;
    }
    return n;
  }

  /** Bits of a level in a control word: the bit length of the largest level present. */
  public static int bitLength(int v) {
    return v == 0 ? 0 : 32 - Integer.numberOfLeadingZeros(v);
  }

  public static int max(short[] levels) {
    int m = 0;
    if (levels != null) {
      for (short l : levels) {
        m = Math.max(m, l & 0xFFFF);
      }
    }
    return m;
  }
}
