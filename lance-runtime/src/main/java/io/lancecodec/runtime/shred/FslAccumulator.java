package io.lancecodec.runtime.shred;

import io.lancecodec.runtime.arrow.Physical;
import io.lancecodec.runtime.plugin.FslShape;
import io.lancecodec.runtime.plugin.FslValidity;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;

/**
 * The values of a fixed-size-list column (any depth, fixed-width leaf) until a page is due: the
 * leaf values (bytes, or bits for booleans) and, per level, the children's validity once some
 * child of that level was null (1 = valid; null lists' children included, as the reference keeps
 * them). Like the reference, a level has validity in a page only when one of its children is null.
 */
public final class FslAccumulator {
  private final long[] items;
  private final int leafBits;
  private final byte[][] valid;
  private final long[] nulls;
  /** Boolean leaves, bit by bit (a row need not end on a byte). */
  private byte[] values = new byte[1024];
  /** Whole-byte leaves, as the batches bring them (one copy from Arrow, one join per page). */
  private final ByteChunks bytes = new ByteChunks();
  private long rows;

  FslAccumulator(FixedSizeListVector v, Physical physical) {
    int levels = 0;
    FieldVector f = v;
    long product = 1;
    long[] tmp = new long[FslShape.MAX_LEVELS];
    while (f instanceof FixedSizeListVector l) {
      product *= l.getListSize();
      tmp[levels++] = product;
      f = l.getDataVector();
    }
    items = Arrays.copyOf(tmp, levels);
    leafBits = physical.bits();
    valid = new byte[levels][];
    nulls = new long[levels];
  }

  long rows() {
    return rows;
  }

  long bufferedBytes() {
    return (rows * items[items.length - 1] * leafBits + 7) / 8;
  }

  void append(FixedSizeListVector v, int from, int to) {
    long n = to - from;
    FieldVector cur = v;
    for (int l = 0; l < items.length; l++) {
      FieldVector child = ((FixedSizeListVector) cur).getDataVector();
      if (valid[l] != null || child.getNullCount() > 0) {
        appendValidity(l, child, from * items[l], n * items[l]);
      }
      cur = child;
    }
    long d = items[items.length - 1];
    ArrowBuf src = cur.getDataBuffer();
    if (leafBits == 1) {
      long first = rows * d;
      long count = n * d;
      ensure((first + count + 7) / 8 + 8);
      long s = from * d;
      if ((s & 7) == 0 && (first & 7) == 0) {
        src.getBytes(s >>> 3, values, (int) (first >>> 3), (int) (count >>> 3));
        s += count & ~7L;
        first += count & ~7L;
        count &= 7;
      }
      for (long i = 0; i < count; i++) {
        long b = s + i;
        long t = first + i;
        if ((src.getByte(b >>> 3) & (1 << (b & 7))) != 0) {
          values[(int) (t >>> 3)] |= (byte) (1 << (t & 7));
        } else {
          values[(int) (t >>> 3)] &= (byte) ~(1 << (t & 7));
        }
      }
    } else {
      long w = d * (leafBits / 8);
      bytes.append(src, from * w, n * w);
    }
    rows += n;
  }

  private void appendValidity(int level, FieldVector child, long src, long n) {
    long first = rows * items[level];
    long need = (first + n + 7) / 8;
    if (valid[level] == null) {
      valid[level] = new byte[(int) Math.max(need, 64)];
      // children appended before the first null were all valid
      FslValidity.setBits(valid[level], 0, first);
    } else if (need > valid[level].length) {
      valid[level] = Arrays.copyOf(valid[level], (int) Math.max(need, valid[level].length * 2L));
    }
    if (child.getNullCount() == 0) {
      FslValidity.setBits(valid[level], first, n);
      return;
    }
    ArrowBuf bits = child.getValidityBuffer();
    byte[] dst = valid[level];
    long nullCount = 0;
    for (long i = 0; i < n; i++) {
      long s = src + i;
      long d = first + i;
      if ((bits.getByte(s >>> 3) & (1 << (s & 7))) != 0) {
        dst[(int) (d >>> 3)] |= (byte) (1 << (d & 7));
      } else {
        dst[(int) (d >>> 3)] &= (byte) ~(1 << (d & 7));
        nullCount++;
      }
    }
    nulls[level] += nullCount;
  }

  private void ensure(long size) {
    if (size > values.length) {
      values = Arrays.copyOf(values, LanceCodecException.checkedInt(Math.max(size, values.length * 2L), "list bytes"));
    }
  }

  /** The buffered lists as nested blocks, then resets for the next page. */
  DataBlock drain() {
    long d = items[items.length - 1];
    long size = (rows * d * leafBits + 7) / 8;
    byte[] data = leafBits == 1 ? Arrays.copyOf(values, (int) size) : bytes.take(size);
    DataBlock block = new DataBlock.FixedWidth(data, leafBits, rows * d);
    for (int l = items.length - 1; l >= 0; l--) {
      long count = rows * items[l];
      if (nulls[l] > 0) {
        block = new DataBlock.Nullable(block, Arrays.copyOf(valid[l], (int) ((count + 7) / 8)));
      }
      long parents = l == 0 ? rows : rows * items[l - 1];
      block = new DataBlock.FixedSizeList(block, items[l] / (l == 0 ? 1 : items[l - 1]), parents);
    }
    rows = 0;
    Arrays.fill(valid, null);
    Arrays.fill(nulls, 0);
    return block;
  }
}
