package io.lancecodec.spi;

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
      for (int i = 0; i < n; i++) {
        max = Math.max(max, vw.offset(i + 1) - vw.offset(i));
      }
      return new Stats.VariableWidth(n, vw.bitsPerOffset(), vw.offset(n) - vw.offset(0), max);
    }
    return new Stats.Other(block.numValues());
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
          // four values per 8-byte word: a quarter of the loads and loop steps
          short prev = n > 0 ? LittleEndian.getShort(d, 0) : 0;
          int words = n / 4;
          for (int j = 0; j < words; j++) {
            long x = LittleEndian.getLong(d, 8 * j);
            short s0 = (short) x;
            short s1 = (short) (x >>> 16);
            short s2 = (short) (x >>> 32);
            short s3 = (short) (x >>> 48);
            or |= x;
            runs += (s0 != prev ? 1 : 0) + (s1 != s0 ? 1 : 0) + (s2 != s1 ? 1 : 0) + (s3 != s2 ? 1 : 0);
            prev = s3;
          }
          or |= or >>> 32;
          or = (or | or >>> 16) & 0xFFFFL;
          for (int i = 4 * words; i < n; i++) {
            short v = LittleEndian.getShort(d, i * 2);
            or |= v & 0xFFFF;
            runs += v != prev ? 1 : 0;
            prev = v;
          }
          break;
        }
      case 32:
        {
          // two values per 8-byte word: half the loads and loop steps
          int prev = n > 0 ? LittleEndian.getInt(d, 0) : 0;
          int words = n / 2;
          for (int j = 0; j < words; j++) {
            long x = LittleEndian.getLong(d, 8 * j);
            int lo = (int) x;
            int hi = (int) (x >>> 32);
            or |= x;
            runs += (lo != prev ? 1 : 0) + (hi != lo ? 1 : 0);
            prev = hi;
          }
          or = (or | or >>> 32) & 0xFFFFFFFFL;
          if ((n & 1) != 0) {
            int v = LittleEndian.getInt(d, (n - 1) * 4);
            or |= v & 0xFFFFFFFFL;
            runs += v != prev ? 1 : 0;
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
        return new Stats.FixedWidth(n, bits, bits, n, fw.usedBytes());
    }
    int width = 64 - Long.numberOfLeadingZeros(or);
    return new Stats.FixedWidth(n, bits, width, runs, fw.usedBytes());
  }
}
