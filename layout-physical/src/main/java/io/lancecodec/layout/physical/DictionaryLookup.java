package io.lancecodec.layout.physical;

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
    resolveInto(indices, def, 0, (int) indices.numValues(), out);
  }

  /**
   * As {@link #resolveInto(DataBlock, short[], BlockAppender)} for the slots {@code [from, to)}
   * only: a take resolves the rows it wants, not the whole chunk around them.
   */
  void resolveInto(DataBlock indices, short[] def, int from, int to, BlockAppender out) {
    DataBlock.FixedWidth idx = indices(indices);
    if (from < 0 || to < from || to > idx.numValues()) {
      throw LanceCodecException.corrupt(
          "dictionary indices [" + from + ", " + to + ") outside the " + idx.numValues() + " decoded");
    }
    int bits = ((DataBlock.VariableWidth) dictionary).bitsPerOffset();
    out.appendGather(padded, starts, idx.data(), idx.bitsPerValue() / 8, from, to - from, def, bits);
  }

  private static DataBlock.FixedWidth indices(DataBlock indices) {
    if (!(indices instanceof DataBlock.FixedWidth idx) || (idx.bitsPerValue() != 32 && idx.bitsPerValue() != 64 && idx.bitsPerValue() != 16 && idx.bitsPerValue() != 8)) {
      throw LanceCodecException.corrupt("dictionary indices are not 8/16/32/64-bit integers");
    }
    return idx;
  }

  DataBlock resolve(DataBlock indices, short[] def) {
    return resolve(indices, def, 0, Integer.MAX_VALUE);
  }

  /**
   * As {@link #resolve(DataBlock, short[])}, but a fixed-width dictionary resolves only the
   * values {@code [from, to)} (clamped to the chunk) and leaves the other slots zero: a small
   * read of a large chunk (one row of a 2.2/2.3 page's single chunk) looks up the rows it
   * returns, not all of the chunk's. A variable-width dictionary resolves the whole chunk.
   */
  DataBlock resolve(DataBlock indices, short[] def, int from, int to) {
    DataBlock.FixedWidth idx = indices(indices);
    int n = (int) idx.numValues();
    if (starts != null) {
      // the scan path's gather, into an appender of this chunk's own
      DataBlock.VariableWidth vw = (DataBlock.VariableWidth) dictionary;
      if (n == 0) {
        return new DataBlock.VariableWidth(new byte[vw.bitsPerOffset() / 8], vw.bitsPerOffset(), new byte[0], 0);
      }
      BlockAppender out = new BlockAppender(n);
      resolveInto(idx, def, out);
      return out.block();
    }
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) dictionary;
    byte[] out = new byte[n * (fw.bitsPerValue() / 8)];
    resolveFixed(idx, def, Math.max(0, from), Math.min(n, to), out, 0);
    return new DataBlock.FixedWidth(out, fw.bitsPerValue(), n);
  }

  /** The width of a fixed-width dictionary's items in bits, 0 for other dictionaries. */
  int itemBits() {
    return dictionary instanceof DataBlock.FixedWidth fw ? fw.bitsPerValue() : 0;
  }

  /**
   * A fixed-width dictionary's items for slots {@code [from, to)} of {@code indices}, written
   * from {@code out[at]} on, one item width apart; null slots ({@code def[i] != 0}) are not
   * looked up but zeroed. A scan's whole chunk goes straight into the read's array this way,
   * without a block of its own to allocate and copy.
   */
  void resolveFixedInto(DataBlock indices, short[] def, int from, int to, byte[] out, int at) {
    DataBlock.FixedWidth idx = indices(indices);
    if (from < 0 || to < from || to > idx.numValues()) {
      throw LanceCodecException.corrupt(
          "dictionary indices [" + from + ", " + to + ") outside the " + idx.numValues() + " decoded");
    }
    resolveFixed(idx, def, from, to, out, at - from * (itemBits() / 8));
  }

  /** Items for slots {@code [from, to)} at {@code out[base + i * width]}. */
  private void resolveFixed(DataBlock.FixedWidth idx, short[] def, int from, int to, byte[] out, int base) {
    DataBlock.FixedWidth fw = (DataBlock.FixedWidth) dictionary;
    int w = fw.bitsPerValue() / 8;
    int iw = idx.bitsPerValue() / 8;
    byte[] dict = fw.data();
    byte[] ix = idx.data();
    for (int i = from; i < to; i++) {
      if (def == null || def[i] == 0) {
        long v = BlockAppender.index(ix, iw, i);
        if (v < 0 || v >= size) {
          throw LanceCodecException.corrupt("dictionary index " + v + " is outside the dictionary of " + size + " items");
        }
        // 8- and 4-byte items as one load and store: a System.arraycopy call per item made this
        // loop most of a small take's time (profiled on a 1,461-row float64 dictionary page)
        if (w == 8) {
          LittleEndian.putLong(out, base + i * 8, LittleEndian.getLong(dict, (int) v * 8));
        } else if (w == 4) {
          LittleEndian.putInt(out, base + i * 4, LittleEndian.getInt(dict, (int) v * 4));
        } else {
          System.arraycopy(dict, (int) v * w, out, base + i * w, w);
        }
      } else {
        // a null slot is not looked up: zero, whatever the output held there before
        Arrays.fill(out, base + i * w, base + (i + 1) * w, (byte) 0);
      }
    }
  }
}
