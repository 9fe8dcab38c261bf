package io.lancecodec.layout.legacy;

import io.lancecodec.format.pb.v21.CompressiveEncoding;
import io.lancecodec.format.pb.v21.FullZipLayout;
import io.lancecodec.format.pb.v21.PageLayout;
import io.lancecodec.spi.DataBlock;
import io.lancecodec.spi.DecodedPage;
import io.lancecodec.spi.Encoded;
import io.lancecodec.spi.EncodedPage;
import io.lancecodec.spi.LanceCodecException;
import io.lancecodec.spi.LayoutContext;
import io.lancecodec.spi.LittleEndian;
import io.lancecodec.spi.PageDecoder;
import io.lancecodec.spi.PageInput;
import io.lancecodec.spi.PageSource;
import io.lancecodec.spi.PerValueDecompressor;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The full-zip layout for wide values: each item is its control word (the def level, when the
 * page has levels), then for variable-width values a u32/u64 length and the bytes (nulls carry
 * the control word only), for fixed-width values the value bytes (nulls included). Variable
 * pages add buffer 1, the byte offset of every item plus the end, in the narrowest of 1/2/4/8
 * bytes that holds an upper bound of buffer 0's size.
 */
final class FullZipPage {
  private FullZipPage() {}

  static EncodedPage encode(PageInput page, LayoutContext ctx) {
    Encoded<DataBlock> enc = ctx.perValueFor(page.values(), page.options()).compress(page.values());
    short[] def = page.defLevels();
    int n = (int) page.numRows();
    int ctrl = def == null ? 0 : 1;
    FullZipLayout.Builder layout =
        FullZipLayout.newBuilder()
            .setBitsRep(0)
            .setBitsDef(def == null ? 0 : 1)
            .setNumItems(n)
            .setNumVisibleItems(n)
            .setValueCompression((CompressiveEncoding) enc.encoding())
            .addAllLayers(Levels.toProto(page.layers()));
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    if (enc.data() instanceof DataBlock.FixedWidth fw) {
      int w = fw.bitsPerValue() / 8;
      if (fw.bitsPerValue() % 8 != 0) {
        throw LanceCodecException.unsupported("full-zip needs byte-aligned values, got " + fw.bitsPerValue() + " bits");
      }
      layout.setBitsPerValue(fw.bitsPerValue());
      if (def == null) {
        data.write(fw.data(), 0, n * w);
      } else {
        byte[] row = new byte[1 + w];
        for (int i = 0; i < n; i++) {
          row[0] = (byte) def[i];
          System.arraycopy(fw.data(), i * w, row, 1, w);
          data.write(row, 0, row.length);
        }
      }
      return new EncodedPage(List.of(data.toByteArray()), wrap(layout), n);
    }
    DataBlock.VariableWidth vw = (DataBlock.VariableWidth) enc.data();
    int lw = vw.bitsPerOffset() / 8;
    layout.setBitsPerOffset(vw.bitsPerOffset());
    long estimate = (vw.offset(n) - vw.offset(0)) + (long) ctrl * n + (long) lw * n;
    int iw = estimate < 1L << 8 ? 1 : estimate < 1L << 16 ? 2 : estimate < 1L << 32 ? 4 : 8;
    byte[] index = new byte[(n + 1) * iw];
    byte[] len = new byte[lw];
    long pos = 0;
    for (int i = 0; i < n; i++) {
      LittleEndian.putUnsigned(index, i * iw, iw, pos);
      if (ctrl == 1) {
        data.write(def[i]);
        pos++;
        if (def[i] != 0) {
          continue;
        }
      }
      long start = vw.offset(i);
      long l = vw.offset(i + 1) - start;
      LittleEndian.putUnsigned(len, 0, lw, l);
      data.write(len, 0, lw);
      data.write(vw.data(), (int) start, (int) l);
      pos += lw + l;
    }
    LittleEndian.putUnsigned(index, n * iw, iw, pos);
    return new EncodedPage(List.of(data.toByteArray(), index), wrap(layout), n);
  }

  private static PageLayout wrap(FullZipLayout.Builder layout) {
    return PageLayout.newBuilder().setFullZipLayout(layout).build();
  }

  /** Reads a flat full-zip page; ranges of fixed-width rows map to byte ranges directly. */
  static final class Decoder implements PageDecoder {
    private final FullZipLayout layout;
    private final PageSource source;
    private final long numRows;
    private final PerValueDecompressor values;
    private final int ctrl;
    private final boolean variable;
    private final int width;
    private final int indexWidth;

