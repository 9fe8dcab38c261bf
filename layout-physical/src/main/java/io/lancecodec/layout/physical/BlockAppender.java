package io.lancecodec.layout.physical;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;

/**
 * Concatenates slices of decoded blocks (fixed-width, bit-packed booleans or variable-width) and
 * their definition levels into one block, growing primitive arrays geometrically.
 */
final class BlockAppender {
  private final long expectedValues;
  private boolean initialized;
  private boolean variable;
  private int bits;
  private long pendingNulls;
  private byte[] data = new byte[256];
  private long dataBytes;
  private byte[] offsets;
  private long count;
  private short[] def;
  private boolean anyDef;
  /** Set once the appender is reused: its arrays are its own, so it never takes over a block's. */
  private boolean reused;

  /** The shape (fixed or variable, width) is taken from the first block that has values. */
  BlockAppender(long expectedValues) {
    this.expectedValues = expectedValues;
  }

  private void init(DataBlock block) {
    initialized = true;
    if (block instanceof DataBlock.VariableWidth vw) {
      variable = true;
      bits = vw.bitsPerOffset();
      int want = (int) Math.min(1 << 20, (expectedValues + 1) * (bits / 8));
      if (offsets == null || offsets.length < want) {
        offsets = new byte[want];
      }
      LittleEndian.putUnsigned(offsets, 0, bits / 8, 0);
    } else if (block instanceof DataBlock.FixedWidth fw) {
      bits = fw.bitsPerValue();
      int want = (int) Math.min(1 << 24, (expectedValues * bits + 7) / 8 + 8);
      if (data.length < want) {
        data = new byte[want];
      }
    } else {
      throw LanceCodecException.unsupported("cannot append " + block.getClass().getSimpleName() + " blocks");
    }
    long nulls = pendingNulls;
    pendingNulls = 0;
    count = 0;
    appendPlaceholders(nulls);
    count = nulls;
  }

  /** Appends values {@code [from, to)} of {@code block} with their levels (null = all valid). */
  void append(DataBlock block, long from, long to, short[] levels) {
    append(block, from, to, levels, true);
  }

  /**
   * Appends values {@code [from, to)} of a block built on borrowed arrays (a decompressor's
   * {@link io.lancecodec.spi.DecodeBuffers}), which are always copied, never taken over.
   */
  void appendBorrowed(DataBlock block, long from, long to, short[] levels) {
    append(block, from, to, levels, false);
  }

  private void append(DataBlock block, long from, long to, short[] levels, boolean mayTakeOver) {
    long n = to - from;
    if (n <= 0) {
      return;
    }
    if (levels != null) {
      ensureDef(count + n);
      System.arraycopy(levels, (int) from, def, (int) count, (int) n);
      anyDef = true;
    } else if (def != null) {
      ensureDef(count + n);
      Arrays.fill(def, (int) count, (int) (count + n), (short) 0);
    }
    if (mayTakeOver && !reused && count == 0 && !initialized && from == 0 && to == block.numValues() && block instanceof DataBlock.VariableWidth vw
        && vw.offset(0) == 0) {
      // The first piece is taken over as is: decoders hand out freshly built variable-width
      // blocks, and most reads are a single piece, so this saves a copy of every string byte.
      initialized = true;
      variable = true;
      bits = vw.bitsPerOffset();
      offsets = vw.offsets();
      data = vw.data();
      dataBytes = vw.offset((int) n);
      count = n;
      return;
    }
    if (!initialized && !(block instanceof DataBlock.AllNull)) {
      init(block);
    }
    if (block instanceof DataBlock.AllNull) {
      if (initialized) {
        appendPlaceholders(n);
      } else {
        pendingNulls += n;
      }
    } else if (variable) {
      appendVariable(asVariable(block), (int) from, (int) to);
    } else {
      appendFixed(asFixed(block), from, n);
    }
    count += n;
  }

