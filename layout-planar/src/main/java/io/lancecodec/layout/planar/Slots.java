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
   * The rows the runtime reads fixed-size lists from, for value slots {@code valueRanges} whose
   * leaves are {@code leaf}: without validity below the lists' own, each row is its leaf bytes;
   * otherwise each row is the validity of every level's items (outer level first, one bit per
   * item, each level rounded up to bytes, 1 = valid) followed by the leaf values (booleans as bits).
   * Without fixed-size-list layers, {@code leaf} itself.
   */
  static DataBlock fold(DataBlock leaf, SparseShape shape, long[] valueRanges) {
    List<SparseShape.Layer> layers = shape.valueLayers();
    if (layers.isEmpty()) {
      return leaf;
    }
    // level l's validity: the next fixed-size list's own, or (last level) the leaves'
    List<Long> items = new ArrayList<>();
    List<Validity> valid = new ArrayList<>();
    List<Integer> domains = new ArrayList<>();
    long product = 1;
    for (int i = 0; i < layers.size(); i++) {
      SparseShape.Layer l = layers.get(i);
      if (l.kind() != SparseShape.Kind.FIXED_SIZE_LIST) {
        if (i != layers.size() - 1 || l.kind() != SparseShape.Kind.VALIDITY) {
          throw LanceCodecException.unsupported("planar: " + l.kind() + " layer inside a fixed-size list is not supported");
        }
        continue;
      }
      product *= l.dimension();
      items.add(product);
      SparseShape.Layer next = i + 1 < layers.size() ? layers.get(i + 1) : null;
      valid.add(next == null ? Validity.ALL_VALID : next.validity());
      domains.add(l.childSize());
    }
    int levels = items.size();
    long rows = 0;
    for (int r = 0; r < valueRanges.length; r += 2) {
      rows += valueRanges[r + 1] - valueRanges[r];
    }
    if (leaf instanceof DataBlock.AllNull) {
      // no leaf is materialized: the runtime reads valid lists of null items from the levels alone
      return new DataBlock.AllNull(rows);
    }
    int leafBits = leaf instanceof DataBlock.FixedWidth fw ? fw.bitsPerValue() : 0;
    if (leafBits == 0) {
      throw LanceCodecException.unsupported("planar: fixed-size lists of " + leaf.getClass().getSimpleName() + " leaves");
    }
    byte[] leafData = ((DataBlock.FixedWidth) leaf).data();
    boolean anyInner = false;
    for (int l = 0; l < levels; l++) {
      anyInner |= valid.get(l).anyNull(domains.get(l));
    }
    long d = product;
    if (!anyInner && leafBits % 8 == 0) {
      return new DataBlock.FixedWidth(leafData, LanceCodecException.checkedInt(d * leafBits, "fixed-size-list row bits"), rows);
    }
    long valueBytes = (d * leafBits + 7) / 8;
    long rowBytes = valueBytes;
    for (long it : items) {
      rowBytes += (it + 7) / 8;
    }
    byte[] out = new byte[LanceCodecException.checkedInt(rows * rowBytes, "fixed-size-list rows")];
    long row = 0;
    for (int r = 0; r < valueRanges.length; r += 2) {
      for (long v = valueRanges[r]; v < valueRanges[r + 1]; v++, row++) {
        long at = row * rowBytes;
        for (int l = 0; l < levels; l++) {
          long n = items.get(l);
          Validity val = valid.get(l);
          int[] pos = val.positions();
          long first = v * n;
          int i = val.from((int) Math.min(first, Integer.MAX_VALUE));
          for (long k = 0; k < n; k++) {
            long p = first + k;
            while (i < pos.length && pos[i] < p) {
              i++;
            }
            boolean stored = i < pos.length && pos[i] == p;
            if (stored != val.storesNulls()) {
              out[(int) (at + (k >>> 3))] |= (byte) (1 << (k & 7));
            }
          }
          at += (n + 7) / 8;
        }
        // the leaves of this row: value slot v's are leaves [row * d, (row + 1) * d) of the block read
        if (leafBits % 8 == 0) {
          int w = leafBits / 8;
          System.arraycopy(leafData, (int) (row * d * w), out, (int) at, (int) (d * w));
        } else {
          for (long k = 0; k < d; k++) {
            long src = row * d + k;
            if ((leafData[(int) (src >>> 3)] >>> (src & 7) & 1) != 0) {
              out[(int) (at + (k >>> 3))] |= (byte) (1 << (k & 7));
            }
          }
        }
      }
    }
    return new DataBlock.FixedWidth(out, LanceCodecException.checkedInt(rowBytes * 8, "fixed-size-list row bits"), rows);
  }
}
