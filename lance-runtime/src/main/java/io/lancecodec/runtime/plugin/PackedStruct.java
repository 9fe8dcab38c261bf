package io.lancecodec.runtime.plugin;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.VariablePackedStruct;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.Decoders;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.MiniBlockCompressed;
import io.lancecodec.spi.MiniBlockCompressor;
import io.lancecodec.spi.MiniBlockDecompressor;
import io.lancecodec.spi.PerValueCompressor;
import io.lancecodec.spi.PerValueDecompressor;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Packed structs ({@code lance-encoding:packed=true}): the children of each row stored
 * together. With only fixed-width children (2.1 and 2.2) a row is the children's bytes back to
 * back, one wide fixed-width value chunked like any other ({@code PackedStruct}); with a
 * variable-width child (2.2 only) a row is each child's bytes in turn, variable ones preceded by
 * their length, and rows go to full-zip ({@code VariablePackedStruct}).
 *
 * <p>Decoding yields rows the vector filler splits into children: fixed rows as stored, and
 * variable rows with every variable child behind a u64 length, whatever the file used (its
 * children may be compressed one by one, e.g. with FSST).
 */
public final class PackedStruct {
  private PackedStruct() {}

  /** The struct's children when all are byte-aligned fixed-width values; else null. */
  static DataBlock.Struct fixedOnly(DataBlock block) {
    if (!(block instanceof DataBlock.Struct s) || s.children().isEmpty()) {
      return null;
    }
    for (DataBlock c : s.children()) {
      if (!(c instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() % 8 == 0)) {
        return null;
      }
    }
    return s;
  }

  /** The struct when its children are byte-aligned fixed-width or variable-width values; else null. */
  static DataBlock.Struct packable(DataBlock block) {
    if (!(block instanceof DataBlock.Struct s) || s.children().isEmpty()) {
      return null;
    }
    for (DataBlock c : s.children()) {
      if (!(c instanceof DataBlock.VariableWidth || c instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() % 8 == 0)) {
        return null;
      }
    }
    return s;
  }

  /** Row-major bytes of fixed-width children: row i is child 0's value i, child 1's value i, ... */
  static DataBlock.FixedWidth fixedRows(DataBlock.Struct s) {
    int k = s.children().size();
    int[] w = new int[k];
    int row = 0;
    for (int c = 0; c < k; c++) {
      w[c] = ((DataBlock.FixedWidth) s.children().get(c)).bitsPerValue() / 8;
      row += w[c];
    }
    int n = LanceCodecException.checkedInt(s.numValues(), "packed rows");
    byte[] out = new byte[LanceCodecException.checkedInt((long) n * row, "packed bytes")];
    int at = 0;
    for (int c = 0; c < k; c++) {
      byte[] src = ((DataBlock.FixedWidth) s.children().get(c)).data();
      int wc = w[c];
      for (int i = 0; i < n; i++) {
        System.arraycopy(src, i * wc, out, i * row + at, wc);
      }
      at += wc;
    }
    return new DataBlock.FixedWidth(out, row * 8, n);
  }

  static CompressiveEncoding fixedEncoding(DataBlock.Struct s, CompressiveEncoding values) {
    io.lancecodec.format.pb.v21.PackedStruct.Builder b = io.lancecodec.format.pb.v21.PackedStruct.newBuilder().setValues(values);
    for (DataBlock c : s.children()) {
      b.addBitsPerValue(((DataBlock.FixedWidth) c).bitsPerValue());
    }
    return CompressiveEncoding.newBuilder().setPackedStruct(b).build();
  }

  /** The 2.3 descriptor of fixed-width children packed into rows stored as {@code values}. */
  static io.lancecodec.format.pb.v23.CompressiveEncoding fixedEncoding23(
      DataBlock.Struct s, io.lancecodec.format.pb.v23.CompressiveEncoding values) {
    io.lancecodec.format.pb.v23.PackedStruct.Builder b = io.lancecodec.format.pb.v23.PackedStruct.newBuilder().setValues(values);
    for (DataBlock c : s.children()) {
      b.addBitsPerValue(((DataBlock.FixedWidth) c).bitsPerValue());
    }
    return io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder().setPackedStruct(b).build();
  }

