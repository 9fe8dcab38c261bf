package io.lancecodec.runtime;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.Stats;

/** Computes {@link Stats} in one pass over a block's primitive bytes. */
final class StatsCollector {
  private StatsCollector() {}

  static Stats of(DataBlock block) {
    if (block instanceof DataBlock.FixedWidth fw) {
      return fixed(fw);
    }
    if (block instanceof DataBlock.VariableWidth vw) {
      int n = (int) vw.numValues();
      long max = 0;
      long runs = n == 0 ? 0 : 1;
      for (int i = 0; i < n; i++) {
        max = Math.max(max, vw.offset(i + 1) - vw.offset(i));
      }
      return new Stats(n, vw.bitsPerOffset(), vw.bitsPerOffset(), runs, vw.offset(n) - vw.offset(0), max);
    }
    return new Stats(block.numValues(), 0, 0, 1, 0, 0);
  }

  private static Stats fixed(DataBlock.FixedWidth fw) {
    int bits = fw.bitsPerValue();
    int n = (int) fw.numValues();
    byte[] d = fw.data();
    long or = 0;
    long runs = n == 0 ? 0 : 1;
    switch (bits) {
      case 8:
        for (int i = 0; i < n; i++) {
          or |= d[i] & 0xFF;
          if (i > 0 && d[i] != d[i - 1]) {
            runs++;
          }
        }
        break;
      case 16:
        {
          short prev = n > 0 ? LittleEndian.getShort(d, 0) : 0;
          for (int i = 0; i < n; i++) {
            short v = LittleEndian.getShort(d, i * 2);
            or |= v & 0xFFFF;
            if (v != prev) {
              runs++;
            }
            prev = v;
          }
          break;
        }
      case 32:
        {
          int prev = n > 0 ? LittleEndian.getInt(d, 0) : 0;
          for (int i = 0; i < n; i++) {
            int v = LittleEndian.getInt(d, i * 4);
            or |= v & 0xFFFFFFFFL;
            if (v != prev) {
              runs++;
            }
            prev = v;
          }
          break;
        }
      case 64:
        {
          long prev = n > 0 ? LittleEndian.getLong(d, 0) : 0;
          for (int i = 0; i < n; i++) {
            long v = LittleEndian.getLong(d, i * 8);
            or |= v;
            if (v != prev) {
              runs++;
            }
            prev = v;
          }
          break;
        }
      default:
        return new Stats(n, bits, bits, n, fw.usedBytes(), bits / 8);
    }
    int width = 64 - Long.numberOfLeadingZeros(or);
    return new Stats(n, bits, width, runs, fw.usedBytes(), bits / 8);
  }
}
