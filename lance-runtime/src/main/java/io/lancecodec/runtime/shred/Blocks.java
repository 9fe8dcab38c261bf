package io.lancecodec.runtime.shred;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LittleEndian;

/** Block helpers of the runtime. */
public final class Blocks {
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
    if (block instanceof DataBlock.Nullable nb) {
      byte[] valid = new byte[(n + 7) / 8];
      for (int i = 0; i < n; i++) {
        long s = slots[i];
        if ((nb.validity()[(int) (s >>> 3)] & (1 << (s & 7))) != 0) {
          valid[i >>> 3] |= (byte) (1 << (i & 7));
        }
      }
      return new DataBlock.Nullable(gather(nb.data(), slots), valid);
    }
    if (block instanceof DataBlock.FixedSizeList fsl) {
      long dim = fsl.dimension();
      if (fsl.child() instanceof DataBlock.FixedWidth items && items.bitsPerValue() % 8 == 0) {
        // plain rows: one copy per list
        int w = (int) (items.bitsPerValue() / 8 * dim);
        byte[] out = new byte[io.lancecodec.spi.LanceCodecException.checkedInt((long) n * w, "gathered lists")];
        for (int i = 0; i < n; i++) {
          System.arraycopy(items.data(), (int) (slots[i] * w), out, i * w, w);
        }
        return new DataBlock.FixedSizeList(new DataBlock.FixedWidth(out, items.bitsPerValue(), n * dim), dim, n);
      }
      long[] inner = new long[io.lancecodec.spi.LanceCodecException.checkedInt(n * dim, "gathered list items")];
      for (int i = 0; i < n; i++) {
        for (long k = 0; k < dim; k++) {
          inner[(int) (i * dim + k)] = slots[i] * dim + k;
        }
      }
      return new DataBlock.FixedSizeList(gather(fsl.child(), inner), dim, n);
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
