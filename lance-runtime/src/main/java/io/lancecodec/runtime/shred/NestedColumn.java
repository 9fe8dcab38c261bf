package io.lancecodec.runtime.shred;

import io.lancecodec.runtime.arrow.Leaf;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Buffers one leaf column under structs and lists until a page is due: per ancestor layer its
 * null flags (and list lengths), and the leaf's slots. On drain the layers become rep/def levels
 * (0 = inner-most; the outer-most list has the highest rep level, a new row), the layer meanings
 * are chosen from what the page holds (nulls, empty lists), and only visible leaf slots are kept:
 * items under null lists or null structs above a list have no value.
 */
public final class NestedColumn {
  private final Leaf leaf;
  private final ColumnAccumulator values;
  private final Layer[] layers;
  private long rows;

  /** One ancestor (or the leaf itself): null flags per slot, and lengths for a list. */
  private static final class Layer {
    final Leaf.Kind kind;
    byte[] nulls = new byte[64];
    long[] lengths;
    int count;
    long nullCount;
    boolean hasEmpty;

    Layer(Leaf.Kind kind) {
      this.kind = kind;
      lengths = kind == Leaf.Kind.LIST || kind == Leaf.Kind.LARGE_LIST ? new long[64] : null;
    }

    boolean isNull(long p) {
      return (nulls[(int) (p >>> 3)] & (1 << (p & 7))) != 0;
    }

    /**
     * Room for {@code more} slots beyond {@code count}, made once per batch: growing by doubling
     * inside a batch of 100,000 lists copied and zeroed its arrays a dozen times (a seventh of
     * the main thread's samples writing token lines).
     */
    void reserve(int more) {
      long slots = (long) count + more;
      long bytes = (slots + 8) >>> 3;
      if (bytes > nulls.length) {
        nulls = Arrays.copyOf(nulls, LanceCodecException.checkedInt(Math.max(bytes, 2L * nulls.length), "nested null flags"));
      }
      if (lengths != null && slots > lengths.length) {
        lengths = Arrays.copyOf(lengths, LanceCodecException.checkedInt(Math.max(slots, 2L * lengths.length), "list lengths"));
      }
    }

    void add(boolean isNull, long length) {
      if ((count >>> 3) >= nulls.length) {
        nulls = Arrays.copyOf(nulls, nulls.length * 2);
      }
      if (isNull) {
        nulls[count >>> 3] |= (byte) (1 << (count & 7));
        nullCount++;
      }
      if (lengths != null) {
        if (count >= lengths.length) {
          lengths = Arrays.copyOf(lengths, lengths.length * 2);
        }
        lengths[count] = length;
        hasEmpty |= !isNull && length == 0;
      }
      count++;
    }

    /** {@code n} valid slots of a struct or leaf layer, at once (their null bits stay clear). */
    void addValid(int n) {
      reserve(n);
      count += n;
    }
  }

  public NestedColumn(Leaf leaf) {
    this.leaf = leaf;
    this.values = new ColumnAccumulator(leaf.physical());
    this.layers = new Layer[leaf.path().size()];
    for (int j = 0; j < layers.length; j++) {
      layers[j] = new Layer(Leaf.kind(leaf.path().get(j)));
    }
  }

  public long rows() {
    return rows;
  }

  /** See {@link ColumnAccumulator#recycle}: once the page last drained is written. */
  public void recycle() {
    values.recycle();
  }

  public long bufferedBytes() {
    long b = values.bufferedBytes();
    for (Layer l : layers) {
      b += l.count / 8 + (l.lengths == null ? 0 : 8L * l.count);
    }
    return b;
  }

  /** Records one batch's top-level vector: walks down to the leaf, keeping each layer's slots. */
  public void append(FieldVector top) {
    FieldVector v = top;
    int from = 0;
    int to = top.getValueCount();
    for (int j = 0; j < layers.length; j++) {
      Layer layer = layers[j];
      switch (layer.kind) {
        case STRUCT:
          addSlots(layer, v, from, to);
          v = (FieldVector) ((StructVector) v).getChild(leaf.path().get(j + 1).getName());
          break;
        case LIST:
        case LARGE_LIST:
          {
            boolean large = layer.kind == Leaf.Kind.LARGE_LIST;
            if (from == to) {
              // an empty batch may have no offset buffer at all
              v = large ? ((LargeListVector) v).getDataVector() : ((ListVector) v).getDataVector();
              from = 0;
              to = 0;
              break;
            }
            org.apache.arrow.memory.ArrowBuf off = v.getOffsetBuffer();
            long first = large ? off.getLong((long) from * 8) : off.getInt((long) from * 4);
            long prev = first;
            layer.reserve(to - from);
            for (int i = from; i < to; i++) {
              long next = large ? off.getLong((long) (i + 1) * 8) : off.getInt((long) (i + 1) * 4);
              layer.add(v.isNull(i), next - prev);
              prev = next;
            }
            from = LanceCodecException.checkedInt(first, "list offset");
            to = LanceCodecException.checkedInt(prev, "list offset");
            v = large ? ((LargeListVector) v).getDataVector() : ((ListVector) v).getDataVector();
            break;
          }
        default:
          addSlots(layer, v, from, to);
          values.append(v, from, to);
      }
    }
    rows += top.getValueCount();
  }

