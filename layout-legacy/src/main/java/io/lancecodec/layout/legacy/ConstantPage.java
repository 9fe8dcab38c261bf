package io.lancecodec.layout.legacy;

import com.google.protobuf.ByteString;
import io.lancecodec.format.pb.v21.ConstantLayout;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.format.pb.v21.RepDefLayer;
import io.lancecodec.layout.physical.LevelSink;
import io.lancecodec.layout.physical.Levels;
import io.lancecodec.layout.physical.PageValues;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.layout.DecodedPage;
import io.lancecodec.spi.layout.EncodedPage;
import io.lancecodec.spi.layout.LayoutContext;
import io.lancecodec.spi.layout.PageDecoder;
import io.lancecodec.spi.layout.PageInput;
import io.lancecodec.spi.layout.PageSource;
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

  /**
   * A nested page without values (every item null, or only empty and null lists): the levels
   * alone, raw u16 in 2.1, block-compressed with their counts in 2.2.
   */
  static EncodedPage complexAllNull(PageInput page, io.lancecodec.spi.layout.LayoutContext ctx) {
    ConstantLayout.Builder layout = ConstantLayout.newBuilder().addAllLayers(V21Grammar.toProto(page.layers()));
    boolean compress = ctx.version().atLeast(io.lancecodec.spi.FileVersion.V2_2);
    java.util.ArrayList<byte[]> buffers = new java.util.ArrayList<>();
    short[][] streams = {page.repLevels(), page.defLevels()};
    for (int i = 0; i < 2; i++) {
      short[] l = streams[i];
      if (l == null || l.length == 0) {
        buffers.add(new byte[0]);
        continue;
      }
      DataBlock.FixedWidth block = Levels.block(l, 0, l.length);
      if (!compress) {
        buffers.add(block.data());
        continue;
      }
      io.lancecodec.spi.Encoded<byte[]> enc = ctx.levelsFor(block).compress(block);
      buffers.add(enc.data());
      io.lancecodec.format.pb.v21.CompressiveEncoding e = (io.lancecodec.format.pb.v21.CompressiveEncoding) enc.encoding();
      if (i == 0) {
        layout.setRepCompression(e).setNumRepValues(l.length);
      } else {
        layout.setDefCompression(e).setNumDefValues(l.length);
      }
    }
    return new EncodedPage(buffers, PageLayout.newBuilder().setConstantLayout(layout).build(), page.numRows());
  }

  /** The scalar if every valid value of a flat page equals it (at least one valid), else null. */
  static byte[] constantValue(PageInput page) {
    return PageValues.constantValue(page.values(), page.defLevels());
  }


  static EncodedPage encode(PageInput page, byte[] scalar) {
    ConstantLayout.Builder layout = ConstantLayout.newBuilder().addAllLayers(V21Grammar.toProto(page.layers()));
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
    // levels raw u16, rep then def, an absent stream as an empty buffer (2.2 compresses the
    // levels of value-less pages, not these)
    if (page.repLevels() != null || page.defLevels() != null) {
      for (short[] l : new short[][] {page.repLevels(), page.defLevels()}) {
        buffers.add(l == null ? new byte[0] : Levels.block(l, 0, l.length).data());
      }
    }
    return new EncodedPage(buffers, PageLayout.newBuilder().setConstantLayout(layout).build(), page.numRows());
  }

  /**
   * Expands the scalar (or nulls) for the requested rows. Levels come from the rep/def buffers;
   * with lists, the rows are cut where the rep level is highest and only visible items get a
   * value.
   */
  static final class Decoder implements PageDecoder {
    private final ConstantLayout layout;
    private final long numRows;
    private final DataBlock scalar; // one value, or AllNull
    // The levels are checked at open, then kept in the page cache (reloaded after eviction).
    private final boolean hasLevels;
    private final PageSource source;
    private final LayoutContext ctx;
    private final int levelStart;
    private final Object levelsKey = new Object();
    private final java.util.List<io.lancecodec.spi.layout.LevelLayer> layers;
    private final boolean nested;
    private final int maxVisible;

    Decoder(ConstantLayout layout, PageSource source, long numRows, LayoutContext ctx) {
      this.layout = layout;
      this.numRows = numRows;
      LanceCodecException.check(layout.getLayersCount() > 0, "constant page without layers");
      this.layers = V21Grammar.fromProto(layout.getLayersList());
      this.nested = Levels.nested(layers);
      this.maxVisible = Levels.maxVisibleDef(layers);
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
      } else if (nb == 2) {
        // no value, only levels: a nested page whose items are all null or absent
        scalar = new DataBlock.AllNull(1);
        levelStart = 0;
      } else {
        LanceCodecException.check(nb == 1 || nb == 3, "constant page: " + nb + " buffers without inline value (expected 0, 1, 2 or 3)");
        scalar = parseScalar(source.readAll(0));
        levelStart = 1;
      }
      this.source = source;
      this.ctx = ctx;
      this.levelStart = levelStart;
      this.hasLevels = levelStart >= 0 && nb >= levelStart + 2;
      PageLevels lv = loadLevels();
      if (lv.rep != null || lv.def != null) {
        ctx.cache().get(levelsKey, () -> lv, PageLevels::bytes);
      }
    }

    /** The page's rep/def levels and row starts, in memory only while the page cache keeps them. */
    private record PageLevels(short[] rep, short[] def, int[] rowStart) {
      long bytes() {
        return (rep == null ? 0 : 2L * rep.length) + (def == null ? 0 : 2L * def.length) + (rowStart == null ? 0 : 4L * rowStart.length);
      }
    }

    private static final PageLevels NO_LEVELS = new PageLevels(null, null, null);

    private PageLevels levels() {
      return hasLevels ? ctx.cache().get(levelsKey, this::loadLevels, PageLevels::bytes) : NO_LEVELS;
    }

    private PageLevels loadLevels() {
      short[] r = null;
      short[] d = null;
      if (hasLevels) {
        r = levels(source, levelStart, layout.hasRepCompression() ? layout.getRepCompression() : null, layout.getNumRepValues(), ctx, "rep");
        d = levels(source, levelStart + 1, layout.hasDefCompression() ? layout.getDefCompression() : null, layout.getNumDefValues(), ctx, "def");
      }
      int[] rowStart;
      int maxRep = Levels.maxRep(layers);
      LanceCodecException.check((r != null) == (maxRep > 0),
          "constant page: repetition levels " + (r != null ? "present" : "absent") + " for layers " + layers);
      if (r != null) {
        LanceCodecException.check(d == null || d.length == r.length, "constant page: rep and def level counts differ");
        LanceCodecException.check(r.length >= numRows, "constant page: " + r.length + " levels for " + numRows + " rows");
        int[] starts = new int[LanceCodecException.checkedInt(numRows + 1, "constant page rows")];
        int k = 0;
        for (int i = 0; i < r.length; i++) {
          if (r[i] == maxRep) {
            LanceCodecException.check(k < numRows, "constant page: more row starts than its " + numRows + " rows");
            starts[k++] = i;
          }
        }
        LanceCodecException.check(k == numRows && (numRows == 0 || starts[0] == 0), "constant page: " + k + " row starts for " + numRows + " rows");
        starts[k] = r.length;
        rowStart = starts;
      } else {
        LanceCodecException.check(d == null || d.length == numRows, "constant page: " + (d == null ? 0 : d.length) + " def levels for " + numRows + " rows");
        rowStart = null;
      }
      return r == null && d == null ? NO_LEVELS : new PageLevels(r, d, rowStart);
    }

    /** One level buffer: absent when empty, raw u16 unless a compression is named. */
    private static short[] levels(PageSource source, int buffer, io.lancecodec.format.pb.v21.CompressiveEncoding enc, long count,
        LayoutContext ctx, String what) {
      long size = source.bufferSize(buffer);
      if (size == 0) {
        return null;
      }
      byte[] raw = source.readAll(buffer);
      if (enc == null) {
        LanceCodecException.check(size % 2 == 0, "constant page: " + what + " levels of " + size + " bytes are not u16");
        return Levels.shorts(new DataBlock.FixedWidth(raw, 16, size / 2), size / 2);
      }
      // compressed levels may expand a lot (runs), but not beyond what a u16 run per byte allows
      LanceCodecException.check(count > 0 && count <= 65536L * (size + 64) && count <= Integer.MAX_VALUE - 16,
          "constant page: " + count + " " + what + " levels in " + size + " bytes");
      return Levels.shorts(ctx.block(enc).decompress(raw, count), count);
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
      return layout.getSerializedSize();
    }

    @Override
    public DecodedPage read(long[] ranges) {
      long total = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        total += ranges[i + 1] - ranges[i];
      }
      int n = LanceCodecException.checkedInt(total, "constant rows");
      PageLevels lv = levels();
      short[] rep = lv.rep();
      short[] def = lv.def();
      int[] rowStart = lv.rowStart();
      if (scalar instanceof DataBlock.AllNull && def == null && rep == null) {
        short[] all = new short[n];
        Arrays.fill(all, (short) 1);
        return new DecodedPage(new DataBlock.AllNull(n), null, all, n);
      }
      if (rep == null && def == null) {
        return new DecodedPage(repeat(n), null, null, n, nested ? layers : null);
      }
      LevelSink sink = new LevelSink(rep != null, def != null);
      long visible = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        int l0 = rowStart == null ? (int) ranges[i] : rowStart[(int) ranges[i]];
        int l1 = rowStart == null ? (int) ranges[i + 1] : rowStart[(int) ranges[i + 1]];
        sink.append(rep, def, l0, l1);
        visible += rep == null ? l1 - l0 : Levels.visible(def, l0, l1, maxVisible);
      }
      int v = (int) visible;
      DataBlock values = scalar instanceof DataBlock.AllNull ? new DataBlock.AllNull(v) : repeat(v);
      return new DecodedPage(values, sink.rep(), sink.def(), n, nested ? layers : null);
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
