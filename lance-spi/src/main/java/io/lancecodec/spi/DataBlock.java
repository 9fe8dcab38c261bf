package io.lancecodec.spi;

import java.util.List;

/**
 * Unencoded data as codecs see it: the input of every compressor and the output of every
 * decompressor. Buffers are little-endian byte arrays owned by the block; codecs must not
 * modify a block they were handed. Arrow types never appear here, only physical shapes.
 */
public sealed interface DataBlock
    permits DataBlock.FixedWidth,
        DataBlock.VariableWidth,
        DataBlock.AllNull,
        DataBlock.FixedSizeList,
        DataBlock.Struct,
        DataBlock.Nullable {

  /** Number of values (slots) in the block, nulls included. */
  long numValues();

  /**
   * Values of a fixed number of bits each, packed back to back. Widths of 1 (booleans, LSB first
   * within each byte) and any multiple of 8 are allowed; {@code data} may be longer than needed.
   */
  record FixedWidth(byte[] data, int bitsPerValue, long numValues) implements DataBlock {
    public FixedWidth {
      if (bitsPerValue <= 0 || (bitsPerValue != 1 && bitsPerValue % 8 != 0)) {
        throw LanceCodecException.corrupt("fixed-width block: bits per value " + bitsPerValue
            + " is neither 1 nor a positive multiple of 8");
      }
      if ((numValues * bitsPerValue + 7) / 8 > data.length) {
        throw LanceCodecException.corrupt("fixed-width block: " + numValues + " values of "
            + bitsPerValue + " bits need more than the " + data.length + " bytes given");
      }
    }

    /** Bytes actually used by the values. */
    public int usedBytes() {
      return (int) ((numValues * bitsPerValue + 7) / 8);
    }
  }

  /**
   * Variable-width values: {@code numValues + 1} offsets of {@code bitsPerOffset} (32 or 64) bits
   * into {@code data}. The first offset need not be zero; offsets are non-decreasing.
   */
  record VariableWidth(byte[] offsets, int bitsPerOffset, byte[] data, long numValues)
      implements DataBlock {
    public VariableWidth {
      if (bitsPerOffset != 32 && bitsPerOffset != 64) {
        throw LanceCodecException.corrupt("variable-width block: offset width " + bitsPerOffset
            + " is neither 32 nor 64");
      }
      if ((numValues + 1) * (bitsPerOffset / 8) > offsets.length) {
        throw LanceCodecException.corrupt("variable-width block: " + (numValues + 1)
            + " offsets need more than the " + offsets.length + " bytes given");
      }
    }

    /** Offset {@code i} (0..numValues) as a long. */
    public long offset(int i) {
      return bitsPerOffset == 32
          ? Integer.toUnsignedLong(LittleEndian.getInt(offsets, i * 4))
          : LittleEndian.getLong(offsets, i * 8);
    }
  }

  /** A block with no values at all: every slot is null. */
  record AllNull(long numValues) implements DataBlock {}

  /** Fixed-size lists flattened onto their items: {@code child} has numValues * dimension values. */
  record FixedSizeList(DataBlock child, long dimension, long numValues) implements DataBlock {}

  /**
   * Values with their own validity, one bit per value (LSB first, 1 = valid), as the items of a
   * fixed-size list carry it: item nulls there are not levels but a bitmap stored beside the
   * values (an extra mini-block buffer, or zipped in front of each full-zip row).
   */
  record Nullable(DataBlock data, byte[] validity) implements DataBlock {
    public Nullable {
      if ((data.numValues() + 7) / 8 > validity.length) {
        throw LanceCodecException.corrupt("nullable block: " + data.numValues()
            + " values need more than the " + validity.length + " validity bytes given");
      }
    }

    @Override
    public long numValues() {
      return data.numValues();
    }
  }

  /** Struct children stored side by side (used by packed-struct codecs). */
  record Struct(List<DataBlock> children, long numValues) implements DataBlock {}
}
