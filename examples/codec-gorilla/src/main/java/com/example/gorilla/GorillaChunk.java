package com.example.gorilla;

import io.lancecodec.spi.LanceCodecException;

/**
 * One chunk of values in Gorilla's XOR form (Pelkonen et al., VLDB 2015), as a bit stream written
 * most significant bit first: the first value whole; then for each value its XOR with the one
 * before: {@code 0} when equal; {@code 10} and the meaningful bits when they fit the previous
 * window of leading and trailing zeros; otherwise {@code 11}, six bits of leading zeros, six bits
 * of (meaningful bits - 1) and the meaningful bits. Six bits for the leading zeros (the paper uses
 * five) let 64-bit and 32-bit words share one format.
 */
final class GorillaChunk {
  private GorillaChunk() {}

  /** The most bytes {@code n} values of {@code width} bits can take: every value in the long form. */
  static int maxBytes(int n, int width) {
    return (int) ((width + (long) Math.max(0, n - 1) * (2 + 12 + width) + 7) / 8);
  }

  /**
   * Encodes {@code n} words of {@code width} bits (32 or 64) read by {@code words} into {@code out}
   * at {@code at}; returns the bytes written.
   */
  static int encode(long[] words, int n, int width, byte[] out, int at) {
    BitWriter w = new BitWriter(out, at);
    long prev = words[0];
    w.write(prev, width);
    int windowLead = -1;
    int windowTrail = 0;
    for (int i = 1; i < n; i++) {
      long x = words[i] ^ prev;
      prev = words[i];
      if (x == 0) {
        w.write(0, 1);
        continue;
      }
      int lead = Long.numberOfLeadingZeros(x) - (64 - width);
      int trail = Long.numberOfTrailingZeros(x);
      if (windowLead >= 0 && lead >= windowLead && trail >= windowTrail) {
        w.write(0b10, 2);
        w.write(x >>> windowTrail, width - windowLead - windowTrail);
      } else {
        int len = width - lead - trail;
        w.write(0b11, 2);
        w.write(lead, 6);
        w.write(len - 1, 6);
        w.write(x >>> trail, len);
        windowLead = lead;
        windowTrail = trail;
      }
    }
    return w.finish() - at;
  }

  /** Decodes {@code n} words of {@code width} bits from {@code src[at, at + len)}; CORRUPT on any inconsistency. */
  static void decode(byte[] src, int at, int len, int n, int width, long[] words) {
    if (n == 0) {
      if (len != 0) {
        throw LanceCodecException.corrupt("gorilla: " + len + " bytes for an empty chunk");
      }
      return;
    }
    BitReader r = new BitReader(src, at, len);
    long prev = r.read(width);
    words[0] = prev;
    int windowLead = -1;
    int windowTrail = 0;
    for (int i = 1; i < n; i++) {
      if (r.read(1) == 0) {
        words[i] = prev;
        continue;
      }
      long x;
      if (r.read(1) == 0) {
        if (windowLead < 0) {
          throw LanceCodecException.corrupt("gorilla: value " + i + " reuses a window before any was set");
        }
        x = r.read(width - windowLead - windowTrail) << windowTrail;
      } else {
        int lead = (int) r.read(6);
        int meaningful = (int) r.read(6) + 1;
        if (lead + meaningful > width) {
          throw LanceCodecException.corrupt("gorilla: value " + i + " has " + lead + " leading zeros and " + meaningful
              + " meaningful bits, more than " + width);
        }
        windowLead = lead;
        windowTrail = width - lead - meaningful;
        x = r.read(meaningful) << windowTrail;
      }
      prev ^= x;
      words[i] = prev;
    }
    r.expectEnd();
  }

  /** Bits into bytes, most significant first; a 64-bit accumulator flushed a byte at a time. */
  private static final class BitWriter {
    private final byte[] out;
    private int pos;
    private long acc;
    private int bits;

    BitWriter(byte[] out, int pos) {
      this.out = out;
      this.pos = pos;
    }

    void write(long value, int n) {
      if (n > 56) {
        write(value >>> 32, n - 32);
        write(value & 0xFFFF_FFFFL, 32);
        return;
      }
      acc = (acc << n) | (value & ((1L << n) - 1));
      bits += n;
      while (bits >= 8) {
        bits -= 8;
        out[pos++] = (byte) (acc >>> bits);
      }
    }

    int finish() {
      if (bits > 0) {
        out[pos++] = (byte) (acc << (8 - bits));
        bits = 0;
      }
      return pos;
    }
  }

  private static final class BitReader {
    private final byte[] src;
    private final int end;
    private int pos;
    private long acc;
    private int bits;

    BitReader(byte[] src, int at, int len) {
      this.src = src;
      this.pos = at;
      this.end = at + len;
    }

    long read(int n) {
      if (n > 56) {
        long hi = read(n - 32);
        return hi << 32 | read(32);
      }
      while (bits < n) {
        if (pos >= end) {
          throw LanceCodecException.corrupt("gorilla: the chunk ends inside a value");
        }
        acc = (acc << 8) | (src[pos++] & 0xFF);
        bits += 8;
      }
      bits -= n;
      return n == 0 ? 0 : (acc >>> bits) & (-1L >>> (64 - n));
    }

    /** Only the last byte's padding may remain. */
    void expectEnd() {
      if (pos != end || bits >= 8 || (acc & ((1L << bits) - 1)) != 0) {
        throw LanceCodecException.corrupt("gorilla: " + (end - pos) + " bytes left after the chunk's values");
      }
    }
  }
}
