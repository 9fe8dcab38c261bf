package io.lancecodec.layout.legacy;

import com.google.protobuf.ByteString;
import io.lancecodec.format.pb.v21.ConstantLayout;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.format.pb.v21.RepDefLayer;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodedPage;
import io.lancecodec.spi.EncodedPage;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LayoutContext;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.PageDecoder;
import io.lancecodec.spi.PageInput;
import io.lancecodec.spi.PageSource;
import java.util.Arrays;
import java.util.List;

/**
 * Pages whose valid values are all one scalar (2.2), or that are entirely null (both versions;
 * then no scalar and no buffers). A scalar of at most 32 bytes sits inline in the layout;
 * longer or variable-width scalars go to buffer 0 as {@code u32 buffer count, u32 lengths,
 * bytes} in Arrow's own one-element form. Pages with nulls append raw u16 rep (empty) and def
 * buffers. A boolean scalar is one byte; it decodes as an 8-bit value the runtime turns into bits.
 */
final class ConstantPage {
  static final int MAX_INLINE = 32;

  private ConstantPage() {}

  static EncodedPage allNull(PageInput page) {
    ConstantLayout layout = ConstantLayout.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).build();
    return new EncodedPage(List.of(), PageLayout.newBuilder().setConstantLayout(layout).build(), page.numRows());
  }

  /** The scalar if every valid value equals it (at least one valid), else null. */
  static byte[] constantValue(PageInput page) {
    DataBlock values = page.values();
    short[] def = page.defLevels();
    int n = (int) page.numRows();
    byte[] first = null;
    if (values instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() % 8 == 0) {
      int w = fw.bitsPerValue() / 8;
      byte[] d = fw.data();
      int firstIdx = -1;
      for (int i = 0; i < n; i++) {
        if (def != null && def[i] != 0) {
          continue;
        }
        if (firstIdx < 0) {
          firstIdx = i;
        } else if (!Arrays.equals(d, i * w, i * w + w, d, firstIdx * w, firstIdx * w + w)) {
          return null;
        }
      }
      return firstIdx < 0 ? null : Arrays.copyOfRange(d, firstIdx * w, firstIdx * w + w);
    }
    if (values instanceof DataBlock.FixedWidth fw && fw.bitsPerValue() == 1) {
      int seen = -1;
      for (int i = 0; i < n; i++) {
        if (def != null && def[i] != 0) {
          continue;
        }
        int bit = (fw.data()[i >>> 3] >> (i & 7)) & 1;
        if (seen < 0) {
          seen = bit;
        } else if (bit != seen) {
          return null;
        }
      }
      return seen < 0 ? null : new byte[] {(byte) seen};
    }
    if (values instanceof DataBlock.VariableWidth vw) {
      for (int i = 0; i < n; i++) {
        if (def != null && def[i] != 0) {
          continue;
        }
        int s = (int) vw.offset(i);
        int e = (int) vw.offset(i + 1);
        if (first == null) {
          first = Arrays.copyOfRange(vw.data(), s, e);
        } else if (!Arrays.equals(vw.data(), s, e, first, 0, first.length)) {
          return null;
        }
      }
      return first;
    }
    return null;
  }

  static EncodedPage encode(PageInput page, byte[] scalar) {
    ConstantLayout.Builder layout = ConstantLayout.newBuilder().addAllLayers(Levels.toProto(page.layers()));
    java.util.ArrayList<byte[]> buffers = new java.util.ArrayList<>();
    if (page.values() instanceof DataBlock.VariableWidth vw) {
      int w = vw.bitsPerOffset() / 8;
      byte[] offsets = new byte[2 * w];
      LittleEndian.putUnsigned(offsets, w, w, scalar.length);
      byte[] buf = new byte[4 + 8 + offsets.length + scalar.length];
      LittleEndian.putInt(buf, 0, 2);
      LittleEndian.putInt(buf, 4, offsets.length);
      LittleEndian.putInt(buf, 8, scalar.length);
      System.arraycopy(offsets, 0, buf, 12, offsets.length);
      System.arraycopy(scalar, 0, buf, 12 + offsets.length, scalar.length);
      buffers.add(buf);
    } else if (scalar.length <= MAX_INLINE) {
      layout.setInlineValue(ByteString.copyFrom(scalar));
    } else {
      byte[] buf = new byte[8 + scalar.length];
      LittleEndian.putInt(buf, 0, 1);
      LittleEndian.putInt(buf, 4, scalar.length);
      System.arraycopy(scalar, 0, buf, 8, scalar.length);
      buffers.add(buf);
    }
    if (page.defLevels() != null) {
      buffers.add(new byte[0]);
      buffers.add(Levels.block(page.defLevels(), 0, page.defLevels().length).data());
    }
    return new EncodedPage(buffers, PageLayout.newBuilder().setConstantLayout(layout).build(), page.numRows());
  }

  /** Expands the scalar (or nulls) for the requested rows; levels come from the def buffer. */
  static final class Decoder implements PageDecoder {
    private final ConstantLayout layout;
    private final long numRows;
    private final DataBlock scalar; // one value, or AllNull
    private final short[] def;

    Decoder(ConstantLayout layout, PageSource source, long numRows, LayoutContext ctx) {
      this.layout = layout;
      this.numRows = numRows;
      LanceCodecException.check(layout.getLayersCount() > 0, "constant page without layers");
      if (layout.getLayersCount() != 1) {
        throw LanceCodecException.unsupported("constant page with nested layers is not supported yet");
      }
      int nb = source.numBuffers();
      boolean inline = layout.hasInlineValue();
      int levelStart;
      if (inline) {
        LanceCodecException.check(nb == 0 || nb == 2, "constant page: inline value with " + nb + " buffers (expected 0 or 2)");
        LanceCodecException.check(layout.getInlineValue().size() > 0 && layout.getInlineValue().size() <= MAX_INLINE,
            "constant page: inline value of " + layout.getInlineValue().size() + " bytes outside [1, 32]");
        byte[] v = layout.getInlineValue().toByteArray();
        scalar = new DataBlock.FixedWidth(v, v.length * 8, 1);
        levelStart = 0;
      } else if (nb == 0) {
        scalar = new DataBlock.AllNull(1);
        levelStart = -1;
      } else {
        LanceCodecException.check(nb == 1 || nb == 3, "constant page: " + nb + " buffers without inline value (expected 0, 1 or 3)");
        scalar = parseScalar(source.readAll(0));
        levelStart = 1;
      }
      short[] levels = null;
      if (levelStart >= 0 && nb >= levelStart + 2) {
        LanceCodecException.check(source.bufferSize(levelStart) == 0, "constant page: repetition levels in a flat page");
        long defSize = source.bufferSize(levelStart + 1);
        if (defSize > 0) {
          byte[] raw = source.readAll(levelStart + 1);
          DataBlock block =
              layout.hasDefCompression()
                  ? ctx.block(layout.getDefCompression()).decompress(raw, numRows)
                  : new DataBlock.FixedWidth(raw, 16, raw.length / 2);
          levels = Levels.shorts(block, numRows);
        }
      }
      if (scalar instanceof DataBlock.AllNull) {
        levels = null;
      }
      this.def = levels;
    }

    private static DataBlock parseScalar(byte[] b) {
      LanceCodecException.check(b.length >= 4, "constant page: scalar buffer of " + b.length + " bytes");
      int count = LittleEndian.getInt(b, 0);
      LanceCodecException.check(count == 1 || count == 2, "constant page: scalar with " + count + " buffers");
      LanceCodecException.check(b.length >= 4 + 4L * count, "constant page: scalar header truncated");
      int pos = 4 + 4 * count;
      int[] lens = new int[count];
      for (int i = 0; i < count; i++) {
        lens[i] = LittleEndian.getInt(b, 4 + 4 * i);
        LanceCodecException.check(lens[i] >= 0 && lens[i] <= b.length - pos, "constant page: scalar buffer length " + lens[i]);
        pos += lens[i];
      }
      if (count == 1) {
        byte[] v = Arrays.copyOfRange(b, 4 + 4, 8 + lens[0]);
        LanceCodecException.check(v.length > 0, "constant page: empty fixed-width scalar");
        return new DataBlock.FixedWidth(v, v.length * 8, 1);
      }
      int w = lens[0] / 2;
      LanceCodecException.check(w == 4 || w == 8, "constant page: scalar offsets of " + lens[0] + " bytes");
      byte[] offs = Arrays.copyOfRange(b, 12, 12 + lens[0]);
      long s = LittleEndian.getUnsigned(offs, 0, w);
      long e = LittleEndian.getUnsigned(offs, w, w);
      LanceCodecException.check(s <= e && e <= lens[1], "constant page: scalar offsets out of range");
      byte[] data = Arrays.copyOfRange(b, 12 + lens[0] + (int) s, 12 + lens[0] + (int) e);
      byte[] rebased = new byte[2 * w];
      LittleEndian.putUnsigned(rebased, w, w, data.length);
      return new DataBlock.VariableWidth(rebased, w * 8, data, 1);
    }

    @Override
    public long numRows() {
      return numRows;
    }

    @Override
    public long searchCacheBytes() {
      return layout.getSerializedSize() + (def == null ? 0 : 2L * def.length);
    }

    @Override
    public String describe() {
      return scalar instanceof DataBlock.AllNull ? "constant (all null)" : "constant";
    }

    @Override
    public DecodedPage read(long[] ranges) {
      long total = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        total += ranges[i + 1] - ranges[i];
      }
      int n = LanceCodecException.checkedInt(total, "constant rows");
      if (scalar instanceof DataBlock.AllNull) {
        short[] all = new short[n];
        Arrays.fill(all, (short) 1);
        return new DecodedPage(new DataBlock.AllNull(n), null, all, n);
      }
      short[] levels = null;
      if (def != null) {
        levels = new short[n];
        int pos = 0;
        for (int i = 0; i < ranges.length; i += 2) {
          int len = (int) (ranges[i + 1] - ranges[i]);
          System.arraycopy(def, (int) ranges[i], levels, pos, len);
          pos += len;
        }
      }
      return new DecodedPage(repeat(n), null, levels, n);
    }

    private DataBlock repeat(int n) {
      if (scalar instanceof DataBlock.FixedWidth fw) {
        int w = fw.data().length;
        byte[] out = new byte[LanceCodecException.checkedInt((long) n * w, "constant expansion")];
        for (int i = 0; i < n; i++) {
          System.arraycopy(fw.data(), 0, out, i * w, w);
        }
        return new DataBlock.FixedWidth(out, w * 8, n);
      }
      DataBlock.VariableWidth vw = (DataBlock.VariableWidth) scalar;
      int w = vw.bitsPerOffset() / 8;
      int len = vw.data().length;
      byte[] data = new byte[LanceCodecException.checkedInt((long) n * len, "constant expansion")];
      byte[] offs = new byte[(n + 1) * w];
      for (int i = 0; i < n; i++) {
        System.arraycopy(vw.data(), 0, data, i * len, len);
        LittleEndian.putUnsigned(offs, (i + 1) * w, w, (long) (i + 1) * len);
      }
      return new DataBlock.VariableWidth(offs, w * 8, data, n);
    }
  }
}