  /** Slots {@code [from, to)} of a struct or leaf vector: all at once when the vector has no nulls. */
  private static void addSlots(Layer layer, FieldVector v, int from, int to) {
    if (v.getNullCount() == 0) {
      layer.addValid(to - from);
      return;
    }
    layer.reserve(to - from);
    for (int i = from; i < to; i++) {
      layer.add(v.isNull(i), 0);
    }
  }

  /** The buffered rows as a page input, then resets. */
  public PageInput drain(FieldOptions options) {
    int m = layers.length;
    LevelLayer[] kinds = new LevelLayer[m];
    int[] nullLevel = new int[m];
    int[] emptyLevel = new int[m];
    int[] repLevel = new int[m];
    boolean[] listBelow = new boolean[m];
    int maxRep = 0;
    for (Layer l : layers) {
      maxRep += l.lengths != null ? 1 : 0;
    }
    // Def levels are numbered from the inner-most layer outwards; a list that is both nullable
    // and emptyable takes two (null first, then empty).
    // Like the reference, which pushes a struct's nulls down into its children, a layer under a
    // struct with nulls is nullable even when its own slots are all valid: its item layer says
    // NULLABLE and the struct's null takes the level above the child's.
    boolean[] nullableOf = new boolean[m];
    for (int j = 0; j < m; j++) {
      nullableOf[j] = layers[j].nullCount > 0 || (j > 0 && layers[j - 1].kind == Leaf.Kind.STRUCT && nullableOf[j - 1]);
    }
    int next = 1;
    boolean below = false;
    for (int j = m - 1; j >= 0; j--) {
      Layer l = layers[j];
      listBelow[j] = below;
      boolean nullable = nullableOf[j];
      if (l.lengths == null) {
        kinds[j] = nullable ? LevelLayer.NULLABLE_ITEM : LevelLayer.ALL_VALID_ITEM;
        nullLevel[j] = nullable ? next++ : 0;
      } else {
        below = true;
        if (nullable && l.hasEmpty) {
          kinds[j] = LevelLayer.NULL_AND_EMPTY_LIST;
          nullLevel[j] = next++;
          emptyLevel[j] = next++;
        } else if (nullable) {
          kinds[j] = LevelLayer.NULLABLE_LIST;
          nullLevel[j] = next++;
        } else if (l.hasEmpty) {
          kinds[j] = LevelLayer.EMPTYABLE_LIST;
          emptyLevel[j] = next++;
        } else {
          kinds[j] = LevelLayer.ALL_VALID_LIST;
        }
      }
    }
    int rep = maxRep;
    for (int j = 0; j < m; j++) {
      if (layers[j].lengths != null) {
        repLevel[j] = rep--;
      }
    }
    ColumnAccumulator.Page page = values.drain();
    short[] repOut;
    short[] defOut;
    long[] visible;
    if (m == 2 && layers[0].lengths != null && layers[1].lengths == null && !nullableOf[1]) {
      // one list of non-null values (token ids per line): the levels in one pass over the list
      // lengths, with no per-item recursion and no slot list when every item is visible
      SingleList levels = singleList(layers[0], maxRep, repLevel[0] - 1, nullLevel[0], emptyLevel[0], next > 1);
      repOut = levels.rep;
      defOut = levels.def;
      visible = levels.visible;
    } else {
      Emitter e = new Emitter(m, kinds, nullLevel, emptyLevel, repLevel, listBelow, childStarts(), maxRep > 0, next > 1);
      for (long p = 0; p < rows; p++) {
        e.emit(0, p, maxRep);
      }
      repOut = maxRep > 0 ? e.rep.toArray() : null;
      defOut = next > 1 ? e.def.toArray() : null;
      visible = e.visible.size() != page.values().numValues() ? e.visible.toArray() : null;
    }
    DataBlock block = page.values();
    if (visible != null) {
      block = Blocks.gather(block, visible);
    }
    List<LevelLayer> innerFirst = new ArrayList<>();
    for (int j = m - 1; j >= 0; j--) {
      innerFirst.add(kinds[j]);
    }
    PageInput input = new PageInput(block, repOut, defOut, innerFirst, rows, options);
    for (int j = 0; j < m; j++) {
      layers[j] = new Layer(layers[j].kind);
    }
    rows = 0;
    return input;
  }

  /** Per list layer, the first child slot of each of its slots (and the end); null for other layers. */
  private long[][] childStarts() {
    long[][] childStart = new long[layers.length][];
    for (int j = 0; j < layers.length; j++) {
      Layer l = layers[j];
      if (l.lengths != null) {
        long[] s = new long[l.count + 1];
        for (int i = 0; i < l.count; i++) {
          s[i + 1] = s[i] + l.lengths[i];
        }
        childStart[j] = s;
      }
    }
    return childStart;
  }

