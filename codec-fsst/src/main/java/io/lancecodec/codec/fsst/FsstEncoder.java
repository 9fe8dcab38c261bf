package io.lancecodec.codec.fsst;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.Arrays;

/**
 * Compresses strings with a finished table: at each position the longest matching symbol is
 * replaced by its code, a byte no symbol covers by the escape code followed by the byte. Each
 * string is compressed on its own, so compressed offsets line up with the original values.
 */
final class FsstEncoder {
  private final SymbolTable table;
  private final SymbolMatcher matcher;

  FsstEncoder(SymbolTable table) {
    this.table = table;
    long[] values = new long[table.size()];
    int[] lengths = new int[table.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = table.symbol(i);
      lengths[i] = table.length(i);
    }
    this.matcher = new SymbolMatcher(values, lengths, values.length);
  }

  SymbolTable table() {
    return table;
  }

  /**
   * Compresses bytes {@code [start, end)} of {@code in} into {@code out} at {@code pos}, which
   * must have room for {@code 2 * (end - start)} bytes; returns the position after the output.
   */
  int compress(byte[] in, int start, int end, byte[] out, int pos) {
    int p = start;
    int o = pos;
    while (p < end) {
      int remaining = end - p;
      long word = SymbolMatcher.load(in, p, end);
      int code = matcher.match(word, remaining);
      if (code >= 0) {
        out[o++] = (byte) code;
        p += table.length(code);
      } else {
        out[o++] = (byte) FsstFormat.ESCAPE;
        out[o++] = (byte) word;
        p++;
      }
    }
    return o;
  }

  /**
   * Compresses every value of a block; the result has the block's offset width, offsets from 0.
   * With a switched-off table the values are copied unchanged, as the reference does.
   */
  DataBlock.VariableWidth compress(DataBlock.VariableWidth block) {
    int n = LanceCodecException.checkedInt(block.numValues(), "fsst: value count");
    int w = block.bitsPerOffset() / 8;
    byte[] offsets = new byte[(n + 1) * w];
    long base = block.offset(0);
    long dataLen = block.offset(n) - base;
    if (!table.compressed()) {
      for (int i = 0; i <= n; i++) {
        LittleEndian.putUnsigned(offsets, i * w, w, block.offset(i) - base);
      }
      byte[] data = Arrays.copyOfRange(block.data(), (int) base, (int) (base + dataLen));
      return new DataBlock.VariableWidth(offsets, block.bitsPerOffset(), data, n);
    }
    // Compressed output rarely exceeds the input; grow only when a value could not fit.
    byte[] out = new byte[(int) Math.min(Integer.MAX_VALUE - 16, dataLen + dataLen / 8 + 64)];
    int o = 0;
    long start = base;
    for (int i = 0; i < n; i++) {
      long end = block.offset(i + 1);
      int len = (int) (end - start);
      long need = o + 2L * len;
      if (need > out.length) {
        out = Arrays.copyOf(out, LanceCodecException.checkedInt(Math.max(need, out.length + (long) out.length / 2), "fsst: compressed page size"));
      }
      o = compress(block.data(), (int) start, (int) end, out, o);
      LittleEndian.putUnsigned(offsets, (i + 1) * w, w, o);
      start = end;
    }
    return new DataBlock.VariableWidth(offsets, block.bitsPerOffset(), Arrays.copyOf(out, o), n);
  }
}
