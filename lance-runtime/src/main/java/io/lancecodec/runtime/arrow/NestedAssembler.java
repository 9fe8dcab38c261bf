package io.lancecodec.runtime.arrow;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.LevelLayer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Rebuilds a top-level field with structs and lists from its leaf columns: each leaf's levels
 * are unravelled into slots per layer (validity, and lengths for lists), the ancestors' vectors
 * take their structure from the first leaf below them (all leaves must agree), and the leaves
 * take their visible values.
 */
public final class NestedAssembler {
  private NestedAssembler() {}

  /** One layer's slots rebuilt from the levels: validity bits and, for lists, lengths. */
  public static final class Slots {
    byte[] valid;
    /** Items per list slot: ints, since one read holds at most 2^31 items (half the bytes to zero and fill). */
    int[] lengths;
    public int count;
    /**
     * The leaf layer only counts: its validity goes to the vector filler as per-value levels
     * instead, and skipping the bit per item matters, since items outnumber all other slots.
     */
    private final boolean countOnly;

    /** With room for {@code expected} slots, so that a scan does not grow them by doubling. */
    Slots(boolean list, boolean countOnly, long expected) {
      this.countOnly = countOnly && !list;
      int cap = (int) Math.max(64, Math.min(expected, 1 << 24));
      valid = this.countOnly ? new byte[0] : new byte[(cap + 7) / 8];
      lengths = list ? new int[cap] : null;
    }

    void add(boolean isValid) {
      if (countOnly) {
        count++;
        return;
      }
      if ((count >>> 3) >= valid.length) {
        valid = Arrays.copyOf(valid, valid.length * 2);
      }
      if (isValid) {
        valid[count >>> 3] |= (byte) (1 << (count & 7));
      }
      if (lengths != null) {
        if (count >= lengths.length) {
          lengths = Arrays.copyOf(lengths, lengths.length * 2);
        }
        lengths[count] = 0;
      }
      count++;
    }

    /** Adds {@code run} valid slots at once (no list among them: their lengths start at zero). */
    void addValid(int run) {
      if (countOnly) {
        count += run;
        return;
      }
      int end = count + run;
      if (((end + 7) >>> 3) > valid.length) {
        valid = Arrays.copyOf(valid, Math.max(valid.length * 2, (end + 7) >>> 3));
      }
      if (lengths != null) {
        if (end > lengths.length) {
          lengths = Arrays.copyOf(lengths, Math.max(lengths.length * 2, end));
        }
        Arrays.fill(lengths, count, end, 0);
      }
      int i = count;
      while (i < end && (i & 7) != 0) {
        valid[i >>> 3] |= (byte) (1 << (i & 7));
        i++;
      }
      int fullEnd = end & ~7;
      if (i < fullEnd) {
        Arrays.fill(valid, i >>> 3, fullEnd >>> 3, (byte) 0xFF);
        i = fullEnd;
      }
      while (i < end) {
        valid[i >>> 3] |= (byte) (1 << (i & 7));
        i++;
      }
      count = end;
    }

    /** Slots not marked valid: the set bits counted a word at a time (bit by bit, this was 5% of a list scan). */
    int nulls() {
      int full = count >>> 3;
      int ones = 0;
      int i = 0;
      for (; i + 8 <= full; i += 8) {
        ones += Long.bitCount(io.lancecodec.spi.LittleEndian.getLong(valid, i));
      }
      for (; i < full; i++) {
        ones += Integer.bitCount(valid[i] & 0xFF);
      }
      if ((count & 7) != 0) {
        ones += Integer.bitCount(valid[full] & ((1 << (count & 7)) - 1));
      }
      return count - ones;
    }
  }

  /**
   * A leaf column unravelled: slots per layer (outer first) and its values as flat pieces, or,
   * with a {@code sink}, the pieces' levels only and their values in the sink.
   */
  public record Unravelled(Slots[] layers, List<DecodedPage> values, AutoCloseable sink) {}

  public static Unravelled unravel(Leaf leaf, List<DecodedPage> pieces) {
    return unravel(leaf, pieces, null, null);
  }

