package io.lancecodec.layout.planar;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves values between terminal slots (one per leaf, nulls included) and materialized values
 * (only the valid leaves), and wraps leaves back into the fixed-size lists the structure unrolled.
 */
final class Slots {
  private Slots() {}

  /** The values of {@code leaf} (one per terminal slot) whose bit is set, in order. */
  static DataBlock gather(DataBlock leaf, long[] bits, int count) {
    int n = LanceCodecException.checkedInt(leaf.numValues(), "leaf values");
    if (leaf instanceof DataBlock.FixedWidth fw) {
      if (fw.bitsPerValue() == 1) {
        byte[] out = new byte[(count + 7) / 8];
        int k = 0;
        for (int i = 0; i < n; i++) {
          if (Bits.get(bits, i)) {
            if ((fw.data()[i >>> 3] >>> (i & 7) & 1) != 0) {
              out[k >>> 3] |= (byte) (1 << (k & 7));
            }
            k++;
          }
        }
        return new DataBlock.FixedWidth(out, 1, count);
      }
      int w = fw.bitsPerValue() / 8;
      byte[] out = new byte[LanceCodecException.checkedInt((long) count * w, "materialized values")];
      int k = 0;
      for (int i = 0; i < n; ) {
        if (!Bits.get(bits, i)) {
          i++;
          continue;
        }
        int e = i + 1;
        while (e < n && Bits.get(bits, e)) {
          e++;
        }
        System.arraycopy(fw.data(), i * w, out, k * w, (e - i) * w);
        k += e - i;
        i = e;
      }
      return new DataBlock.FixedWidth(out, fw.bitsPerValue(), count);
    }
    if (leaf instanceof DataBlock.VariableWidth vw) {
      int ow = vw.bitsPerOffset() / 8;
      long bytes = 0;
      for (int i = 0; i < n; i++) {
        if (Bits.get(bits, i)) {
          bytes += vw.offset(i + 1) - vw.offset(i);
        }
      }
      byte[] data = new byte[LanceCodecException.checkedInt(bytes, "materialized bytes")];
      byte[] offs = new byte[(count + 1) * ow];
      int k = 0;
      int at = 0;
      for (int i = 0; i < n; i++) {
        if (Bits.get(bits, i)) {
          int s = (int) vw.offset(i);
          int len = (int) (vw.offset(i + 1) - s);
          System.arraycopy(vw.data(), s, data, at, len);
          at += len;
          LittleEndian.putUnsigned(offs, ++k * ow, ow, at);
        }
      }
      return new DataBlock.VariableWidth(offs, vw.bitsPerOffset(), data, count);
    }
    if (leaf instanceof DataBlock.Struct st) {
      List<DataBlock> children = new ArrayList<>();
      for (DataBlock c : st.children()) {
        children.add(gather(c, bits, count));
      }
      return new DataBlock.Struct(children, count);
    }
    throw LanceCodecException.internal("planar: cannot gather the materialized values of a " + leaf.getClass().getSimpleName());
  }