  /** Fixed-width children: the rows chunked as flat values of the row's width. */
  static final class MiniBlock implements MiniBlockCompressor {
    /** Whether the descriptor is 2.3's; the chunks are the same. */
    private final boolean v23;
    private final int maxValues;

    MiniBlock(boolean v23, int maxValues) {
      this.v23 = v23;
      this.maxValues = maxValues;
    }

    @Override
    public MiniBlockCompressed compress(DataBlock block) {
      DataBlock.Struct s = fixedOnly(block);
      if (s == null) {
        throw LanceCodecException.internal("packed struct of fixed-width children expected");
      }
      DataBlock.FixedWidth rows = fixedRows(s);
      MiniBlockCompressed m = new FlatMiniBlock(maxValues).compress(rows);
      com.google.protobuf.Message encoding = v23
          ? fixedEncoding23(s, Builtin23.flat(rows.bitsPerValue()))
          : fixedEncoding(s, (CompressiveEncoding) m.encoding());
      return new MiniBlockCompressed(m.buffers(), m.chunks(), m.numValues(), encoding);
    }
  }

  /** The row's children through the packed values' decompressor, checked against the declared widths. */
  static MiniBlockDecompressor openMiniBlock(io.lancecodec.format.pb.v21.PackedStruct p, Decoders children) {
    long rowBits = rowBits(p.getBitsPerValueList(), p.hasValues());
    return rowsOf(rowBits, children.miniBlock(p.getValues()));
  }

  /**
   * The 2.3 form: the rows must be stored as {@code Flat} of exactly the children's widths together
   * (the only way our grammar stores packed rows; anything else is refused before a chunk is read).
   */
  static MiniBlockDecompressor openMiniBlock(io.lancecodec.format.pb.v23.PackedStruct p, Decoders children) {
    long rowBits = rowBits(p.getBitsPerValueList(), p.hasValues());
    io.lancecodec.format.pb.v23.CompressiveEncoding values = p.getValues();
    if (!values.hasFlat()) {
      throw LanceCodecException.corrupt("packed struct: 2.3 rows are Flat, not "
          + io.lancecodec.format.UnsignedBlockGrammar.caseName(values) + ": unsupported nesting");
    }
    if (values.getFlat().getBitsPerValue() != rowBits) {
      throw LanceCodecException.corrupt("packed struct: rows of " + Long.toUnsignedString(values.getFlat().getBitsPerValue())
          + " bits for children of " + rowBits + " bits together");
    }
    return rowsOf(rowBits, children.miniBlock(values));
  }

  /** The children's widths together, each a positive multiple of 8 bits; CORRUPT without children or values. */
  private static long rowBits(List<Long> bits, boolean hasValues) {
    long total = 0;
    for (long b : bits) {
      if (!(b > 0 && b % 8 == 0 && b <= 1 << 20)) {
        throw LanceCodecException.corrupt("packed struct: child width " + Long.toUnsignedString(b) + " bits is not a positive multiple of 8");
      }
      total += b;
    }
    if (bits.isEmpty() || !hasValues) {
      throw LanceCodecException.corrupt("packed struct without children or values");
    }
    if (total > FslShape.MAX_ROW_BITS) {
      throw LanceCodecException.corrupt("packed struct: rows of " + total + " bits");
    }
    return total;
  }

  private static MiniBlockDecompressor rowsOf(long rowBits, MiniBlockDecompressor inner) {
    return (chunk, numValues, reuse) -> {
      DataBlock d = inner.decompress(chunk, numValues, reuse);
      if (!(d instanceof DataBlock.FixedWidth fw) || fw.bitsPerValue() != rowBits) {
        throw LanceCodecException.corrupt("packed struct: values decoded to " + d.getClass().getSimpleName()
            + ", expected " + rowBits + "-bit rows");
      }
      return d;
    };
  }

