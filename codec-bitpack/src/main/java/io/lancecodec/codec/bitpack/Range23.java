package io.lancecodec.codec.bitpack;

import io.lancecodec.format.pb.v23.Range;
import io.lancecodec.spi.BlockDecompressor;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;

/**
 * 2.3 Range: value i is {@code start + step * i}, from the descriptor alone (no payload). The
 * start and the positive step must fit the declared width, and so must the last value: {@code
 * step * (n - 1) <= max - start}, checked by unsigned division before anything is allocated.
 */
final class Range23 implements BlockDecompressor {
  private final int bits;
  private final long start;
  private final long step;

  Range23(Range r) {
    this.bits = Seq.sequenceBits(r.getUncompressedBitsPerValue(), "range");
    this.start = r.getStart();
    this.step = r.getStep();
    if (!Seq.fits(start, bits)) {
      throw LanceCodecException.corrupt("range: start " + Long.toUnsignedString(start) + " does not fit " + bits + " bits");
    }
    if (step == 0 || !Seq.fits(step, bits)) {
      throw LanceCodecException.corrupt("range: step " + Long.toUnsignedString(step) + " is not a positive " + bits + "-bit value");
    }
  }

  @Override
  public int bitsPerValue() {
    return bits;
  }

  @Override
  public boolean consumesPayload() {
    return false;
  }

  @Override
  public long maxBytes(long numValues) {
    return 0;
  }

  @Override
  public DataBlock decompress(byte[] data, long numValues) {
    LanceCodecException.check(data.length == 0, "range: metadata-only, but given a payload of " + data.length + " bytes");
    if (numValues < 0) {
      throw LanceCodecException.corrupt("range: " + numValues + " values");
    }
    if (numValues >= 2 && Long.compareUnsigned(step, Long.divideUnsigned(Seq.max(bits) - start, numValues - 1)) > 0) {
      throw LanceCodecException.corrupt("range: start " + Long.toUnsignedString(start) + " + step " + Long.toUnsignedString(step)
          + " * " + (numValues - 1) + " overflows " + bits + " bits");
    }
    int n = LanceCodecException.checkedInt(numValues, "range value count");
    byte[] out = new byte[LanceCodecException.checkedInt((long) n * (bits / 8), "range output size")];
    if (bits == 32) {
      int v = (int) start;
      int s = (int) step;
      for (int i = 0; i < n; i++, v += s) {
        LittleEndian.putInt(out, 4 * i, v);
      }
    } else {
      long v = start;
      for (int i = 0; i < n; i++, v += step) {
        LittleEndian.putLong(out, 8 * i, v);
      }
    }
    return new DataBlock.FixedWidth(out, bits, numValues);
  }
}