  /** Levels of a single list layer over non-null values; {@code visible} null when every item is. */
  private record SingleList(short[] rep, short[] def, long[] visible) {}

  /**
   * What the {@link Emitter} writes for a list of non-null values: per row, one level for a null
   * or empty list, else one per item (the first at {@code startRep}, the others at
   * {@code innerRep}, every item at def 0). A null list may still span child slots in Arrow;
   * only then are the visible slots listed.
   */
  private static SingleList singleList(Layer list, int startRep, int innerRep, int nullDef, int emptyDef, boolean hasDef) {
    int n = list.count;
    long total = 0;
    long items = 0;
    boolean identity = true;
    for (int p = 0; p < n; p++) {
      long len = list.lengths[p];
      if (list.isNull(p)) {
        total++;
        identity &= len == 0;
      } else {
        total += Math.max(len, 1);
        items += len;
      }
    }
    short[] rep = new short[LanceCodecException.checkedInt(total, "levels of a page")];
    short[] def = hasDef ? new short[rep.length] : null;
    long[] visible = identity ? null : new long[LanceCodecException.checkedInt(items, "items of a page")];
    int k = 0;
    int v = 0;
    long c = 0;
    for (int p = 0; p < n; p++) {
      long len = list.lengths[p];
      rep[k] = (short) startRep;
      if (list.isNull(p)) {
        if (def != null) {
          def[k] = (short) nullDef;
        }
        k++;
      } else if (len == 0) {
        if (def != null) {
          def[k] = (short) emptyDef;
        }
        k++;
      } else {
        int items0 = (int) len;
        if (innerRep != 0) {
          Arrays.fill(rep, k + 1, k + items0, (short) innerRep);
        }
        if (visible != null) {
          for (int i = 0; i < items0; i++) {
            visible[v++] = c + i;
          }
        }
        k += items0;
      }
      c += len;
    }
    return new SingleList(rep, def, visible);
  }

  /** Walks the buffered layers row by row, writing one level per visible item or empty/null list. */
  private final class Emitter {
    final int m;
    final LevelLayer[] kinds;
    final int[] nullLevel;
    final int[] emptyLevel;
    final int[] repLevel;
    final boolean[] listBelow;
    final long[][] childStart;
    final Shorts rep = new Shorts();
    final Shorts def = new Shorts();
    final Longs visible = new Longs();
    final boolean hasRep;
    final boolean hasDef;

    Emitter(int m, LevelLayer[] kinds, int[] nullLevel, int[] emptyLevel, int[] repLevel, boolean[] listBelow,
        long[][] childStart, boolean hasRep, boolean hasDef) {
      this.m = m;
      this.kinds = kinds;
      this.nullLevel = nullLevel;
      this.emptyLevel = emptyLevel;
      this.repLevel = repLevel;
      this.listBelow = listBelow;
      this.childStart = childStart;
      this.hasRep = hasRep;
      this.hasDef = hasDef;
    }

    void level(int r, int d, long leafSlot) {
      if (hasRep) {
        rep.add(r);
      }
      if (hasDef) {
        def.add(d);
      }
      if (leafSlot >= 0) {
        visible.add(leafSlot);
      }
    }

    void emit(int j, long p, int r) {
      Layer l = layers[j];
      if (l.isNull(p)) {
        // a null struct with no list below keeps its leaf slot (same index all the way down)
        level(r, nullLevel[j], listBelow[j] || l.lengths != null ? -1 : p);
        return;
      }
      if (l.lengths != null) {
        long len = l.lengths[(int) p];
        if (len == 0) {
          level(r, emptyLevel[j], -1);
          return;
        }
        long c = childStart[j][(int) p];
        for (long i = 0; i < len; i++) {
          // the first item keeps the level of whatever list started here; later ones continue this list
          emit(j + 1, c + i, i == 0 ? r : repLevel[j] - 1);
        }
      } else if (j + 1 < m) {
        emit(j + 1, p, r);
      } else {
        level(r, 0, p);
      }
    }
  }

  /** A growable array of shorts. */
  static final class Shorts {
    short[] a = new short[256];
    int n;

    void add(int v) {
      if (n == a.length) {
        a = Arrays.copyOf(a, a.length * 2);
      }
      a[n++] = (short) v;
    }

    short[] toArray() {
      return Arrays.copyOf(a, n);
    }
  }

  /** A growable array of longs. */
  static final class Longs {
    long[] a = new long[256];
    int n;

    void add(long v) {
      if (n == a.length) {
        a = Arrays.copyOf(a, a.length * 2);
      }
      a[n++] = v;
    }

    int size() {
      return n;
    }

    long[] toArray() {
      return Arrays.copyOf(a, n);
    }
  }
}
