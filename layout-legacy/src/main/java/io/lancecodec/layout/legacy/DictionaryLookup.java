package io.lancecodec.layout.legacy;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;

/**
 * Resolves dictionary indices (u32 or u64, decoded from mini-block chunks) against the page's
 * dictionary, which the decoder loaded once at open. Null slots may hold any index, so indices
 * of null slots are not looked up.
 */
final class DictionaryLookup {
  private final DataBlock dictionary;
  private final long size;
  /**
   * A variable-width dictionary's item starts (size + 1 of them), checked once here: in order
   * and inside its data, so resolving a chunk is an int load per index instead of decoding the
   * offsets' width twice per value.
   */
  private final int[] starts;
  /**
   * A variable-width dictionary's data with {@link BlockAppender#SLACK} bytes after it, so an
   * item is copied in 8-byte words without reading past the array.
   */
  private final byte[] padded;

  DictionaryLookup(DataBlock dictionary, long size) {
    this.dictionary = dictionary;
    this.size = size;
    if (dictionary instanceof DataBlock.VariableWidth vw) {
      int n = LanceCodecException.checkedInt(size, "dictionary items");
      starts = new int[n + 1];
      long prev = 0;
      for (int i = 0; i <= n; i++) {
        long o = vw.offset(i);
        if (o < prev || o > vw.data().length) {
          throw LanceCodecException.corrupt("dictionary item " + i + " starts at " + o + ", out of order or past its "
              + vw.data().length + " data bytes");
        }
        starts[i] = (int) o;
        prev = o;
      }
      padded = Arrays.copyOf(vw.data(), vw.data().length + BlockAppender.SLACK);
    } else {
      starts = null;
      padded = null;
    }
  }

  long cacheBytes() {
    if (dictionary instanceof DataBlock.FixedWidth fw) {
      return fw.data().length;
    }
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) dictionary;
    return vw.data().length + vw.offsets().length + 4L * starts.length + padded.length;
  }

  /** Whether {@link #resolveInto} applies: a variable-width dictionary. */
  boolean variable() {
    return starts != null;
  }

  /**
   * Appends the items {@code indices} name to {@code out}, with levels {@code def} (null: all
   * valid; a null slot's index is not looked up and adds an empty value): a scan's whole chunk
   * without a resolved block in between.
   */
  void resolveInto(DataBlock indices, short[] def, BlockAppender out) {
    DataBlock.FixedWidth idx = indices(indices);
    int n = (int) idx.numValues();
    int bits = ((DataBlock.VariableWidth) dictionary).bitsPerOffset();
    out.appendGather(padded, starts, idx.data(), idx.bitsPerValue() / 8, n, def, bits);
  }

  private static DataBlock.FixedWidth indices(DataBlock indices) {
    if (!(indices instanceof DataBlock.FixedWidth idx) || (idx.bitsPerValue() != 32 && idx.bitsPerValue() != 64 && idx.bitsPerValue() != 16 && idx.bitsPerValue() != 8)) {
      throw LanceCodecException.corrupt("dictionary indices are not 8/16/32/64-bit integers");
    }
    return idx;
  }

  DataBlock resolve(DataBlock indices, short[] def) {
    DataBlock.FixedWidth idx = indices(indices);
    int n = (int) idx.numValues();
    int iw = idx.bitsPerValue() / 8;
    long[] at = new long[n];
    byte[] ix = idx.data();
    for (int i = 0; i < n; i++) {
      if (def != null && def[i] != 0) {
        at[i] = -1;
        continue;
      }
      long v = iw == 4 ? LittleEndian.getInt(ix, i * 4) & 0xFFFFFFFFL : LittleEndian.getUnsigned(ix, i * iw, iw);
      if (v < 0 || v >= size) {
        throw LanceCodecException.corrupt("dictionary index " + v + " is outside the dictionary of " + size + " items");
      }
      at[i] = v;
    }
    if (dictionary instanceof DataBlock.FixedWidth fw) {
      int w = fw.bitsPerValue() / 8;
      byte[] out = new byte[n * w];
      for (int i = 0; i < n; i++) {
        if (at[i] >= 0) {
          System.arraycopy(fw.data(), (int) at[i] * w, out, i * w, w);
        }
      }
      return new DataBlock.FixedWidth(out, fw.bitsPerValue(), n);
    }
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) dictionary;
    int ow = vw.bitsPerOffset() / 8;
    final int[] st = starts;
    long total = 0;
    for (int i = 0; i < n; i++) {
      if (at[i] >= 0) {
        int a = (int) at[i];
        total += st[a + 1] - st[a];
      }
    }
    byte[] data = new byte[LanceCodecException.checkedInt(total, "dictionary expansion")];
    byte[] offs = new byte[(n + 1) * ow];
    byte[] src = vw.data();
    int pos = 0;
    for (int i = 0; i < n; i++) {
      if (at[i] >= 0) {
        int a = (int) at[i];
        int len = st[a + 1] - st[a];
        System.arraycopy(src, st[a], data, pos, len);
        pos += len;
      }
      if (ow == 4) {
        LittleEndian.putInt(offs, (i + 1) * 4, pos);
      } else {
        LittleEndian.putLong(offs, (i + 1) * 8, pos);
      }
    }
    return new DataBlock.VariableWidth(offs, vw.bitsPerOffset(), data, n);
  }
}
