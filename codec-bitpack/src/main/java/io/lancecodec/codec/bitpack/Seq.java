package io.lancecodec.codec.bitpack;

import io.lancecodec.format.UnsignedBlockGrammar;
import io.lancecodec.format.pb.v23.CompressiveEncoding;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;

/**
 * Unsigned u32/u64 sequences as the 2.3 generic block codecs handle them: little-endian bytes
 * to and from {@code long[]} (u32 values zero-extended, u64 values compared unsigned), and the
 * checks composites apply to their children.
 */
final class Seq {
  static final byte[] EMPTY = new byte[0];

  private Seq() {}

  /** The largest value of the width, as an unsigned long. */
  static long max(int bits) {
    return bits == 64 ? -1L : (1L << bits) - 1;
  }

  /** Whether {@code v} fits {@code bits} bits (unsigned). */
  static boolean fits(long v, int bits) {
    return Long.compareUnsigned(v, max(bits)) <= 0;
  }

  /** Bit length of an unsigned value (0 for 0). */
  static int width(long v) {
    return 64 - Long.numberOfLeadingZeros(v);
  }

  static long[] toLongs(DataBlock.FixedWidth fw) {
    int n = LanceCodecException.checkedInt(fw.numValues(), "sequence length");
    long[] out = new long[n];
    byte[] d = fw.data();
    if (fw.bitsPerValue() == 32) {
      for (int i = 0; i < n; i++) {
        out[i] = LittleEndian.getInt(d, 4 * i) & 0xFFFFFFFFL;
      }
    } else if (fw.bitsPerValue() == 64) {
      for (int i = 0; i < n; i++) {
        out[i] = LittleEndian.getLong(d, 8 * i);
      }
    } else {
      throw LanceCodecException.internal("generic unsigned sequence of " + fw.bitsPerValue() + "-bit values");
    }
    return out;
  }

  /** The first {@code n} values as little-endian {@code bits}-bit words (each already checked to fit). */
  static byte[] toBytes(long[] v, int n, int bits) {
    byte[] out = new byte[LanceCodecException.checkedInt((long) n * (bits / 8), "sequence bytes")];
    if (bits == 32) {
      for (int i = 0; i < n; i++) {
        LittleEndian.putInt(out, 4 * i, (int) v[i]);
      }
    } else {
      for (int i = 0; i < n; i++) {
        LittleEndian.putLong(out, 8 * i, v[i]);
      }
    }
    return out;
  }

  /** Whether the first {@code n} values never decrease (unsigned). */
  static boolean nonDecreasing(long[] v, int n) {
    for (int i = 1; i < n; i++) {
      if (Long.compareUnsigned(v[i], v[i - 1]) < 0) {
        return false;
      }
    }
    return true;
  }

  /** 32 or 64, or CORRUPT naming the codec: the widths a generic unsigned sequence can have. */
  static int sequenceBits(long bits, String codec) {
    if (bits != 32 && bits != 64) {
      throw LanceCodecException.corrupt(codec + ": uncompressed width " + bits + " is not 32 or 64");
    }
    return (int) bits;
  }

  /**
   * The decoder of a composite's child, which must be present, a leaf of the generic grammar and,
   * when its encoding fixes a width, {@code bits} wide ({@code bits} 0: any of 32 and 64).
   */
  static BlockDecompressor child(Decoders children, boolean present, CompressiveEncoding child, int bits, String what) {
    if (!present) {
      throw LanceCodecException.corrupt(what + " missing");
    }
    if (!UnsignedBlockGrammar.isLeaf(child)) {
      throw LanceCodecException.corrupt(what + ": " + UnsignedBlockGrammar.caseName(child)
          + " is not a leaf (Flat, Constant, Range, InlineBitpacking, OutOfLineBitpacking): unsupported nesting");
    }
    BlockDecompressor d = children.block(child);
    int w = d.bitsPerValue();
    if (w != 0 && (bits == 0 ? w != 32 && w != 64 : w != bits)) {
      throw LanceCodecException.corrupt(what + ": " + w + "-bit values where " + (bits == 0 ? "32 or 64" : bits) + " are needed");
    }
    return d;
  }

  /**
   * Decodes {@code data[off, off + len)} with a child and checks it returned {@code n} values of
   * {@code bits} bits; an empty slice is handed over as such (metadata-only children want it).
   */
  static DataBlock.FixedWidth decodeChild(BlockDecompressor d, byte[] data, int off, int len, long n, int bits, String what) {
    byte[] slice = len == 0 ? EMPTY : (off == 0 && len == data.length ? data : java.util.Arrays.copyOfRange(data, off, off + len));
    DataBlock out = d.decompress(slice, n);
    if (!(out instanceof DataBlock.FixedWidth fw) || fw.numValues() != n || (n > 0 && fw.bitsPerValue() != bits)) {
      throw LanceCodecException.corrupt(what + " did not decode to " + n + " values of " + bits + " bits");
    }
    return fw;
  }

  /** Unsigned value {@code i} of a decoded u32 or u64 block. */
  static long get(byte[] d, int bits, int i) {
    return bits == 32 ? LittleEndian.getInt(d, 4 * i) & 0xFFFFFFFFL : LittleEndian.getLong(d, 8 * i);
  }
}