  private DataBlock.FixedWidth asFixed(DataBlock b) {
    if (!(b instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != bits) {
      throw LanceCodecException.corrupt("decoded block is not " + bits + "-bit fixed-width: " + b.getClass().getSimpleName());
    }
    return fw;
  }

  private DataBlock.VariableWidth asVariable(DataBlock b) {
    if (!(b instanceof DataBlock.VariableWidth vw)) {
      throw LanceCodecException.corrupt("decoded block is not variable-width: " + b.getClass().getSimpleName());
    }
    return vw;
  }

  private void appendPlaceholders(long n) {
    if (variable) {
      int w = bits / 8;
      ensureOffsets((count + n + 1) * w);
      for (long i = 0; i <= n; i++) {
        LittleEndian.putUnsigned(offsets, (int) ((count + i) * w), w, dataBytes);
      }
    } else {
      ensureData((count + n) * bits / 8 + 8);
      dataBytes = ((count + n) * bits + 7) / 8;
    }
  }

  private void appendFixed(DataBlock.FixedWidth fw, long from, long n) {
    if (bits == 1) {
      ensureData((count + n + 7) / 8 + 8);
      byte[] src = fw.data();
      if ((from & 7) == 0 && (count & 7) == 0) {
        System.arraycopy(src, (int) (from >>> 3), data, (int) (count >>> 3), (int) ((n + 7) >>> 3));
      } else {
        for (long i = 0; i < n; i++) {
          long s = from + i;
          long d = count + i;
          if ((src[(int) (s >>> 3)] & (1 << (s & 7))) != 0) {
            data[(int) (d >>> 3)] |= (byte) (1 << (d & 7));
          } else {
            data[(int) (d >>> 3)] &= (byte) ~(1 << (d & 7));
          }
        }
      }
      dataBytes = (count + n + 7) / 8;
      return;
    }
    int w = bits / 8;
    long len = n * w;
    ensureData(dataBytes + len);
    System.arraycopy(fw.data(), (int) (from * w), data, (int) dataBytes, (int) len);
    dataBytes += len;
  }

  private void appendVariable(DataBlock.VariableWidth vw, int from, int to) {
    int w = bits / 8;
    long base = vw.offset(from);
    long end = vw.offset(to);
    if (!(base >= 0 && base <= end && end <= vw.data().length)) {
      throw LanceCodecException.corrupt("variable values [" + base + ", " + end + ") outside data of " + vw.data().length + " bytes");
    }
    ensureDataProjected(dataBytes + (end - base), to - from);
    System.arraycopy(vw.data(), (int) base, data, (int) dataBytes, (int) (end - base));
    ensureOffsets((count + (to - from) + 1) * w);
    for (int i = 0; i <= to - from; i++) {
      LittleEndian.putUnsigned(offsets, (int) ((count + i) * w), w, vw.offset(from + i) - base + dataBytes);
    }
    dataBytes += end - base;
  }

  /**
   * Bytes readable past the data of a source that {@link #appendGather} copies in 8-byte words,
   * and spare past the values it writes: items of up to this many bytes are copied as 32 or 64
   * bytes, whatever their length.
   */
  static final int SLACK = 64;

  /**
   * Appends {@code n} items of a dictionary (data {@code src}, with {@link #SLACK} readable bytes
   * after its last item; item {@code i} is {@code src[starts[i], starts[i + 1])}, checked by the
   * caller) that {@code indexWidth}-byte indices {@code [from, from + n)} in {@code ix} name, with
   * levels {@code def[from, from + n)} (null: all valid; a null slot's index is not looked up and
   * adds an empty value). Offsets are
   * {@code bits} wide. Items of up to {@link #SLACK} bytes go as four or eight 8-byte words, which
   * may write past the item: the next item overwrites those bytes, and the data array keeps
   * {@link #SLACK} spare. Fixed word counts instead of a loop over the item's words, or a call to
   * {@code System.arraycopy} for items over 32 bytes, made a scan of mail URLs (2.1, a dictionary
   * of items of 45 bytes on average) 1.10x faster; a loop of 16-byte steps up to 64 bytes was
   * 0.87x, and 32-byte steps up to 256 bytes gave back half the gain.
   */
  void appendGather(byte[] src, int[] starts, byte[] ix, int indexWidth, int from, int n, short[] def, int bits) {
    if (n <= 0) {
      return;
    }
    if (!initialized) {
      init(new DataBlock.VariableWidth(new byte[(bits / 8) * 2], bits, new byte[0], 1));
    }
    if (!variable || this.bits != bits) {
      throw LanceCodecException.corrupt("dictionary items do not match the " + this.bits + "-bit values before them");
    }
    if (def != null) {
      ensureDef(count + n);
      System.arraycopy(def, from, this.def, (int) count, n);
      anyDef = true;
    } else if (this.def != null) {
      ensureDef(count + n);
      Arrays.fill(this.def, (int) count, (int) (count + n), (short) 0);
    }
    long size = starts.length - 1;
    long total = 0;
    for (int i = from; i < from + n; i++) {
      if (def == null || def[i] == 0) {
        long v = index(ix, indexWidth, i);
        if (v < 0 || v >= size) {
          throw LanceCodecException.corrupt("dictionary index " + v + " is outside the dictionary of " + size + " items");
        }
        total += starts[(int) v + 1] - starts[(int) v];
      }
    }
    ensureDataProjected(dataBytes + total + SLACK, n);
    int w = bits / 8;
    ensureOffsets((count + n + 1) * w);
    byte[] d = data;
    byte[] offs = offsets;
    int pos = (int) dataBytes;
    int o = (int) ((count + 1) * w);
    for (int i = from; i < from + n; i++, o += w) {
      if (def == null || def[i] == 0) {
        int v = (int) index(ix, indexWidth, i);
        int s = starts[v];
        int len = starts[v + 1] - s;
        if (len <= 64) {
          LittleEndian.putLong(d, pos, LittleEndian.getLong(src, s));
          LittleEndian.putLong(d, pos + 8, LittleEndian.getLong(src, s + 8));
          LittleEndian.putLong(d, pos + 16, LittleEndian.getLong(src, s + 16));
          LittleEndian.putLong(d, pos + 24, LittleEndian.getLong(src, s + 24));
          if (len > 32) {
            LittleEndian.putLong(d, pos + 32, LittleEndian.getLong(src, s + 32));
            LittleEndian.putLong(d, pos + 40, LittleEndian.getLong(src, s + 40));
            LittleEndian.putLong(d, pos + 48, LittleEndian.getLong(src, s + 48));
            LittleEndian.putLong(d, pos + 56, LittleEndian.getLong(src, s + 56));
          }
        } else {
          System.arraycopy(src, s, d, pos, len);
        }
        pos += len;
      }
      if (w == 4) {
        LittleEndian.putInt(offs, o, pos);
      } else {
        LittleEndian.putLong(offs, o, pos);
      }
    }
    dataBytes = pos;
    count += n;
  }

  /** Index {@code i} of {@code width}-byte little-endian unsigned dictionary indices. */
  static long index(byte[] ix, int width, int i) {
    return width == 4 ? LittleEndian.getInt(ix, i * 4) & 0xFFFFFFFFL : LittleEndian.getUnsigned(ix, i * width, width);
  }

  /**
   * Makes room for {@code n} fixed-width values of {@code bitsPerValue} bits (a multiple of 8)
   * that the caller writes directly, with their levels; returns the byte offset to write at, or
   * -1 when this appender holds another shape.
   */
  int reserveFixed(int bitsPerValue, int n, short[] levels, int levelsFrom) {
    if (!initialized) {
      init(new DataBlock.FixedWidth(new byte[0], bitsPerValue, 0));
    }
    if (variable || bits != bitsPerValue || bits % 8 != 0) {
      return -1;
    }
    if (levels != null) {
      ensureDef(count + n);
      System.arraycopy(levels, levelsFrom, def, (int) count, n);
      anyDef = true;
    } else if (def != null) {
      ensureDef(count + n);
      Arrays.fill(def, (int) count, (int) (count + n), (short) 0);
    }
    int w = bits / 8;
    ensureData(dataBytes + (long) n * w);
    int at = (int) dataBytes;
    dataBytes += (long) n * w;
    count += n;
    return at;
  }

  /** The array {@link #reserveFixed} offsets point into (valid until the next append). */
  byte[] data() {
    return data;
  }

  long count() {
    return count;
  }

  DataBlock block() {
    if (!initialized) {
      return new DataBlock.AllNull(count);
    }
    if (variable) {
      int w = bits / 8;
      ensureOffsets((count + 1) * w);
      return new DataBlock.VariableWidth(offsets, bits, data, count);
    }
    ensureData((count * bits + 7) / 8);
    return new DataBlock.FixedWidth(data, bits, count);
  }

  /**
   * Empties this appender for the next step of a read, keeping its arrays; the next values set
   * its shape again.
   */
  void clearForReuse() {
    reused = true;
    initialized = false;
    variable = false;
    bits = 0;
    count = 0;
    dataBytes = 0;
    pendingNulls = 0;
    anyDef = false;
  }

  /** The levels array itself (its first {@link #count} entries), or null when no slice had any. */
  short[] levelsView() {
    return anyDef ? def : null;
  }

  /** The bytes of the arrays this appender keeps. */
  long retainedBytes() {
    return data.length + (offsets == null ? 0 : offsets.length) + 2L * (def == null ? 0 : def.length);
  }

  /** Levels of everything appended, or null when no slice had any. */
  short[] levels() {
    return anyDef ? Arrays.copyOf(def, (int) count) : null;
  }

  /**
   * Room for {@code size} data bytes when {@code n} more values are being appended: grown once to
   * the bytes per value so far, projected over the whole read, instead of doubling (each doubling
   * copies everything before it).
   */
  private void ensureDataProjected(long size, long n) {
    if (size > data.length && expectedValues > count + n) {
      double projected = (double) size / (count + n) * expectedValues * 1.125;
      size = Math.max(size, (long) Math.min(Integer.MAX_VALUE - 32, projected) + SLACK);
    }
    ensureData(size);
  }

  private void ensureData(long size) {
    if (size > data.length) {
      if (size > Integer.MAX_VALUE - 16) {
        throw LanceCodecException.unsupported("decoded batch exceeds 2 GiB; use a smaller batch size");
      }
      data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(size, data.length * 2L)));
    }
  }

  private void ensureOffsets(long size) {
    if (size > offsets.length) {
      offsets = Arrays.copyOf(offsets, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(size, offsets.length * 2L)));
    }
  }

  private void ensureDef(long size) {
    if (def == null) {
      def = new short[(int) Math.max(size, 1024)];
    } else if (size > def.length) {
      def = Arrays.copyOf(def, (int) Math.max(size, def.length * 2L));
    }
  }
}
