package io.lancecodec.layout.planar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lancecodec.layout.physical.LevelSink;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.FieldOptions;
import io.lancecodec.spi.layout.LevelLayer;
import io.lancecodec.spi.layout.PageInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sparse structure built from a page's levels gives the same rows back: random rows of random
 * nested shapes are turned into dense levels by an independent generator, into sparse layers by
 * {@link SparseBuilder}, and back into levels by {@link SparseLevels}, whole and in sub-ranges;
 * both level streams must describe the same events (where each row's path stops, and why).
 */
class SparseLevelsTest {
  static List<Object[]> shapes() {
    List<List<LevelLayer>> layers = List.of(
        List.of(LevelLayer.NULLABLE_ITEM),
        List.of(LevelLayer.ALL_VALID_ITEM, LevelLayer.NULLABLE_LIST),
        List.of(LevelLayer.NULLABLE_ITEM, LevelLayer.NULL_AND_EMPTY_LIST),
        List.of(LevelLayer.ALL_VALID_ITEM, LevelLayer.EMPTYABLE_LIST),
        List.of(LevelLayer.NULLABLE_ITEM, LevelLayer.NULLABLE_ITEM),
        List.of(LevelLayer.ALL_VALID_ITEM, LevelLayer.NULLABLE_ITEM),
        List.of(LevelLayer.NULLABLE_ITEM, LevelLayer.ALL_VALID_ITEM, LevelLayer.NULLABLE_LIST),
        List.of(LevelLayer.NULLABLE_ITEM, LevelLayer.NULL_AND_EMPTY_LIST, LevelLayer.NULLABLE_ITEM, LevelLayer.NULL_AND_EMPTY_LIST),
        List.of(LevelLayer.ALL_VALID_ITEM, LevelLayer.ALL_VALID_LIST, LevelLayer.EMPTYABLE_LIST),
        List.of(LevelLayer.NULLABLE_ITEM, LevelLayer.NULLABLE_LIST, LevelLayer.NULLABLE_ITEM));
    List<Object[]> out = new ArrayList<>();
    long seed = 1;
    for (List<LevelLayer> l : layers) {
      for (double nullness : new double[] {0.0, 0.1, 0.9}) {
        out.add(new Object[] {l, nullness, seed++});
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0} nulls {1}")
  @MethodSource("shapes")
  void levelsSurviveTheSparseForm(List<LevelLayer> layers, double nullness, long seed) {
    Random rnd = new Random(seed);
    int rows = 300;
    Generated g = generate(layers, rows, nullness, rnd);
    PageInput page = new PageInput(new DataBlock.FixedWidth(new byte[g.values * 4], 32, g.values), g.rep, g.def, layers, rows,
        FieldOptions.DEFAULT);
    SparseShape shape = SparseBuilder.shape(page);
    SparseLevels levels = new SparseLevels(shape);
    assertEquals(rows, shape.rows);
    assertEquals(g.values, shape.valueSlots());
    String expected = events(layers, g.rep, g.def, 0, g.rowLevel.get(rows));
    assertEquals(expected, readBack(levels, 0, rows));
    int[] rowStart = rowStarts(g, rows);
    for (int t = 0; t < 20; t++) {
      int a = rnd.nextInt(rows + 1);
      int b = a + rnd.nextInt(rows - a + 1);
      assertEquals(events(layers, g.rep, g.def, rowStart[a], rowStart[b]), readBack(levels, a, b), "rows [" + a + ", " + b + ")");
      assertEquals(visible(g, layers, rowStart[a], rowStart[b]), shape.valueSlot(b) - shape.valueSlot(a), "value slots of [" + a + ", " + b + ")");
    }
  }

  private static String readBack(SparseLevels levels, int a, int b) {
    if (!levels.hasLevels() || a == b) {
      return a == b ? "" : "all valid " + (b - a);
    }
    LevelSink sink = new LevelSink(levels.maxRep > 0, levels.maxDef > 0, b - a);
    levels.emit(a, b, sink);
    List<LevelLayer> kinds = levels.kinds;
    short[] rep = sink.rep();
    short[] def = sink.def();
    int n = rep != null ? rep.length : def.length;
    return events(kinds, rep, def, 0, n);
  }

  /** Levels as events "new slot at depth s; stops at depth e as null / empty / value". */
  private static String events(List<LevelLayer> inner, short[] rep, short[] def, int from, int to) {
    int m = inner.size();
    boolean anyNull = false;
    StringBuilder s = new StringBuilder();
    int maxRep = 0;
    for (LevelLayer l : inner) {
      maxRep += l.isList() ? 1 : 0;
    }
    int[] stopDepth = new int[64];
    char[] stopKind = new char[64];
    int next = 1;
    for (int j = m - 1; j >= 0; j--) {
      switch (inner.get(m - 1 - j)) {
        case NULLABLE_ITEM:
        case NULLABLE_LIST:
          stopDepth[next] = j;
          stopKind[next++] = 'N';
          break;
        case EMPTYABLE_LIST:
          stopDepth[next] = j;
          stopKind[next++] = 'E';
          break;
        case NULL_AND_EMPTY_LIST:
          stopDepth[next] = j;
          stopKind[next++] = 'N';
          stopDepth[next] = j;
          stopKind[next++] = 'E';
          break;
        default:
          break;
      }
    }
    int listIndex = 0;
    int[] repDepth = new int[maxRep + 1];
    for (int j = 0; j < m; j++) {
      if (inner.get(m - 1 - j).isList()) {
        repDepth[maxRep - 1 - listIndex++] = j + 1;
      }
    }
    repDepth[maxRep] = 0;
    for (int i = from; i < to; i++) {
      int r = rep == null ? maxRep : rep[i];
      int d = def == null ? 0 : def[i];
      s.append(repDepth[r]).append(d == 0 ? "v" : stopKind[d] + "" + stopDepth[d]).append(' ');
      anyNull |= d != 0;
    }
    return to - from == 0 || rep != null || anyNull ? s.toString() : "all valid " + (to - from);
  }

  private static final class Generated {
    short[] rep;
    short[] def;
    int values;
    final List<Integer> rowLevel = new ArrayList<>();
  }

  /** Random rows as Lance levels, written from the definition of the levels, not from the walker. */
  private static Generated generate(List<LevelLayer> inner, int rows, double nullness, Random rnd) {
    int m = inner.size();
    LevelLayer[] outer = new LevelLayer[m];
    for (int j = 0; j < m; j++) {
      outer[j] = inner.get(m - 1 - j);
    }
    int[] defNull = new int[m];
    int[] defEmpty = new int[m];
    int next = 1;
    for (int j = m - 1; j >= 0; j--) {
      switch (outer[j]) {
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
    int maxRep = 0;
    for (LevelLayer l : outer) {
      maxRep += l.isList() ? 1 : 0;
    }
    int[] childRep = new int[m];
    int li = 0;
    for (int j = 0; j < m; j++) {
      if (outer[j].isList()) {
        childRep[j] = maxRep - 1 - li++;
      }
    }
    List<int[]> levels = new ArrayList<>();
    Generated g = new Generated();
    int maxVisibleDepth = 0;
    for (int j = 0; j < m; j++) {
      if (outer[j].isList()) {
        maxVisibleDepth = j + 1;
      }
    }
    final int mv = maxVisibleDepth;
    for (int row = 0; row < rows; row++) {
      g.rowLevel.add(levels.size());
      emit(outer, 0, maxRep, rnd, nullness, defNull, defEmpty, childRep, levels, g, mv);
    }
    g.rowLevel.add(levels.size());
    boolean anyDef = levels.stream().anyMatch(l -> l[1] != 0);
    g.rep = maxRep > 0 ? new short[levels.size()] : null;
    g.def = anyDef || maxRep == 0 ? new short[levels.size()] : null;
    for (int i = 0; i < levels.size(); i++) {
      if (g.rep != null) {
        g.rep[i] = (short) levels.get(i)[0];
      }
      if (g.def != null) {
        g.def[i] = (short) levels.get(i)[1];
      }
    }
    if (maxRep == 0 && !anyDef) {
      g.def = null;
    }
    return g;
  }

  private static void emit(LevelLayer[] outer, int j, int rep, Random rnd, double nullness, int[] defNull, int[] defEmpty,
      int[] childRep, List<int[]> out, Generated g, int maxVisibleDepth) {
    LevelLayer l = outer[j];
    boolean canNull = l == LevelLayer.NULLABLE_ITEM || l == LevelLayer.NULLABLE_LIST || l == LevelLayer.NULL_AND_EMPTY_LIST;
    boolean canEmpty = l == LevelLayer.EMPTYABLE_LIST || l == LevelLayer.NULL_AND_EMPTY_LIST;
    if (canNull && rnd.nextDouble() < nullness) {
      out.add(new int[] {rep, defNull[j]});
      g.values += j >= maxVisibleDepth ? 1 : 0;
      return;
    }
    if (l.isList()) {
      if (canEmpty && rnd.nextDouble() < Math.max(nullness, 0.05)) {
        out.add(new int[] {rep, defEmpty[j]});
        return;
      }
      int k = 1 + rnd.nextInt(3);
      for (int c = 0; c < k; c++) {
        emit(outer, j + 1, c == 0 ? rep : childRep[j], rnd, nullness, defNull, defEmpty, childRep, out, g, maxVisibleDepth);
      }
      return;
    }
    if (j == outer.length - 1) {
      out.add(new int[] {rep, 0});
      g.values++;
      return;
    }
    emit(outer, j + 1, rep, rnd, nullness, defNull, defEmpty, childRep, out, g, maxVisibleDepth);
  }

  private static int[] rowStarts(Generated g, int rows) {
    int[] out = new int[rows + 1];
    for (int r = 0; r <= rows; r++) {
      out[r] = g.rowLevel.get(r);
    }
    return out;
  }

  /** Levels of {@code [from, to)} that have a value slot: below the inner-most list. */
  private static long visible(Generated g, List<LevelLayer> inner, int from, int to) {
    int m = inner.size();
    int maxVisibleDef = Integer.MAX_VALUE;
    int n = 0;
    for (LevelLayer l : inner) {
      if (l.isList()) {
        maxVisibleDef = n;
        break;
      }
      n += l.defLevels();
    }
    long c = 0;
    for (int i = from; i < to; i++) {
      int d = g.def == null ? 0 : g.def[i];
      c += d <= maxVisibleDef ? 1 : 0;
    }
    return c;
  }
}