  /** With the value count of each piece when their values went to {@code sink} (null otherwise). */
  public static Unravelled unravel(Leaf leaf, List<DecodedPage> pieces, long[] sunkCounts, AutoCloseable sink) {
    int m = leaf.path().size();
    Slots[] slots = new Slots[m];
    boolean[] isList = new boolean[m];
    long rows = 0;
    long items = 0;
    for (int i = 0; i < pieces.size(); i++) {
      rows += pieces.get(i).numRows();
      items += sunkCounts != null ? sunkCounts[i] : pieces.get(i).values().numValues();
    }
    boolean listAbove = false;
    for (int j = 0; j < m; j++) {
      Leaf.Kind k = Leaf.kind(leaf.path().get(j));
      isList[j] = k == Leaf.Kind.LIST || k == Leaf.Kind.LARGE_LIST;
      // Top layers have one slot per row. A struct under a list has about one per value (nulls
      // and empties aside); an inner list's count is not known, so it grows from small.
      slots[j] = new Slots(isList[j], j == m - 1, !listAbove ? rows : isList[j] ? 0 : items);
      listAbove |= isList[j];
    }
    List<DecodedPage> values = new ArrayList<>();
    for (int i = 0; i < pieces.size(); i++) {
      DecodedPage p = pieces.get(i);
      values.add(unravelPiece(p, sunkCounts != null ? sunkCounts[i] : p.values().numValues(), m, isList, slots));
    }
    return new Unravelled(slots, values, sink);
  }

  private static DecodedPage unravelPiece(DecodedPage p, long numValues, int m, boolean[] isList, Slots[] slots) {
    List<LevelLayer> layers = p.layers();
    if (layers == null || layers.size() != m) {
      throw LanceCodecException.corrupt("page has " + (layers == null ? 1 : layers.size()) + " rep/def layers, the field nests " + m + " deep");
    }
    // outer index of each layer, its def levels (null then empty), and the list of each rep level
    int maxDef = 0;
    int maxRep = 0;
    for (int j = 0; j < m; j++) {
      LevelLayer l = layers.get(m - 1 - j);
      if (l.isList() != isList[j]) {
        throw LanceCodecException.corrupt("page layer " + l + " does not match the schema at depth " + j);
      }
      maxDef += l.defLevels();
      maxRep += l.isList() ? 1 : 0;
    }
    int[] defLayer = new int[maxDef + 1];
    boolean[] defEmpty = new boolean[maxDef + 1];
    int[] listOfRep = new int[maxRep + 2];
    int next = 1;
    for (int j = m - 1; j >= 0; j--) {
      LevelLayer l = layers.get(m - 1 - j);
      switch (l) {
        case NULLABLE_ITEM:
        case NULLABLE_LIST:
          defLayer[next++] = j;
          break;
        case EMPTYABLE_LIST:
          defEmpty[next] = true;
          defLayer[next++] = j;
          break;
        case NULL_AND_EMPTY_LIST:
          defLayer[next++] = j;
          defEmpty[next] = true;
          defLayer[next++] = j;
          break;
        default:
          break;
      }
    }
    int rep = maxRep;
    for (int j = 0; j < m; j++) {
      if (isList[j]) {
        listOfRep[rep--] = j;
      }
    }
    short[] r = p.repLevels();
    short[] d = p.defLevels();
    int n = r != null ? r.length : d != null ? d.length : LanceCodecException.checkedInt(numValues, "values");
    if (r != null && d != null && r.length != d.length) {
      throw LanceCodecException.corrupt(r.length + " rep levels but " + d.length + " def levels");
    }
    if (r == null && maxRep > 0) {
      throw LanceCodecException.corrupt("page with lists has no repetition levels");
    }
    if (m == 2 && maxRep == 1 && d == null && isList[0] && !isList[1]) {
      return unravelPlainLists(p, r, n, numValues, slots);
    }
    if (m == 2 && maxRep == 1 && d != null && isList[0] && !isList[1]) {
      return unravelOneList(p, r, d, n, numValues, slots, defLayer, defEmpty, maxDef);
    }
    int leafCap = (int) Math.min(numValues, n);
    // allocated at the first null leaf: most pages have none
    short[] leafDef = null;
    int v = 0;
    long rows = 0;
    // Levels that continue the inner-most list with a valid item (rep 0, def 0) are most of a
    // list column; a run of them only adds to that list's length and to the slots below it.
    int innerStart = maxRep > 0 ? listOfRep[1] + 1 : m;
    for (int i = 0; i < n; i++) {
      if (maxRep > 0 && r[i] == 0 && (d == null || d[i] == 0)) {
        int e = i + 1;
        // four levels per test: runs average tens of items, and the loop is a third of a scan
        if (d == null) {
          while (e + 4 <= n && (r[e] | r[e + 1] | r[e + 2] | r[e + 3]) == 0) {
            e += 4;
          }
          while (e < n && r[e] == 0) {
            e++;
          }
        } else {
          while (e + 4 <= n && (r[e] | r[e + 1] | r[e + 2] | r[e + 3] | d[e] | d[e + 1] | d[e + 2] | d[e + 3]) == 0) {
            e += 4;
          }
          while (e < n && r[e] == 0 && d[e] == 0) {
            e++;
          }
        }
        int run = e - i;
        Slots parent = slots[innerStart - 1];
        if (parent.count == 0) {
          throw LanceCodecException.corrupt("levels continue a list before any row starts");
        }
        parent.lengths[parent.count - 1] += run;
        for (int j = innerStart; j < m; j++) {
          slots[j].addValid(run);
        }
        if (v + run > leafCap) {
          throw LanceCodecException.corrupt("levels name more values than the page's " + numValues);
        }
        v += run; // leafDef (if any) is already 0 (valid) there
        i = e - 1;
        continue;
      }
      int ri = r == null ? maxRep : r[i] & 0xFFFF;
      int di = d == null ? 0 : d[i] & 0xFFFF;
      if (ri > maxRep || di > maxDef) {
        throw LanceCodecException.corrupt("level (rep " + ri + ", def " + di + ") beyond the page's layers");
      }
      int start = ri == maxRep ? 0 : listOfRep[ri + 1] + 1;
      if (start == 0) {
        rows++;
      } else {
        Slots parent = slots[start - 1];
        if (parent.count == 0) {
          throw LanceCodecException.corrupt("levels continue a list before any row starts");
        }
        parent.lengths[parent.count - 1]++;
      }
      int stopAt = di == 0 ? m : defLayer[di];
      boolean empty = di != 0 && defEmpty[di];
      boolean nullMode = false;
      for (int j = start; j < m; j++) {
        boolean isNullHere = nullMode || (j == stopAt && !empty);
        slots[j].add(!isNullHere);
        if (j == stopAt && empty) {
          break;
        }
        if (isNullHere) {
          nullMode = true;
          if (isList[j]) {
            break;
          }
        }
        if (j == m - 1) {
          if (v >= leafCap) {
            throw LanceCodecException.corrupt("levels name more values than the page's " + numValues);
          }
          if (isNullHere) {
            if (leafDef == null) {
              leafDef = new short[leafCap];
            }
            leafDef[v] = 1;
          }
          v++;
        } else if (isList[j]) {
          slots[j].lengths[slots[j].count - 1]++;
        }
      }
    }
    if (v != numValues) {
      throw LanceCodecException.corrupt("levels name " + v + " values, the page decoded " + numValues);
    }
    if (rows != p.numRows()) {
      throw LanceCodecException.corrupt("levels hold " + rows + " rows, expected " + p.numRows());
    }
    // no levels = all valid, which the vector filler sets a byte at a time; values without
    // any bytes keep their levels (fixed-size lists whose items are all null are valid lists)
    if (leafDef == null && p.values() instanceof DataBlock.AllNull) {
      leafDef = new short[leafCap];
    }
    return new DecodedPage(p.values(), null, leafDef, v);
  }

