package io.lancecodec.runtime.arrow;

import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.DecodedPage;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Writes decoded page pieces into an Arrow vector with bulk copies: value bytes go in with one
 * {@code setBytes} per piece, offsets are rebased in a primitive loop, validity comes from the
 * definition levels (0 = valid).
 */
public final class VectorFiller {
  private VectorFiller() {}

  public static void fill(FieldVector vector, Physical physical, List<DecodedPage> pieces, int total) {
    if (physical.fsl()) {
      FslFiller.fill((org.apache.arrow.vector.complex.FixedSizeListVector) vector, physical, pieces, total);
      return;
    }
    if (physical.kind() == Physical.Kind.PACKED) {
      fillPacked((org.apache.arrow.vector.complex.StructVector) vector, pieces, total);
      return;
    }
    // Every buffer allocated here is released at the end; loadFieldBuffers took its own reference.
    Owned owned = new Owned(vector.getAllocator());
    try {
      byte[] validity = new byte[(total + 7) / 8];
      int nulls = fillValidity(validity, pieces, total);
      List<ArrowBuf> buffers;
      switch (physical.kind()) {
        case BOOL:
          buffers = List.of(owned.copyOf(validity, validity.length), fillBool(owned, pieces, total));
          break;
        case FIXED:
          {
            // One allocation holds both buffers: on small reads the allocator's bookkeeping
            // per buffer costs more than the copies. The vector retains the two slices.
            int width = physical.bits() / 8;
            long dataAt = pad8(validity.length);
            ArrowBuf all = owned.allocate(dataAt + (long) total * width);
            all.setBytes(0, validity, 0, validity.length);
            ArrowBuf data = all.slice(dataAt, (long) total * width);
            fillFixed(data, width, pieces);
            buffers = List.of(all.slice(0, validity.length), data);
            break;
          }
        default:
          buffers = fillVariable(owned, validity, physical.bits() / 8, pieces, total);
      }
      // Loading ready-made buffers skips the zeroing and per-value bookkeeping of allocateNew.
      vector.loadFieldBuffers(new ArrowFieldNode(total, nulls), buffers);
    } finally {
      owned.close();
    }
  }

  /**
   * Byte-aligned fixed-width values already in {@code sink} (see {@link ArrowSink}), with their
   * validity from the pieces' levels; the vector takes its own reference to the sink's buffer.
   */
  public static void fillFromSink(FieldVector vector, Physical physical, List<DecodedPage> pieces, int total, ArrowSink sink) {
    long bytes = (long) total * (physical.bits() / 8);
    if (sink.size() != bytes) {
      throw LanceCodecException.corrupt("decoded " + sink.size() + " bytes of values for " + total + " " + physical.bits() + "-bit slots");
    }
    Owned owned = new Owned(vector.getAllocator());
    try {
      byte[] validity = new byte[(total + 7) / 8];
      int nulls = fillValidity(validity, pieces, total);
      ArrowBuf data = sink.buffer().slice(0, Math.max(1, bytes));
      vector.loadFieldBuffers(new ArrowFieldNode(total, nulls), List.of(owned.copyOf(validity, validity.length), data));
    } finally {
      owned.close();
    }
  }

  /**
   * Variable-width values already in {@code sink} (see {@link ArrowVariableSink}), with their
   * validity from the pieces' levels; the vector takes its own reference to the sink's data.
   */
  public static void fillFromVariableSink(FieldVector vector, List<DecodedPage> pieces, int total, ArrowVariableSink sink, int width) {
    if (sink.count() != total) {
      throw LanceCodecException.corrupt("decoded " + sink.count() + " variable-width values for " + total + " slots");
    }
    Owned owned = new Owned(vector.getAllocator());
    try {
      byte[] validity = new byte[(total + 7) / 8];
      int nulls = fillValidity(validity, pieces, total);
      ArrowBuf data = sink.data().slice(0, Math.max(1, sink.size()));
      vector.loadFieldBuffers(new ArrowFieldNode(total, nulls),
          List.of(owned.copyOf(validity, validity.length), owned.copyOf(sink.offsets(), (total + 1) * width), data));
    } finally {
      owned.close();
    }
  }

