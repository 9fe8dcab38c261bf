package io.lancecodec.runtime;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LittleEndian;

/** Block helpers of the runtime. */
final class Blocks {
  private Blocks() {}

  /** The values at the given increasing slots, in a block of the same shape. */
  static DataBlock gather(DataBlock block, long[] slots) {
    int n = slots.length;
    if (block instanceof DataBlock.Struct st) {
      java.util.List<DataBlock> kids = new java.util.ArrayList<>(st.children().size());
      for (DataBlock c : st.children()) {
        kids.add(gather(c, slots));
      }
      return new DataBlock.Struct(kids, n);
    }
    if (block instanceof DataBlock.AllNull) {
      return new DataBlock.AllNull(n);
    }
    if (block instanceof DataBlock.FixedSizeList fsl && fsl.child() instanceof DataBlock.Nullable nb) {
      DataBlock.FixedSizeList rows = (DataBlock.FixedSizeList) gather(new DataBlock.FixedSizeList(nb.data(), fsl.dimension(), fsl.numValues()), slots);
      long dim = fsl.dimension();
      byte[] valid = new byte[io.lancecodec.spi.LanceCodecException.checkedInt((n * dim + 7) / 8, "item validity")];
      for (int i = 0; i < n; i++) {
        FslValidity.copyBits(nb.validity(), slots[i] * dim, valid, i * dim, dim);
      }
      return new DataBlock.FixedSizeList(new DataBlock.Nullable(rows.child(), valid), dim, n);
    }
    if (block instanceof DataBlock.FixedSizeList fsl) {
      DataBlock.FixedWidth items = (DataBlock.FixedWidth) fsl.child();
      int w = (int) (items.bitsPerValue() / 8 * fsl.dimension());
      byte[] out = new byte[n * w];
      for (int i = 0; i < n; i++) {
        System.arraycopy(items.data(), (int) (slots[i] * w), out, i * w, w);
      }
      return new DataBlock.FixedSizeList(new DataBlock.FixedWidth(out, items.bitsPerValue(), n * fsl.dimension()), fsl.dimension(), n);
    }
    if (block instanceof DataBlock.FixedWidth fw) {
      if (fw.bitsPerValue() == 1) {
        byte[] out = new byte[(n + 7) / 8];
        for (int i = 0; i < n; i++) {
          long s = slots[i];
          if ((fw.data()[(int) (s >>> 3)] & (1 << (s & 7))) != 0) {
            out[i >>> 3] |= (byte) (1 << (i & 7));
          }
        }
        return new DataBlock.FixedWidth(out, 1, n);
      }
      int w = fw.bitsPerValue() / 8;
      byte[] out = new byte[n * w];
      for (int i = 0; i < n; i++) {
        System.arraycopy(fw.data(), (int) (slots[i] * w), out, i * w, w);
      }
      return new DataBlock.FixedWidth(out, fw.bitsPerValue(), n);
    }
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) block;
    int w = vw.bitsPerOffset() / 8;
    long bytes = 0;
    for (long s : slots) {
      bytes += vw.offset((int) s + 1) - vw.offset((int) s);
    }
    byte[] data = new byte[io.lancecodec.spi.LanceCodecException.checkedInt(bytes, "gathered bytes")];
    byte[] offs = new byte[(n + 1) * w];
    long pos = 0;
    for (int i = 0; i < n; i++) {
      long s = vw.offset((int) slots[i]);
      long e = vw.offset((int) slots[i] + 1);
      System.arraycopy(vw.data(), (int) s, data, (int) pos, (int) (e - s));
      pos += e - s;
      LittleEndian.putUnsigned(offs, (i + 1) * w, w, pos);
    }
    return new DataBlock.VariableWidth(offs, vw.bitsPerOffset(), data, n);
  }
}
