package io.lancecodec.layout.planar;

import io.lancecodec.layout.physical.Levels;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns a page's repetition/definition levels (and the validity inside fixed-size-list values)
 * into sparse layers. Each item layer becomes a validity layer, each list a list layer; a
 * fixed-size list becomes a fixed-size-list layer per dimension, the first one carrying the
 * inner-most item layer's validity. The inner-most all-valid item layer is left out when a list
 * (or nothing) is above it, as the reader restores it.
 *
 * <p>Slots below a null struct still exist in the domains below it (validity layers keep their
 * domain) but their state does not matter; each validity set stores whichever of its null or
 * valid positions are fewer, counting those slots on the side that is not stored.
 */
final class SparseBuilder {
  private SparseBuilder() {}

  /** The sparse structure of {@code page}, whose values are {@link #leafValues} of it. */
  static SparseShape shape(PageInput page) {
    List<LevelLayer> inner = page.layers() == null ? List.of(LevelLayer.ALL_VALID_ITEM) : page.layers();
    int m = inner.size();
    boolean[] isList = new boolean[m];
    int maxRep = 0;
    for (int j = 0; j < m; j++) {
      isList[j] = inner.get(m - 1 - j).isList();
      maxRep += isList[j] ? 1 : 0;
    }
    // def value -> depth it stops at, and whether it means empty
    int maxDef = Levels.maxDef(inner);
    int[] defDepth = new int[maxDef + 1];
    boolean[] defEmpty = new boolean[maxDef + 1];
    int next = 1;
    for (int j = m - 1; j >= 0; j--) {
      switch (inner.get(m - 1 - j)) {
        case NULLABLE_ITEM:
        case NULLABLE_LIST:
          defDepth[next++] = j;
          break;
        case EMPTYABLE_LIST:
          defEmpty[next] = true;
          defDepth[next++] = j;
          break;
        case NULL_AND_EMPTY_LIST:
          defDepth[next++] = j;
          defEmpty[next] = true;
          defDepth[next++] = j;
          break;
        default:
          break;
      }
    }
    int[] listOfRep = new int[maxRep + 1];
    int li = 0;
    for (int j = 0; j < m; j++) {
      if (isList[j]) {
        listOfRep[maxRep - 1 - li++] = j;
      }
    }
    short[] rep = page.repLevels();
    short[] def = page.defLevels();
    int n = rep != null ? rep.length : def != null ? def.length : LanceCodecException.checkedInt(page.numRows(), "rows");
    Sets[] sets = new Sets[m];
    for (int j = 0; j < m; j++) {
      sets[j] = new Sets(isList[j]);
    }
    for (int i = 0; i < n; i++) {
      int r = rep == null ? maxRep : rep[i];
      int d = def == null ? 0 : def[i] & 0xFFFF;
      if (r > maxRep || d > maxDef) {
        throw LanceCodecException.internal("levels (" + r + ", " + d + ") outside the page's layers " + inner);
      }
      int s = r == maxRep ? 0 : listOfRep[r] + 1;
      int stop = d == 0 ? -1 : defDepth[d];
      for (int j = s; ; j++) {
        if (j > 0 && isList[j - 1]) {
          // a new element of the list slot started last above
          sets[j - 1].addChild();
        }
        int p = sets[j].size++;
        if (j == stop) {
          if (defEmpty[d]) {
            sets[j].valid(p);
          } else {
            sets[j].nul(p);
            // validity keeps the domain: the slot is in every item layer below, in no state
            for (int k = j; !isList[k] && k + 1 < m; ) {
              k++;
              sets[k].size++;
              sets[k].dontCare++;
              if (isList[k]) {
                break;
              }
            }
          }
          break;
        }
        sets[j].valid(p);
        if (isList[j]) {
          sets[j].startList(p);
        }
        if (j == m - 1) {
          break;
        }
      }
    }
    // Domains: rows, then each list's child count.
    List<SparseShape.Layer> layers = new ArrayList<>();
    int size = LanceCodecException.checkedInt(page.numRows(), "rows");
    if (sets[0].size != size) {
      throw LanceCodecException.internal("levels describe " + sets[0].size + " rows, the page has " + size);
    }
    DataBlock values = page.values();
    boolean fsl = values instanceof DataBlock.FixedSizeList;
    for (int j = 0; j < m; j++) {
      Sets st = sets[j];
      if (st.size != size) {
        throw LanceCodecException.internal("layer " + j + " has " + st.size + " slots, its domain " + size);
      }
      Validity v = st.validity();
      if (isList[j]) {
        int[] ne = Arrays.copyOf(st.nonEmpty, st.lists);
        int[] starts = new int[st.lists + 1];
        for (int k = 0; k < st.lists; k++) {
          starts[k + 1] = starts[k] + st.counts[k];
        }
        layers.add(new SparseShape.Layer(SparseShape.Kind.LIST, size, starts[st.lists], v, ne, starts, 0));
        size = starts[st.lists];
      } else if (j == m - 1 && fsl) {
        // the fixed-size list's own validity: its layer follows
        layers.addAll(fslLayers(v, size, values));
      } else if (j == m - 1 && !v.anyNull(size) && (m == 1 || isList[j - 1])) {
        // the reader restores an all-valid inner-most item layer under a list (or alone)
      } else {
        layers.add(SparseShape.Layer.validity(size, v));
      }
    }
    if (sets[m - 1].size != values.numValues()) {
      throw LanceCodecException.internal("levels describe " + sets[m - 1].size + " values, the page has " + values.numValues());
    }
    return new SparseShape(layers, LanceCodecException.checkedInt(page.numRows(), "rows"));
  }

