package io.lancecodec.layout.legacy;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;

/**
 * Resolves dictionary indices (u32 or u64, decoded from mini-block chunks) against the page's
 * dictionary, which the decoder loaded once at open. Null slots may hold any index, so indices
 * of null slots are not looked up.
 */
final class DictionaryLookup {
  private final DataBlock dictionary;
  private final long size;

  DictionaryLookup(DataBlock dictionary, long size) {
    this.dictionary = dictionary;
    this.size = size;
  }

  long cacheBytes() {
    if (dictionary instanceof DataBlock.FixedWidth fw) {
      return fw.data().length;
    }
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) dictionary;
    return vw.data().length + vw.offsets().length;
  }

  DataBlock resolve(DataBlock indices, short[] def) {
    if (!(indices instanceof DataBlock.FixedWidth idx) || (idx.bitsPerValue() != 32 && idx.bitsPerValue() != 64 && idx.bitsPerValue() != 16 && idx.bitsPerValue() != 8)) {
      throw LanceCodecException.corrupt("dictionary indices are not 8/16/32/64-bit integers");
    }
    int n = (int) idx.numValues();
    int iw = idx.bitsPerValue() / 8;
    long[] at = new long[n];
    for (int i = 0; i < n; i++) {
      if (def != null && def[i] != 0) {
        at[i] = -1;
        continue;
      }
      long v = LittleEndian.getUnsigned(idx.data(), i * iw, iw);
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
    long total = 0;
    for (int i = 0; i < n; i++) {
      if (at[i] >= 0) {
        total += vw.offset((int) at[i] + 1) - vw.offset((int) at[i]);
      }
    }
    byte[] data = new byte[LanceCodecException.checkedInt(total, "dictionary expansion")];
    byte[] offs = new byte[(n + 1) * ow];
    long pos = 0;
    for (int i = 0; i < n; i++) {
      if (at[i] >= 0) {
        long s = vw.offset((int) at[i]);
        long len = vw.offset((int) at[i] + 1) - s;
        System.arraycopy(vw.data(), (int) s, data, (int) pos, (int) len);
        pos += len;
      }
      LittleEndian.putUnsigned(offs, (i + 1) * ow, ow, pos);
    }
    return new DataBlock.VariableWidth(offs, vw.bitsPerOffset(), data, n);
  }
}