  /** What a def level says in {@link #unravelOneList}. */
  private static final byte NULL_ITEM = 1;
  private static final byte EMPTY_LIST = 2;
  private static final byte NULL_LIST = 3;

  /**
   * One list layer over items with def levels (empty or null lists, null items), as the general
   * walk reads it, without a branch per level: a rep level of 1 starts a row, whose def level says
   * whether the row is an item or an empty or null list with none; every other level is an item
   * (null when its def level says so). The row starts' positions are gathered as in
   * {@link #unravelPlainLists}, and each list's length is the distance to the next start, less
   * one when its start is not an item. Lists of 0 to 7 strings spent a tenth of their scan in the
   * general walk, then as much again in a version of it that skipped runs of items.
   */
  private static DecodedPage unravelOneList(DecodedPage p, short[] r, short[] d, int n, long numValues, Slots[] slots,
      int[] defLayer, boolean[] defEmpty, int maxDef) {
    byte[] kinds = new byte[maxDef + 1];
    boolean nullItems = false;
    for (int di = 1; di <= maxDef; di++) {
      boolean list = defLayer[di] == 0;
      kinds[di] = list ? (defEmpty[di] ? EMPTY_LIST : NULL_LIST) : NULL_ITEM;
      nullItems |= !list;
    }
    int[] starts = starts(n);
    int c = 0;
    int any = 0;
    int over = 0;
    for (int i = 0; i < n; i++) {
      int ri = r[i] & 0xFFFF;
      starts[c] = i;
      c += ri & 1;
      any |= ri;
      over |= maxDef - (d[i] & 0xFFFF);
    }
    if ((any & ~1) != 0 || over < 0) {
      throw LanceCodecException.corrupt("levels beyond the page's one list layer and " + maxDef + " def levels");
    }
    Slots lists = slots[0];
    continuePreviousList(p, lists, starts, c, n);
    int notItems = 0;
    for (int k = 0; k < c; k++) {
      int s = starts[k];
      byte kind = kinds[d[s]];
      int list = kind >= EMPTY_LIST ? 1 : 0;
      notItems += list;
      lists.add(kind != NULL_LIST);
      lists.lengths[lists.count - 1] = (k + 1 < c ? starts[k + 1] : n) - s - list;
    }
    int v = n - notItems;
    if (v != numValues) {
      throw LanceCodecException.corrupt("levels name " + v + " values, the page decoded " + numValues);
    }
    slots[1].addValid(v);
    // allocated at the first null item, as in the general walk
    short[] leafDef = null;
    if (nullItems) {
      // below a continuing list only an item's null counts, as in the general walk
      int item = 0;
      for (int i = 0; i < n; i++) {
        byte kind = kinds[d[i]];
        if (r[i] != 0 && kind >= EMPTY_LIST) {
          continue;
        }
        if (kind == NULL_ITEM) {
          if (leafDef == null) {
            leafDef = new short[v];
          }
          leafDef[item] = 1;
        }
        item++;
      }
    }
    if (leafDef == null && p.values() instanceof DataBlock.AllNull) {
      leafDef = new short[v];
    }
    return new DecodedPage(p.values(), null, leafDef, v);
  }

