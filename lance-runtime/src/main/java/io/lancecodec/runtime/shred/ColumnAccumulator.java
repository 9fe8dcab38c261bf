package io.lancecodec.runtime.shred;

import io.lancecodec.runtime.arrow.Physical;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Collects one column's values across written batches until a page is due, in the physical form
 * codecs take (little-endian bytes, bits for booleans, 32/64-bit offsets), plus a null bitmap.
 * Copies are bulk: whole Arrow buffers move with one {@code getBytes} each.
 */
public final class ColumnAccumulator {
  private final Physical physical;
  // Booleans: their bits, OR-ed in place as batches arrive.
  private byte[] data = new byte[1024];
  // Other fixed-width values and variable-width values' bytes.
  private final ByteChunks chunks = new ByteChunks();
  /** The value bytes of the page last drained, until {@link #recycle}. */
  private byte[] taken;
  private long dataBytes;
  private byte[] offsets;
  private byte[] nulls = new byte[128];
  private long numValues;
  private long nullCount;
  // Fixed-size lists only: their values and inner validity, created with the first batch.
  private FslAccumulator lists;
  // Packed structs only: one accumulator per child, created from the first batch's children.
  private ColumnAccumulator[] packed;

  public ColumnAccumulator(Physical physical) {
    this.physical = physical;
    if (physical.kind() == Physical.Kind.VARIABLE) {
      offsets = new byte[1024];
    }
  }

  public long numValues() {
    return numValues;
  }

  /** Bytes buffered so far, the measure pages are cut by. */
  public long bufferedBytes() {
    if (packed != null) {
      long b = numValues / 8;
      for (ColumnAccumulator c : packed) {
        b += c.bufferedBytes();
      }
      return b;
    }
    if (physical.fsl()) {
      return (lists == null ? 0 : lists.bufferedBytes()) + numValues / 8;
    }
    long offsetBytes = physical.kind() == Physical.Kind.VARIABLE ? numValues * physical.bits() / 8 : 0;
    return dataBytes + offsetBytes + numValues / 8;
  }

  public void append(FieldVector v) {
    append(v, 0, v.getValueCount());
  }

  /** Appends slots {@code [from, to)} of {@code v}. */
  public void append(FieldVector v, int from, int to) {
    int n = to - from;
    if (n <= 0) {
      return;
    }
    // a vector without nulls (the common case) skips the per-slot test, which was a sixth of
    // writing a column of integers, and the bitmap grows only once nulls come (it was doubled
    // from 128 bytes, copied, for every page of a column without any)
    if (v.getNullCount() > 0) {
      ensureNulls(numValues + n);
      for (int i = 0; i < n; i++) {
        if (v.isNull(from + i)) {
          long slot = numValues + i;
          nulls[(int) (slot >>> 3)] |= (byte) (1 << (slot & 7));
          nullCount++;
        }
      }
    }
    if (physical.fsl()) {
      org.apache.arrow.vector.complex.FixedSizeListVector l = (org.apache.arrow.vector.complex.FixedSizeListVector) v;
      if (lists == null) {
        lists = new FslAccumulator(l, physical);
      }
      lists.append(l, from, to);
      numValues += n;
      return;
    }
    switch (physical.kind()) {
      case PACKED:
        appendPacked((org.apache.arrow.vector.complex.StructVector) v, from, to);
        break;
      case BOOL:
        appendBits(v.getDataBuffer(), from, n);
        break;
      case FIXED:
        {
          ArrowBuf src = v.getDataBuffer();
          int w = physical.rowBits() / 8;
          long len = (long) n * w;
          chunks.append(src, (long) from * w, len);
          dataBytes += len;
          break;
        }
      default:
        appendVariable(v, from, n);
    }
    numValues += n;
  }

  /**
   * A packed struct keeps each child's values; a null struct's children are placeholders, but a
   * null child of a valid struct has no place in the row-major layout.
   */
  private void appendPacked(org.apache.arrow.vector.complex.StructVector v, int from, int to) {
    List<FieldVector> kids = v.getChildrenFromFields();
    if (packed == null) {
      packed = new ColumnAccumulator[kids.size()];
      for (int k = 0; k < packed.length; k++) {
        packed[k] = new ColumnAccumulator(Physical.of(kids.get(k).getField().getType()));
      }
    }
    for (int k = 0; k < packed.length; k++) {
      FieldVector kid = kids.get(k);
      if (kid.getNullCount() > 0) {
        for (int i = from; i < to; i++) {
          if (kid.isNull(i) && !v.isNull(i)) {
            throw LanceCodecException.invalidArgument("packed struct '" + v.getName() + "': child '" + kid.getName()
                + "' is null in a valid row (" + i + "); a packed struct can only be null as a whole");
          }
        }
      }
      packed[k].append(kid, from, to);
    }
  }

