package io.lancecodec.layout.planar;

import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.LevelLayer;
import java.util.ArrayList;
import java.util.List;

/**
 * A page's sparse structure in memory, validated: its layers from the outer-most (page rows) to
 * the inner-most, each over its parent domain, and the domains they derive.
 *
 * <p>The layers before the first fixed-size-list layer are the page's repetition/definition
 * layers (validity layers are item layers, list layers lists), the first fixed-size-list layer's
 * validity is the inner-most item layer, and everything from there on lives inside the values (a
 * fixed-size-list block with its item validity), as the runtime hands fixed-size lists to layouts.
 */
final class SparseShape {
  enum Kind {
    VALIDITY,
    LIST,
    FIXED_SIZE_LIST
  }

  /**
   * One layer over a parent domain of {@code parentSize} slots, mapping it to {@code childSize}.
   * Lists keep their non-empty positions and, per position, where its children start
   * ({@code childStarts[k]}, with the total at {@code childStarts[nonEmpty.length]}).
   */
  record Layer(Kind kind, int parentSize, int childSize, Validity validity, int[] nonEmpty, int[] childStarts, int dimension) {
    static Layer validity(int size, Validity v) {
      return new Layer(Kind.VALIDITY, size, size, v, null, null, 0);
    }

    boolean isList() {
      return kind == Kind.LIST;
    }

    /** The first child of parent slot {@code p} (or where it would start, for a slot without children). */
    int childStart(int p) {
      switch (kind) {
        case LIST:
          {
            int i = java.util.Arrays.binarySearch(nonEmpty, p);
            return childStarts[i >= 0 ? i : -i - 1];
          }
        case FIXED_SIZE_LIST:
          return (int) ((long) p * dimension);
        default:
          return p;
      }
    }
  }

  final List<Layer> layers;
  /** Logical rows: the outer domain. */
  final int rows;
  /** Leaf slots, null ones included: the terminal domain. */
  final int terminal;
  /** How many layers (from the outer-most) make the repetition/definition levels before any fixed-size list. */
  final int levelLayers;
  /** The product of the fixed-size-list dimensions (1 without any). */
  final long fslProduct;

  SparseShape(List<Layer> layers, int rows) {
    this.layers = List.copyOf(layers);
    this.rows = rows;
    int f = layers.size();
    long product = 1;
    for (int i = 0; i < layers.size(); i++) {
      if (layers.get(i).kind() == Kind.FIXED_SIZE_LIST) {
        f = Math.min(f, i);
        product *= layers.get(i).dimension();
      }
    }
    this.levelLayers = f;
    this.fslProduct = product;
    this.terminal = layers.isEmpty() ? rows : layers.get(layers.size() - 1).childSize();
  }

  /**
   * The outer domain of a page whose metadata stores {@code storedRows}: divided by the product of
   * every fixed-size-list dimension, which must divide it exactly without overflowing.
   */
  static long rows(long storedRows, List<Long> dimensions) {
    long product = 1;
    for (long d : dimensions) {
      if (d <= 0) {
        throw LanceCodecException.corrupt("planar: fixed-size-list dimension " + Long.toUnsignedString(d) + " is not positive");
      }
      try {
        product = Math.multiplyExact(product, d);
      } catch (ArithmeticException e) {
        throw LanceCodecException.corrupt("planar: the product of the fixed-size-list dimensions overflows");
      }
    }
    if (storedRows % product != 0) {
      throw LanceCodecException.corrupt("planar: page row count " + storedRows + " is not a multiple of the fixed-size-list dimensions' product " + product);
    }
    return storedRows / product;
  }

  /** The repetition/definition layers the levels of a read follow, inner-most first. */
  List<LevelLayer> levelLayerKinds() {
    List<LevelLayer> out = new ArrayList<>();
    boolean innerItem = false;
    for (int i = 0; i < levelLayers; i++) {
      Layer l = layers.get(i);
      out.add(0, kind(l));
      innerItem = !l.isList();
    }
    if (levelLayers < layers.size()) {
      // the first fixed-size list's own validity is the inner-most item layer
      Layer fsl = layers.get(levelLayers);
      out.add(0, fsl.validity().anyNull(fsl.parentSize()) ? LevelLayer.NULLABLE_ITEM : LevelLayer.ALL_VALID_ITEM);
    } else if (!innerItem) {
      // no layers, or a list last: the leaves are an all-valid item layer the writer left out
      out.add(0, LevelLayer.ALL_VALID_ITEM);
    }
    return out;
  }

  private static LevelLayer kind(Layer l) {
    boolean nulls = l.validity().anyNull(l.parentSize());
    if (!l.isList()) {
      return nulls ? LevelLayer.NULLABLE_ITEM : LevelLayer.ALL_VALID_ITEM;
    }
    long valid = l.validity().storesNulls() ? l.parentSize() - l.validity().positions().length : l.validity().positions().length;
    boolean empties = l.nonEmpty().length < valid;
    return nulls ? (empties ? LevelLayer.NULL_AND_EMPTY_LIST : LevelLayer.NULLABLE_LIST)
        : empties ? LevelLayer.EMPTYABLE_LIST : LevelLayer.ALL_VALID_LIST;
  }

  /** The layers that live inside the values: the fixed-size lists and what follows them. */
  List<Layer> valueLayers() {
    return layers.subList(levelLayers, layers.size());
  }

  /** Slots of the domain the levels end in (the value slots: fixed-size-list rows, or leaves). */
  int valueSlots() {
    return levelLayers == 0 ? rows : layers.get(levelLayers - 1).childSize();
  }

  /** The value slot where row {@code row}'s values start (a row range's value slots are contiguous). */
  int valueSlot(int row) {
    int p = row;
    for (int i = 0; i < levelLayers; i++) {
      p = layers.get(i).childStart(p);
    }
    return p;
  }

  /**
   * One bit per terminal slot, set where a value is materialized: valid in every layer above it
   * and in the terminal validity. Null lists and null or empty lists' absent children take no
   * slot; null structs and fixed-size lists clear all their children.
   */
  long[] materialized() {
    long[] bits = Bits.ones(rows);
    int size = rows;
    for (Layer l : layers) {
      l.validity().clearNulls(bits, 0, size);
      switch (l.kind()) {
        case VALIDITY:
          break;
        case LIST:
          {
            long[] child = new long[(l.childSize() + 63) >>> 6];
            for (int k = 0; k < l.nonEmpty().length; k++) {
              if (Bits.get(bits, l.nonEmpty()[k])) {
                Bits.set(child, l.childStarts()[k], l.childStarts()[k + 1]);
              }
            }
            bits = child;
            break;
          }
        case FIXED_SIZE_LIST:
          {
            long[] child = new long[(int) (((long) l.childSize() + 63) >>> 6)];
            int d = l.dimension();
            for (int p = 0; p < size; p++) {
              if (Bits.get(bits, p)) {
                Bits.set(child, (long) p * d, (long) (p + 1) * d);
              }
            }
            bits = child;
            break;
          }
        default:
          throw new AssertionError(l.kind());
      }
      size = l.childSize();
    }
    return bits;
  }
}