  /**
   * A packed struct: its validity from the levels, each child cut out of the decoded rows
   * (fixed rows as stored; variable rows with a u64 length before each variable child); children
   * of null structs are null too.
   */
  private static void fillPacked(org.apache.arrow.vector.complex.StructVector vector, List<DecodedPage> pieces, int total) {
    Owned owned = new Owned(vector.getAllocator());
    try {
      byte[] validity = new byte[(total + 7) / 8];
      int nulls = fillValidity(validity, pieces, total);
      vector.loadFieldBuffers(new ArrowFieldNode(total, nulls), List.of(owned.copyOf(validity, validity.length)));
    } finally {
      owned.close();
    }
    Physical[] kinds = Physical.children(vector.getField());
    List<FieldVector> kids = vector.getChildrenFromFields();
    boolean fixedRows = true;
    int rowBytes = 0;
    for (Physical k : kinds) {
      fixedRows &= k.kind() == Physical.Kind.FIXED;
      rowBytes += k.bits() / 8;
    }
    List<List<DecodedPage>> split = new ArrayList<>();
    for (int c = 0; c < kinds.length; c++) {
      split.add(new ArrayList<>(pieces.size()));
    }
    for (DecodedPage p : pieces) {
      int n = (int) p.numRows();
      DataBlock v = p.values();
      if (v instanceof DataBlock.AllNull) {
        for (List<DecodedPage> l : split) {
          l.add(new DecodedPage(v, null, p.defLevels(), n));
        }
      } else if (fixedRows) {
        if (!(v instanceof DataBlock.FixedWidth fw)) {
          throw LanceCodecException.corrupt("packed struct decoded to variable-width rows where its children are fixed-width");
        }
        checkWidth(fw, rowBytes * 8);
        int at = 0;
        for (int c = 0; c < kinds.length; c++) {
          int w = kinds[c].bits() / 8;
          byte[] out = new byte[n * w];
          for (int i = 0; i < n; i++) {
            System.arraycopy(fw.data(), i * rowBytes + at, out, i * w, w);
          }
          at += w;
          split.get(c).add(new DecodedPage(new DataBlock.FixedWidth(out, w * 8, n), null, p.defLevels(), n));
        }
      } else {
        if (!(v instanceof DataBlock.VariableWidth rows)) {
          throw LanceCodecException.corrupt("packed struct decoded to fixed-width rows where a child is variable-width");
        }
        splitVariableRows(rows, n, kinds, p.defLevels(), split);
      }
    }
    for (int c = 0; c < kinds.length; c++) {
      fill(kids.get(c), kinds[c], split.get(c), total);
    }
  }