  /** A variable child's length prefix width, in bytes, as the file states it. */
  private static int lengthBytes(long bits) {
    if (bits != 32 && bits != 64) {
      throw LanceCodecException.corrupt("variable packed struct: length prefix of " + bits + " bits is neither 32 nor 64");
    }
    return (int) (bits / 8);
  }

  /**
   * Variable rows (2.2): fixed children as their bytes, variable ones as a length of their offset
   * width then their bytes; offsets of the rows are 32-bit unless the rows outgrow them.
   */
  static final class PerValue implements PerValueCompressor {
    /** Whether the descriptor is 2.3's; the rows are the same. */
    private final boolean v23;

    PerValue() {
      this(false);
    }

    PerValue(boolean v23) {
      this.v23 = v23;
    }

    @Override
    public Encoded<DataBlock> compress(DataBlock block) {
      DataBlock.Struct s = packable(block);
      if (s == null) {
        throw LanceCodecException.internal("packed struct expected");
      }
      int n = LanceCodecException.checkedInt(s.numValues(), "packed rows");
      ByteArrayOutputStream data = new ByteArrayOutputStream();
      long[] ends = new long[n + 1];
      byte[] len = new byte[8];
      for (int i = 0; i < n; i++) {
        for (DataBlock c : s.children()) {
          if (c instanceof DataBlock.FixedWidth fw) {
            int w = fw.bitsPerValue() / 8;
            data.write(fw.data(), i * w, w);
          } else {
            DataBlock.VariableWidth vw = (DataBlock.VariableWidth) c;
            long a = vw.offset(i);
            long l = vw.offset(i + 1) - a;
            int lw = vw.bitsPerOffset() / 8;
            LittleEndian.putUnsigned(len, 0, lw, l);
            data.write(len, 0, lw);
            data.write(vw.data(), (int) a, (int) l);
          }
        }
        ends[i + 1] = data.size();
      }
      int ow = ends[n] <= 0xFFFFFFFFL ? 4 : 8;
      byte[] offsets = new byte[(n + 1) * ow];
      for (int i = 0; i <= n; i++) {
        LittleEndian.putUnsigned(offsets, i * ow, ow, ends[i]);
      }
      return new Encoded<>(new DataBlock.VariableWidth(offsets, ow * 8, data.toByteArray(), n), v23 ? encoding23(s) : encoding(s));
    }
  }

  /** Each child stored as it is: Flat of its width, or Variable behind a length of its offset width. */
  private static CompressiveEncoding encoding(DataBlock.Struct s) {
    VariablePackedStruct.Builder desc = VariablePackedStruct.newBuilder();
    for (DataBlock c : s.children()) {
      VariablePackedStruct.FieldEncoding.Builder f = VariablePackedStruct.FieldEncoding.newBuilder();
      if (c instanceof DataBlock.FixedWidth fw) {
        f.setValue(BuiltinCodecs.flat(fw.bitsPerValue())).setBitsPerValue(fw.bitsPerValue());
      } else {
        DataBlock.VariableWidth vw = (DataBlock.VariableWidth) c;
        f.setValue(BuiltinCodecs.variable(vw.bitsPerOffset())).setBitsPerLength(vw.bitsPerOffset());
      }
      desc.addFields(f);
    }
    return CompressiveEncoding.newBuilder().setVariablePackedStruct(desc).build();
  }

  /** {@link #encoding} in 2.3's messages. */
  private static io.lancecodec.format.pb.v23.CompressiveEncoding encoding23(DataBlock.Struct s) {
    io.lancecodec.format.pb.v23.VariablePackedStruct.Builder desc = io.lancecodec.format.pb.v23.VariablePackedStruct.newBuilder();
    for (DataBlock c : s.children()) {
      io.lancecodec.format.pb.v23.VariablePackedStruct.FieldEncoding.Builder f =
          io.lancecodec.format.pb.v23.VariablePackedStruct.FieldEncoding.newBuilder();
      if (c instanceof DataBlock.FixedWidth fw) {
        f.setValue(Builtin23.flat(fw.bitsPerValue())).setBitsPerValue(fw.bitsPerValue());
      } else {
        DataBlock.VariableWidth vw = (DataBlock.VariableWidth) c;
        f.setValue(Builtin23.variable(Builtin23.flat(vw.bitsPerOffset()))).setBitsPerLength(vw.bitsPerOffset());
      }
      desc.addFields(f);
    }
    return io.lancecodec.format.pb.v23.CompressiveEncoding.newBuilder().setVariablePackedStruct(desc).build();
  }