  /**
   * Checks that {@code c} row starts are the page's rows, and adds the levels before the first
   * (items of the list the previous piece ended in) to that list.
   */
  private static void continuePreviousList(DecodedPage p, Slots lists, int[] starts, int c, int n) {
    if (c != p.numRows()) {
      throw LanceCodecException.corrupt("levels hold " + c + " rows, expected " + p.numRows());
    }
    int continued = c > 0 ? starts[0] : n;
    if (continued > 0) {
      if (lists.count == 0) {
        throw LanceCodecException.corrupt("levels continue a list before any row starts");
      }
      lists.lengths[lists.count - 1] += continued;
    }
  }

  /** This thread's row-start array of at least {@code n + 1} entries (kept below {@link #KEEP_STARTS}). */
  private static int[] starts(int n) {
    int[] starts = STARTS.get();
    if (starts.length < n + 1) {
      starts = new int[n + 1];
      if (n < KEEP_STARTS) {
        STARTS.set(starts);
      }
    }
    return starts;
  }

  /**
   * The commonest shape of a list column: one list layer over items, with neither null nor empty
   * lists nor null items (no def levels). Rep level 1 starts a list and 0 continues it, so the
   * lists' lengths are the distances between the 1s, whose positions are gathered with a store and
   * an add per level and no branch; the general walk, a branch per run, took two thirds of a scan
   * of token lines.
   */
  private static DecodedPage unravelPlainLists(DecodedPage p, short[] r, int n, long numValues, Slots[] slots) {
    if (n != numValues) {
      throw LanceCodecException.corrupt("levels name " + n + " values, the page decoded " + numValues);
    }
    int[] starts = starts(n);
    int c = 0;
    if (numValues >= LONG_LISTS * p.numRows()) {
      // long lists: the next 1 is found by the JDK's vectorized compare with zeros
      int i = 0;
      while (i < n) {
        int len = Math.min(ZEROS.length, n - i);
        int at = Arrays.mismatch(r, i, i + len, ZEROS, 0, len);
        if (at < 0) {
          i += len;
          continue;
        }
        i += at;
        if (r[i] != 1) {
          throw LanceCodecException.corrupt("rep level beyond the page's one list layer");
        }
        starts[c++] = i++;
      }
    } else {
      int any = 0;
      for (int i = 0; i < n; i++) {
        int ri = r[i] & 0xFFFF;
        starts[c] = i;
        c += ri & 1;
        any |= ri;
      }
      if ((any & ~1) != 0) {
        throw LanceCodecException.corrupt("rep level beyond the page's one list layer");
      }
    }
    Slots lists = slots[0];
    continuePreviousList(p, lists, starts, c, n);
    int base = lists.count;
    lists.addValid(c);
    int[] lengths = lists.lengths;
    for (int k = 0; k < c; k++) {
      lengths[base + k] = (k + 1 < c ? starts[k + 1] : n) - starts[k];
    }
    slots[1].addValid(n);
    short[] leafDef = p.values() instanceof DataBlock.AllNull ? new short[n] : null;
    return new DecodedPage(p.values(), null, leafDef, n);
  }