  /** Fixed-size-list layers for {@code values}, the first with {@code own} validity, then the leaves' validity. */
  private static List<SparseShape.Layer> fslLayers(Validity own, int size, DataBlock values) {
    List<SparseShape.Layer> out = new ArrayList<>();
    Validity v = own;
    DataBlock b = values;
    int parent = size;
    while (b instanceof DataBlock.FixedSizeList f) {
      int d = LanceCodecException.checkedInt(f.dimension(), "dimension");
      int child = LanceCodecException.checkedInt((long) parent * d, "fixed-size-list children");
      out.add(new SparseShape.Layer(SparseShape.Kind.FIXED_SIZE_LIST, parent, child, v, null, null, d));
      b = f.child();
      // the children's validity: the next fixed-size list's own, or the leaves'
      v = Validity.ALL_VALID;
      if (b instanceof DataBlock.Nullable nb) {
        v = fromBitmap(nb.validity(), child);
        b = nb.data();
      }
      parent = child;
    }
    if (v.anyNull(parent)) {
      out.add(SparseShape.Layer.validity(parent, v));
    }
    return out;
  }

  /** The fixed-width leaf values of a page's values: through fixed-size lists and their validity. */
  static DataBlock leafValues(DataBlock values) {
    DataBlock b = values;
    while (b instanceof DataBlock.FixedSizeList || b instanceof DataBlock.Nullable) {
      b = b instanceof DataBlock.FixedSizeList f ? f.child() : ((DataBlock.Nullable) b).data();
    }
    return b;
  }

  /** A validity set from an Arrow-style bitmap (1 = valid) of {@code n} positions. */
  static Validity fromBitmap(byte[] bitmap, int n) {
    int nulls = 0;
    for (int i = 0; i < n; i++) {
      nulls += (bitmap[i >>> 3] >>> (i & 7) & 1) == 0 ? 1 : 0;
    }
    boolean storeNulls = nulls <= n - nulls;
    int[] pos = new int[storeNulls ? nulls : n - nulls];
    int k = 0;
    for (int i = 0; i < n; i++) {
      boolean isNull = (bitmap[i >>> 3] >>> (i & 7) & 1) == 0;
      if (isNull == storeNulls) {
        pos[k++] = i;
      }
    }
    return new Validity(storeNulls, pos);
  }

  /** The slots of one depth as the levels create them. */
  private static final class Sets {
    final boolean list;
    int size;
    int dontCare;
    int[] nulls = new int[16];
    int numNulls;
    int[] valids = new int[16];
    int numValids;
    int[] nonEmpty;
    int[] counts;
    int lists;

    Sets(boolean list) {
      this.list = list;
      if (list) {
        nonEmpty = new int[16];
        counts = new int[16];
      }
    }

    void nul(int p) {
      if (numNulls == nulls.length) {
        nulls = Arrays.copyOf(nulls, numNulls * 2);
      }
      nulls[numNulls++] = p;
    }

    void valid(int p) {
      if (numValids == valids.length) {
        valids = Arrays.copyOf(valids, numValids * 2);
      }
      valids[numValids++] = p;
    }

    void startList(int p) {
      if (lists == nonEmpty.length) {
        nonEmpty = Arrays.copyOf(nonEmpty, lists * 2);
        counts = Arrays.copyOf(counts, lists * 2);
      }
      nonEmpty[lists] = p;
      counts[lists++] = 0;
    }

    /** One more child of the list started last (a new element of it). */
    void addChild() {
      counts[lists - 1]++;
    }

    /**
     * The smaller of the two forms; slots in no state count as valid when nulls are stored and as
     * null when valid positions are.
     */
    Validity validity() {
      if (numNulls <= numValids) {
        return new Validity(true, Arrays.copyOf(nulls, numNulls));
      }
      return new Validity(false, Arrays.copyOf(valids, numValids));
    }
  }
}