  /**
   * Splits each stored row into its children, decompresses each child over all rows (a child
   * may be FSST- or otherwise compressed value by value), and rebuilds rows in the decoded form.
   */
  static PerValueDecompressor openPerValue(VariablePackedStruct p, Decoders children) {
    List<Field> fields = new ArrayList<>(p.getFieldsCount());
    for (VariablePackedStruct.FieldEncoding f : p.getFieldsList()) {
      switch (f.getLayoutCase()) {
        case BITS_PER_VALUE -> fields.add(new Field(f.hasValue() ? f.getValue() : null, Layout.WIDTH, f.getBitsPerValue()));
        case BITS_PER_LENGTH -> fields.add(new Field(f.hasValue() ? f.getValue() : null, Layout.LENGTH, f.getBitsPerLength()));
        default -> fields.add(new Field(f.hasValue() ? f.getValue() : null, Layout.NONE, 0));
      }
    }
    return openPerValue(fields, children);
  }

  /** The 2.3 message, which has 2.1's fields under the same numbers. */
  static PerValueDecompressor openPerValue(io.lancecodec.format.pb.v23.VariablePackedStruct p, Decoders children) {
    List<Field> fields = new ArrayList<>(p.getFieldsCount());
    for (io.lancecodec.format.pb.v23.VariablePackedStruct.FieldEncoding f : p.getFieldsList()) {
      switch (f.getLayoutCase()) {
        case BITS_PER_VALUE -> fields.add(new Field(f.hasValue() ? f.getValue() : null, Layout.WIDTH, f.getBitsPerValue()));
        case BITS_PER_LENGTH -> fields.add(new Field(f.hasValue() ? f.getValue() : null, Layout.LENGTH, f.getBitsPerLength()));
        default -> fields.add(new Field(f.hasValue() ? f.getValue() : null, Layout.NONE, 0));
      }
    }
    return openPerValue(fields, children);
  }

  /** Which of a field's layout cases is set: a fixed width, a length prefix's width, or neither. */
  private enum Layout { WIDTH, LENGTH, NONE }

  /** One field of a variable packed struct as either grammar states it: its encoding (null when missing) and layout. */
  private record Field(com.google.protobuf.Message value, Layout layout, long bits) {}

