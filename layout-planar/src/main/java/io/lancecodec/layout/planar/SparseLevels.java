package io.lancecodec.layout.planar;

import io.lancecodec.layout.physical.LevelSink;
import io.lancecodec.spi.layout.LevelLayer;
import java.util.List;

/**
 * Repetition and definition levels of rows of a sparse page, derived from its structure: the
 * same levels a dense page of the same rows would store, so the runtime assembles both alike.
 * Levels follow the page's level layers (from {@link SparseShape#levelLayerKinds}): definition 0
 * is a value valid all the way down, and each layer that can be null or empty has its own level,
 * numbered from the inner-most layer out (null before empty in a layer that has both); repetition
 * {@code maxRep} starts a row and {@code maxRep - 1 - i} a new element of the {@code i}-th list
 * from the outside.
 */
final class SparseLevels {
  private final SparseShape shape;
  /** Level layers outer-most first; depth {@code m - 1} is the inner-most item layer. */
  private final int m;
  private final Validity[] validity;
  private final SparseShape.Layer[] lists;
  private final int[] defNull;
  private final int[] defEmpty;
  private final int[] childRep;
  final int maxRep;
  final int maxDef;
  final List<LevelLayer> kinds;

  SparseLevels(SparseShape shape) {
    this.shape = shape;
    this.kinds = shape.levelLayerKinds();
    this.m = kinds.size();
    validity = new Validity[m];
    lists = new SparseShape.Layer[m];
    for (int j = 0; j < m; j++) {
      if (j < shape.levelLayers) {
        SparseShape.Layer l = shape.layers.get(j);
        validity[j] = l.validity();
        lists[j] = l.isList() ? l : null;
      } else if (shape.levelLayers < shape.layers.size()) {
        validity[j] = shape.layers.get(shape.levelLayers).validity();
      } else {
        validity[j] = Validity.ALL_VALID;
      }
    }
    defNull = new int[m];
    defEmpty = new int[m];
    int next = 1;
    for (int j = m - 1; j >= 0; j--) {
      LevelLayer k = kinds.get(m - 1 - j);
      switch (k) {
        case NULLABLE_ITEM:
        case NULLABLE_LIST:
          defNull[j] = next++;
          break;
        case EMPTYABLE_LIST:
          defEmpty[j] = next++;
          break;
        case NULL_AND_EMPTY_LIST:
          defNull[j] = next++;
          defEmpty[j] = next++;
          break;
        default:
          break;
      }
    }
    maxDef = next - 1;
    int reps = 0;
    for (int j = 0; j < m; j++) {
      reps += lists[j] != null ? 1 : 0;
    }
    maxRep = reps;
    childRep = new int[m];
    int li = 0;
    for (int j = 0; j < m; j++) {
      if (lists[j] != null) {
        childRep[j] = maxRep - 1 - li++;
      }
    }
  }

  /** Levels of a nested page, or of a flat page with nulls; a flat all-valid page has none. */
  boolean hasLevels() {
    return maxRep > 0 || maxDef > 0;
  }

  /** The layers a decoded page reports: null for a flat page (one item layer). */
  List<LevelLayer> decodedLayers() {
    return m > 1 ? kinds : null;
  }

  /** Appends the levels of rows {@code [a, b)} to {@code out}; safe to call from concurrent reads. */
  void emit(int a, int b, LevelSink out) {
    new Walk(a, out).rows(a, b);
  }

  /** One read's position in each depth's validity and list positions; slots only move forward. */
  private final class Walk {
    private final int[] vc = new int[m];
    private final int[] lc = new int[m];
    private final LevelSink out;

    Walk(int a, LevelSink out) {
      this.out = out;
      int p = a;
      for (int j = 0; j < m; j++) {
        vc[j] = validity[j].from(p);
        if (lists[j] != null) {
          int i = java.util.Arrays.binarySearch(lists[j].nonEmpty(), p);
          lc[j] = i >= 0 ? i : -i - 1;
          p = lists[j].childStarts()[lc[j]];
        }
      }
    }

    void rows(int a, int b) {
      if (m == 1) {
        flat(a, b);
        return;
      }
      for (int row = a; row < b; row++) {
        slot(0, row, maxRep);
      }
    }

    private void flat(int a, int b) {
      Validity v = validity[0];
      int[] pos = v.positions();
      int c = vc[0];
      int dn = defNull[0];
      boolean nulls = v.storesNulls();
      for (int row = a; row < b; row++) {
        while (c < pos.length && pos[c] < row) {
          c++;
        }
        boolean stored = c < pos.length && pos[c] == row;
        out.add(0, stored == nulls ? dn : 0);
      }
    }

    private boolean isNull(int j, int p) {
      Validity v = validity[j];
      int[] pos = v.positions();
      int c = vc[j];
      while (c < pos.length && pos[c] < p) {
        c++;
      }
      vc[j] = c;
      return (c < pos.length && pos[c] == p) == v.storesNulls();
    }

    private void slot(int j, int p, int rep) {
      if (isNull(j, p)) {
        out.add(rep, defNull[j]);
        return;
      }
      SparseShape.Layer list = lists[j];
      if (list == null) {
        if (j == m - 1) {
          out.add(rep, 0);
        } else {
          slot(j + 1, p, rep);
        }
        return;
      }
      int[] ne = list.nonEmpty();
      int c = lc[j];
      while (c < ne.length && ne[c] < p) {
        c++;
      }
      lc[j] = c;
      if (c == ne.length || ne[c] != p) {
        out.add(rep, defEmpty[j]);
        return;
      }
      int from = list.childStarts()[c];
      int to = list.childStarts()[c + 1];
      int r = rep;
      for (int ch = from; ch < to; ch++) {
        slot(j + 1, ch, r);
        r = childRep[j];
      }
    }
  }

  SparseShape shape() {
    return shape;
  }
}