    Decoder(FullZipLayout layout, PageSource source, long numRows, LayoutContext ctx) {
      this.layout = layout;
      this.source = source;
      this.numRows = numRows;
      Levels.checkFlat(layout.getLayersList());
      if (!(layout.getBitsRep() == 0)) {
        throw LanceCodecException.corrupt("full-zip: repetition bits in a flat page");
      }
      if (!(layout.getNumItems() == numRows && layout.getNumVisibleItems() == numRows)) {
        throw LanceCodecException.corrupt("full-zip: num_items " + layout.getNumItems() + " differs from page rows " + numRows);
      }
      int bitsDef = layout.getBitsDef();
      if (!(bitsDef <= 16)) {
        throw LanceCodecException.corrupt("full-zip: bits_def " + bitsDef + " exceeds 16");
      }
      this.ctrl = bitsDef == 0 ? 0 : bitsDef <= 8 ? 1 : 2;
      if (!(layout.hasValueCompression())) {
        throw LanceCodecException.corrupt("full-zip: value_compression missing");
      }
      this.values = ctx.perValue(layout.getValueCompression());
      if (!(source.numBuffers() >= 1)) {
        throw LanceCodecException.corrupt("full-zip: page has no buffers");
      }
      switch (layout.getDetailsCase()) {
        case BITS_PER_VALUE:
          {
            variable = false;
            int bits = layout.getBitsPerValue();
            if (!(bits > 0 && bits % 8 == 0 && bits <= 1 << 20)) {
              throw LanceCodecException.corrupt("full-zip: bits_per_value " + bits + " is not a positive multiple of 8");
            }
            width = bits / 8;
            long need = (ctrl + width) * numRows;
            if (!(source.bufferSize(0) >= need)) {
              throw LanceCodecException.corrupt("full-zip: buffer 0 has " + source.bufferSize(0) + " bytes, " + numRows + " rows need " + need);
            }
            indexWidth = 0;
            break;
          }
        case BITS_PER_OFFSET:
          {
            variable = true;
            int bits = layout.getBitsPerOffset();
            if (!(bits == 32 || bits == 64)) {
              throw LanceCodecException.corrupt("full-zip: bits_per_offset " + bits + " is not 32 or 64");
            }
            width = bits / 8;
            if (!(source.numBuffers() >= 2)) {
              throw LanceCodecException.corrupt("full-zip: variable page lacks its repetition index");
            }
            long size = source.bufferSize(1);
            long w = size / (numRows + 1);
            if (!(w * (numRows + 1) == size && (w == 1 || w == 2 || w == 4 || w == 8))) {
              throw LanceCodecException.corrupt("full-zip: repetition index of " + size + " bytes does not hold " + (numRows + 1) + " entries of 1/2/4/8 bytes");
            }
            indexWidth = (int) w;
            break;
          }
        default:
          throw LanceCodecException.corrupt("full-zip: neither bits_per_value nor bits_per_offset set");
      }
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
    public String describe() {
      return "full-zip, values: " + Describe.encoding(layout.getValueCompression());
    }

    @Override
    public DecodedPage read(long[] ranges) {
      long total = 0;
      for (int i = 0; i < ranges.length; i += 2) {
        total += ranges[i + 1] - ranges[i];
      }
      BlockAppender out = new BlockAppender(total);
      for (int i = 0; i < ranges.length; i += 2) {
        long a = ranges[i];
        long b = ranges[i + 1];
        if (variable) {
          readVariable(a, b, out);
        } else {
          readFixed(a, b, out);
        }
      }
      return new DecodedPage(out.block(), null, out.levels(), out.count());
    }

    private void readFixed(long a, long b, BlockAppender out) {
      int stride = ctrl + width;
      int n = (int) (b - a);
      byte[] raw = source.read(0, a * stride, LanceCodecException.checkedInt((long) n * stride, "full-zip read"));
      short[] def = null;
      byte[] vals = raw;
      if (ctrl > 0) {
        def = new short[n];
        vals = new byte[n * width];
        for (int i = 0; i < n; i++) {
          def[i] = (short) LittleEndian.getUnsigned(raw, i * stride, ctrl);
          System.arraycopy(raw, i * stride + ctrl, vals, i * width, width);
        }
      }
      DataBlock block = values.decompress(new DataBlock.FixedWidth(vals, width * 8, n));
      out.append(block, 0, n, def);
    }

    private void readVariable(long a, long b, BlockAppender out) {
      byte[] idx = source.read(1, a * indexWidth, LanceCodecException.checkedInt((b - a + 1) * indexWidth, "index read"));
      long start = LittleEndian.getUnsigned(idx, 0, indexWidth);
      long end = LittleEndian.getUnsigned(idx, (int) (b - a) * indexWidth, indexWidth);
      if (!(start <= end && end <= source.bufferSize(0))) {
        throw LanceCodecException.corrupt("full-zip: rows [" + a + ", " + b + ") map to bytes [" + start + ", " + end + ") outside buffer 0");
      }
      byte[] raw = source.read(0, start, LanceCodecException.checkedInt(end - start, "full-zip read"));
      int n = (int) (b - a);
      short[] def = ctrl > 0 ? new short[n] : null;
      byte[] offsets = new byte[(n + 1) * width];
      byte[] data = new byte[raw.length];
      int pos = 0;
      long dataLen = 0;
      for (int i = 0; i < n; i++) {
        int level = 0;
        if (ctrl > 0) {
          if (!(pos + ctrl <= raw.length)) {
            throw LanceCodecException.corrupt("full-zip: item " + (a + i) + " runs past its row range");
          }
          level = (int) LittleEndian.getUnsigned(raw, pos, ctrl);
          def[i] = (short) level;
          pos += ctrl;
        }
        if (level == 0) {
          if (!(pos + width <= raw.length)) {
            throw LanceCodecException.corrupt("full-zip: item " + (a + i) + " length runs past its row range");
          }
          long len = LittleEndian.getUnsigned(raw, pos, width);
          pos += width;
          if (!(len >= 0 && len <= raw.length - pos)) {
            throw LanceCodecException.corrupt("full-zip: item " + (a + i) + " length " + len + " runs past its row range");
          }
          System.arraycopy(raw, pos, data, (int) dataLen, (int) len);
          pos += (int) len;
          dataLen += len;
        }
        LittleEndian.putUnsigned(offsets, (i + 1) * width, width, dataLen);
      }
      DataBlock block = values.decompress(new DataBlock.VariableWidth(offsets, width * 8, data, n));
      out.append(block, 0, n, def);
    }
  }
}