  private void appendBits(ArrowBuf src, int from, int n) {
    ensureData((numValues + n + 7) / 8 + 8);
    byte[] tmp = new byte[(n + 7) / 8];
    if ((from & 7) == 0) {
      src.getBytes(from >>> 3, tmp, 0, tmp.length);
    } else {
      for (int i = 0; i < n; i++) {
        int s = from + i;
        if ((src.getByte(s >>> 3) & (1 << (s & 7))) != 0) {
          tmp[i >>> 3] |= (byte) (1 << (i & 7));
        }
      }
    }
    if ((numValues & 7) == 0) {
      System.arraycopy(tmp, 0, data, (int) (numValues >>> 3), tmp.length);
      // clear bits past n in the last byte so later appends can OR into it
      if ((n & 7) != 0) {
        data[(int) ((numValues + n) >>> 3)] &= (byte) ((1 << (n & 7)) - 1);
      }
    } else {
      for (int i = 0; i < n; i++) {
        long slot = numValues + i;
        int bit = (tmp[i >>> 3] >> (i & 7)) & 1;
        if (bit != 0) {
          data[(int) (slot >>> 3)] |= (byte) (1 << (slot & 7));
        } else {
          data[(int) (slot >>> 3)] &= (byte) ~(1 << (slot & 7));
        }
      }
    }
    dataBytes = (numValues + n + 7) / 8;
  }

  private void appendVariable(FieldVector v, int from, int n) {
    int w = physical.bits() / 8;
    ArrowBuf off = v.getOffsetBuffer();
    long first;
    long last;
    if (v instanceof BaseLargeVariableWidthVector) {
      first = off.getLong((long) from * 8);
      last = off.getLong((long) (from + n) * 8);
    } else if (v instanceof BaseVariableWidthVector) {
      first = off.getInt((long) from * 4);
      last = off.getInt((long) (from + n) * 4);
    } else {
      throw LanceCodecException.internal("not a variable-width vector: " + v.getClass());
    }
    long len = last - first;
    chunks.append(v.getDataBuffer(), first, len);
    ensureOffsets((numValues + n + 1) * w);
    if (numValues == 0) {
      LittleEndian.putUnsigned(offsets, 0, w, 0);
    }
    for (int i = 1; i <= n; i++) {
      long o = w == 8 ? off.getLong((long) (from + i) * 8) : off.getInt((long) (from + i) * 4);
      LittleEndian.putUnsigned(offsets, (int) ((numValues + i) * w), w, o - first + dataBytes);
    }
    dataBytes += len;
  }

  /** The buffered values as a block, then resets for the next page. */
  public Page drain() {
    long n = numValues;
    DataBlock block;
    switch (physical.kind()) {
      case PACKED:
        {
          if (packed == null) {
            // nothing was appended: no row has a value (the layout writes levels only)
            block = new DataBlock.AllNull(n);
            break;
          }
          List<DataBlock> kids = new java.util.ArrayList<>();
          for (ColumnAccumulator c : packed) {
            kids.add(c.drain().values());
          }
          block = new DataBlock.Struct(kids, n);
          break;
        }
      case BOOL:
      case FIXED:
        if (physical.fsl()) {
          // nothing appended yet (an empty page): an empty list block of the column's shape
          block = lists == null ? new DataBlock.FixedSizeList(new DataBlock.FixedWidth(new byte[0], physical.bits(), 0), physical.dimension(), 0) : lists.drain();
        } else {
          int bytes = (int) ((n * physical.bits() + 7) / 8);
          block = new DataBlock.FixedWidth(physical.kind() == Physical.Kind.BOOL ? takeData(bytes) : (taken = chunks.take(bytes)), physical.bits(), n);
        }
        break;
      default:
        {
          int w = physical.bits() / 8;
          byte[] offs = n == 0 ? new byte[w] : Arrays.copyOf(offsets, (int) ((n + 1) * w));
          block = new DataBlock.VariableWidth(offs, physical.bits(), taken = chunks.take(dataBytes), n);
        }
    }
    short[] def = null;
    if (nullCount > 0) {
      // slots appended after the last null are not in the bitmap yet: valid
      ensureNulls(n);
      def = new short[(int) n];
      for (int i = 0; i < n; i++) {
        if ((nulls[i >>> 3] & (1 << (i & 7))) != 0) {
          def[i] = 1;
        }
      }
    }
    Page page = new Page(block, def, nullCount);
    if (nullCount > 0) {
      Arrays.fill(nulls, (byte) 0);
    }
    numValues = 0;
    nullCount = 0;
    dataBytes = 0;
    return page;
  }

  public record Page(DataBlock values, short[] defLevels, long nullCount) {}

  /**
   * Called once the page last drained is written and nothing holds its blocks any more: its value
   * bytes are kept for a later page of the same size (a new array of megabytes costs more than
   * the copy into it).
   */
  public void recycle() {
    if (taken != null) {
      io.lancecodec.spi.PageArrays.giveBack(taken);
      taken = null;
    }
    if (packed != null) {
      for (ColumnAccumulator c : packed) {
        c.recycle();
      }
    }
  }

  /**
   * The first {@code size} data bytes as an array of their own: the buffer itself when it is
   * exactly that long (a page filled by one batch, sized by it), which saves copying the page,
   * and a fresh small buffer then takes its place.
   */
  private byte[] takeData(int size) {
    if (data.length != size) {
      return Arrays.copyOf(data, size);
    }
    byte[] page = data;
    data = new byte[1024];
    return page;
  }

  private void ensureData(long size) {
    if (size > data.length) {
      data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(size, data.length * 2L)));
    }
  }

  private void ensureOffsets(long size) {
    if (size > offsets.length) {
      offsets = Arrays.copyOf(offsets, (int) Math.max(size, offsets.length * 2L));
    }
  }

  private void ensureNulls(long values) {
    long size = (values + 7) / 8;
    if (size > nulls.length) {
      nulls = Arrays.copyOf(nulls, (int) Math.max(size, nulls.length * 2L));
    }
  }
}
