package io.lancecodec.runtime;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodedPage;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Writes decoded page pieces into an Arrow vector with bulk copies: value bytes go in with one
 * {@code setBytes} per piece, offsets are rebased in a primitive loop, validity comes from the
 * definition levels (0 = valid).
 */
final class VectorFiller {
  private VectorFiller() {}

  static void fill(FieldVector vector, Physical physical, List<DecodedPage> pieces, int total) {
    vector.setInitialCapacity(total);
    vector.allocateNew();
    switch (physical.kind()) {
      case BOOL:
        fillBool((BitVector) vector, pieces, total);
        break;
      case FIXED:
        fillFixed((BaseFixedWidthVector) vector, physical.bits() / 8, pieces, total);
        break;
      default:
        fillVariable(vector, physical.bits() / 8, pieces, total);
    }
    fillValidity(vector, pieces, total);
    vector.setValueCount(total);
  }

  private static void fillValidity(FieldVector vector, List<DecodedPage> pieces, int total) {
    ArrowBuf validity = vector.getValidityBuffer();
    byte[] bits = new byte[(total + 7) / 8];
    int row = 0;
    for (DecodedPage p : pieces) {
      int n = (int) p.numRows();
      short[] def = p.defLevels();
      boolean allNull = p.values() instanceof DataBlock.AllNull;
      if (def == null && !allNull) {
        setRange(bits, row, n);
        row += n;
        continue;
      }
      for (int i = 0; i < n; i++) {
        boolean valid = !allNull && (def == null || def[i] == 0);
        if (valid) {
          bits[(row + i) >>> 3] |= (byte) (1 << ((row + i) & 7));
        }
      }
      row += n;
    }
    validity.setBytes(0, bits, 0, bits.length);
  }

  /** Sets bits {@code [from, from + n)}, whole bytes at a time in the middle. */
  private static void setRange(byte[] bits, int from, int n) {
    int i = from;
    int end = from + n;
    while (i < end && (i & 7) != 0) {
      bits[i >>> 3] |= (byte) (1 << (i & 7));
      i++;
    }
    int fullEnd = end & ~7;
    if (i < fullEnd) {
      java.util.Arrays.fill(bits, i >>> 3, fullEnd >>> 3, (byte) 0xFF);
      i = fullEnd;
    }
    while (i < end) {
      bits[i >>> 3] |= (byte) (1 << (i & 7));
      i++;
    }
  }

  private static void fillFixed(BaseFixedWidthVector v, int width, List<DecodedPage> pieces, int total) {
    ArrowBuf data = v.getDataBuffer();
    long pos = 0;
    for (DecodedPage p : pieces) {
      long len = p.numRows() * width;
      if (p.values() instanceof DataBlock.FixedWidth fw) {
        checkWidth(fw, width * 8);
        data.setBytes(pos, fw.data(), 0, len);
      } else {
        data.setZero(pos, len);
      }
      pos += len;
    }
  }

  private static void fillBool(BitVector v, List<DecodedPage> pieces, int total) {
    byte[] bits = new byte[(total + 7) / 8];
    int row = 0;
    for (DecodedPage p : pieces) {
      int n = (int) p.numRows();
      if (p.values() instanceof DataBlock.FixedWidth fw) {
        byte[] src = fw.data();
        if (fw.bitsPerValue() == 8) {
          // constant pages store a boolean scalar as one byte
          for (int i = 0; i < n; i++) {
            if (src[i] != 0) {
              bits[(row + i) >>> 3] |= (byte) (1 << ((row + i) & 7));
            }
          }
        } else {
          checkWidth(fw, 1);
          if ((row & 7) == 0) {
            System.arraycopy(src, 0, bits, row >>> 3, (n + 7) >>> 3);
            if ((n & 7) != 0) {
              bits[(row + n) >>> 3] &= (byte) ((1 << (n & 7)) - 1);
            }
          } else {
            for (int i = 0; i < n; i++) {
              if ((src[i >>> 3] & (1 << (i & 7))) != 0) {
                bits[(row + i) >>> 3] |= (byte) (1 << ((row + i) & 7));
              }
            }
          }
        }
      }
      row += n;
    }
    v.getDataBuffer().setBytes(0, bits, 0, bits.length);
  }

  private static void checkWidth(DataBlock.FixedWidth fw, int bits) {
    if (fw.bitsPerValue() != bits) {
      throw LanceCodecException.corrupt(
          "page decoded to " + fw.bitsPerValue() + "-bit values where the schema needs " + bits + " bits");
    }
  }

  private static void fillVariable(FieldVector v, int width, List<DecodedPage> pieces, int total) {
    long bytes = 0;
    for (DecodedPage p : pieces) {
      if (p.values() instanceof DataBlock.VariableWidth vw) {
        bytes += vw.offset((int) p.numRows()) - vw.offset(0);
      } else if (!(p.values() instanceof DataBlock.AllNull)) {
        throw LanceCodecException.corrupt("page decoded to fixed-width values where the schema needs variable-width");
      }
    }
    if (width == 4 && bytes > Integer.MAX_VALUE) {
      throw LanceCodecException.unsupported("batch has " + bytes + " string bytes, over 2 GiB; use a smaller batch size");
    }
    if (v instanceof BaseLargeVariableWidthVector lv) {
      lv.allocateNew(Math.max(bytes, 1), total);
    } else {
      ((BaseVariableWidthVector) v).allocateNew(Math.max(bytes, 1), total);
    }
    ArrowBuf offsets = v.getOffsetBuffer();
    ArrowBuf data = v.getDataBuffer();
    byte[] offs = new byte[(total + 1) * width];
    long dataPos = 0;
    int row = 0;
    for (DecodedPage p : pieces) {
      int n = (int) p.numRows();
      if (p.values() instanceof DataBlock.VariableWidth vw) {
        long base = vw.offset(0);
        long len = vw.offset(n) - base;
        data.setBytes(dataPos, vw.data(), (int) base, len);
        for (int i = 1; i <= n; i++) {
          LittleEndian.putUnsigned(offs, (row + i) * width, width, vw.offset(i) - base + dataPos);
        }
        dataPos += len;
      } else {
        for (int i = 1; i <= n; i++) {
          LittleEndian.putUnsigned(offs, (row + i) * width, width, dataPos);
        }
      }
      row += n;
    }
    offsets.setBytes(0, offs, 0, offs.length);
    if (v instanceof BaseLargeVariableWidthVector lv) {
      lv.setLastSet(total - 1);
    } else {
      ((BaseVariableWidthVector) v).setLastSet(total - 1);
    }
  }
}