  private static PerValueDecompressor openPerValue(List<Field> p, Decoders children) {
    int k = p.size();
    if (k == 0) {
      throw LanceCodecException.corrupt("variable packed struct without fields");
    }
    int[] fixedBytes = new int[k];
    int[] lenBytes = new int[k];
    PerValueDecompressor[] dec = new PerValueDecompressor[k];
    for (int c = 0; c < k; c++) {
      Field f = p.get(c);
      if (f.value() == null) {
        throw LanceCodecException.corrupt("variable packed struct: field " + c + " has no encoding");
      }
      switch (f.layout()) {
        case WIDTH:
          if (!(f.bits() > 0 && f.bits() % 8 == 0 && f.bits() <= 1 << 20)) {
            throw LanceCodecException.corrupt("variable packed struct: field " + c + " of " + Long.toUnsignedString(f.bits()) + " bits");
          }
          fixedBytes[c] = (int) (f.bits() / 8);
          break;
        case LENGTH:
          lenBytes[c] = lengthBytes(f.bits());
          break;
        default:
          throw LanceCodecException.corrupt("variable packed struct: field " + c + " has neither a width nor a length width");
      }
      dec[c] = children.perValue(f.value());
    }
    return (block, reuse) -> {
      if (!(block instanceof DataBlock.VariableWidth rows)) {
        throw LanceCodecException.corrupt("variable packed struct: rows are not variable-width");
      }
      int n = LanceCodecException.checkedInt(rows.numValues(), "packed rows");
      byte[] d = rows.data();
      // per child: its bytes of every row, as the child's own block
      ByteArrayOutputStream[] parts = new ByteArrayOutputStream[k];
      long[][] ends = new long[k][];
      for (int c = 0; c < k; c++) {
        parts[c] = new ByteArrayOutputStream();
        ends[c] = fixedBytes[c] > 0 ? null : new long[n + 1];
      }
      for (int i = 0; i < n; i++) {
        long pos = rows.offset(i);
        long end = rows.offset(i + 1);
        if (!(pos >= 0 && pos <= end && end <= d.length)) {
          throw LanceCodecException.corrupt("variable packed struct: row " + i + " lies outside the values");
        }
        if (pos == end) {
          // a null struct stores no row: its children get placeholders
          for (int c = 0; c < k; c++) {
            if (fixedBytes[c] > 0) {
              parts[c].write(new byte[fixedBytes[c]], 0, fixedBytes[c]);
            } else {
              ends[c][i + 1] = parts[c].size();
            }
          }
          continue;
        }
        for (int c = 0; c < k; c++) {
          long len = fixedBytes[c];
          if (fixedBytes[c] == 0) {
            if (pos + lenBytes[c] > end) {
              throw LanceCodecException.corrupt("variable packed struct: row " + i + " field " + c + " length runs past the row");
            }
            len = LittleEndian.getUnsigned(d, (int) pos, lenBytes[c]);
            pos += lenBytes[c];
          }
          if (!(len >= 0 && len <= end - pos)) {
            throw LanceCodecException.corrupt("variable packed struct: row " + i + " field " + c + " of " + len + " bytes runs past the row");
          }
          parts[c].write(d, (int) pos, (int) len);
          pos += len;
          if (fixedBytes[c] == 0) {
            ends[c][i + 1] = parts[c].size();
          }
        }
        if (pos != end) {
          throw LanceCodecException.corrupt("variable packed struct: row " + i + " has " + (end - pos) + " bytes after its fields");
        }
      }
      List<DataBlock> kids = new ArrayList<>(k);
      for (int c = 0; c < k; c++) {
        byte[] bytes = parts[c].toByteArray();
        DataBlock raw;
        if (fixedBytes[c] > 0) {
          raw = new DataBlock.FixedWidth(bytes, fixedBytes[c] * 8, n);
        } else {
          int lw = lenBytes[c];
          byte[] offs = new byte[(n + 1) * lw];
          for (int i = 0; i <= n; i++) {
            LittleEndian.putUnsigned(offs, i * lw, lw, ends[c][i]);
          }
          raw = new DataBlock.VariableWidth(offs, lw * 8, bytes, n);
        }
        kids.add(dec[c].decompress(raw, null));
      }
      return rowsOf(kids, n);
    };
  }

  /** The decoded row form: fixed children raw, variable children behind a u64 length. */
  private static DataBlock.VariableWidth rowsOf(List<DataBlock> kids, int n) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] offs = new byte[(n + 1) * 8];
    byte[] len = new byte[8];
    for (int i = 0; i < n; i++) {
      for (DataBlock c : kids) {
        if (c instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() % 8 == 0 && fw.numValues() >= n) {
          int w = fw.bitsPerValue() / 8;
          out.write(fw.data(), i * w, w);
        } else if (c instanceof DataBlock.VariableWidth vw && vw.numValues() >= n) {
          long a = vw.offset(i);
          long l = vw.offset(i + 1) - a;
          if (!(a >= 0 && l >= 0 && a + l <= vw.data().length)) {
            throw LanceCodecException.corrupt("variable packed struct: a child decoded to offsets outside its data");
          }
          LittleEndian.putLong(len, 0, l);
          out.write(len, 0, 8);
          out.write(vw.data(), (int) a, (int) l);
        } else {
          throw LanceCodecException.corrupt("variable packed struct: a child decoded to " + c.getClass().getSimpleName()
              + " with " + c.numValues() + " values for " + n + " rows");
        }
      }
      LittleEndian.putLong(offs, (i + 1) * 8, out.size());
    }
    return new DataBlock.VariableWidth(offs, 64, out.toByteArray(), n);
  }
}