  /** Cuts decoded variable rows (u64 length before each variable child) into one block per child. */
  private static void splitVariableRows(DataBlock.VariableWidth rows, int n, Physical[] kinds, short[] def,
      List<List<DecodedPage>> split) {
    int k = kinds.length;
    byte[] d = rows.data();
    byte[][] fixed = new byte[k][];
    byte[][] varOffsets = new byte[k][];
    java.io.ByteArrayOutputStream[] varData = new java.io.ByteArrayOutputStream[k];
    for (int c = 0; c < k; c++) {
      if (kinds[c].kind() == Physical.Kind.FIXED) {
        fixed[c] = new byte[n * (kinds[c].bits() / 8)];
      } else {
        varOffsets[c] = new byte[(n + 1) * 8];
        varData[c] = new java.io.ByteArrayOutputStream();
      }
    }
    for (int i = 0; i < n; i++) {
      long pos = rows.offset(i);
      long end = rows.offset(i + 1);
      if (!(pos >= 0 && pos <= end && end <= d.length)) {
        throw LanceCodecException.corrupt("packed struct row " + i + " lies outside its values");
      }
      if (pos == end) {
        // a null struct has no row; its children keep empty placeholders
        for (int c = 0; c < k; c++) {
          if (varData[c] != null) {
            LittleEndian.putLong(varOffsets[c], (i + 1) * 8, varData[c].size());
          }
        }
        continue;
      }
      for (int c = 0; c < k; c++) {
        if (fixed[c] != null) {
          int w = kinds[c].bits() / 8;
          if (pos + w > end) {
            throw LanceCodecException.corrupt("packed struct row " + i + ": child " + c + " runs past the row");
          }
          System.arraycopy(d, (int) pos, fixed[c], i * w, w);
          pos += w;
        } else {
          if (pos + 8 > end) {
            throw LanceCodecException.corrupt("packed struct row " + i + ": child " + c + " length runs past the row");
          }
          long len = LittleEndian.getLong(d, (int) pos);
          pos += 8;
          if (!(len >= 0 && len <= end - pos)) {
            throw LanceCodecException.corrupt("packed struct row " + i + ": child " + c + " of " + len + " bytes runs past the row");
          }
          varData[c].write(d, (int) pos, (int) len);
          pos += len;
          LittleEndian.putLong(varOffsets[c], (i + 1) * 8, varData[c].size());
        }
      }
      if (pos != end) {
        throw LanceCodecException.corrupt("packed struct row " + i + " has bytes after its children");
      }
    }
    for (int c = 0; c < k; c++) {
      DataBlock b = fixed[c] != null
          ? new DataBlock.FixedWidth(fixed[c], kinds[c].bits(), n)
          : new DataBlock.VariableWidth(varOffsets[c], 64, varData[c].toByteArray(), n);
      split.get(c).add(new DecodedPage(b, null, def, n));
    }
  }

  /** Buffers allocated while filling one vector, closed together whatever happens. */
  static final class Owned {
    private final BufferAllocator allocator;
    private final List<ArrowBuf> buffers = new ArrayList<>(3);

    Owned(BufferAllocator allocator) {
      this.allocator = allocator;
    }

    /** Of at least {@code size} bytes, not zeroed: the caller writes every byte the vector shows. */
    ArrowBuf allocate(long size) {
      ArrowBuf b = ArrowSink.allocate(allocator, Math.max(size, 1));
      buffers.add(b);
      return b;
    }

    ArrowBuf copyOf(byte[] bytes, long length) {
      ArrowBuf b = allocate(length);
      b.setBytes(0, bytes, 0, length);
      return b;
    }

    void close() {
      for (ArrowBuf b : buffers) {
        b.close();
      }
    }
  }

  /** Validity bits from the levels (0 = valid); returns the null count. */
  private static int fillValidity(byte[] bits, List<DecodedPage> pieces, int total) {
    int row = 0;
    int nulls = 0;
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
        } else {
          nulls++;
        }
      }
      row += n;
    }
    return nulls;
  }

  /** Sets bits {@code [from, from + n)}, whole bytes at a time in the middle. */
  static void setRange(byte[] bits, int from, int n) {
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

  private static long pad8(long n) {
    return (n + 7) & ~7L;
  }

  private static void fillFixed(ArrowBuf data, int width, List<DecodedPage> pieces) {
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

  private static ArrowBuf fillBool(Owned al, List<DecodedPage> pieces, int total) {
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
    return al.copyOf(bits, bits.length);
  }

  static void checkWidth(DataBlock.FixedWidth fw, int bits) {
    if (fw.bitsPerValue() != bits) {
      throw LanceCodecException.corrupt(
          "page decoded to " + fw.bitsPerValue() + "-bit values where the schema needs " + bits + " bits");
    }
  }

  private static List<ArrowBuf> fillVariable(Owned al, byte[] validity, int width, List<DecodedPage> pieces, int total) {
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
    byte[] offs = new byte[(total + 1) * width];
    // validity, offsets and data share one allocation (see the fixed-width case)
    long offsAt = pad8(validity.length);
    long dataAt = offsAt + pad8(offs.length);
    ArrowBuf all = al.allocate(dataAt + bytes);
    all.setBytes(0, validity, 0, validity.length);
    ArrowBuf data = all.slice(dataAt, bytes);
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
    all.setBytes(offsAt, offs, 0, offs.length);
    return List.of(all.slice(0, validity.length), all.slice(offsAt, offs.length), data);
  }
}