  /**
   * One slot per terminal slot of {@code ranges} (half-open pairs), taking the next of
   * {@code values} where {@code m} has the slot materialized and an empty (zero) value elsewhere.
   */
  static DataBlock scatter(DataBlock values, Materialized m, long[] ranges) {
    long total = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      total += ranges[i + 1] - ranges[i];
    }
    int n = LanceCodecException.checkedInt(total, "terminal slots");
    if (values instanceof DataBlock.FixedWidth fw) {
      if (fw.bitsPerValue() == 1) {
        byte[] out = new byte[(n + 7) / 8];
        int k = 0;
        int o = 0;
        for (int r = 0; r < ranges.length; r += 2) {
          for (long t = ranges[r]; t < ranges[r + 1]; t++, o++) {
            if (m.isSet(t)) {
              if ((fw.data()[k >>> 3] >>> (k & 7) & 1) != 0) {
                out[o >>> 3] |= (byte) (1 << (o & 7));
              }
              k++;
            }
          }
        }
        return new DataBlock.FixedWidth(out, 1, n);
      }
      int w = fw.bitsPerValue() / 8;
      byte[] out = new byte[LanceCodecException.checkedInt((long) n * w, "terminal values")];
      int k = 0;
      int o = 0;
      for (int r = 0; r < ranges.length; r += 2) {
        for (long t = ranges[r]; t < ranges[r + 1]; t++, o++) {
          if (m.isSet(t)) {
            System.arraycopy(fw.data(), k * w, out, o * w, w);
            k++;
          }
        }
      }
      return new DataBlock.FixedWidth(out, fw.bitsPerValue(), n);
    }
    if (values instanceof DataBlock.VariableWidth vw) {
      int ow = vw.bitsPerOffset() / 8;
      byte[] offs = new byte[(n + 1) * ow];
      long base = vw.offset(0);
      int k = 0;
      int o = 0;
      for (int r = 0; r < ranges.length; r += 2) {
        for (long t = ranges[r]; t < ranges[r + 1]; t++) {
          if (m.isSet(t)) {
            k++;
          }
          LittleEndian.putUnsigned(offs, ++o * ow, ow, vw.offset(k) - base);
        }
      }
      byte[] data = base == 0 ? vw.data() : java.util.Arrays.copyOfRange(vw.data(), (int) base, (int) vw.offset(k));
      return new DataBlock.VariableWidth(offs, vw.bitsPerOffset(), data, n);
    }
    if (values instanceof DataBlock.Struct st) {
      List<DataBlock> children = new ArrayList<>();
      for (DataBlock c : st.children()) {
        children.add(scatter(c, m, ranges));
      }
      return new DataBlock.Struct(children, n);
    }
    if (values instanceof DataBlock.AllNull) {
      return new DataBlock.AllNull(n);
    }
    throw LanceCodecException.internal("planar: cannot place a " + values.getClass().getSimpleName() + " in terminal slots");
  }

  /**
   * Wraps {@code leaf} (the leaves of value slots {@code valueRanges}) into the fixed-size lists of
   * the shape's value layers, with the validity of their children; without such layers, the leaf.
   */
  static DataBlock fold(DataBlock leaf, SparseShape shape, long[] valueRanges) {
    List<SparseShape.Layer> layers = shape.valueLayers();
    if (layers.isEmpty()) {
      return leaf;
    }
    // the scale of each layer's parent domain relative to the value slots
    int f = 0;
    long[] scale = new long[layers.size()];
    long s = 1;
    for (int i = 0; i < layers.size(); i++) {
      scale[i] = s;
      if (layers.get(i).kind() == SparseShape.Kind.FIXED_SIZE_LIST) {
        s *= layers.get(i).dimension();
        f++;
      }
    }
    DataBlock block = leaf;
    for (int i = layers.size() - 1; i >= 0; i--) {
      SparseShape.Layer l = layers.get(i);
      long slots = 0;
      for (int r = 0; r < valueRanges.length; r += 2) {
        slots += (valueRanges[r + 1] - valueRanges[r]) * scale[i];
      }
      if (l.kind() == SparseShape.Kind.VALIDITY) {
        // validity of the leaves (after the last fixed-size list)
        block = nullable(block, l.validity(), l.parentSize(), valueRanges, scale[i]);
        continue;
      }
      if (l.kind() != SparseShape.Kind.FIXED_SIZE_LIST) {
        throw LanceCodecException.unsupported("planar: a list inside a fixed-size list is not supported");
      }
      block = new DataBlock.FixedSizeList(block, l.dimension(), slots);
      // a nested fixed-size list's own validity is its parent's item validity; the first one's is the levels'
      if (i > 0) {
        block = nullable(block, l.validity(), l.parentSize(), valueRanges, scale[i]);
      }
    }
    return block;
  }

  private static DataBlock nullable(DataBlock block, Validity v, int size, long[] valueRanges, long scale) {
    boolean any = false;
    long n = block.numValues();
    byte[] bitmap = new byte[LanceCodecException.checkedInt((n + 7) / 8, "validity")];
    long o = 0;
    for (int r = 0; r < valueRanges.length; r += 2) {
      long a = valueRanges[r] * scale;
      long b = valueRanges[r + 1] * scale;
      int i = v.from((int) a);
      int[] pos = v.positions();
      for (long t = a; t < b; t++, o++) {
        while (i < pos.length && pos[i] < t) {
          i++;
        }
        boolean stored = i < pos.length && pos[i] == t;
        if (stored != v.storesNulls()) {
          bitmap[(int) (o >>> 3)] |= (byte) (1 << (o & 7));
        } else {
          any = true;
        }
      }
    }
    return any || v.anyNull(size) ? new DataBlock.Nullable(block, bitmap) : block;
  }
}