  /** Row starts of {@link #unravelPlainLists}, kept per thread for pieces below {@link #KEEP_STARTS} levels. */
  private static final ThreadLocal<int[]> STARTS = ThreadLocal.withInitial(() -> new int[0]);

  private static final int KEEP_STARTS = 1 << 22;

  /** Items per list from which {@link #unravelPlainLists} looks for list starts with a vectorized compare. */
  private static final long LONG_LISTS = 16;

  private static final short[] ZEROS = new short[4096];

  /** Fills {@code vector} (the node at {@code depth} of the leaves' paths) from the unravelled leaves below it. */
  public static void fill(FieldVector vector, Field field, int depth, List<Leaf> leaves, List<Unravelled> data) {
    Leaf.Kind kind = Leaf.kind(field);
    if (kind == Leaf.Kind.LEAF) {
      Unravelled u = data.get(0);
      if (u.sink() instanceof ArrowSink fixed) {
        VectorFiller.fillFromSink(vector, leaves.get(0).physical(), u.values(), u.layers()[depth].count, fixed);
      } else if (u.sink() instanceof ArrowVariableSink variable) {
        VectorFiller.fillFromVariableSink(vector, u.values(), u.layers()[depth].count, variable, leaves.get(0).physical().bits() / 8);
      } else {
        VectorFiller.fill(vector, leaves.get(0).physical(), u.values(), u.layers()[depth].count);
      }
      return;
    }
    Slots s = data.get(0).layers()[depth];
    for (Unravelled u : data) {
      if (u.layers()[depth].count != s.count) {
        throw LanceCodecException.corrupt("field '" + field.getName() + "': its columns disagree on its length ("
            + u.layers()[depth].count + " vs " + s.count + ")");
      }
    }
    List<ArrowBuf> owned = new ArrayList<>();
    try {
      ArrowBuf validity = vector.getAllocator().buffer(Math.max(1, (s.count + 7) / 8));
      owned.add(validity);
      validity.setBytes(0, s.valid, 0, (s.count + 7) / 8);
      ArrowFieldNode node = new ArrowFieldNode(s.count, s.nulls());
      if (kind == Leaf.Kind.STRUCT) {
        vector.loadFieldBuffers(node, List.of(validity));
        StructVector sv = (StructVector) vector;
        for (Field child : field.getChildren()) {
          List<Leaf> sub = new ArrayList<>();
          List<Unravelled> subData = new ArrayList<>();
          for (int i = 0; i < leaves.size(); i++) {
            if (leaves.get(i).path().get(depth + 1) == child) {
              sub.add(leaves.get(i));
              subData.add(data.get(i));
            }
          }
          fill((FieldVector) sv.getChild(child.getName()), child, depth + 1, sub, subData);
        }
        return;
      }
      boolean large = kind == Leaf.Kind.LARGE_LIST;
      int w = large ? 8 : 4;
      // offsets built in a heap array and copied once: per-element ArrowBuf writes are bounds-checked
      byte[] offs = new byte[LanceCodecException.checkedInt((s.count + 1L) * w, "list offsets")];
      long pos = 0;
      for (int i = 0; i < s.count; i++) {
        pos += s.lengths[i];
        if (large) {
          io.lancecodec.spi.LittleEndian.putLong(offs, (i + 1) * 8, pos);
        } else {
          if (pos > Integer.MAX_VALUE) {
            throw LanceCodecException.unsupported("list '" + field.getName() + "' has over 2^31 items in one batch; use a smaller batch size");
          }
          io.lancecodec.spi.LittleEndian.putInt(offs, (i + 1) * 4, (int) pos);
        }
      }
      ArrowBuf offsets = vector.getAllocator().buffer(offs.length);
      owned.add(offsets);
      offsets.setBytes(0, offs, 0, offs.length);
      vector.loadFieldBuffers(node, List.of(validity, offsets));
      FieldVector child = large ? ((LargeListVector) vector).getDataVector() : ((ListVector) vector).getDataVector();
      fill(child, field.getChildren().get(0), depth + 1, leaves, data);
    } finally {
      for (ArrowBuf b : owned) {
        b.close();
      }
    }
  }
}
